"""CPU time of one bot decision, at fixed positions: what a greedy or MCTS seat costs per answer.

    python tools/bench/bots.py [--spec greedy --spec mcts:iterations=50,depth=20] [--positions 10,40,90]

For each pack (Robot Factory, 2 players; Raising Robots, 4) and bot spec, plays a random game (seed 7)
to each position (that many answers), makes the bot for the seat to move and times `choose` there in
process CPU time (other programs on the machine do not inflate it), and prints the mean per decision:
`PACK Np SPEC: X.X ms per decision`. Greedy decisions are timed `--repeat` times (they are short). No
assertion: numbers to quote and compare between commits (to time an older commit, copy this file into
its checkout, e.g. `git archive OLD engine content schemas grammar | tar -x -C /tmp/old`, and run the copy
from /tmp/old/tools/bench/: it imports the engine next to it).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from engine.compile.loading import load_pack  # noqa: E402
from engine.play.agents import RandomAgent  # noqa: E402
from engine.play.bots import BotSpec  # noqa: E402
from engine.play.match import Match  # noqa: E402

try:   # (absent before session 5: the bench also runs on an older checkout, to compare)
    from engine.play.match import SEARCHED_CHECKPOINT_EVERY
    SEARCHED: dict[str, int] = {"checkpoint_every": SEARCHED_CHECKPOINT_EVERY}
except ImportError:
    SEARCHED = {}

PACKS = [("robot-factory", 2), ("raising-robots", 4)]
SPECS = ["greedy", "mcts:iterations=50,depth=20"]


def decision_ms(pack_name: str, players: int, spec: BotSpec, positions: list[int], repeat: int) -> float:
    pack = load_pack(pack_name)
    total, count = 0.0, 0
    for answers in positions:
        match = Match(pack, players, 7, forkable=True, **SEARCHED)
        match.run([RandomAgent(7, seat) for seat in range(players)], stop_after=answers)
        if match.decision is None:
            continue
        for _ in range(repeat):
            bot = spec.make(7, match.decision.seat)
            bind = getattr(bot, "bind", None)
            if callable(bind):
                bind(match)
            start = time.process_time()
            bot.choose({}, match.decision)
            total += time.process_time() - start
            count += 1
    return 1000 * total / max(count, 1)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--spec", action="append", help=f"bot spec (repeatable; default {SPECS})")
    p.add_argument("--positions", default="10,40,90", help="answers played before each timed decision")
    p.add_argument("--repeat", type=int, default=20, help="times each greedy decision is timed (default 20)")
    args = p.parse_args()
    positions = [int(n) for n in args.positions.split(",")]
    for name, players in PACKS:
        for text in args.spec or SPECS:
            spec = BotSpec.parse(text)
            repeat = args.repeat if spec.kind == "greedy" else 1
            ms = decision_ms(name, players, spec, positions, repeat)
            print(f"{name} {players}p {spec}: {ms:.1f} ms per decision", flush=True)


if __name__ == "__main__":
    main()
