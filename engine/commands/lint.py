"""cogwork lint: every finding of one or more packs, for people, editors and CI."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from engine.commands.common import EXIT_BROKEN, EXIT_FINDINGS, EXIT_OK, UsageError
from engine.lint.run import (
    DEFAULT_GAMES,
    FORMATS,
    LintResult,
    LintUsageError,
    check_codes,
    exit_status,
    lint_target,
    select,
    targets,
)

NAME = "lint"
HELP = "check packs: YAML, schemas, names, DSL types and semantics"
DESCRIPTION = ("Report every problem in the given packs (folders, a folder of packs, or files inside a pack:"
               " then only those files' findings). Codes are explained in docs/diagnostics.md."
               " Exit 0 clean, 1 errors found (warnings too with --strict), 2 usage error or unreadable input.")
EXITS = {"clean": EXIT_OK, "findings": EXIT_FINDINGS, "unreadable": EXIT_BROKEN}


def _codes(text: str) -> list[str]:
    return [c.strip().upper() for c in text.split(",") if c.strip()]


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("paths", nargs="+", metavar="PATH", help="pack folder, folder of packs, or a file in a pack")
    p.add_argument("--format", choices=list(FORMATS), default="text", help="output format (default text)")
    p.add_argument("--strict", action="store_true", help="count warnings as problems (exit 1)")
    p.add_argument("--select", type=_codes, action="extend", metavar="CODES",
                   help="report only these codes or code prefixes, comma-separated (e.g. REF,TYPE010)")
    p.add_argument("--ignore", type=_codes, action="extend", metavar="CODES",
                   help="do not report these codes or code prefixes, comma-separated")
    p.add_argument("--games", type=int, default=DEFAULT_GAMES, metavar="N",
                   help=f"random games per player count for DECK001/RUN001 (default {DEFAULT_GAMES}; 0: none)")


def run(args: argparse.Namespace) -> int:
    try:
        check_codes([*(args.select or ()), *(args.ignore or ())])
        found = targets([Path(p) for p in args.paths])
    except LintUsageError as exc:
        raise UsageError(str(exc)) from exc
    if args.games < 0:
        raise UsageError(f"--games must be 0 or more, not {args.games}")
    results = select([lint_target(t, args.games) for t in found], args.select, args.ignore)
    text = FORMATS[args.format](results)
    if text:
        print(text)
    if args.format == "text":
        print(_summary(results), file=sys.stderr)
    return EXITS[exit_status(results, args.strict)]


def _summary(results: list[LintResult]) -> str:
    found = [d for r in results for d in r.diagnostics]
    errors = sum(d.severity == "error" for d in found)
    packs = f"{len(results)} pack{'s' if len(results) != 1 else ''} checked"
    return f"{packs}: {errors} error{'s' if errors != 1 else ''}, " \
           f"{len(found) - errors} warning{'s' if len(found) - errors != 1 else ''}"
