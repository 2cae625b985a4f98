"""Canonical layout of pack YAML (`cogwork fmt`): key order and indentation, comments kept.

A record (a mapping whose schema lists `properties`) is ordered `id`, `name`,
then the keys its schema does not list (a component's declared attributes)
in their written order, then the listed keys in schema order. Mappings keyed
by ids (counters, zones, components of a type) keep the author's order, and
so do lists. Formatting goes through ruamel.yaml's round trip, which keeps
comments, quotes, block scalars and flow style, so it never changes what a
file means; indentation is set once here (mappings 2, list dashes 2 + 2).
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Mapping, Sized
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedBase, CommentedMap
from ruamel.yaml.error import CommentMark, YAMLError
from ruamel.yaml.tokens import CommentToken

from engine.diagnostics import Diagnostic, PackError
from engine.errors import CogworkError
from engine.packs import overlay
from engine.packs.source import load_yaml
from engine.resources import data_dir

FIRST_KEYS = ("id", "name")
SCHEMA_LINE = re.compile(r"#\s*yaml-language-server:\s*\$schema=(\S+)")
KNOWN_SCHEMAS = ("pack.schema.json", "content.schema.json", "scenario.schema.json")


def schema_of(path: Path, text: str) -> str | None:
    """Which schema a file follows: its `$schema` line, else its place in a pack; None if not a pack file."""
    named = SCHEMA_LINE.match(text.lstrip("\ufeff").split("\n", 1)[0])
    if named:
        name = named.group(1).rsplit("/", 1)[-1]
        return name if name in KNOWN_SCHEMAS else None
    if path.name == "pack.yaml":
        return "pack.schema.json"
    pack = next((p for p in path.resolve().parents if (p / "pack.yaml").is_file()), None)
    if pack is None:
        return None
    return "scenario.schema.json" if "scenarios" in path.resolve().relative_to(pack).parts else "content.schema.json"


def format_file(path: Path) -> tuple[str, str] | None:
    """A file's text and its canonical form; None if it is not Cogwork YAML.

    The file first passes the pack loader's checks (encoding, size, tags,
    duplicate keys, alias bombs), so formatting never expands what loading refuses.
    """
    try:
        text = overlay.read_bytes(path).decode("utf-8")     # an editor's unsaved buffer, when one is open
    except (OSError, UnicodeDecodeError) as exc:
        raise FormatError(f"cannot read it: {exc}") from exc
    schema_id = schema_of(path, text)
    if schema_id is None:
        return None
    try:
        load_yaml(path, str(path))       # positions in messages name the file as given
    except PackError as exc:
        raise FormatError(str(exc), exc.diagnostics) from exc
    return text, format_text(text, schema_id)


class FormatError(CogworkError):
    """The text cannot be formatted safely (a YAML error, or a result that would mean something else)."""

    def __init__(self, message: str, diagnostics: list[Diagnostic] | None = None) -> None:
        super().__init__(message)
        self.diagnostics = diagnostics or []


def format_text(text: str, schema_id: str) -> str:
    """The canonical form of one YAML document following `schema_id`.

    The result is read back and compared with the input's data, so a
    formatter bug can never silently change a pack.
    """
    yaml = _yaml()
    try:
        data = yaml.load(text)
        if data is None:                               # empty, or comments only: nothing to order
            return text
        before = _plain(data)
        _order(data, _Schema.of(schema_id), set())
        _unfold(data, text, set())
        _keep_nulls(data, text.split("\n"), set())
        out = io.StringIO()
        yaml.dump(data, out)
        after = _plain(_yaml().load(out.getvalue()))
    except YAMLError as exc:
        raise FormatError(str(exc).replace("\n", " ")) from exc
    if after != before:
        raise FormatError("formatting would change the data; file left as it is (please report this)")
    return out.getvalue()


def _plain(data: Any) -> Any:
    """Data as plain dicts, lists and scalars, for comparing meaning (not layout)."""
    if isinstance(data, Mapping):
        return {key: _plain(value) for key, value in data.items()}
    if isinstance(data, list):
        return [_plain(value) for value in data]
    return data


def _unfold(data: Any, text: str, seen: set[int]) -> bool:
    """A flow collection (`[...]`, `{...}`) the author wrapped over several lines becomes a block,
    one item per line, and so do the flow collections around it: ruamel would write it back as one
    line of any length (issue 9: 420 characters). Whether `data` was written over several lines."""
    if id(data) in seen or not isinstance(data, CommentedBase):
        return False
    seen.add(id(data))
    container: Any = data       # a CommentedMap or CommentedSeq (ruamel's base type declares neither)
    children = [_unfold(value, text, seen) for value in (container.values() if isinstance(data, Mapping)
                                                          else container)]
    wrapped = any(children) or (data.fa.flow_style() and _spans_lines(text, data.lc.line, data.lc.col))
    if wrapped and data.fa.flow_style():
        data.fa.set_block_style()
    return wrapped


def _spans_lines(text: str, line: int, col: int) -> bool:
    """Whether the flow collection opening at (line, col) closes on a later line (quotes and comments
    skipped). A quote opens a quoted scalar only where a scalar starts (after `[`, `{`, `,`, `:` or `?`):
    the apostrophe in a plain `Bob's turn` is text."""
    lines = text.split("\n")
    if line >= len(lines) or col >= len(lines[line]) or lines[line][col] not in "[{":
        return False
    depth, quote, last = 0, "", ""
    for row in range(line, len(lines)):
        chars = lines[row]
        i = col if row == line else 0
        while i < len(chars):
            c = chars[i]
            if quote:
                i = _quote_end(chars, i, quote)
                if i == len(chars):
                    break
                quote, last, i = "", chars[i], i + 1
                continue
            elif c in "'\"" and last in "[{,:?":
                quote = c
            elif c == "#" and (i == 0 or chars[i - 1] in " \t"):
                break
            elif c in "[{":
                depth += 1
            elif c in "]}":
                depth -= 1
                if depth == 0:
                    return row != line
            if not quote and not c.isspace():
                last = c
            i += 1
    return False


def _quote_end(chars: str, i: int, quote: str) -> int:
    """Where the quoted scalar going on at `i` closes on this line (`len(chars)` if it goes on): a `\\"`
    escape or a `''` pair does not close it."""
    while i < len(chars):
        c = chars[i]
        if (c == "\\" and quote == '"') or (c == quote == "'" and chars[i + 1:i + 2] == "'"):
            i += 2
        elif c == quote:
            return i
        else:
            i += 1
    return len(chars)


class _WrittenNull(str):
    """An empty value the author wrote as `null` or `~`: written back as they wrote it, not as nothing."""


_NULL_WORD = re.compile(r"(null|Null|NULL|~)(?![^\s,\]}#])")


def _keep_nulls(data: Any, lines: list[str], seen: set[int]) -> None:
    """Mark each empty value that is spelt out in the text (ruamel would write every one as nothing)."""
    if id(data) in seen or not isinstance(data, CommentedBase):
        return
    seen.add(id(data))
    container: Any = data       # a CommentedMap or CommentedSeq (ruamel's base type declares neither)
    keys = range(len(container)) if isinstance(data, list) else list(container)
    for key in keys:
        value = container[key]
        if value is None:
            at = data.lc.item(key) if isinstance(data, list) else data.lc.value(key)
            found = _NULL_WORD.match(lines[at[0]], at[1]) if at and at[0] < len(lines) else None
            if found:
                container[key] = _WrittenNull(found.group(1))
        else:
            _keep_nulls(value, lines, seen)


def _written_null(representer: Any, data: _WrittenNull) -> Any:
    return representer.represent_scalar("tag:yaml.org,2002:null", str(data))


def _yaml() -> YAML:
    yaml = YAML()
    yaml.representer.add_representer(_WrittenNull, _written_null)
    yaml.preserve_quotes = True
    yaml.indent(mapping=2, sequence=4, offset=2)
    yaml.width = 4096                                   # never re-wrap lines
    yaml.brace_single_entry_mapping_in_flow_sequence = True    # keep [{a: 1}] as written
    return yaml


@dataclass(frozen=True)
class _Schema:
    """One schema node and the file it lives in (for its `#/...` references)."""

    node: Any
    file: str

    @staticmethod
    def of(schema_id: str) -> _Schema:
        return _Schema(_schemas()[schema_id], schema_id)

    def resolved(self) -> list[_Schema]:
        """This node after `$ref`, with the branches of allOf/anyOf/oneOf/then/else (which add properties)."""
        node, file = self.node, self.file
        if not isinstance(node, Mapping):
            return []
        if "$ref" in node:
            ref_file, _, pointer = node["$ref"].partition("#")
            return _Schema(_pointer(ref_file or file, pointer), ref_file or file).resolved()
        found = [self]
        branches = [*node.get("allOf", ()), *node.get("anyOf", ()), *node.get("oneOf", ())]
        for branch in [*branches, node.get("then"), node.get("else")]:
            found += _Schema(branch, file).resolved()
        return found

    def properties(self) -> dict[str, _Schema]:
        props: dict[str, _Schema] = {}
        for part in self.resolved():
            for name, sub in part.node.get("properties", {}).items():
                props.setdefault(name, _Schema(sub, part.file))
        return props

    def child(self, key: str | int) -> _Schema | None:
        """The schema of `self[key]`: a listed property, else additionalProperties, else items."""
        parts = self.resolved()
        if isinstance(key, str):
            listed = self.properties().get(key)
            if listed is not None:
                return listed
            extra = next((p for p in parts if isinstance(p.node.get("additionalProperties"), Mapping)), None)
            return _Schema(extra.node["additionalProperties"], extra.file) if extra else None
        items = next((p for p in parts if isinstance(p.node.get("items"), Mapping)), None)
        return _Schema(items.node["items"], items.file) if items else None


@cache
def _schemas() -> dict[str, Any]:
    return {p.name: json.loads(p.read_text(encoding="utf-8")) for p in data_dir("schemas").glob("*.json")}


def _pointer(file: str, pointer: str) -> Any:
    node = _schemas()[file]
    for part in filter(None, pointer.split("/")):
        node = node[part]
    return node


def _order(data: Any, schema: _Schema | None, seen: set[int]) -> None:
    """Reorder every record in `data` in place (an anchored value shared by aliases once)."""
    if id(data) in seen or schema is None:
        return
    seen.add(id(data))
    if isinstance(data, CommentedMap):
        listed = list(schema.properties())
        if listed and not data.merge:                  # a record, with no `<<` merge keys
            first = [k for k in FIRST_KEYS if k in data]
            rest = [k for k in listed if k in data and k not in first]
            _reorder(data, [*first, *(k for k in data if k not in listed and k not in first), *rest])
        for key, value in data.items():
            _order(value, schema.child(key), seen)
    elif isinstance(data, list):
        for index, value in enumerate(data):
            _order(value, schema.child(index), seen)


def _reorder(data: CommentedMap, order: list[Any]) -> None:
    """Put the keys in `order`, moving comments with the lines they sit on.

    ruamel keeps the comment lines that follow a value with that value, so the
    lines *before* a key live on the key above it. Each key keeps its own end-
    of-line comment (and its column); lines before a key follow it to its new
    place; the lines after the last key stay at the end of the mapping.
    """
    old = list(data)
    if old == order:
        return
    tokens = [_take(_tail_slot(data, key)) for key in old]
    texts = [_text(token) for token in tokens]
    own = {key: (text[:text.index("\n") + 1], token) for key, text, token in zip(old, texts, tokens, strict=True)}
    before = {key: texts[i - 1][texts[i - 1].index("\n") + 1:] for i, key in enumerate(old) if i}
    tail = texts[-1][texts[-1].index("\n") + 1:]
    carried = before.pop(order[0], "")          # a key moved to the top: its lines go just after it
    for key in order:
        data.move_to_end(key)
    for position, key in enumerate(order):
        follows = before.get(order[position + 1], "") if position + 1 < len(order) else tail
        text, token = own[key]
        text += (carried if position == 0 else "") + follows
        if text != "\n":
            mark = token.start_mark if token is not None and text.startswith("#") else CommentMark(0)
            items, index = _tail_slot(data, key)
            items[index] = CommentToken(text, mark, None)


Slot = tuple[list[Any], int]


def _tail_slot(container: Any, key: Any) -> Slot:  # a CommentedMap or CommentedSeq
    """The comment slot holding the lines after `container[key]` (inside it when it is a block)."""
    value = container[key]
    if isinstance(value, CommentedBase) and isinstance(value, Sized) and len(value) and not value.fa.flow_style():
        return _tail_slot(value, list(value)[-1] if isinstance(value, CommentedMap) else len(value) - 1)
    return container.ca.items.setdefault(key, [None, None, None, None]), 2 if isinstance(container, Mapping) else 0


def _text(token: CommentToken | None) -> str:
    """A comment's text, ending its first line with a line break (the end of the value's own line)."""
    if token is None:
        return "\n"
    return token.value if "\n" in token.value else token.value + "\n"


def _take(slot: Slot) -> CommentToken | None:
    """The slot's comment, leaving the slot empty."""
    items, index = slot
    token, items[index] = items[index], None
    return token
