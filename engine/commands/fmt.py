"""cogwork fmt: rewrite pack YAML in canonical key order and indentation, comments kept."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterator
from pathlib import Path

from engine.authoring.formatter import FormatError, format_file
from engine.authoring.safe_write import UnsafeWriteError, write_file
from engine.commands.common import EXIT_BROKEN, EXIT_FINDINGS, EXIT_OK, UsageError

NAME = "fmt"
HELP = "format pack YAML files (key order, indentation), keeping comments"
DESCRIPTION = ("Rewrite pack, content and scenario files in canonical form: id and name first, then the keys in the"
               " order the schema lists them; comments, quotes and flow style are kept. Files that are not Cogwork"
               " YAML are skipped. With --check nothing is written and the exit code is 1 if a file would change.")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("paths", nargs="+", metavar="PATH", help="YAML files or folders (searched recursively)")
    p.add_argument("--check", action="store_true", help="only report files that would change (exit 1 if any)")


def yaml_files(paths: list[Path]) -> Iterator[Path]:
    """The given files, and every *.yaml / *.yml under the given folders (hidden ones skipped)."""
    for path in paths:
        if path.is_dir():
            for folder, dirs, names in os.walk(path):
                dirs[:] = sorted(d for d in dirs if not d.startswith("."))
                yield from (Path(folder, n) for n in sorted(names) if n.endswith((".yaml", ".yml")))
        elif path.is_file() or path.is_symlink():
            yield path
        else:
            raise UsageError(f"{path}: no such file or folder")


def run(args: argparse.Namespace) -> int:
    changed = broken = checked = 0
    for path in yaml_files([Path(p) for p in args.paths]):
        if path.is_symlink():       # it may lead outside the pack: never read or written through
            print(f"{path}: error: symbolic link: not formatted (format the file it points to)", file=sys.stderr)
            checked, broken = checked + 1, broken + 1
            continue
        try:
            found = format_file(path)
        except FormatError as exc:
            print(str(exc) if exc.diagnostics else f"{path}: error: {exc}", file=sys.stderr)
            checked, broken = checked + 1, broken + 1
            continue
        if found is None:
            continue
        checked += 1
        text, formatted = found
        if formatted != text:
            changed += 1
            if args.check:
                print(f"would reformat {path}")
            else:
                try:
                    write_file(path, formatted, overwrite=True)
                except (UnsafeWriteError, OSError) as exc:
                    print(f"{path}: error: {exc}", file=sys.stderr)
                    broken += 1
                    continue
                print(f"reformatted {path}")
    verb = "would be reformatted" if args.check else "reformatted"
    print(f"{checked} file{'s' if checked != 1 else ''} checked, {changed} {verb}", file=sys.stderr)
    if broken:
        return EXIT_BROKEN
    return EXIT_FINDINGS if args.check and changed else EXIT_OK
