"""The Python the compiler makes of a pack's DSL, as source text: to read what a game really runs.

    python tools/show_generated.py GAME [NAME ...] [--players N] [--seed S]

Plays one seeded game of GAME (a pack id or folder) with random bots, reads its outcome (scores, winners),
and prints every generated function built on the way (code is generated lazily, at a function's first
call: engine/compile/codegen.py),
or only those whose name is among NAMEs, e.g. `flow.quiet` (the flow a played-through game nobody watches
runs; a flow step's `call` of a procedure without arguments is in it, engine/compile/inline_calls.py, so that
procedure's own function may not be built), `procedures.move`, `scoring.score`. Exit code 0, or 2 when the
pack does not load or a NAME was never built.

For speed work: the profile (`tools/bench/classics.py --profile GAME`) says which generated function the
time goes to, this says what it does. The source is `ast.unparse` of the checked tree, so it is what
`compile()` was given, not text the compiler ever runs.
"""

from __future__ import annotations

import argparse
import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT)]

from engine.compile import codegen  # noqa: E402
from engine.compile.loading import load_pack  # noqa: E402
from engine.errors import CogworkError  # noqa: E402
from engine.play.agents import RandomAgent  # noqa: E402
from engine.play.match import Match  # noqa: E402


def generated_sources(pack_name: str, players: int, seed: int) -> dict[str, str]:
    """Every function generated while one seeded random game of the pack is played: name -> source."""
    sources: dict[str, str] = {}
    build = codegen._Pending.build

    def build_and_keep(pending: codegen._Pending) -> None:
        token = codegen._GENERATING.set(True)
        try:   # the same tree `build` makes (it makes its own, from the same `make_body`)
            module = pending.unit.module(pending.fn.__name__, pending.make_body(), pending.procedure)
        finally:
            codegen._GENERATING.reset(token)
        sources[pending.fn.__name__] = ast.unparse(ast.fix_missing_locations(module))
        build(pending)

    pack = load_pack(pack_name)
    codegen._Pending.build = build_and_keep   # type: ignore[method-assign]
    try:
        match = Match.played(pack, players, seed, [RandomAgent(seed, seat) for seat in range(players)])
        match.outcome()   # (the scores and winners, as `simulate` and the benches read them)
    finally:
        codegen._Pending.build = build   # type: ignore[method-assign]
    return sources


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", help="a pack id (content/GAME) or a pack folder")
    parser.add_argument("names", nargs="*", metavar="NAME", help="only these generated functions")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    try:
        sources = generated_sources(args.game, args.players, args.seed)
    except CogworkError as exc:
        print(exc, file=sys.stderr)
        return 2
    missing = [name for name in args.names if name not in sources]
    if missing:
        print(f"error: not built in this game: {', '.join(missing)} (built: {', '.join(sorted(sources))})",
              file=sys.stderr)
        return 2
    for name in args.names or sorted(sources):
        print(f"# {name}\n{sources[name]}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
