"""Where DSL text sits in a pack: one iterator over every DSL text, used by every stage that reads them.

The builder takes each text it compiles from a `SiteIndex` of these sites (so it cannot compile a text
that is not one), and the type pass, `cogwork explain` and lint's semantic checks walk the same sites. A
test checks the builder asks for exactly these places, so a new place for DSL is type-checked and
rendered as soon as it is compiled.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from lark import Tree

from engine.dsl.parse import DslText, parse
from engine.packs.raw import Entry, RawPack
from engine.packs.source import DataPath, SourceFile


@dataclass(frozen=True)
class Site:
    """One DSL text of a pack: where it is, the grammar rule that parses it, and what it may name."""

    src: SourceFile
    path: DataPath
    text: str
    start: str                                   # "effect", "expr" or "cost"
    self_type: str | None = None                 # component type of `self`, when the text belongs to one
    bound: tuple[tuple[str, Site], ...] = ()     # flow `for` variables and the expression each ranges over
    number: str | None = None                    # what the value is, when it must be a number ("the score")
    params: tuple[str, ...] = ()                 # a procedure's parameters: locals its text starts with

    def __init__(self, src: SourceFile, path: DataPath, text: str, start: str, self_type: str | None = None,
                 bound: tuple[tuple[str, Site], ...] = (), number: str | None = None,
                 params: tuple[str, ...] = ()) -> None:
        """The fields at once: a frozen dataclass's own `__init__` sets them one `object.__setattr__` call at
        a time, and a big pack has a site per DSL text (50,000 in the lint bench)."""
        fields = self.__dict__
        fields["src"], fields["path"], fields["text"], fields["start"] = src, path, text, start
        fields["self_type"], fields["bound"], fields["number"], fields["params"] = self_type, bound, number, params


def pack_sites(raw: RawPack) -> Iterator[Site]:
    """Every DSL text of a pack, section by section."""
    yield from _definition_sites(raw)
    derived = {tid: _derived_attrs(e.data) for tid, e in raw.component_types.items()}
    for tid, e in raw.component_types.items():
        yield from _type_sites(tid, e, derived[tid])
    for e in raw.components.values():
        yield from component_sites(e.src, e.path, e.data, e.ctype, derived.get(e.ctype or "", {}))
    for e in raw.procedures.values():
        params = procedure_params(e.data)
        if isinstance(e.data, Mapping):
            yield Site(e.src, (*e.path, "effect"), str(e.data.get("effect", "")), "effect", params=params)
        else:
            yield Site(e.src, e.path, str(e.data), "effect")
    for e in raw.triggers:
        yield from _trigger_sites(e.src, e.path, e.data, None)
    if raw.flow is not None:
        yield from _flow_sites(raw.flow.src, raw.flow.path, raw.flow.data, ())
    if raw.scoring is not None:
        yield from _scoring_sites(raw.scoring.src, raw.scoring.path, raw.scoring.data)


def _type_sites(tid: str, e: Entry, derived: Mapping[str, Any]) -> Iterator[Site]:
    """A component type's texts: derived attributes' defaults, its admission rule, its container rules."""
    for name, (start, default) in derived.items():
        if default is not None:
            yield Site(e.src, (*e.path, "attrs", name, "default"), str(default), start, tid)
    if isinstance(e.data, Mapping) and e.data.get("admits") is not None:
        yield Site(e.src, (*e.path, "admits"), str(e.data["admits"]), "expr", tid)
    container = e.data.get("container") if isinstance(e.data, Mapping) else None
    if isinstance(container, Mapping):
        yield from _keyed(e.src, (*e.path, "container"), container, (("takes", "expr"),), tid)
        if container.get("capacity") is not None:
            yield Site(e.src, (*e.path, "container", "capacity"), str(container["capacity"]), "expr", tid,
                       number="a container's capacity")


def procedure_params(data: Any) -> tuple[str, ...]:
    """A procedure's parameters: `{params: [a, b], effect: ...}`; none for a procedure written as its text."""
    if isinstance(data, Mapping) and isinstance(data.get("params"), list):
        return tuple(str(p) for p in data["params"])
    return ()


def procedure_text_path(e: Entry) -> DataPath:
    """Where a procedure's DSL text is: the entry itself, or its `effect` in the `{params, text, effect}` form."""
    return (*e.path, "effect") if isinstance(e.data, Mapping) else e.path


def _definition_sites(raw: RawPack) -> Iterator[Site]:
    """Slot costs of zones, and the expressions of item-backed counters (`self` = the item)."""
    for e in raw.zones.values():
        for key in ("capacity", "keep_filled"):
            if isinstance(e.data, Mapping) and isinstance(e.data.get(key), str):
                yield Site(e.src, (*e.path, key), str(e.data[key]), "expr", number=f"a zone's {key} by player count")
        for i, slot in enumerate(_seq(e.data.get("slots"))):
            if isinstance(slot, Mapping) and slot.get("cost") is not None:
                yield Site(e.src, (*e.path, "slots", i, "cost"), str(slot["cost"]), "cost")
    for e in raw.counters.values():
        pool = e.data.get("items") if isinstance(e.data, Mapping) else None
        if isinstance(pool, Mapping):
            yield from _keyed(e.src, (*e.path, "items"), pool, (("where", "expr"), ("discard", "expr")), None)
            if pool.get("value") is not None:
                yield Site(e.src, (*e.path, "items", "value"), str(pool["value"]), "expr",
                           number="an item's value of an item-backed counter")


def component_sites(src: SourceFile, path: DataPath, data: Any, ctype: str | None,
                    derived: Mapping[str, Any]) -> Iterator[Site]:
    """A component's expression attributes, costs, actions and triggers."""
    if not isinstance(data, Mapping):
        return
    for name, (start, _default) in derived.items():
        if data.get(name) is not None:
            yield Site(src, (*path, name), str(data[name]), start, ctype)
    for i, text in enumerate(_seq(data.get("costs"))):
        yield Site(src, (*path, "costs", i), str(text), "cost", ctype)
    for i, action in enumerate(_seq(data.get("actions"))):
        if isinstance(action, Mapping):
            at = (*path, "actions", i)
            yield from _keyed(src, at, action, (("cost", "cost"), ("when", "expr"), ("effect", "effect")), ctype)
    for i, trigger in enumerate(_seq(data.get("triggers"))):
        yield from _trigger_sites(src, (*path, "triggers", i), trigger, ctype)
    yield from _in_play_sites(src, path, data, ctype)


def _in_play_sites(src: SourceFile, path: DataPath, data: Mapping, ctype: str | None) -> Iterator[Site]:
    """A component's rules that act while it is in play: anytime actions and cost modifiers."""
    for i, action in enumerate(_seq(data.get("anytime"))):
        if isinstance(action, Mapping):
            yield from _keyed(src, (*path, "anytime", i), action,
                              (("window", "expr"), ("cost", "cost"), ("effect", "effect")), ctype)
    for i, modifier in enumerate(_seq(data.get("modifiers"))):
        if isinstance(modifier, Mapping):
            at = (*path, "modifiers", i)
            yield from _keyed(src, at, modifier, (("applies", "expr"), ("surcharge", "cost"), ("from", "expr")), ctype)
            if modifier.get("discount") is not None:
                yield Site(src, (*at, "discount"), str(modifier["discount"]), "expr", ctype,
                           number="a cost modifier's discount")


_DSL_STARTS = {"expr": "expr", "cond": "expr", "effect": "effect", "cost": "cost"}


def _derived_attrs(data: Any) -> dict[str, tuple[str, Any]]:
    """A component type's DSL attributes (`expr`, `cond`, `effect`, `cost`): the grammar rule and the default."""
    attrs = data.get("attrs") if isinstance(data, Mapping) else None
    return {str(name): (_DSL_STARTS[spec["type"]], spec.get("default")) for name, spec in (attrs or {}).items()
            if isinstance(spec, Mapping) and spec.get("type") in _DSL_STARTS}


def _trigger_sites(src: SourceFile, path: DataPath, data: Any, ctype: str | None) -> Iterator[Site]:
    if isinstance(data, Mapping):
        yield from _keyed(src, path, data, (("when", "expr"), ("effect", "effect")), ctype)


def _keyed(src: SourceFile, path: DataPath, data: Mapping, keys: tuple[tuple[str, str], ...],
           ctype: str | None) -> Iterator[Site]:
    for key, start in keys:
        if data.get(key) is not None:
            yield Site(src, (*path, key), str(data[key]), start, ctype)


def _flow_sites(src: SourceFile, path: DataPath, steps: Any, bound: tuple[tuple[str, Site], ...]) -> Iterator[Site]:
    for i, step in enumerate(_seq(steps)):
        if not isinstance(step, Mapping):
            continue
        at = (*path, i)
        for key, start in (("do", "effect"), ("order", "expr"), ("if", "expr")):
            if step.get(key) is not None:
                yield Site(src, (*at, key), str(step[key]), start, bound=bound)
        repeat = step.get("repeat")
        if isinstance(repeat, Mapping):
            for key in ("count", "until"):
                if repeat.get(key) is not None:
                    yield Site(src, (*at, "repeat", key), str(repeat[key]), "expr", bound=bound,
                               number="the repeat count" if key == "count" else None)
        inner = bound
        loop = step.get("for")
        if isinstance(loop, Mapping):
            over = Site(src, (*at, "for", "in"), str(loop.get("in", "[]")), "expr", bound=bound)
            yield over
            inner = (*bound, (str(loop.get("var", "x")), over))
        for key in ("each_player", "simultaneous", "then", "else"):
            yield from _flow_sites(src, (*at, key), step.get(key), bound)
        yield from _flow_sites(src, (*at, "steps"), step.get("steps"), inner)


def _scoring_sites(src: SourceFile, path: DataPath, data: Any) -> Iterator[Site]:
    if not isinstance(data, Mapping):
        return
    if data.get("score") is not None:
        yield Site(src, (*path, "score"), str(data["score"]), "expr", number="the score")
    for i, text in enumerate(_seq(data.get("tiebreak"))):
        yield Site(src, (*path, "tiebreak", i), str(text), "expr", number="a tiebreak")
    breakdown = data.get("breakdown")
    for key, text in (breakdown.items() if isinstance(breakdown, Mapping) else ()):
        yield Site(src, (*path, "breakdown", key), str(text), "expr", number=f"the breakdown line '{key}'")
    for i, table in enumerate(_seq(data.get("ranks"))):
        if isinstance(table, Mapping) and table.get("when") is not None:
            yield Site(src, (*path, "ranks", i, "when"), str(table["when"]), "expr")
    for key in ("team_loss", "eliminated"):
        if data.get(key) is not None:
            yield Site(src, (*path, key), str(data[key]), "expr")
    if data.get("estimate") is not None:
        yield Site(src, (*path, "estimate"), str(data["estimate"]), "expr", number="the position estimate")


def _seq(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []




def parsed_sites(raw: RawPack) -> Iterator[tuple[Site, DslText, Tree]]:
    """Each site with its parse tree (and a `DslText` to report at); texts that do not parse are left out."""
    return parse_each(pack_sites(raw))


def parse_each(sites: Iterable[Site]) -> Iterator[tuple[Site, DslText, Tree]]:
    """`parsed_sites` for sites already listed."""
    for site in sites:
        tree = parse(site.text, site.start)
        if tree is not None:
            yield site, DslText(site.text, site.src, site.path), tree


class SiteIndex:
    """The sites of a pack by place: a compiler building definitions asks it for each place's text.

    The builder takes every DSL text from here, so it compiles exactly the texts `pack_sites` lists (the
    ones the type pass checks and `explain` renders); a place that is not a site has no text to compile.
    """

    def __init__(self, sites: Iterable[Site]) -> None:
        self._files: dict[str, dict[DataPath, str]] = {}     # file -> path -> text
        for site in sites:
            self._files.setdefault(site.src.display, {})[site.path] = site.text

    def get(self, src: SourceFile, path: DataPath) -> str | None:
        """The DSL text at `path` of `src`, or None when there is none."""
        texts = self._files.get(src.display)
        return None if texts is None else texts.get(path)

    def text(self, src: SourceFile, path: DataPath, default: str) -> str:
        """The DSL text at `path` of `src`; `default` (the text an absent key means) when there is none."""
        found = self.get(src, path)
        return default if found is None else found
