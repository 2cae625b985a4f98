"""An on-disk cache of loaded, schema-clean YAML files, of whole lint results and of the DSL parser,
keyed by content.

Re-reading an unchanged file skips YAML parsing and JSON Schema validation;
re-linting an unchanged pack skips everything (engine/lint/run.py). Every key
hashes the engine itself (its version and source files, the schemas and the
grammar) with the inputs, so editing a file, a schema, the engine or
upgrading Cogwork invalidates the entry; only files that loaded without a
single diagnostic are stored.

Whoever can write the cache folder (a shared COGWORK_CACHE_DIR, a CI cache
restored from another branch) is not trusted (docs/security.md). So an entry
is data only (JSON: reading it never runs code) and carries an HMAC (SHA-256) tag
made with a per-user secret kept *outside* the cache folder (a restored cache
never brings its own key), in a 0600 file. An entry whose tag does not match,
that is too large, or that does not decode is ignored and rebuilt. Entries are
0600 files in a 0700 folder; a folder owned by someone else is not used at all.
Set COGWORK_NO_CACHE=1 to turn the cache off, COGWORK_CACHE_DIR to move it.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import os
import stat
from functools import lru_cache
from pathlib import Path
from typing import Any

from engine import __version__
from engine.resources import data_dir

KEY_BYTES = 32
MAX_ENTRY_BYTES = 128 * 1024 * 1024     # a 20 MiB pack's largest file entry is far below this
_TAG_CHARS = 64                         # a SHA-256 digest in hex
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


def cache_dir() -> Path | None:
    """Where entries live, or None when caching is turned off."""
    if os.environ.get("COGWORK_NO_CACHE"):
        return None
    if os.environ.get("COGWORK_CACHE_DIR"):
        return Path(os.environ["COGWORK_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "cogwork"


def key_file() -> Path:
    """The per-user secret that signs entries: in the user's config folder, never in the cache folder."""
    base = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return Path(base) / "cogwork" / "cache.key"


@lru_cache(maxsize=1)
def engine_digest() -> bytes:
    """What every result depends on besides its inputs: the engine's version, code, schemas and grammar."""
    h = hashlib.sha256(__version__.encode())
    engine = Path(__file__).resolve().parents[1]
    code = sorted(engine.rglob("*.py"))
    for path in [*code, *sorted(data_dir("schemas").glob("*.json")), *sorted(data_dir("grammar").glob("*.lark"))]:
        h.update(path.relative_to(path.parents[1]).as_posix().encode() + b"\0" + path.read_bytes())
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
    """The value stored under `key`, or None: missing, forged, damaged and unreadable entries alike."""
    folder, secret = _folder(create=False), _secret()
    if folder is None or secret is None:
        return None
    try:
        fd = os.open(folder / f"{key}.json", os.O_RDONLY | _NOFOLLOW)
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_ENTRY_BYTES + _TAG_CHARS + 1:
            return None
        with os.fdopen(fd, "rb", closefd=False) as f:
            blob = f.read(MAX_ENTRY_BYTES + _TAG_CHARS + 2)
    except OSError:
        return None
    finally:
        os.close(fd)
    tag, _, body = blob.partition(b"\n")
    if not hmac.compare_digest(tag, _tag(secret, key, body)):
        return None
    try:
        return json.loads(body)
    except (ValueError, RecursionError):
        return None


def put(key: str, value: Any) -> None:
    """Store JSON data atomically (write then rename); a value JSON cannot hold, or a cache that
    cannot be written, is simply skipped."""
    body = encode(value)
    if body is not None:
        put_encoded(key, body)


def encode(value: Any) -> str | None:
    """`value` as the JSON an entry holds; None when JSON cannot hold it."""
    try:
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        return None


def put_encoded(key: str, text: str) -> None:
    """Store a value already encoded by `encode` (or made of its parts) under `key`."""
    folder, secret = _folder(create=True), _secret()
    if folder is None or secret is None:
        return
    try:
        body = text.encode()
    except UnicodeEncodeError:      # a lone surrogate (a YAML escape can make one)
        return
    if len(body) > MAX_ENTRY_BYTES:
        return
    tmp = folder / f"{key}.{os.getpid()}.tmp"
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW, 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(_tag(secret, key, body) + b"\n" + body)
        os.replace(tmp, folder / f"{key}.json")
    except OSError:
        tmp.unlink(missing_ok=True)


def _tag(secret: bytes, key: str, body: bytes) -> bytes:
    """Binds the body to its key too, so an entry copied under another key is refused."""
    return hmac.new(secret, key.encode() + b"\0" + body, hashlib.sha256).hexdigest().encode()


def _folder(create: bool) -> Path | None:
    """The cache folder when it is safe to use: a real folder (no symbolic link) owned by this user and
    closed to others (made 0700 if it is ours and wider). None when caching is off or it is not."""
    folder = cache_dir()
    if folder is None:
        return None
    try:
        if create:
            folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        return folder if _private(folder, 0o700) else None
    except OSError:
        return None


def _private(path: Path, mode: int) -> bool:
    """`path` is this user's own folder or file (not a link); a folder is narrowed to `mode` if wider."""
    info = os.lstat(path)
    if info.st_uid != os.getuid():
        return False
    if stat.S_ISDIR(info.st_mode):
        if stat.S_IMODE(info.st_mode) & 0o077:
            os.chmod(path, mode)
        return True
    return stat.S_ISREG(info.st_mode) and not stat.S_IMODE(info.st_mode) & 0o077


@lru_cache(maxsize=1)
def _secret() -> bytes | None:
    """The user's signing key, made on first use (random, 0600, in a 0700 folder); None when it cannot
    be read or made, or when its file is not the user's own and private: then nothing is cached."""
    if cache_dir() is None:
        return None
    path = key_file()
    try:
        if not path.exists():
            _make_secret(path)
        if not _private(path.parent, 0o700) or not _private(path, 0o600):
            return None
        fd = os.open(path, os.O_RDONLY | _NOFOLLOW)
        with os.fdopen(fd, "rb") as f:
            secret = f.read(KEY_BYTES + 1)
    except OSError:
        return None
    return secret if len(secret) == KEY_BYTES else None


def _make_secret(path: Path) -> None:
    """Write a fresh key beside `path` and link it into place: a concurrent maker's key wins whole."""
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW, 0o600)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(os.urandom(KEY_BYTES))
        with contextlib.suppress(FileExistsError):
            os.link(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
