"""The DSL parser kept in the on-disk cache as JSON data, instead of Lark's own cache (a pickle).

Building the LALR tables takes a noticeable part of a second at every start; Lark can cache
them, but its cache file is a pickle, and reading a pickle an attacker wrote runs their code
(docs/security.md). So the tables Lark serializes are stored through engine/packs/cache.py
(signed JSON), in a form that keeps what plain JSON would change: tuples, and keys that are
numbers. A missing or unusable entry just means the tables are built again.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

from lark import Lark
from lark.grammar import Rule
from lark.lexer import TerminalDef

from engine.packs import cache

_TUPLE = "\0tuple"      # {"\0tuple": [...]}: a tuple
_ITEMS = "\0items"      # {"\0items": [[key, value], ...]}: a dict with keys that are not text


def load_or_build(grammar: str, build: Callable[[], Lark]) -> Lark:
    """The parser for `grammar` from the cache, else `build()` (then stored for the next run)."""
    key = cache.key("grammar", grammar)
    entry = cache.get(key)
    if isinstance(entry, dict):
        try:
            return Lark._load_from_dict(decode(entry["data"]), decode(entry["memo"]))
        except (KeyError, TypeError, ValueError, AttributeError, IndexError, AssertionError):
            pass
    parser = build()
    data, memo = parser.memo_serialize([TerminalDef, Rule])
    with contextlib.suppress(TypeError):
        cache.put(key, {"data": encode(data), "memo": encode(memo)})
    return parser


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
