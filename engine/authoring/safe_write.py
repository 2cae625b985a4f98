"""Writing files for `cogwork new`, `schema` and `fmt` without following links or overwriting by surprise.

A pack folder may come from a stranger: a file in it can be a symbolic link to one of the user's
own files, so a tool that writes "into the pack" must never write through a link (docs/security.md).
Every write goes to a new temporary file beside the target, then replaces the target by rename:
a link at the target is refused, never followed, and a reader never sees half a file.
"""

from __future__ import annotations

import os
from pathlib import Path

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


class UnsafeWriteError(Exception):
    """The target is a link, or exists and may not be overwritten."""


def check_writable(path: Path, overwrite: bool = False) -> None:
    """Raise `UnsafeWriteError` if `write_file` would refuse `path`."""
    if path.is_symlink():
        raise UnsafeWriteError(f"{path} is a symbolic link: not written through")
    if path.exists() and not overwrite:
        raise UnsafeWriteError(f"{path} already exists (--force overwrites it)")
    if path.exists() and not path.is_file():
        raise UnsafeWriteError(f"{path} is not a regular file")


def write_file(path: Path, text: str, overwrite: bool = False) -> None:
    """Write `text` to `path`; an existing file only with `overwrite`, a symbolic link never."""
    check_writable(path, overwrite)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW, 0o666)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            f.write(text)
        if path.exists():
            os.chmod(tmp, path.stat().st_mode & 0o7777)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def make_folder(path: Path) -> None:
    """Create `path` (and its parents) unless it is a link: a link there would lead the writes elsewhere."""
    if path.is_symlink():
        raise UnsafeWriteError(f"{path} is a symbolic link: not written through")
    path.mkdir(parents=True, exist_ok=True)
