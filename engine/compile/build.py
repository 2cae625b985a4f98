"""Turning a loaded, schema-checked pack into a compiled `Pack`.

Two passes: first every definition (so names are known), then every DSL text
is parsed and compiled with names resolved. All problems are collected and
raised together as one `PackError`.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Mapping
from functools import partial
from typing import Any

from engine.compile.effect import EffectCompiler
from engine.compile.flow import FlowCompiler
from engine.compile.sink import Diagnostics
from engine.diagnostics import Diagnostic, PackError, did_you_mean
from engine.dsl.parse import DslText
from engine.dsl.phrase import phrase_problems
from engine.dsl.sites import Site, SiteIndex, pack_sites, procedure_params, procedure_text_path
from engine.packs.raw import Entry, RawPack
from engine.packs.source import SourceFile
from engine.runtime.boards import (
    DERIVED_KINDS,
    FILES,
    Graph,
    Grid,
    derived_id,
    grid_cell_name,
    grid_neighbours,
    turned_links,
)
from engine.runtime.context import Ctx
from engine.runtime.costs import all_payers
from engine.runtime.defs import (
    SIZE_SHOWN,
    ActionDef,
    AnytimeDef,
    AttrDef,
    ComponentDef,
    ComponentType,
    ContainerDef,
    Cost,
    CounterDef,
    DieDef,
    Effect,
    Expr,
    Held,
    ItemPool,
    ModifierDef,
    Pack,
    RankTable,
    Scoring,
    Track,
    TriggerDef,
    WildcardDef,
    ZoneDef,
    plain_type_fits,
)
from engine.runtime.limits import MAX_ITEMS

PLAIN_TYPES = ("int", "str", "bool", "list")
DSL_TYPES = ("expr", "cond", "effect", "cost")
COMPONENT_KEYS = {"id", "name", "text", "copies", "costs", "actions", "mode", "triggers", "modifiers", "anytime"}


class Builder:
    """Compiles one pack: named passes over the raw pack, every problem reported to one sink."""

    def __init__(self, raw: RawPack, sites: Iterable[Site] | None = None) -> None:
        self.raw = raw
        self.procedures = {name: procedure_params(e.data) for name, e in raw.procedures.items()}
        self.sink = Diagnostics()
        # every DSL text, by place: compiled where it is needed (`sites`: pack_sites(raw), listed already)
        self.sites = SiteIndex(pack_sites(raw) if sites is None else sites)
        man = raw.manifest
        players = man.get("players", {}) or {}
        self.pack = Pack(id=str(man["id"]), name=str(man.get("name", man["id"])), version=str(man["version"]),
                         min_players=int(players.get("min", 1)), max_players=int(players.get("max", 1)),
                         options=dict(man.get("options", {}) or {}), root=str(raw.root))

    # ---------------------------------------------------------------- DSL
    def _compiler(self, dsl: DslText) -> EffectCompiler:
        return EffectCompiler(self.pack, dsl, self.procedures, self.pack.usage)

    def expr(self, src: SourceFile, path: tuple, text: Any, of_item: bool = False) -> Expr:
        """An expression's function; `of_item`: an item's attribute, read with that item as `self`."""
        dsl = self.sink.text(src, path, text)
        tree = dsl.parse("expr")
        return _zero if tree is None else self._compiler(dsl).expr_function(tree, of_item)

    def admission_at(self, src: SourceFile, path: tuple) -> Expr | None:
        """A slot admission rule, if the type has one: a condition on `it` (the item offered) and `self`
        (the receiver)."""
        text = self.sites.get(src, path)
        if text is None:
            return None
        dsl = self.sink.text(src, path, text)
        tree = dsl.parse("expr")
        return _zero if tree is None else self._compiler(dsl).admission_function(tree)

    def effect(self, src: SourceFile, path: tuple, text: Any) -> Effect:
        dsl = self.sink.text(src, path, text)
        tree = dsl.parse("effect")
        shown = " ".join(str(text).split())
        return Effect(_nothing, None, shown) if tree is None else self._compiler(dsl).effect_function(tree, shown)

    def cost(self, src: SourceFile, path: tuple, text: Any) -> Cost:
        dsl = self.sink.text(src, path, text)
        tree = dsl.parse("cost")
        return Cost(_no_cost, str(text)) if tree is None else self._compiler(dsl).cost(tree)

    def expr_at(self, src: SourceFile, path: tuple) -> Expr | None:
        """The expression at a place, if the pack has one there."""
        text = self.sites.get(src, path)
        return None if text is None else self.expr(src, path, text)

    def expr_or(self, src: SourceFile, path: tuple, default: str) -> Expr:
        """The expression at a place, or `default`'s when there is none (a score of "0")."""
        return self.expr(src, path, self.sites.text(src, path, default))

    def effect_at(self, src: SourceFile, path: tuple) -> Effect:
        """The effect at a place; the empty effect when there is none."""
        return self.effect(src, path, self.sites.text(src, path, ""))

    def cost_at(self, src: SourceFile, path: tuple) -> Cost | None:
        text = self.sites.get(src, path)
        return None if text is None else self.cost(src, path, text)

    # ---------------------------------------------------------------- the passes
    def build(self) -> Pack:
        """Definitions first (so every name is known), then every DSL text; all problems raised together."""
        self._definitions()
        self._check_references()
        order = self._components()
        self._check_items()
        self._boards(order)
        self._dsl_texts()
        self._trigger_indexes()
        self._flow()
        if self.raw.scoring is not None:
            self.pack.scoring = self._scoring(self.raw.scoring)
        self._display()
        if self.sink.has_errors():
            raise PackError(sorted(self.sink.found, key=lambda d: (d.file, d.line, d.col)))
        self.pack.payers = all_payers(self.pack)   # filled now: a pack is never written while matches run
        _intern_names(self.pack)
        return self.pack

    def _definitions(self) -> None:
        """Counters, wildcards, zones and component types: the names every later pass looks up."""
        raw, pack = self.raw, self.pack
        for cid, e in raw.counters.items():
            d = e.data
            pack.counters[cid] = CounterDef(cid, str(d.get("name", cid)), d.get("scope", "player"),
                                            int(d.get("initial", 0)), int(d.get("min", 0)), d.get("max"),
                                            bool(d.get("resource", False)), list(d.get("substitutes", []) or []),
                                            d.get("zone"), d.get("supply"), _pool(d.get("items")),
                                            _track(d.get("track")), _held(d.get("held")))
        for wid, e in raw.wildcards.items():
            d = e.data
            pack.wildcards[wid] = WildcardDef(wid, str(d.get("name", wid)), list(d.get("gain", [])),
                                              list(d.get("pay", [])))
        for did, e in raw.dice.items():
            pack.dice[did] = DieDef(did, str(e.data.get("name", did)), tuple(int(f) for f in e.data["faces"]))
        for zid, e in raw.zones.items():
            d = e.data
            pack.zones[zid] = ZoneDef(zid, str(d.get("name", zid)), d.get("scope", "player"),
                                      d.get("visibility", "public"), _plain_size(d.get("capacity")), [],
                                      d.get("refill_from"), d.get("draw_from"), d.get("discard_to"),
                                      bool(d.get("active", False)), _plain_size(d.get("keep_filled")) or 0,
                                      bool(d.get("random_draw", False)), face_down=d.get("face_down"),
                                      size=d.get("size", SIZE_SHOWN))
        for tid, e in raw.component_types.items():
            pack.types[tid] = self._ctype(tid, e)

    def _components(self) -> int:
        """Each component's plain values (its DSL comes later); returns how many there are."""
        raw, pack = self.raw, self.pack
        order = 0
        reported: set[tuple[str, tuple]] = set()
        for comp_id, e in raw.components.items():
            ctype = pack.types.get(e.ctype or "")
            if ctype is None:
                where = (e.src.display, e.path[:-1])
                if where not in reported:  # once per type key, not once per component under it
                    reported.add(where)
                    self.sink.error(e.src, e.path[:-1] if len(e.path) > 1 else e.path, "REF001",
                                    f"unknown component type '{e.ctype}'", did_you_mean(str(e.ctype), pack.types),
                                    key=True)
                continue
            pack.components[comp_id] = self._component_shell(comp_id, e, ctype, order)
            pack.usage.ref(ctype.id, partial(_key_place, e.src, e.path[:-1]) if len(e.path) > 1
                           else (e.src.display, 1, 1))
            order += 1
        for tid, ctype in pack.types.items():
            if ctype.grid_size is not None:
                order = self._grid_components(tid, ctype, order)
        return order

    def _grid_components(self, tid: str, ctype: ComponentType, order: int) -> int:
        """One component per cell of a grid declared by size, row 1 first, each row from column 1."""
        columns, rows = ctype.grid_size or (0, 0)
        e = self.raw.component_types[tid]
        if columns * rows > MAX_ITEMS:
            self.sink.error(e.src, (*e.path, "grid", "size"), "PACK012",
                            f"a {columns} by {rows} grid holds more than {MAX_ITEMS:,} cells, the engine's limit")
            return order
        if ctype.grid_names == "chess" and columns > len(FILES):
            self.sink.error(e.src, (*e.path, "grid", "names"), "BOARD003",
                            f"chess names go up to column {len(FILES)} ('z'); this grid has {columns} columns")
            return order
        listed = next((c for c in self.pack.components.values() if c.ctype is ctype), None)
        if listed is not None:
            ce = self.raw.components[listed.id]
            self.sink.error(ce.src, ce.path, "BOARD003", f"'{listed.id}' is listed, but the grid of '{tid}' is "
                            "declared by size and makes its cells itself",
                            "remove it, or declare `at` instead of `size`")
            return order
        for row in range(1, rows + 1):
            for col in range(1, columns + 1):
                name = grid_cell_name(ctype.grid_names, col, row)
                cid = name if ctype.grid_names == "chess" else f"{tid}_{col}_{row}"
                if cid in self.pack.components:
                    self.sink.error(e.src, (*e.path, "grid"), "BOARD003",
                                    f"the grid's cell '{cid}' has the id of a component listed in the pack",
                                    "rename that component: a grid declared by size names its own cells")
                    return order
                values = self._defaults(ctype) | {"col": col, "row": row}
                self.pack.components[cid] = ComponentDef(cid, name, ctype, 1, values, {}, [], [], "one", [], "", order)
                order += 1
        return order

    def _dsl_texts(self) -> None:
        """Every DSL text outside the flow and scoring: slot costs, derived attributes, components,
        procedures and pack triggers."""
        raw, pack = self.raw, self.pack
        pack.listened = _listened(raw)  # known before any DSL compiles: code for unheard events is simpler
        # choices compile differently in a pack with anytime actions: known before any DSL compiles too
        pack.anytime = any(hasattr(e.data, "get") and e.data.get("anytime") for e in raw.components.values())
        self._zone_dsl()
        self._pool_exprs()
        for tid, e in raw.component_types.items():
            admits = self.admission_at(e.src, (*e.path, "admits"))
            if admits is not None:
                pack.types[tid].admits = admits
            if hasattr(e.data.get("container"), "get"):
                pack.types[tid].container = ContainerDef(self.expr_at(e.src, (*e.path, "container", "capacity")),
                                                         self.expr_at(e.src, (*e.path, "container", "takes")))
        for tid, e in raw.component_types.items():
            self._derived_defaults(tid, e)
        for comp_id, e in raw.components.items():
            if comp_id in pack.components:
                self._component_dsl(pack.components[comp_id], e)
        for name, e in raw.procedures.items():
            pack.procedures[name] = self._procedure(name, e)
        for e in raw.triggers:
            pack.triggers.append(self._trigger(e.data, e.src, e.path, e.id))

    def _zone_dsl(self) -> None:
        """Zones' slot costs, and sizes read per match (by player count)."""
        for zid, e in self.raw.zones.items():
            zone = self.pack.zones[zid]
            for i, _slot in enumerate(e.data.get("slots", []) or []):
                zone.slots.append(self.cost_at(e.src, (*e.path, "slots", i, "cost")))
            for key in ("capacity", "keep_filled"):
                if isinstance(e.data.get(key), str):
                    zone.sizes[key] = self.expr_at(e.src, (*e.path, key)) or _zero

    def _procedure(self, name: str, e: Entry) -> Effect:
        """A procedure: its text, or `{params, text, effect}` (the parameters, locals named not to hide a name;
        the card phrase explain reads its calls with)."""
        params = self.procedures[name]
        path = procedure_text_path(e)
        if isinstance(e.data, Mapping) and e.data.get("text") is not None:
            self._phrase(name, e, params)
        dsl = self.sink.text(e.src, path, self.sites.text(e.src, path, ""))
        compiler = self._compiler(dsl)
        for i, param in enumerate(params):
            taken = compiler.taken_name(param)
            if taken is not None or param in params[:i]:
                self.sink.error(e.src, (*e.path, "params", i), "DSL017",
                                f"parameter '{param}' would hide {taken or 'another parameter of the same name'}",
                                "choose another name")
        tree = dsl.parse("effect")
        shown = " ".join(dsl.text.split())
        return Effect(_nothing, None, shown) if tree is None else compiler.effect_function(tree, shown, params, name)

    def _phrase(self, name: str, e: Entry, params: tuple[str, ...]) -> None:
        """A procedure's card phrase: kept for explain when every field names a parameter, else DSL019."""
        template = str(e.data["text"])
        problems = phrase_problems(template, params)
        for offset, message in problems:
            line, col = e.src.dsl_pos((*e.path, "text"), offset)
            self.sink.found.append(Diagnostic("DSL019", message, e.src.display, line, col,
                                              hint="write {NAME} only for a parameter in `params`"))
        if not problems:
            self.pack.phrases[name] = (params, template)

    def _trigger_indexes(self) -> None:
        """Triggers by event, and which events anyone hears (generated code skips the rest)."""
        pack = self.pack
        pack.triggers_on = _by_event(pack.triggers)
        for comp in pack.components.values():
            comp.triggers_on = _by_event(comp.triggers)
            pack.item_listened.update(comp.triggers_on)
        pack.early_events = {t.on for t in [*pack.triggers, *(t for c in pack.components.values() for t in c.triggers)]
                             if t.timing != "after"}
        pack.listened = set(pack.triggers_on) | pack.item_listened

    def _flow(self) -> None:
        raw = self.raw
        if raw.flow is not None:
            flow = FlowCompiler(self.pack, self.procedures, self.sink, self.sites, raw.flow.src, raw.flow.path)
            self.pack.flow, self.pack.untraced_flow, self.pack.quiet_flow = flow.compile(raw.flow.data)
        else:
            self.sink.found.append(Diagnostic("PACK003", "the pack has no `flow` section",
                                              raw.manifest_src.display, 1, 1))

    def _display(self) -> None:
        """pack.yaml `display` (schema-checked already): it may name only this pack's zones and counters, and a
        grid places items by attributes some component type declares."""
        pack, src = self.pack, self.raw.manifest_src
        display = self.raw.manifest.get("display") or {}
        attrs = {name for t in pack.types.values() for name in t.attrs}
        for section, known, what in (("zones", pack.zones, "zone"), ("counters", pack.counters, "counter")):
            for ident, spec in (display.get(section) or {}).items():
                path = ("display", section, ident)
                if ident not in known:
                    self.sink.error(src, path, "DISP001", f"display names unknown {what} '{ident}'",
                               did_you_mean(str(ident), known), key=True)
                    continue
                if spec.get("as") == "grid" and not ("x" in spec and "y" in spec):
                    self.sink.error(src, path, "DISP002", f"the grid of zone '{ident}' needs both `x` and `y`",
                                    key=True)
                for key in ("x", "y", "show"):
                    if key in spec and spec[key] not in attrs:
                        self.sink.error(src, (*path, key), "DISP002", f"no component type declares attribute"
                                   f" '{spec[key]}' (display of {what} '{ident}', `{key}`)",
                                   did_you_mean(str(spec[key]), attrs))
        pack.display = {"zones": dict(display.get("zones") or {}), "counters": dict(display.get("counters") or {})}

    def _boards(self, order: int) -> None:
        """Board graphs from `links` and `grid`, then the locations `derive` asks for (edges, corners)."""
        pack = self.pack
        for tid, ctype in pack.types.items():
            if ctype.links is None and ctype.grid is None and ctype.turns is None:
                continue
            members = self._board_members(tid, ctype)
            if members is not None:
                pack.graphs[tid] = Graph.build(tid, members)
        for tid, ctype in pack.types.items():
            if ctype.derive is None:
                continue
            kind, space_type = ctype.derive
            graph = pack.graphs.get(space_type)
            if graph is None:
                e = self.raw.component_types[tid]
                self.sink.error(e.src, (*e.path, "derive", kind), "TYPE003",
                                f"'{space_type}' is not a board: it needs `links: ATTR` naming its neighbour list "
                                "or `grid: {shape, at}`")
                continue
            for ends in graph.edges() if kind == "edges" else graph.corners():
                names = " / ".join(pack.components[c].name for c in ends)
                cid = derived_id(ends)
                pack.components[cid] = ComponentDef(cid, names, ctype, 1, self._defaults(ctype) | {"ends": list(ends)},
                                                    {}, [], [], "one", [], "", order)
                order += 1

    def _board_members(self, tid: str, ctype: ComponentType) -> dict[str, list[str]] | None:
        """Each space's neighbours: its `links` list plus its neighbours on the `grid`; None when either is broken."""
        pack, e = self.pack, self.raw.component_types[tid]
        members: dict[str, list[str]] = {c.id: [] for c in pack.components.values() if c.ctype is ctype}
        if ctype.links is not None:
            if ctype.attrs.get(ctype.links, AttrDef("", "")).type != "list":
                self.sink.error(e.src, (*e.path, "links"), "TYPE003",
                                f"links names '{ctype.links}', which must be a declared list attribute of '{tid}'")
                return None
            for cid in members:
                members[cid] += [str(x) for x in pack.components[cid].values.get(ctype.links) or []]
        if ctype.grid is not None:
            cells = self._grid_cells(tid, ctype, e)
            if cells is None:
                return None
            self.pack.grids[tid] = Grid.of(ctype.grid[0], cells)
            for cid, near in grid_neighbours(ctype.grid[0], cells).items():
                members[cid] += near
        if ctype.turns is not None:
            tiles = self._turning_tiles(tid, ctype, e, list(members))
            if tiles is None:
                return None
            for cid, near in turned_links(tiles).items():
                members[cid] += near
        return members

    def _turning_tiles(self, tid: str, ctype: ComponentType, e: Entry,
                       ids: list[str]) -> dict[str, tuple[list[str], list[int], int]] | None:
        """Tiles that turn: each one's neighbour per side, its exits and how far it starts turned."""
        assert ctype.turns is not None
        wanted = dict(zip(("sides", "exits", "rotation"), ctype.turns, strict=True))
        for key, attr in wanted.items():
            kind = "int" if key == "rotation" else "list"
            if ctype.attrs.get(attr, AttrDef("", "")).type != kind:
                self.sink.error(e.src, (*e.path, "turns", key), "TYPE003",
                                f"turns.{key} names '{attr}', which must be a declared {kind} attribute of '{tid}'")
                return None
        sides, exits, rotation = ctype.turns
        values = {cid: self.pack.components[cid].values for cid in ids}
        return {cid: ([str(s) if s else "" for s in v.get(sides) or []], [int(x) for x in v.get(exits) or []],
                      int(v.get(rotation) or 0)) for cid, v in values.items()}

    def _grid_cells(self, tid: str, ctype: ComponentType, e: Entry) -> dict[str, tuple[int, int]] | None:
        """Each component's cell on the type's grid (its `at` attribute: two whole numbers), all different."""
        shape, at = ctype.grid or ("", "")
        if ctype.grid_size is not None:   # generated: each cell's column and row
            return {c.id: (int(c.values["col"]), int(c.values["row"]))
                    for c in self.pack.components.values() if c.ctype is ctype}
        if ctype.attrs.get(at, AttrDef("", "")).type != "list":
            self.sink.error(e.src, (*e.path, "grid", "at"), "TYPE003",
                            f"grid.at names '{at}', which must be a declared list attribute of '{tid}'")
            return None
        cells: dict[str, tuple[int, int]] = {}
        taken: dict[tuple[int, int], str] = {}
        for comp in (c for c in self.pack.components.values() if c.ctype is ctype):
            value = comp.values.get(at)
            ce = self.raw.components[comp.id]
            if not (isinstance(value, list) and len(value) == 2
                    and all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
                self.sink.error(ce.src, (*ce.path, at), "BOARD001",
                                f"'{comp.id}' needs its cell on the {shape} grid in '{at}': two whole numbers, "
                                f"like [0, 1]; got {value!r}")
                continue
            cell = (value[0], value[1])
            if cell in taken:
                self.sink.error(ce.src, (*ce.path, at), "BOARD002",
                                f"'{comp.id}' and '{taken[cell]}' are both on cell {list(cell)} of the {shape} grid")
                continue
            taken[cell] = comp.id
            cells[comp.id] = cell
        return cells

    @staticmethod
    def _defaults(ctype: ComponentType) -> dict[str, Any]:
        return {name: a.default for name, a in ctype.attrs.items() if a.type not in DSL_TYPES}

    def _check_pool(self, pool: ItemPool, e: Entry) -> None:
        """An item-backed counter: a known zone, a bool attribute to mark exhausted items, a discard pile if asked."""
        pack, at = self.pack, (*e.path, "items")
        self._ref(pool.zone, pack.zones, e, (*at[len(e.path):], "zone"), "zone")
        kinds = {t.attrs[pool.exhaust].type for t in pack.types.values() if pool.exhaust in t.attrs}
        if kinds != {"bool"}:
            found = f"is declared as {', '.join(sorted(kinds))}" if kinds else "is not declared by any component type"
            bools = sorted({a.name for t in pack.types.values() for a in t.attrs.values() if a.type == "bool"})
            declare = "declare it on the items' type: attrs: {" + pool.exhaust + ": {type: bool, default: false}}"
            hint = (did_you_mean(pool.exhaust, bools) if not kinds else None) or declare
            self.sink.error(e.src, (*at, "exhaust"), "ITEMS001",
                            f"exhaust names '{pool.exhaust}', which {found}: it must be a bool attribute", hint)
        zone = pack.zones.get(pool.zone)
        counter = pack.counters[e.id]
        if zone is not None and counter.scope == "global" and zone.scope == "player":
            self.sink.error(e.src, (*at, "zone"), "ITEMS004",
                            f"'{e.id}' is one counter for the game but zone '{pool.zone}' belongs to each player",
                            f"make the counter per player (remove scope: global) or zone '{pool.zone}' global")
        if e.data["items"].get("discard") is not None and zone is not None and zone.discard_to is None:
            self.sink.error(e.src, (*at, "discard"), "ITEMS002",
                            f"discard sends items to the discard_to of zone '{pool.zone}', which has none",
                            f"add discard_to: ZONE to zone '{pool.zone}'")

    def _check_face_down(self, z: ZoneDef, e: Entry) -> None:
        """A zone's `face_down` names a bool attribute of the items that may lie there."""
        kinds = {t.attrs[z.face_down].type for t in self.pack.types.values() if z.face_down in t.attrs}
        if kinds != {"bool"}:
            found = f"is declared as {', '.join(sorted(kinds))}" if kinds else "is not declared by any component type"
            self.sink.error(e.src, (*e.path, "face_down"), "ZONE001",
                            f"face_down names '{z.face_down}', which {found}: it must be a bool attribute",
                            "declare it on the items' type: attrs: {" + str(z.face_down) + ": {type: bool, default:"
                            " false}}")

    def _check_track(self, c: CounterDef, e: Entry) -> None:
        """A track's markers are stored values, and pushing needs one marker per player."""
        at = (*e.path, "track")
        if c.track is not None and c.track.push and c.scope == "global":
            self.sink.error(e.src, (*at, "push"), "TRACK001",
                            f"'{c.id}' is one counter for the game, so its track has one marker: nothing to push",
                            "make the counter per player (remove scope: global) or drop push")
        if c.zone is not None or c.items is not None:
            self.sink.error(e.src, at, "TRACK002",
                            f"'{c.id}' counts items (zone or items), so it has no marker to move on a track",
                            "give the track to a stored counter")

    def _check_held(self, c: CounterDef, e: Entry) -> None:
        """A held counter: known zones, some component type that is a container, nothing else backing it."""
        assert c.held is not None
        for zid in c.held.zones:
            self._ref(zid, self.pack.zones, e, ("held", "zones"), "zone")
        if not any(hasattr(t.data.get("container"), "get") for t in self.raw.component_types.values()):
            self.sink.error(e.src, (*e.path, "held"), "HELD001",
                            f"'{c.id}' is held in containers, but no component type is a container",
                            "declare container: {capacity: EXPR} on the type of the items that hold it")
        if c.zone is not None or c.items is not None or c.supply is not None or c.track is not None:
            self.sink.error(e.src, (*e.path, "held"), "HELD002",
                            f"'{c.id}' is held in containers, so it cannot also be backed by a zone, items, a supply"
                            " or be a track", "keep `held` alone, or use another counter")

    def _pool_exprs(self) -> None:
        """Pass 2: compile each item-backed counter's value, where and discard (self = the item)."""
        for cid, c in self.pack.counters.items():
            if c.items is None:
                continue
            e = self.raw.counters[cid]
            for key in ("value", "where", "discard"):
                fn = self.expr_at(e.src, (*e.path, "items", key))
                if fn is not None:
                    setattr(c.items, key, fn)

    def _ctype(self, tid: str, e: Entry) -> ComponentType:
        d = e.data
        attrs: dict[str, AttrDef] = {}
        for name, spec in (d.get("attrs", {}) or {}).items():
            kind = str(spec.get("type", "int"))
            attrs[name] = AttrDef(name, kind, spec.get("default"), spec.get("enum"),
                                  str(spec.get("description", "")))
        derive = d.get("derive") or {}
        derived = next((k for k in DERIVED_KINDS if k in derive), None)
        if derived is not None:
            attrs.setdefault("ends", AttrDef("ends", "list", [], None, "ids of the spaces this location touches"))
        grid = d.get("grid") if isinstance(d.get("grid"), dict) else None
        turns = d.get("turns") if hasattr(d.get("turns"), "get") else None
        size = grid.get("size") if grid else None
        sized = (int(size[0]), int(size[1])) if isinstance(size, list) and len(size) == 2 else None
        if sized is not None:  # generated cells say where they are
            attrs.setdefault("col", AttrDef("col", "int", 0, None, "the cell's column (1 = the first)"))
            attrs.setdefault("row", AttrDef("row", "int", 0, None, "the cell's row (1 = the first)"))
        return ComponentType(tid, str(d.get("name", tid)), d.get("zone"), bool(d.get("per_player", False)), attrs,
                             d.get("links"), (derived, str(derive[derived])) if derived else None,
                             grid=(str(grid.get("shape", "hex")), str(grid.get("at", "" if sized else "at")))
                             if grid else None, grid_size=sized,
                             grid_names=str((grid or {}).get("names", "coordinates")),
                             turns=(str(turns.get("sides", "sides")), str(turns.get("exits", "exits")),
                                    str(turns.get("rotation", "rotation"))) if turns else None)

    def _check_references(self) -> None:
        """Names used by definitions (not DSL): zones, counters, attribute types."""
        self._counter_references()
        pack, raw = self.pack, self.raw
        for wid, w in pack.wildcards.items():
            for key in ("gain", "pay"):
                for member in getattr(w, key):
                    self._ref(member, pack.counters, raw.wildcards[wid], (key,), "counter")
        for zid, z in pack.zones.items():
            for key in ("refill_from", "draw_from", "discard_to"):
                if getattr(z, key) is not None:
                    self._ref(getattr(z, key), pack.zones, raw.zones[zid], (key,), "zone")
            if z.face_down is not None:
                self._check_face_down(z, raw.zones[zid])
        for tid, t in pack.types.items():
            self._type_references(t, raw.component_types[tid])

    def _counter_references(self) -> None:
        pack = self.pack
        for cid, c in pack.counters.items():
            e = self.raw.counters[cid]
            for sub in c.substitutes:
                self._ref(sub, pack.counters, e, ("substitutes",), "counter")
            if c.zone is not None:
                self._ref(c.zone, pack.zones, e, ("zone",), "zone")
            if c.supply is not None:
                self._ref(c.supply, pack.counters, e, ("supply",), "counter")
                if pack.counters.get(c.supply) and pack.counters[c.supply].scope != "global":
                    self.sink.error(e.src, (*e.path, "supply"), "REF003",
                                    f"supply '{c.supply}' must be a global counter")
            if c.items is not None:
                self._check_pool(c.items, e)
            if c.track is not None:
                self._check_track(c, e)
            if c.held is not None:
                self._check_held(c, e)

    def _type_references(self, t: ComponentType, e: Entry) -> None:
        pack, tid = self.pack, t.id
        if t.zone is not None:
            self._ref(t.zone, pack.zones, e, ("zone",), "zone")
            if pack.zones.get(t.zone) and pack.zones[t.zone].scope == "player" and not t.per_player:
                self.sink.error(e.src, (*e.path, "zone"), "TYPE002",
                                f"'{tid}' is not per_player but its zone '{t.zone}' belongs to each player")
        for name, a in t.attrs.items():
            if a.type not in PLAIN_TYPES + DSL_TYPES + ("zone", "counter") and a.type not in pack.types:
                self.sink.error(e.src, (*e.path, "attrs", name, "type"), "TYPE001",
                                f"unknown attribute type '{a.type}'",
                                did_you_mean(a.type, [*PLAIN_TYPES, *DSL_TYPES, "zone", "counter", *pack.types]))

    def _ref(self, name: str, table: dict, e: Entry, sub: tuple, kind: str) -> None:
        data = e.data
        for step in sub:
            data = data.get(step) if hasattr(data, "get") else None
        path = (*e.path, *sub)
        if isinstance(data, list) and name in data:
            path = (*path, data.index(name))
        if name not in table:
            self.sink.error(e.src, path, "REF001", f"unknown {kind} '{name}'", did_you_mean(name, table))
            return
        self.pack.usage.ref(name, partial(_value_place, e.src, path))

    def _check_items(self) -> None:
        """The items a game makes (per-player components once per seat, at the most players) stay within
        MAX_ITEMS: each is an object every game builds, so their number bounds a game's memory."""
        items = 0
        for comp_id, e in self.raw.components.items():
            comp = self.pack.components.get(comp_id)
            if comp is None:
                continue
            items += comp.copies * (self.pack.max_players if comp.ctype.per_player else 1)
            if items > MAX_ITEMS:
                self.sink.error(e.src, (*e.path, "copies") if "copies" in e.data else e.path, "PACK012",
                           f"with '{comp_id}' a game of {self.pack.max_players} players holds more than"
                           f" {MAX_ITEMS:,} items, the engine's limit")
                return

    def _component_shell(self, comp_id: str, e: Entry, ctype: ComponentType, order: int) -> ComponentDef:
        d = e.data
        values: dict[str, Any] = {}
        for name, a in ctype.attrs.items():
            if a.type in DSL_TYPES:
                continue
            value = d.get(name, a.default)
            if name in d:
                value = self._check_value(e, name, a, value)
            values[name] = value
        for key in d:
            if key not in COMPONENT_KEYS and key not in ctype.attrs:
                self.sink.error(e.src, (*e.path, key), "ATTR001", f"'{ctype.id}' has no attribute '{key}'",
                                did_you_mean(str(key), [*ctype.attrs, *COMPONENT_KEYS]), key=True)
        mode = str(d.get("mode", "one"))
        return ComponentDef(comp_id, str(d.get("name", comp_id)), ctype, int(d.get("copies", 1)), values, {}, [],
                            [], mode, [], str(d.get("text", "")), order)

    def _check_value(self, e: Entry, name: str, a: AttrDef, value: Any) -> Any:
        path = (*e.path, name)
        fits = plain_type_fits(a.type, value)
        if fits is not None:
            if not fits:
                self.sink.error(e.src, path, "ATTR002", f"'{name}' must be of type {a.type}, got {value!r}")
            elif a.enum and value not in a.enum:
                self.sink.error(e.src, path, "ATTR003", f"'{name}' must be one of {', '.join(a.enum)}; got '{value}'",
                                did_you_mean(str(value), a.enum))
            return list(value) if isinstance(value, list) else value
        pack = self.pack
        pack.usage.ref(str(value), partial(_value_place, e.src, path))
        # a `counter` attribute may also hold a wildcard: gained and paid as that wildcard (unit by unit)
        tables: dict[str, Mapping[str, Any]] = {"zone": pack.zones, "counter": {**pack.counters, **pack.wildcards}}
        table = tables.get(a.type)
        if table is not None:
            if value not in table:
                self.sink.error(e.src, path, "REF001", f"unknown {a.type} '{value}'", did_you_mean(str(value), table))
            return value
        ref = self.raw.components.get(value) if a.type in pack.types else None
        if ref is None or ref.ctype != a.type:
            candidates = [c for c, ce in self.raw.components.items() if ce.ctype == a.type]
            self.sink.error(e.src, path, "REF002", f"'{name}' must name a {a.type}, got '{value}'",
                            did_you_mean(str(value), candidates))
        return value

    # ---------------------------------------------------------------- pass 2 helpers
    def _derived_defaults(self, tid: str, e: Entry) -> None:
        ctype = self.pack.types[tid]
        for name, a in ctype.attrs.items():
            compiled = self._dsl_attr_at(e.src, (*e.path, "attrs", name, "default"), a.type)
            if compiled is not None:
                for comp in self.pack.components.values():
                    if comp.ctype is ctype:
                        self._store_dsl_attr(comp, name, a.type, compiled)

    def _dsl_attr_at(self, src: SourceFile, path: tuple, kind: str) -> Expr | Effect | Cost | None:
        """Compile the `expr`/`cond`, `effect` or `cost` attribute text at a place, if the pack has one there."""
        if kind not in DSL_TYPES:
            return None
        text = self.sites.get(src, path)
        if text is None:
            return None
        if kind == "effect":
            return self.effect(src, path, text)
        if kind == "cost":
            return self.cost(src, path, text)
        return self.expr(src, path, text, of_item=True)   # a derived attribute: `self` is the item read

    @staticmethod
    def _store_dsl_attr(comp: ComponentDef, name: str, kind: str, compiled: Any) -> None:
        tables: dict[str, dict[str, Any]] = {"effect": comp.effects, "cost": comp.prices}
        tables.get(kind, comp.derived)[name] = compiled

    def _component_dsl(self, comp: ComponentDef, e: Entry) -> None:
        d = e.data
        for name, a in comp.ctype.attrs.items():
            compiled = self._dsl_attr_at(e.src, (*e.path, name), a.type)
            if compiled is not None:
                self._store_dsl_attr(comp, name, a.type, compiled)
        for i in range(len(d.get("costs", []) or [])):
            cost = self.cost_at(e.src, (*e.path, "costs", i))
            if cost is not None:
                comp.costs.append(cost)
        for i, a in enumerate(d.get("actions", []) or []):
            comp.actions.append(self._action(e.src, (*e.path, "actions", i), a, i))
        for i, t in enumerate(d.get("triggers", []) or []):
            comp.triggers.append(self._trigger(t, e.src, (*e.path, "triggers", i), f"{comp.id}.trigger{i + 1}"))
        for i, m in enumerate(d.get("modifiers", []) or []):
            at = (*e.path, "modifiers", i)
            comp.modifiers.append(ModifierDef(str(m.get("id", f"modifier{i + 1}")),
                                              self.admission_at(e.src, (*at, "applies")),
                                              self.expr_at(e.src, (*at, "discount")),
                                              self.cost_at(e.src, (*at, "surcharge")),
                                              self.expr_at(e.src, (*at, "from"))))
            self.pack.modified = True
        for i, a in enumerate(d.get("anytime", []) or []):
            at = (*e.path, "anytime", i)
            effect = self.effect_at(e.src, (*at, "effect"))
            comp.anytime.append(AnytimeDef(str(a.get("id", f"{comp.id}.anytime{i + 1}")),
                                           str(a.get("label") or effect.text), self.expr_at(e.src, (*at, "window")),
                                           self.cost_at(e.src, (*at, "cost")), effect, a.get("limit")))

    def _action(self, src: SourceFile, path: tuple, a: Any, index: int) -> ActionDef:
        effect = self.effect_at(src, (*path, "effect"))
        threshold = a.get("threshold")
        label = a.get("label") or (f"[{threshold}] {effect.text}" if threshold is not None else effect.text)
        return ActionDef(str(a.get("id", f"action{index + 1}")), str(label), threshold,
                         self.expr_at(src, (*path, "when")), self.cost_at(src, (*path, "cost")),
                         effect, a.get("or_group"), index)

    def _trigger(self, t: Any, src: SourceFile, path: tuple, default_id: str) -> TriggerDef:
        effect = self.effect_at(src, (*path, "effect"))
        self.pack.usage.listen(str(t.get("on", "")), partial(_value_place, src, (*path, "on")))
        return TriggerDef(str(t.get("id", default_id)), str(t.get("on", "")),
                          self.expr_at(src, (*path, "when")),
                          effect, bool(t.get("optional", False)), t.get("limit"), str(t.get("timing", "after")),
                          str(t.get("label") or effect.text))

    def _scoring(self, e: Entry) -> Scoring:
        d = e.data
        at = e.path
        score = self.expr_or(e.src, (*at, "score"), "0")
        tiebreak = [self.expr_or(e.src, (*at, "tiebreak", i), "0") for i in range(len(d.get("tiebreak", []) or []))]
        breakdown = {str(k): self.expr_or(e.src, (*at, "breakdown", k), "0") for k in (d.get("breakdown", {}) or {})}
        ranks = [RankTable([int(n) for n in r.get("players", []) or []],
                           sorted((int(b["min"]), str(b["label"])) for b in r.get("bands", []) or []),
                           self.expr_at(e.src, (*at, "ranks", i, "when")))
                 for i, r in enumerate(d.get("ranks", []) or [])]
        team_loss, eliminated, estimate = (self.expr_at(e.src, (*at, key))
                                           for key in ("team_loss", "eliminated", "estimate"))
        return Scoring(score, tiebreak, breakdown, ranks, team_loss, eliminated, estimate)


def _value_place(src: SourceFile, path: tuple) -> tuple[str, int, int]:
    """Where the value at `path` is, as a usage place: worked out only if lint shows it (most are never
    shown, and a big pack has one per component and per reference in its attributes)."""
    line, col = src.pos(path)
    return src.display, line, col


def _key_place(src: SourceFile, path: tuple) -> tuple[str, int, int]:
    """Where the key naming `path`'s last step is, as a usage place (see `_value_place`)."""
    line, col = src.key_pos(path)
    return src.display, line, col


def _intern_names(pack: Pack) -> None:
    """Make the names a match's dicts are keyed by (attributes, zones, counters, events) interned strings.

    Generated code looks them up by constants, which Python interns; names read from YAML or the cache are
    equal strings but other objects, and a dict lookup that misses on identity compares the two strings'
    bytes (3% of the instructions of a game of the benchmark pack). Dicts are rebuilt in place (same order, same
    objects held by anyone else)."""
    def interned(table: dict[str, Any]) -> None:
        pairs = [(sys.intern(key), value) for key, value in table.items()]
        table.clear()
        table.update(pairs)

    for table in (pack.counters, pack.zones, pack.types, pack.components, pack.procedures, pack.triggers_on):
        interned(table)
    for counter in pack.counters.values():
        counter.id = sys.intern(counter.id)
    for zone in pack.zones.values():
        zone.id = sys.intern(zone.id)
    for comp in pack.components.values():
        comp.id = sys.intern(comp.id)
        interned(comp.values)
        interned(comp.triggers_on)
    for names in (pack.listened, pack.item_listened, pack.early_events):
        kept = {sys.intern(name) for name in names}
        names.clear()
        names.update(kept)


def _listened(raw: RawPack) -> set[str]:
    """Every event name some trigger (of the pack or of a component) listens to."""
    names = {str(e.data.get("on", "")) for e in raw.triggers}
    for e in raw.components.values():
        names.update(str(t.get("on", "")) for t in e.data.get("triggers", []) or [] if hasattr(t, "get"))
    return names


def _by_event(triggers: list[TriggerDef]) -> dict[str, list[TriggerDef]]:
    out: dict[str, list[TriggerDef]] = {}
    for t in triggers:
        out.setdefault(t.on, []).append(t)
    return out


def _nothing(ctx: Ctx) -> None:
    return None


def _zero(ctx: Ctx) -> int:
    return 0


def _no_cost(ctx: Ctx) -> dict[str, int]:
    return {}


def build_pack(raw: RawPack) -> Pack:
    return Builder(raw).build()


def _plain_size(value: Any) -> int | None:
    """A zone size written as a number (an expression string is read per match: ZoneDef.sizes)."""
    return None if value is None or isinstance(value, str) else int(value)


def _track(spec: Any) -> Track | None:
    """The `track:` of a counter (the schema has checked its shape)."""
    if not hasattr(spec, "get"):
        return None
    lap = spec.get("lap")
    return Track(bool(spec.get("push", False)), frozenset(int(v) for v in spec.get("shared", []) or []),
                 None if lap is None else int(lap), tuple(int(v) for v in spec.get("marks", []) or []))


def _held(spec: Any) -> Held | None:
    """The `held:` of a counter (the schema has checked its shape)."""
    if not hasattr(spec, "get"):
        return None
    return Held(tuple(str(z) for z in spec.get("zones", []) or []), int(spec.get("size", 1)))


def _pool(spec: Any) -> ItemPool | None:
    """The `items:` of a counter, its expressions compiled later (pass 2)."""
    if not hasattr(spec, "get"):
        return None
    return ItemPool(str(spec.get("zone", "")), str(spec.get("exhaust", "")))
