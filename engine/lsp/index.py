"""What a pack defines and where each name is used: the language server's view of one pack.

Built from the loaded pack (with unsaved buffers, engine/packs/overlay.py) and the one iterator over its
DSL texts (engine/dsl/sites.py), never from lists of its own. A name is used where a DSL text names it
(not an attribute after `.`, not a function name) and where a definition is keyed by it.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from lark import Token, Tree

from engine.compile.build import Builder
from engine.diagnostics import PackError
from engine.dsl.parse import DslText
from engine.dsl.sites import Site, pack_sites, parse_each
from engine.packs.files import load_pack_files
from engine.packs.raw import Entry, RawPack
from engine.runtime.defs import Pack
from engine.usage import position_of

# RawPack section -> what a name defined there is, in a hover
KINDS: dict[str, str] = {
    "counters": "counter", "wildcards": "wildcard", "dice": "die", "zones": "zone", "component_types": "component type",
    "procedures": "procedure", "components": "component",
}


@dataclass(frozen=True)
class Span:
    """A range in a file: 1-based line and column of its first character, the column after its last."""

    path: Path
    line: int
    col: int
    end_col: int

    def holds(self, path: Path, line: int, col: int) -> bool:
        return path == self.path and line == self.line and self.col <= col < self.end_col


@dataclass(frozen=True)
class Definition:
    name: str
    kind: str
    entry: Entry

    @property
    def span(self) -> Span:
        line, col = self.entry.position()
        text = self.entry.src.lines[line - 1] if 0 < line <= len(self.entry.src.lines) else ""
        start = text.find(self.name, col - 1)
        col = start + 1 if start >= 0 else col
        return Span(self.entry.src.path, line, col, col + len(self.name))


@dataclass(frozen=True)
class Use:
    """One use of a defined name: in a DSL text, or a YAML value naming it."""

    name: str
    span: Span
    site: Site | None        # None: a YAML value, not DSL text


@dataclass
class PackIndex:
    """The names a pack (and the packs it depends on) defines, their uses, and its DSL texts."""

    raw: RawPack
    pack: Pack                              # compiled; partly, when the pack has errors
    sites: list[tuple[Site, DslText, Tree]]
    definitions: dict[str, Definition] = field(default_factory=dict)
    uses: list[Use] = field(default_factory=list)
    events: set[str] = field(default_factory=set)

    def uses_of(self, name: str) -> list[Use]:
        return [u for u in self.uses if u.name == name]

    def name_at(self, path: Path, line: int, col: int) -> str | None:
        """The defined name at a position: a use in DSL text, or the key/id that defines it."""
        for use in self.uses:
            if use.span.holds(path, line, col):
                return use.name
        for d in self.definitions.values():
            if d.span.holds(path, line, col):
                return d.name
        return None

    def site_at(self, path: Path, line: int, col: int) -> tuple[Site, DslText, Tree] | None:
        """The DSL text whose string covers a position."""
        for site, dsl, tree in self.sites:
            if site.src.path != path:
                continue
            first = site.src.dsl_pos(site.path, 0)
            last = site.src.dsl_pos(site.path, max(len(site.text) - 1, 0))
            if first <= (line, col) <= (last[0], last[1] + 1):
                return site, dsl, tree
        return None


def build_index(root: Path) -> PackIndex:
    """Load the pack at `root` and index it; raises PackError when it does not load."""
    raw = load_pack_files(root)
    listed = list(pack_sites(raw))
    sites = list(parse_each(listed))
    builder = Builder(raw, listed)
    try:
        pack = builder.build()
    except PackError:
        pack = builder.pack         # what compiled before the errors (lint's type pass reads it too)
    index = PackIndex(raw, pack, sites)
    for section, kind in KINDS.items():
        for name, entry in getattr(raw, section).items():
            index.definitions[name] = Definition(name, kind, entry)
    index.events = {str(t.data["on"]) for t in raw.triggers if isinstance(t.data, dict) and t.data.get("on")}
    for site, dsl, tree in sites:
        for token in referring_names(tree):
            name = str(token)
            if token.type == "NAME" and _is_emit(tree, token):
                index.events.add(name)
            if name in index.definitions:
                line, col = dsl.position(token.start_pos or 0)
                index.uses.append(Use(name, Span(site.src.path, line, col, col + len(name)), site))
    index.uses += _yaml_uses(raw, pack, index)
    return index


def _yaml_uses(raw: RawPack, pack: Pack, index: PackIndex) -> Iterator[Use]:
    """Names used by YAML values (a zone's `pay` list, an attribute naming a counter), from the compiler's
    cross-reference; each where the name is written (past an opening quote), not already a DSL use."""
    files = {src.display: src for src in raw.files}
    seen = {u.span for u in index.uses}
    for name, places in pack.usage.refs.items():
        if name not in index.definitions:
            continue
        for display, line, col in map(position_of, places):
            src = files.get(display)
            text = src.lines[line - 1] if src is not None and 0 < line <= len(src.lines) else ""
            start = col - 1 + (text[col - 1:col] in ("'", '"'))
            if src is None or text[start:start + len(name)] != name:
                continue
            span = Span(src.path, line, start + 1, start + 1 + len(name))
            if span not in seen:
                seen.add(span)
                yield Use(name, span, None)


def referring_names(tree: Tree) -> Iterator[Token]:
    """NAME tokens that may name a definition: not attribute names after `.`, not function names."""
    for sub in tree.iter_subtrees():
        skip: set[int] = set()
        if sub.data == "attr" and len(sub.children) > 1:
            skip.add(1)
        elif sub.data == "call_fn":
            skip.add(0)
        for i, child in enumerate(sub.children):
            if isinstance(child, Token) and child.type == "NAME" and i not in skip:
                yield child


def _is_emit(tree: Tree, token: Token) -> bool:
    return any(sub.data == "emit" and sub.children and sub.children[0] is token for sub in tree.iter_subtrees())
