"""cogwork scenario: rulebook examples as executable tests."""

from __future__ import annotations

import argparse
from pathlib import Path

NAME = "scenario"
HELP = "run scenario files (rules tests)"
DESCRIPTION = ("Run scenario YAML files (or folders of them); exit 1 if any expectation fails."
               " Format: docs/scenarios.md.")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("files", nargs="+", metavar="FILE", help="scenario files or folders")
    p.add_argument("--verbose", "-v", action="store_true", help="print every step")


def run(args: argparse.Namespace) -> int:
    from engine.play.scenario import run_scenario_files
    return run_scenario_files([Path(f) for f in args.files], verbose=args.verbose)
