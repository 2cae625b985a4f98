"""Where the engine's data folders live, in a source checkout or an installed wheel."""

from __future__ import annotations

from pathlib import Path

_PACKAGE_DIR = Path(__file__).resolve().parent


def data_dir(name: str) -> Path:
    """The folder `name` ("schemas", "grammar", "content"): the wheel's copy first, then the checkout's."""
    candidates = (_PACKAGE_DIR / "_data" / name, _PACKAGE_DIR.parent / name)
    for folder in candidates:
        if folder.is_dir():
            return folder
    raise FileNotFoundError(f"data folder '{name}' not found; looked in: {', '.join(map(str, candidates))}")
