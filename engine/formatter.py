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
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap

from engine.resources import data_dir

FIRST_KEYS = ("id", "name")
SCHEMA_LINE = re.compile(r"#\s*yaml-language-server:\s*\$schema=(\S+)")
KNOWN_SCHEMAS = ("pack.schema.json", "content.schema.json", "scenario.schema.json")


def schema_of(path: Path, text: str) -> str | None:
    """Which schema a file follows: its `$schema` line, else its place in a pack; None if not a pack file."""
    first = text.lstrip("\ufeff").split("\n", 1)[0]
    named = SCHEMA_LINE.match(first)
    if named:
        name = named.group(1).rsplit("/", 1)[-1]
        return name if name in KNOWN_SCHEMAS else None
    pack = next((p for p in path.resolve().parents if (p / "pack.yaml").is_file()), None)
    if path.name == "pack.yaml":
        return "pack.schema.json"
    if pack is None:
        return None
    return "scenario.schema.json" if "scenarios" in path.resolve().relative_to(pack).parts else "content.schema.json"


def format_text(text: str, schema_id: str) -> str:
    """The canonical form of one YAML document following `schema_id`."""
    yaml = _yaml()
    data = yaml.load(text)
    _order(data, _Schema.of(schema_id), set())
    out = io.StringIO()
    yaml.dump(data, out)
    return out.getvalue()


def _yaml() -> YAML:
    yaml = YAML()
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
        """This node after `$ref`, with the branches of allOf/anyOf/oneOf (which add properties)."""
        node, file = self.node, self.file
        if not isinstance(node, Mapping):
            return []
        if "$ref" in node:
            ref_file, _, pointer = node["$ref"].partition("#")
            return _Schema(_pointer(ref_file or file, pointer), ref_file or file).resolved()
        found = [self]
        for key in ("allOf", "anyOf", "oneOf"):
            for branch in node.get(key, ()):
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
            for key in [*first, *(k for k in data if k not in listed and k not in first), *rest]:
                data.move_to_end(key)
        for key, value in data.items():
            _order(value, schema.child(key), seen)
    elif isinstance(data, list):
        for index, value in enumerate(data):
            _order(value, schema.child(index), seen)
