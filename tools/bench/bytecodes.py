"""Bytecodes a classic game runs, by Python function, or instruction by instruction in one function: exact and
load-free, where a sampling profile of a 100 µs game is noise and callgrind names only C functions.

    python tools/bench/bytecodes.py GAME [--games N] [--players P] [--top K] [--function NAME]

The games are `game_instructions.py`'s `game` part (`Match.played` with `RandomAgent`s, `winners`,
`Match.release`), after 40 warm-up games (code generated, layouts made), traced with `sys.settrace`'s opcode
events. Prints the bytecodes a game, then each function's share (its file and name; `<dsl>` for generated
code: `tools/show_generated.py` shows its source). `--function NAME` prints that function's instructions
(`dis`) with how many times a game each ran, instead: generated code's line numbers are its templates', so
the instruction is what says where its cost is. A bytecode is not an instruction of the machine (a dict
read costs many more than a local's), so weigh the two counts together. Exit code 0, or 2 when the pack does
not load, cannot be played by P players, or NAME never ran.
"""

from __future__ import annotations

import argparse
import dis
import sys
from collections import Counter
from pathlib import Path
from types import CodeType, FrameType
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT)]

from engine.compile.loading import load_pack  # noqa: E402
from engine.errors import CogworkError  # noqa: E402
from engine.play.agents import RandomAgent  # noqa: E402
from engine.play.match import Match  # noqa: E402
from engine.runtime.defs import Pack  # noqa: E402
from engine.runtime.scoring import winners  # noqa: E402

Key = tuple[str, str]   # (file name, function name)


def play(pack: Pack, players: int, seed: int) -> None:
    match = Match.played(pack, players, seed, [RandomAgent(seed, seat) for seat in range(players)])
    winners(match.game)
    match.release()


def count(pack: Pack, players: int, games: int, function: str | None = None) -> tuple[Counter[Any], CodeType | None]:
    """Bytecodes run over `games` seeded games: by (file, function), or by instruction offset in `function`
    (then also its code object, None if it never ran)."""
    for seed in range(1000, 1040):
        play(pack, players, seed)
    counts: Counter[Any] = Counter()
    found: list[CodeType] = []

    def by_function(frame: FrameType, event: str, _arg: Any) -> Any:
        frame.f_trace_opcodes = True
        if event == "opcode":
            code = frame.f_code
            counts[(Path(code.co_filename).name, code.co_name)] += 1
        return by_function

    def by_offset(frame: FrameType, event: str, _arg: Any) -> Any:
        if frame.f_code.co_name != function:
            return None
        frame.f_trace_opcodes, frame.f_trace_lines = True, False
        if event == "opcode":
            if not found:
                found.append(frame.f_code)
            counts[frame.f_lasti] += 1
        return by_offset

    sys.settrace(by_function if function is None else by_offset)
    try:
        for seed in range(1, games + 1):
            play(pack, players, seed)
    finally:
        sys.settrace(None)
    return counts, found[0] if found else None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", help="a pack id (content/GAME) or a pack folder")
    parser.add_argument("--games", type=int, default=20, help="games counted (default 20)")
    parser.add_argument("--players", type=int, default=2, help="seats (default 2)")
    parser.add_argument("--top", type=int, default=25, help="functions listed (default 25)")
    parser.add_argument("--function", metavar="NAME", help="that function's instructions instead (e.g. flow.quiet)")
    args = parser.parse_args(argv)
    if args.games < 1 or args.top < 1:
        parser.error("--games and --top must be 1 or more")
    try:
        counts, code = count(load_pack(args.game), args.players, args.games, args.function)
    except CogworkError as exc:     # (a pack that does not load, or a player count it does not play)
        print(exc, file=sys.stderr)
        return 2
    games = args.games
    if args.function is None:
        total = sum(counts.values())
        print(f"{args.game}: {total / games:,.0f} bytecodes a game ({games} games)")
        for (file, name), n in counts.most_common(args.top):
            print(f"{n / games:9,.0f} {100 * n / total:5.1f}%  {file}:{name}")
        return 0
    if code is None:
        print(f"error: {args.function} never ran in these games", file=sys.stderr)
        return 2
    print(f"{args.function}: {sum(counts.values()) / games:,.0f} bytecodes a game ({games} games); a game's runs "
          f"of each instruction")
    for ins in dis.get_instructions(code):
        print(f"{counts.get(ins.offset, 0) / games:8.1f} {ins.offset:5d} {ins.opname:24s} {ins.argrepr}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
