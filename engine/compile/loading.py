"""From a pack name or folder to a compiled `Pack`: the one entry point every command uses."""

from __future__ import annotations

import gc

from engine.compile.build import build_pack
from engine.packs.files import find_pack, load_pack_files
from engine.runtime.defs import Pack

_frozen = False   # the process's long-lived objects are in the collector's permanent generation


def load_pack(spec: str) -> Pack:
    """Find, read, validate and compile a pack; raises `PackError` with every diagnostic."""
    pack = build_pack(load_pack_files(find_pack(spec)))
    _freeze_once()
    return pack


def _freeze_once() -> None:
    """After the process's first pack is loaded, move every object alive (the modules, the pack's tables and
    compiled functions) to the garbage collector's permanent generation (`gc.freeze`).

    Why: games make cyclic garbage (an item and its zone point at each other), so the collector runs while
    games are played, and each full collection walked the pack too (a few % of a long simulation), for
    objects that never become garbage. Only once per process: frozen objects are never collected, and a
    process that loads packs one after another (the tests, `serve`) drops the later ones."""
    global _frozen
    if not _frozen:
        _frozen = True
        gc.freeze()
