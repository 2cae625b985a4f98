"""Editor buffers not saved yet: while one is open, loading a pack reads its text instead of the file's.

The language server (engine/lsp/) lints what the user sees, not what is on disk; everything that reads a
pack file's bytes (the loader, its per-file cache key, lint's result key) asks here first, so the caches
stay keyed by the bytes actually checked.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

_open: dict[str, bytes] = {}


def _key(path: Path) -> str:
    return os.path.abspath(path)


def read_bytes(path: Path) -> bytes:
    """The bytes of an open buffer for `path`, else the file's."""
    found = _open.get(_key(path))
    return path.read_bytes() if found is None else found


def size(path: Path) -> int | None:
    """The size of an open buffer for `path`; None when there is none (then the file's stat tells)."""
    found = _open.get(_key(path))
    return None if found is None else len(found)


@contextmanager
def buffers(texts: Mapping[Path, str]) -> Iterator[None]:
    """Read these texts in place of their files for the duration (one at a time: not re-entrant)."""
    _open.clear()
    _open.update({_key(path): text.encode("utf-8") for path, text in texts.items()})
    try:
        yield
    finally:
        _open.clear()
