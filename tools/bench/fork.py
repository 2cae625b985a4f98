"""Fork and undo speed: a match at its middle decision, forked, against re-running its log from the start.

    python tools/bench/fork.py [--pack raising-robots] [--players 4] [--seed 1] [--repeat 30]

Plays one random game to learn its length, then rebuilds a forkable match at its middle decision
and times, interleaved so a busy machine skews both alike: `fork()` there, `undo(1)` from there on
a fork, and `Match.from_log` of the log so far (what a fork cost before checkpoints). Prints the
median of each and ends with `fork/replay: X.XXx` (lower is better; the goal is at most 0.10x).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import engine  # noqa: E402
from engine.play.log import GameLog  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pack", default="raising-robots")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=30)
    args = parser.parse_args()

    pack = engine.load_pack(args.pack)
    agents = [engine.RandomAgent(args.seed, seat) for seat in range(args.players)]
    whole = engine.new_match(pack, args.players, args.seed)
    engine.play_match(whole, agents)
    full = whole.to_log()
    answers = [d for d in full.decisions if not d.get("forced")]
    middle = len(answers) // 2
    prefix = GameLog(pack=full.pack, version=full.version, players=full.players, seed=full.seed,
                     options=full.options, decisions=answers[:middle])
    match = engine.new_match(pack, args.players, args.seed)
    match.replay(prefix.labels())
    expected = match.state_hash()

    forks, undos, replays = [], [], []
    for _ in range(args.repeat):
        start = time.perf_counter()
        copy = match.fork()
        forks.append(time.perf_counter() - start)
        assert copy.state_hash() == expected
        copy.apply(0)
        start = time.perf_counter()
        copy.undo(1)
        undos.append(time.perf_counter() - start)
        assert copy.state_hash() == expected
        start = time.perf_counter()
        again = engine.Match.from_log(pack, prefix, forkable=False, log_forced=False)
        replays.append(time.perf_counter() - start)
        assert again.state_hash() == expected

    fork, undo, replay = (statistics.median(t) for t in (forks, undos, replays))
    print(f"{args.pack}, {args.players} players, seed {args.seed}: middle decision {middle} of "
          f"{len(answers)}, {args.repeat} runs each (medians)")
    print(f"fork:   {fork * 1000:.3f} ms")
    print(f"undo 1: {undo * 1000:.3f} ms")
    print(f"replay: {replay * 1000:.3f} ms (Match.from_log of the first {middle} answers)")
    print(f"fork/replay: {fork / replay:.2f}x")


if __name__ == "__main__":
    main()
