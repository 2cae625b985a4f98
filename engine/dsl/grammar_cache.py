"""The DSL parser kept in the on-disk cache as JSON data, instead of Lark's own cache (a pickle).

Building the LALR tables takes a noticeable part of a second at every start; Lark can cache
them, but its cache file is a pickle, and reading a pickle an attacker wrote runs their code
(docs/security.md). So the tables Lark serializes are stored through engine/packs/cache.py
(signed JSON), in a form that keeps what plain JSON would change: tuples, and keys that are
numbers. A missing or unusable entry just means the tables are built again.

The same JSON is also packaged beside the grammar (`grammar/cogwork.tables.json`, written by
`python tools/grammar_tables.py`): building the tables was ~3% of a cold lint, paid by every
first run and every CI job with an empty cache. It is used only if it was made from this very
grammar text by this Lark version; otherwise the user cache (or a build) takes over, and
`tests/test_grammar_tables.py` says to write it again.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import lark
from lark import Lark
from lark.grammar import Rule
from lark.lexer import TerminalDef

from engine.packs import cache

_TUPLE = "\0tuple"      # {"\0tuple": [...]}: a tuple
_ITEMS = "\0items"      # {"\0items": [[key, value], ...]}: a dict with keys that are not text


def load_or_build(grammar: str, build: Callable[[], Lark], shipped: Path | None = None) -> Lark:
    """The parser for `grammar` from the tables shipped in `shipped` or from the cache, else `build()`
    (then stored in the cache for the next run)."""
    if shipped is not None:
        parser = _load(read_shipped(shipped, grammar))
        if parser is not None:
            return parser
    key = cache.key("grammar", grammar)
    parser = _load(cache.get(key))
    if parser is not None:
        return parser
    parser = build()
    with contextlib.suppress(TypeError):
        cache.put(key, tables(parser))
    return parser


def tables(parser: Lark) -> dict[str, Any]:
    """The parser's tables as JSON data."""
    data, memo = parser.memo_serialize([TerminalDef, Rule])
    return {"data": encode(data), "memo": encode(memo)}


def shipped_form(grammar: str, parser: Lark) -> dict[str, Any]:
    """What `grammar/cogwork.tables.json` holds: the tables, and what they were made from."""
    return {"grammar_sha256": _digest(grammar), "lark": lark.__version__, **tables(parser)}


def read_shipped(path: Path, grammar: str) -> dict[str, Any] | None:
    """The shipped tables, if they were made from `grammar` by the installed Lark."""
    try:
        entry = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    fits = isinstance(entry, dict) and entry.get("grammar_sha256") == _digest(grammar) \
        and entry.get("lark") == lark.__version__
    return entry if fits else None


def _digest(grammar: str) -> str:
    return hashlib.sha256(grammar.encode()).hexdigest()


def _load(entry: Any) -> Lark | None:
    if isinstance(entry, dict):
        try:
            return Lark._load_from_dict(decode(entry["data"]), decode(entry["memo"]))
        except (KeyError, TypeError, ValueError, AttributeError, IndexError, AssertionError):
            pass
    return None


def encode(value: Any) -> Any:
    """Lark's serialized tables as JSON data; TypeError for anything else."""
    if isinstance(value, tuple):
        return {_TUPLE: [encode(v) for v in value]}
    if isinstance(value, list):
        return [encode(v) for v in value]
    if isinstance(value, dict):
        if all(isinstance(k, str) and not k.startswith("\0") for k in value):
            return {k: encode(v) for k, v in value.items()}
        return {_ITEMS: [[encode(k), encode(v)] for k, v in value.items()]}
    if value is None or isinstance(value, str | int | float | bool):
        return value
    raise TypeError(f"cannot store a {type(value).__name__} in the grammar cache")


def decode(value: Any) -> Any:
    """The inverse of `encode`."""
    if isinstance(value, list):
        return [decode(v) for v in value]
    if isinstance(value, dict):
        if len(value) == 1 and _TUPLE in value:
            return tuple(decode(v) for v in value[_TUPLE])
        if len(value) == 1 and _ITEMS in value:
            return {decode(k): decode(v) for k, v in value[_ITEMS]}
        return {k: decode(v) for k, v in value.items()}
    return value
