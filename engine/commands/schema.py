"""cogwork schema: write the JSON Schemas, for editors and CI tools outside this checkout."""

from __future__ import annotations

import argparse
from pathlib import Path

from engine.authoring.safe_write import UnsafeWriteError
from engine.authoring.scaffold import write_schemas
from engine.commands.common import EXIT_OK, UsageError

NAME = "schema"
HELP = "write the JSON Schemas (Draft-07) of pack, content and scenario files"
DESCRIPTION = ("Write pack.schema.json, content.schema.json, defs.schema.json and scenario.schema.json into a"
               " folder; point a file's `# yaml-language-server: $schema=...` line (or your editor's settings)"
               " at them. See docs/editor.md.")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--out", default="schemas", metavar="DIR", help="folder to write them to (default: ./schemas)")


def run(args: argparse.Namespace) -> int:
    try:
        written = write_schemas(Path(args.out))
    except (UnsafeWriteError, OSError) as exc:
        raise UsageError(str(exc)) from exc
    for path in written:
        print(f"wrote {path}")
    return EXIT_OK
