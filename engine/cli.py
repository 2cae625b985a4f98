"""The `cogwork` command line: a registry of sub-command modules (engine/commands/).

Exit codes follow the usual convention: 0 success, 1 findings (a failed
replay, scenario or lint), 2 usage errors or broken input (a pack that does
not load, a rule that cannot be carried out). Broken input is reported as
diagnostics, never as a traceback.
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
from collections.abc import Sequence
from types import ModuleType

from engine import __version__
from engine.commands import explain, fmt, lint, lsp, new, play, replay, scenario, schema, serve, simulate
from engine.commands.common import EXIT_BROKEN, UsageError, keep_packs_out_of_collections
from engine.diagnostics import PackError
from engine.errors import MoveError, RuleError

COMMANDS: list[ModuleType] = [play, serve, replay, scenario, simulate, lint, fmt, schema, new, explain, lsp]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="cogwork", description="Data-driven rules interpreter for tabletop games.")
    parser.add_argument("--version", action="version", version=f"cogwork {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for module in COMMANDS:
        p = sub.add_parser(module.NAME, help=module.HELP, description=module.DESCRIPTION)
        module.add_arguments(p)
        p.set_defaults(func=module.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except PackError as exc:
        print(str(exc), file=sys.stderr)
        return EXIT_BROKEN
    except RuleError as exc:
        print(str(exc) if exc.where else f"cogwork: error: {exc}", file=sys.stderr)
        return EXIT_BROKEN
    except MoveError as exc:
        print(f"cogwork: error: {exc}", file=sys.stderr)
        return EXIT_BROKEN
    except (UsageError, OSError, json.JSONDecodeError) as exc:
        print(f"cogwork: error: {exc}", file=sys.stderr)
        return EXIT_BROKEN
    except EOFError:
        print("cogwork: error: input ended while a player was being asked for a decision", file=sys.stderr)
        return EXIT_BROKEN


def run() -> None:
    """Console-script entry point.

    The process ends right after the command: freezing every object keeps the garbage
    collector's final pass from walking all that a command made (a second after linting a big pack).
    """
    keep_packs_out_of_collections()   # (this process is the command's: the pack it loads is kept out of collections)
    code = main()
    gc.freeze()
    sys.exit(code)


if __name__ == "__main__":
    run()
