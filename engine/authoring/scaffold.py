"""Files for `cogwork new` and `cogwork schema`: a starter pack wired to the JSON Schemas.

The starter game is deliberately small but complete (counters, a deck, a
market row, cards with costs, rounds, scoring) so a new pack lints clean,
plays at once, and shows each section in use.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from engine import __version__
from engine.authoring.safe_write import UnsafeWriteError, check_writable, make_folder, write_file
from engine.resources import data_dir

PACK_ID = re.compile(r"^[a-z][a-z0-9]*(-[a-z0-9]+)*$")
SCHEMA_HEADER = "# yaml-language-server: $schema={path}\n"

_MANIFEST = """\
id: {id}
name: {name}
version: 0.1.0
engine: ">={major_minor},<{next_major}.0"
players: {{min: 2, max: 4}}
description: >
  A new Cogwork pack. Describe the game here.
"""

_GAME = """\
# A starter game: on your turn take 2 coins or buy a card from the market;
# after 5 rounds the most points wins. Replace it with your own game:
# docs/pack-format.md describes every section and the effect DSL.
counters:
  coin: {name: Coin, initial: 2, resource: true}
  round: {name: Round, scope: global}

zones:
  deck: {name: Deck, scope: global, visibility: hidden, refill_from: discard}
  discard: {name: Discard, scope: global}
  market: {name: Market, scope: global, draw_from: deck, keep_filled: 3}
  tableau: {name: Tableau}

component_types:
  card:
    name: Card
    zone: deck
    attrs:
      points: {type: int, default: 0}

components:
  card:
    - {id: pebble, name: Pebble, points: 1, copies: 8, costs: ["1 coin"]}
    - {id: gem, name: Gem, points: 3, copies: 5, costs: ["3 coin"]}

procedures:
  turn: |
    choose "your turn" {
      gain 2 coin
    | choose c in market where can_play(it, tableau) "buy a card" { play c to tableau }
    }

flow:
  - id: setup
    do: |
      shuffle deck
      draw 3 from deck to market
  - id: rounds
    repeat: {count: 5, counter: round}
    steps:
      - id: turns
        each_player:
          - {id: take_turn, do: "call turn"}

scoring:
  score: "sum(tableau, it.points) + coin / 3"
  breakdown: {Cards: "sum(tableau, it.points)", Coins: "coin / 3"}
"""

_README = """\
# {name}

A Cogwork pack. Try it:

    cogwork play {folder} --players 2
    cogwork lint {folder}
    cogwork fmt --check {folder}

| file | contents |
|---|---|
| `pack.yaml` | manifest: id, name, version, engine range, player counts |
| `game.yaml` | the game: counters, zones, cards, procedures, flow, scoring |

Every YAML file starts with a `# yaml-language-server: $schema=...` line, so
VS Code (with the Red Hat YAML extension) completes keys and shows their help
as you type; see Cogwork's docs/editor.md.
"""


def write_schemas(out: Path, overwrite: bool = True) -> list[Path]:
    """Copy every JSON Schema of this Cogwork into `out` (they refer to each other by file name).

    Writing them onto themselves (`out` is the checkout's own schemas/) leaves them as they are; a
    file that is the same already is left alone; another file is replaced only with `overwrite`,
    and a symbolic link never (safe_write.py).
    """
    make_folder(out)
    sources = sorted(data_dir("schemas").glob("*.json"))
    todo = [(path, out / path.name) for path in sources if not _same(out / path.name, path)]
    for _, target in todo:          # every refusal before the first write
        check_writable(target, overwrite)
    for path, target in todo:
        write_file(target, path.read_text(encoding="utf-8"), overwrite)
    return [out / path.name for path in sources]


def _same(target: Path, source: Path) -> bool:
    return target.is_file() and not target.is_symlink() and (
        target.samefile(source) or target.read_bytes() == source.read_bytes())


def schemas_near(folder: Path) -> Path | None:
    """A `schemas/` folder holding Cogwork's schemas in `folder` or above it."""
    for parent in [folder, *folder.parents]:
        if (parent / "schemas" / "content.schema.json").is_file():
            return parent / "schemas"
    return None


def new_pack(pack_id: str, parent: Path, force: bool = False) -> tuple[Path, list[Path]]:
    """Create `parent/pack_id` (pack.yaml, game.yaml, README.md); the pack and any schema files written.

    The files' `$schema` lines point at the nearest `schemas/` folder above;
    with none, the schemas are first written to `parent/schemas`. Nothing that
    exists is overwritten unless `force`, and no symbolic link is written through
    (`UnsafeWriteError`); every check is made before the first file is written.
    """
    root = parent / pack_id
    if root.is_symlink():
        raise UnsafeWriteError(f"{root} is a symbolic link: not written through")
    if root.exists() and any(root.iterdir()) and not force:
        raise UnsafeWriteError(f"{root} already exists and is not empty (--force overwrites its files)")
    for name in _FILES:
        check_writable(root / name, overwrite=True)     # links; existing files are refused above
    parent = parent.resolve()
    schemas = schemas_near(parent)
    written = [] if schemas else write_schemas(parent / "schemas", overwrite=force)
    schemas = schemas or parent / "schemas"
    make_folder(root)
    relative = Path(os.path.relpath(schemas, root.resolve())).as_posix()
    major, minor = __version__.split(".")[:2]
    name = " ".join(word.capitalize() for word in pack_id.split("-"))
    files = {
        "pack.yaml": SCHEMA_HEADER.format(path=f"{relative}/pack.schema.json") + _MANIFEST.format(
            id=pack_id, name=name, major_minor=f"{major}.{minor}", next_major=int(major) + 1),
        "game.yaml": SCHEMA_HEADER.format(path=f"{relative}/content.schema.json") + _GAME,
        "README.md": _README.format(name=name, folder=root.as_posix()),
    }
    for file_name, text in files.items():
        write_file(root / file_name, text, overwrite=force)
    return root, written


_FILES = ("pack.yaml", "game.yaml", "README.md")
