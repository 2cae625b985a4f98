"""cogwork lint: every problem of one or more packs, for people, editors and CI."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from engine.commands.common import UsageError
from engine.lint import FORMATS, LintUsageError, exit_code, lint, pack_roots

NAME = "lint"
HELP = "check packs: YAML, schemas, DSL and names"
DESCRIPTION = ("Report every problem in the given packs (folders, a folder of packs, or files inside a pack)."
               " Exit 0 clean, 1 problems found, 2 usage error.")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("paths", nargs="+", metavar="PATH", help="pack folder, folder of packs, or a file in a pack")
    p.add_argument("--format", choices=sorted(FORMATS), default="text", help="output format (default text)")
    p.add_argument("--strict", action="store_true", help="count warnings as problems (exit 1)")


def run(args: argparse.Namespace) -> int:
    try:
        roots = pack_roots([Path(p) for p in args.paths])
    except LintUsageError as exc:
        raise UsageError(str(exc)) from exc
    results = [lint(root) for root in roots]
    text = FORMATS[args.format](results)
    if text:
        print(text)
    if args.format == "text":
        n = sum(len(r.diagnostics) for r in results)
        print(f"{len(roots)} pack{'s' if len(roots) != 1 else ''} checked, {n} problem{'s' if n != 1 else ''}",
              file=sys.stderr)
    return exit_code(results, args.strict)
