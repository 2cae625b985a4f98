"""Answers to an editor's questions about one pack, from its `PackIndex`: hover, definition, references,
rename, completion and did-you-mean fixes. Positions here are 1-based (line, column), as in diagnostics;
the protocol wiring (engine/lsp/server.py) converts.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from lark import Tree

from engine.dsl.functions import FUNCTIONS
from engine.dsl.parse import DslText
from engine.dsl.render import Renderer, threshold_unit
from engine.dsl.sites import Site
from engine.dsl.typecheck import Checker, site_scope
from engine.dsl.types import NOUNS
from engine.lsp.index import Definition, PackIndex, Span
from engine.resources import data_dir

STARTS = {"effect": "an effect", "cost": "a cost", "expr": "an expression"}
RENAMEABLE = {"counter", "component"}
_DID_YOU_MEAN = re.compile(r"did you mean '([^']+)'\?")


@dataclass(frozen=True)
class Item:
    """One completion: the text, what it is (a protocol CompletionItemKind name), and a line about it."""

    label: str
    kind: str
    detail: str
    doc: str = ""


# ---------------------------------------------------------------- hover


def hover(index: PackIndex, path: Path, line: int, col: int) -> str | None:
    """Markdown: the name under the cursor (what it is, where defined), then the DSL text's English and type."""
    parts: list[str] = []
    name = index.name_at(path, line, col)
    if name is not None:
        parts.append(describe(index.definitions[name]))
    found = index.site_at(path, line, col)
    if found is not None:
        parts.append(explain_site(index, *found))
    return "\n\n---\n\n".join(parts) or None


def describe(d: Definition) -> str:
    """`**counter** `score` — Score`, then where it is defined (file:line:col, pack) and its description."""
    data = d.entry.data
    title = data.get("name") if isinstance(data, dict) else None
    text = f"**{d.kind}** `{d.name}`" + (f" — {title}" if title else "")
    text += f"\n\ndefined at `{d.entry.where()}`" + (f" (pack `{d.entry.pack}`)" if d.entry.pack else "")
    described = data.get("description") if isinstance(data, dict) else None
    return text + (f"\n\n{described}" if described else "")


def explain_site(index: PackIndex, site: Site, dsl: DslText, tree: Tree) -> str:
    """What `cogwork explain` says of the text, and its type."""
    renderer = Renderer(index.pack, threshold_unit((t for _, _, t in index.sites), index.pack))
    english = renderer.text(site.text, site.start)
    kind = STARTS[site.start]
    if site.start == "expr":
        silent = DslText(site.text, site.src, site.path)
        inferred = Checker(index.pack, silent, site_scope(index.pack, site)).infer(tree)
        kind = f"an expression: {NOUNS.get(inferred.kind, 'any value')}"
    return f"{english}\n\n*type:* {kind}"


# ---------------------------------------------------------------- definition, references, rename


def definition(index: PackIndex, path: Path, line: int, col: int) -> Span | None:
    name = index.name_at(path, line, col)
    return None if name is None else index.definitions[name].span


def references(index: PackIndex, path: Path, line: int, col: int, declaration: bool = True) -> list[Span]:
    name = index.name_at(path, line, col)
    if name is None:
        return []
    spans = [u.span for u in index.uses_of(name)]
    return [index.definitions[name].span, *spans] if declaration else spans


def rename_target(index: PackIndex, path: Path, line: int, col: int) -> tuple[str, Span] | None:
    """The counter or component id under the cursor, and its span there; None for anything else."""
    name = index.name_at(path, line, col)
    if name is None or index.definitions[name].kind not in RENAMEABLE:
        return None
    for span in references(index, path, line, col):
        if span.holds(path, line, col):
            return name, span
    return None


def rename(index: PackIndex, path: Path, line: int, col: int, new: str) -> list[Span] | None:
    """Every span to replace with `new`: the definition and each use. None when nothing renameable is there."""
    target = rename_target(index, path, line, col)
    return None if target is None else references(index, path, line, col)


# ---------------------------------------------------------------- completion


def completions(index: PackIndex | None, line_text: str, in_dsl: bool, yaml_file: str,
                self_type: str | None = None) -> list[Item]:
    """What may be typed at the end of `line_text`: DSL words inside a DSL string, schema keys otherwise.
    `self_type` is the component type `self` has in the DSL text there, if any."""
    if not in_dsl:
        return schema_keys(yaml_file) if re.fullmatch(r"\s*(-\s+)?[A-Za-z_]*", line_text) else []
    before = line_text.rstrip("abcdefghijklmnopqrstuvwxyz0123456789_")
    words = re.findall(r"[a-z_][a-z0-9_]*", before)
    last = words[-1] if words else ""
    if before.endswith("."):
        return attributes(index, self_type if before[:-1].endswith("self") else None)
    if index is not None and last == "emit":
        return [Item(e, "Event", "event") for e in sorted(index.events)]
    if index is not None and last == "call":
        return [_item(d) for d in index.definitions.values() if d.kind == "procedure"]
    items = [_item(d) for d in index.definitions.values()] if index is not None else []
    items += [Item(f.name, "Function", f"{f.name}({_params(f.arity)}) -> {NOUNS.get(f.returns.kind, 'any')}")
              for f in FUNCTIONS.values()]
    items += [Item(word, "Keyword", signature) for word, signature in statements().items()]
    return items


def attributes(index: PackIndex | None, ctype: str | None) -> list[Item]:
    """After `x.`: the attributes of `self`'s component type first, then every other name `x.NAME` may use."""
    if index is None:
        return []
    pack = index.pack
    own = pack.types[ctype].attrs if ctype in pack.types else {}
    return [*(Item(name, "Field", f"{a.type} attribute of {ctype}", a.description or "") for name, a in own.items()),
            *(Item(name, "Field", "attribute") for name in sorted(pack.attr_names) if name not in own)]


def _item(d: Definition) -> Item:
    kind = {"counter": "Variable", "wildcard": "Variable", "zone": "Folder", "component type": "Class",
            "procedure": "Function", "component": "Constant"}[d.kind]
    return Item(d.name, kind, d.kind, describe(d))


def _params(arity: tuple[int, int | None]) -> str:
    low, high = arity
    names = ["a", "b", "c", "d"]
    shown = names[:low]
    if high is None:
        shown.append("...")
    elif high > low:
        shown += [f"[{n}]" for n in names[low:high][:3]] + (["..."] if high - low > 3 else [])
    return ", ".join(shown)


@lru_cache(maxsize=1)
def statements() -> dict[str, str]:
    """Each DSL statement's first word and its rule, read from the grammar (`gain: "gain" expr NAME`)."""
    grammar = (data_dir("grammar") / "cogwork.lark").read_text(encoding="utf-8")
    stmt = re.search(r"\?stmt:(.*?)\n\n", grammar, re.S)
    names = set(re.findall(r"\w+", stmt.group(1))) if stmt else set()
    found: dict[str, str] = {}
    for rule, body in re.findall(r"^(\w+): (.*)$", grammar, re.M):
        first = re.match(r'"(\w+)"', body)
        if rule in names and first:
            found.setdefault(first.group(1), f"{first.group(1)} {body[first.end():].strip()}".strip())
    return found


@lru_cache(maxsize=4)
def schema_keys(yaml_file: str) -> list[Item]:
    """Every key the file's schema (pack, content or scenario) and the shared definitions describe."""
    names = ["pack.schema.json" if yaml_file == "pack.yaml" else "content.schema.json", "defs.schema.json"]
    keys: dict[str, str] = {}
    for name in names:
        for key, spec in _properties(json.loads((data_dir("schemas") / name).read_text(encoding="utf-8"))):
            if isinstance(spec, dict):
                keys.setdefault(key, str(spec.get("description", "")))
    return [Item(k, "Property", "key", doc) for k, doc in sorted(keys.items())]


def _properties(node: Any) -> Iterator[tuple[str, Any]]:
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "properties" and isinstance(value, dict):
                yield from value.items()
            yield from _properties(value)
    elif isinstance(node, list):
        for value in node:
            yield from _properties(value)


# ---------------------------------------------------------------- code actions


def suggestion(hint: str | None) -> str | None:
    """The name a did-you-mean hint proposes."""
    found = _DID_YOU_MEAN.search(hint or "")
    return found.group(1) if found else None
