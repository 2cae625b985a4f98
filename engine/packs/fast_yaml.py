"""Reading plain YAML fast: libyaml's events (PyYAML's C extension) turned straight into data.

`source.load_yaml` asks here first. Content files are nearly always plain
YAML: mappings, lists, text, whole numbers, booleans. For those this builds
the dicts and lists from libyaml's event stream, resolving scalars by
ruamel's own YAML 1.2 rules (`on` and `no` stay text) and recording where
every key and value starts, as ruamel's line/column records would
(`Layout`), about 25 times faster than ruamel's round-trip loader.

Anything else returns None and ruamel reads the file, with its diagnostics:
anchors, aliases, tags, `<<` merges, keys that are not text or repeat,
dates, numbers not written plainly (`0x1F`, `1_000`, `.5`), a `%YAML` or
`%TAG` directive, several documents, nesting deeper than `MAX_FAST_DEPTH`,
tabs and the other characters of `_DIFFERENT`, any syntax error: the fast
path only accepts what both read alike (tests/test_fast_yaml.py). So its data is
exactly JSON's kind (text keys, finite numbers written plainly): the file cache
stores it without reading it back (engine/packs/files.py). Events,
not libyaml's composer: the composer recurses in C and crashes the process
on very deep nesting. Without the C extension PyYAML's pure-Python parser
yields the same events, more slowly.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, TypeAlias

import yaml
from ruamel.yaml.resolver import implicit_resolvers
from yaml.events import (
    DocumentEndEvent,
    DocumentStartEvent,
    MappingEndEvent,
    MappingStartEvent,
    ScalarEvent,
    SequenceEndEvent,
    SequenceStartEvent,
    StreamEndEvent,
    StreamStartEvent,
)

Loc: TypeAlias = tuple[int, int]            # 0-based (line, column)
# Where a container's children are: for a mapping {key: (key's loc, value's loc, value's Kids)},
# for a list [(None, item's loc, item's Kids)]; Kids is None for a scalar
Kids: TypeAlias = "dict[Any, tuple[Loc | None, Loc, Kids | None]] | list[tuple[None, Loc, Kids | None]]"
Layout: TypeAlias = tuple[Loc, "Kids"]      # the top-level mapping's own loc and its children

MAX_FAST_DEPTH = 50         # deeper files go to ruamel, which measures them against source.MAX_DEPTH

_TAG = "tag:yaml.org,2002:"
# read differently by the two: tabs (ruamel refuses some libyaml takes), the line breaks YAML 1.1
# has and 1.2 does not (NEL, LS, PS), a byte-order mark inside the text, a block scalar header
# touching a comment (`|#`, which only ruamel refuses)
_DIFFERENT = re.compile("[\t\x85\u2028\u2029\ufeff]|[|>][-+0-9]*#")
_END_EVENTS = (MappingEndEvent, SequenceEndEvent)
_BLOCK_STYLES = ("|", ">")


class _NotPlainError(Exception):
    """The file holds something only ruamel's loader handles (or reports)."""


def _canonical_int(text: str) -> int:
    value = int(text)
    if str(value) != text:          # +5, 007, 1_000, 0o17, 0x1F: ruamel keeps their notation
        raise _NotPlainError
    return value


def _canonical_float(text: str) -> float:
    value = float(text)
    if repr(value) != text:         # 1.50, .5, 1e3, .inf: ruamel keeps their notation
        raise _NotPlainError
    return value


def _not_plain(text: str) -> Any:
    raise _NotPlainError


_CONSTRUCT: dict[str, Callable[[str], Any]] = {
    _TAG + "null": lambda text: None,
    _TAG + "bool": lambda text: text[0] in "tT",     # the 1.2 rule matches only true/True/TRUE/false/...
    _TAG + "int": _canonical_int,
    _TAG + "float": _canonical_float,
}
# ruamel's YAML 1.2 implicit resolvers, by first character, in its order
_RESOLVERS: dict[str, list[tuple[Callable[[str], Any], Any]]] = {}
for _versions, _tag, _regexp, _firsts in implicit_resolvers:
    if (1, 2) in _versions:
        for _first in _firsts:
            _RESOLVERS.setdefault(_first, []).append((_CONSTRUCT.get(_tag, _not_plain), _regexp))

if yaml.__with_libyaml__:
    from yaml._yaml import CParser as _Parser
else:   # pragma: no cover - PyYAML built without libyaml
    from yaml.parser import Parser
    from yaml.reader import Reader
    from yaml.scanner import Scanner

    class _Parser(Reader, Scanner, Parser):     # type: ignore[no-redef]
        def __init__(self, stream: str) -> None:
            Reader.__init__(self, stream)
            Scanner.__init__(self)
            Parser.__init__(self)


def load(text: str) -> tuple[dict[str, Any], Layout] | None:
    """The data of a plain YAML file whose top level is a mapping, and its layout; None otherwise."""
    if _DIFFERENT.search(text):
        return None
    parser = _Parser(text)
    try:
        return _document(parser.get_event)
    except (_NotPlainError, yaml.YAMLError, ValueError):
        return None
    finally:
        parser.dispose()


def _resolved(text: str) -> Any:
    """A plain scalar's value: the first of ruamel's resolvers for its first character that matches."""
    for construct, regexp in _RESOLVERS.get(text[:1], ()):
        if regexp.match(text):
            return construct(text)
    return text


def _quoted(event: ScalarEvent, text: str) -> str:
    """A quoted or block scalar's text."""
    if event.style in _BLOCK_STYLES and (not text or text[0] == "\n"):
        raise _NotPlainError        # leading blank lines in a block scalar: ruamel may refuse their spaces
    return text


def _top_mark(get: Callable[[], Any]) -> Any:
    """Where the document's top-level mapping starts (a document of anything else is not plain)."""
    start, document, top = get(), get(), get()
    if (type(start) is not StreamStartEvent or type(document) is not DocumentStartEvent
            or document.version is not None or document.tags or type(top) is not MappingStartEvent
            or top.tag is not None or top.anchor is not None):
        raise _NotPlainError
    return top.start_mark


def _document(get: Callable[[], Any]) -> tuple[dict[str, Any], Layout]:
    root: dict[str, Any] = {}
    top_mark = _top_mark(get)
    layout: Layout = ((top_mark.line, top_mark.column), {})
    # one frame per open container: [container, its Kids, pending key, pending key's loc]
    stack: list[list[Any]] = [[root, layout[1], None, None]]
    plain: dict[str, Any] = {}      # each plain scalar's value by its text: keys and values repeat
    sub: Any
    while stack:
        event = get()
        kind = type(event)
        if kind is ScalarEvent:
            if event.tag is not None or event.anchor is not None:
                raise _NotPlainError
            text = event.value
            if event.implicit[0]:       # plain (unquoted): resolved by YAML 1.2's rules
                value = plain[text] if text in plain else plain.setdefault(text, _resolved(text))
            else:
                value = _quoted(event, text)
            sub = None
        elif kind in _END_EVENTS:
            stack.pop()
            continue
        elif kind is MappingStartEvent or kind is SequenceStartEvent:
            if event.tag is not None or event.anchor is not None or len(stack) >= MAX_FAST_DEPTH:
                raise _NotPlainError
            value, sub = ({}, {}) if kind is MappingStartEvent else ([], [])
        else:                       # an alias
            raise _NotPlainError
        mark = event.start_mark
        loc = (mark.line, mark.column)
        frame = stack[-1]
        container, kids = frame[0], frame[1]
        if type(container) is list:
            container.append(value)
            kids.append((None, loc, sub))
        elif frame[3] is None:      # a key
            if type(value) is not str or value in container:
                raise _NotPlainError    # not text (a number, a mapping) or repeated
            frame[2], frame[3] = value, loc
        else:                       # its value; ruamel's record of an empty value is the key's
            key, key_loc = frame[2], frame[3]
            container[key] = value
            kids[key] = (key_loc, key_loc if value is None else loc, sub)
            frame[3] = None
        if sub is not None:
            stack.append([value, sub, None, None])
    _end(get)
    return root, layout


def _end(get: Callable[[], Any]) -> None:
    if type(get()) is not DocumentEndEvent or type(get()) is not StreamEndEvent:
        raise _NotPlainError        # a second document
