"""An on-disk cache of loaded, schema-clean YAML files and of whole lint results, keyed by content.

Re-reading an unchanged file skips YAML parsing and JSON Schema validation;
re-linting an unchanged pack skips everything (engine/lint/run.py). Every key
hashes the engine itself (its version and source files, the schemas and the
grammar) with the inputs, so editing a file, a schema, the engine or
upgrading Cogwork invalidates the entry; only files that loaded without a
single diagnostic are stored. The cache holds pickles Cogwork wrote itself
in the user's cache folder; set COGWORK_NO_CACHE=1 to turn it off or
COGWORK_CACHE_DIR to move it.
"""

from __future__ import annotations

import hashlib
import os
import pickle
from functools import lru_cache
from pathlib import Path
from typing import Any

from engine import __version__
from engine.resources import data_dir


def cache_dir() -> Path | None:
    """Where entries live, or None when caching is turned off."""
    if os.environ.get("COGWORK_NO_CACHE"):
        return None
    if os.environ.get("COGWORK_CACHE_DIR"):
        return Path(os.environ["COGWORK_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "cogwork"


@lru_cache(maxsize=1)
def engine_digest() -> bytes:
    """What every result depends on besides its inputs: the engine's version, code, schemas and grammar."""
    h = hashlib.sha256(__version__.encode())
    code = sorted(Path(__file__).parent.rglob("*.py"))
    for path in [*code, *sorted(data_dir("schemas").glob("*.json")), *sorted(data_dir("grammar").glob("*.lark"))]:
        h.update(path.name.encode() + b"\0" + path.read_bytes())
    return h.digest()


def key(*parts: str | bytes) -> str:
    """The key of a result this engine computes from `parts` alone."""
    h = hashlib.sha256(engine_digest())
    for part in parts:
        data = part.encode() if isinstance(part, str) else part
        h.update(len(data).to_bytes(8, "little") + data)
    return h.hexdigest()


def file_key(raw: bytes, display: str, schema_id: str) -> str:
    return key("file", display, schema_id, raw)


def get(key: str) -> Any | None:
    folder = cache_dir()
    if folder is None:
        return None
    try:
        with open(folder / f"{key}.pickle", "rb") as f:
            return pickle.load(f)
    except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ImportError):
        return None


def put(key: str, value: Any) -> None:
    """Store atomically (write then rename); a cache that cannot be written is simply skipped."""
    folder = cache_dir()
    if folder is None:
        return
    try:
        folder.mkdir(parents=True, exist_ok=True)
        tmp = folder / f"{key}.{os.getpid()}.tmp"
        with open(tmp, "wb") as f:
            pickle.dump(value, f, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, folder / f"{key}.pickle")
    except OSError:
        return
