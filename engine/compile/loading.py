"""From a pack name or folder to a compiled `Pack`: the one entry point every command uses."""

from __future__ import annotations

import gc

from engine.compile.build import build_pack
from engine.packs.files import find_pack, load_pack_files
from engine.runtime.defs import Pack


class _Collector:
    """Whether the first pack loaded goes to the collector's permanent generation (`keep_packs_out_of_collections`)."""

    freeze_on_load = False
    frozen = False


def keep_packs_out_of_collections() -> None:
    """Opt in, for a process that plays many games and owns its heap (the console script, `simulate`'s workers,
    the benches): the next pack loaded, and everything alive then, moves to the garbage collector's permanent
    generation (`gc.freeze`). A program that embeds the engine decides that for its own heap: `load_pack` alone
    leaves the collector as it is."""
    _Collector.freeze_on_load = True


def load_pack(spec: str) -> Pack:
    """Find, read, validate and compile a pack; raises `PackError` with every diagnostic."""
    pack = build_pack(load_pack_files(find_pack(spec)))
    if _Collector.freeze_on_load and not _Collector.frozen:
        _freeze()
    return pack


def _freeze() -> None:
    """Move every object alive (the modules, the pack's tables and compiled functions) to the garbage collector's
    permanent generation, once a process.

    Why: games make cyclic garbage (an item and its zone point at each other), so the collector runs while
    games are played, and each full collection walked the pack too (a few % of a long simulation), for
    objects that never become garbage. Only once per process: frozen objects are never collected, and a
    process that loads packs one after another (`serve`) would keep the later ones."""
    _Collector.frozen = True
    gc.freeze()
