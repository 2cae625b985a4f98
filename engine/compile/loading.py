"""From a pack name or folder to a compiled `Pack`: the one entry point every command uses."""

from __future__ import annotations

from engine.compile.build import build_pack
from engine.packs.files import find_pack, load_pack_files
from engine.runtime.defs import Pack


def load_pack(spec: str) -> Pack:
    """Find, read, validate and compile a pack; raises `PackError` with every diagnostic."""
    return build_pack(load_pack_files(find_pack(spec)))
