"""Instructions of one part of a bench game, counted by callgrind: deterministic where CPU time on the shared
machine is not.

    PYTHONHASHSEED=0 setarch -R valgrind --tool=callgrind --collect-atstart=no \\
        --toggle-collect=functools_reduce --callgrind-out-file=OUT \\
        $(python -c 'import sys; print(sys.executable)') tools/bench/game_instructions.py GAME [PART] [N] [--gc]

valgrind's "Collected" total divided by N is the count per game (or per part). Only what runs inside
`functools.reduce` is counted (the pack's load, 40 warm-up games and the imports are not): the engine never
calls `reduce`, so the toggle is this script's loop. The garbage collector is frozen and off for the counted
games (a collection landing in the window moved counts by up to 4%); with `--gc` it stays on (frozen first, so
it walks only what the counted games make), as in the bench and `simulate`: what their collections cost is
counted too (use N >= 100 then: a collection runs every few games). Use the interpreter's real path, not a
pyenv shim (valgrind would count the shell script).

PART: `game` (the bench's game: `Match.played` with `RandomAgent`s, `winners` and `Match.release`, as
tools/bench/classics.py times it), `hand` (the hand-written game in tools/baselines/), `agents` (the two
seeded `RandomAgent`s), `interpreter` (`Interpreter`: the state and tables), `state` (`new_state`),
`winners` (of finished games).
"""

from __future__ import annotations

import functools
import gc
import importlib
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "tools")]

from baselines.random_bots import random_chooser  # noqa: E402

from engine.compile.loading import load_pack  # noqa: E402
from engine.play.agents import RandomAgent  # noqa: E402
from engine.play.match import Match  # noqa: E402
from engine.runtime.interpreter import Interpreter  # noqa: E402
from engine.runtime.scoring import winners  # noqa: E402
from engine.runtime.state import layout, new_state  # noqa: E402


def main() -> None:
    collecting = "--gc" in sys.argv
    args = [arg for arg in sys.argv if arg != "--gc"]
    name = args[1]
    part = args[2] if len(args) > 2 else "game"
    games = int(args[3]) if len(args) > 3 else 20
    pack = load_pack(name)
    plan = layout(pack, 2)

    def game(seed: int) -> tuple[list[int], int]:
        match = Match.played(pack, 2, seed, [RandomAgent(seed, seat) for seat in range(2)])
        result = winners(match.game), match.answered
        match.release()   # (as the bench and `simulate` do)
        return result

    for seed in range(1000, 1040):   # warm: code generated, layouts and tables made
        game(seed)
    finished = [Match.played(pack, 2, seed, [RandomAgent(seed, s) for s in range(2)]).game
                for seed in range(1, games + 1)] if part == "winners" else []
    baseline = importlib.import_module("baselines." + name.replace("-", "_")) if part == "hand" else None
    parts: dict[str, Callable[[int], Any]] = {
        "game": game,
        "hand": lambda seed: baseline.play(seed, random_chooser(seed)) if baseline else None,
        "agents": lambda seed: [RandomAgent(seed, seat) for seat in range(2)],
        "interpreter": lambda seed: Interpreter(pack, 2, seed),
        "state": lambda seed: new_state(pack, 2, seed, plan),
        "winners": lambda seed: winners(finished[seed - 1]),
    }
    run = parts[part]
    gc.collect()
    gc.freeze()
    if not collecting:
        gc.disable()
    functools.reduce(lambda _, seed: run(seed), range(1, games + 1), None)


if __name__ == "__main__":
    main()
