"""cogwork new: scaffold a pack that lints clean and plays, with its files wired to the JSON Schemas."""

from __future__ import annotations

import argparse
from pathlib import Path

from engine.authoring.safe_write import UnsafeWriteError
from engine.authoring.scaffold import PACK_ID, new_pack
from engine.commands.common import EXIT_OK, UsageError

NAME = "new"
HELP = "create a new pack from a starter template"
DESCRIPTION = ("Create DIR/NAME with pack.yaml, a playable starter game.yaml and a README; every YAML file points"
               " its `$schema` line at the nearest schemas/ folder (written to DIR/schemas if there is none).")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("kind", choices=["pack"], help="what to create")
    p.add_argument("name", help="the pack id, kebab-case (e.g. my-game)")
    p.add_argument("--dir", default=".", help="folder to create it in (default: the current folder)")
    p.add_argument("--force", action="store_true",
                   help="overwrite the pack's files (and schema files) that exist; links are never written through")


def run(args: argparse.Namespace) -> int:
    if not PACK_ID.match(args.name):
        raise UsageError(f"'{args.name}' is not a valid pack id: use lowercase words joined by '-' (e.g. my-game)")
    try:
        root, schemas = new_pack(args.name, Path(args.dir), force=args.force)
    except (UnsafeWriteError, OSError) as exc:
        raise UsageError(str(exc)) from exc
    for path in schemas:
        print(f"wrote {path}")
    print(f"created {root}: pack.yaml, game.yaml, README.md")
    print(f"next: cogwork play {root} --players 2")
    return EXIT_OK
