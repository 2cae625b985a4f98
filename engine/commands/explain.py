"""cogwork explain: components, procedures and triggers as readable rules text, to proofread and print."""

from __future__ import annotations

import argparse
from collections.abc import Iterator, Mapping

from engine.commands.common import EXIT_OK, UsageError
from engine.compile.build import Builder
from engine.diagnostics import did_you_mean
from engine.dsl.english import and_list, words
from engine.dsl.render import Renderer, threshold_unit
from engine.dsl.sites import parsed_sites, procedure_params
from engine.packs.files import find_pack, load_pack_files
from engine.packs.raw import Entry, RawPack
from engine.runtime.defs import SIZE_SHOWN

NAME = "explain"
HELP = "print components and their actions as rules text"
DESCRIPTION = ("Print the rules of a pack's components (costs, actions, triggers), procedures and triggers"
               " in plain English, rendered from their DSL, next to any printed `text`. With IDs, only those"
               " components, component types (all their components), item-backed counters, zones whose size is"
               " secret at times, procedures, triggers or `scoring`.")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("pack", help="built-in pack name (see content/) or a path to a pack folder")
    p.add_argument("ids", nargs="*", metavar="ID", help="component, component type, procedure or trigger ids")


def run(args: argparse.Namespace) -> int:
    raw = load_pack_files(find_pack(args.pack))
    pack = Builder(raw).build()
    renderer = Renderer(pack, threshold_unit((tree for _, _, tree in parsed_sites(raw)), pack))
    print("\n".join(Explainer(raw, renderer).lines(args.ids)))
    return EXIT_OK


class Explainer:
    """Chooses what to print for the ids asked for, and lays it out."""

    def __init__(self, raw: RawPack, renderer: Renderer) -> None:
        self.raw = raw
        self.render = renderer
        self.triggers = {e.id: e for e in raw.triggers}

    def lines(self, ids: list[str]) -> Iterator[str]:
        for ident in ids or self.everything():
            yield from self.one(ident)

    def everything(self) -> list[str]:
        return [*self.pools(), *self.tracks(), *self.helds(), *self.secret_sizes(), *self.raw.component_types,
                *self.raw.procedures, *self.triggers, *(["scoring"] if self.raw.scoring is not None else [])]

    def secret_sizes(self) -> list[str]:
        """The zones whose size is secret at times (`size:`): a rule of what players may know."""
        return [zid for zid, e in self.raw.zones.items()
                if hasattr(e.data, "get") and e.data.get("size", SIZE_SHOWN) != SIZE_SHOWN]

    def secret_size(self, entry: Entry) -> Iterator[str]:
        name = self.render.name_of(entry.id)
        whose = "a player's" if entry.data.get("scope", "player") == "player" else "the"
        yield f"Zone {name} ({entry.id}): while players choose at once (a simultaneous step, until its reveal)," \
              f" those who cannot see the items in {whose} {name} do not see how many there are either"
        yield from self.history(entry.id)

    def pools(self) -> list[str]:
        """The counters read from items: their rule is not obvious from their name."""
        return [cid for cid, e in self.raw.counters.items() if hasattr(e.data, "get") and e.data.get("items")]

    def pool(self, entry: Entry) -> Iterator[str]:
        """An item-backed counter as a rule: what it adds up, and how paying it exhausts items."""
        spec, text = entry.data["items"], self.render.text
        name = self.render.name_of(entry.id)
        value = text(str(spec["value"]), "expr") if spec.get("value") is not None else "1"
        where = f" (those where {text(str(spec['where']), 'expr')})" if spec.get("where") is not None else ""
        exhausted = words(str(spec.get("exhaust", "")))
        yield f"Counter {name} ({entry.id}): the total, over the items in" \
              f" {self.render.name_of(str(spec.get('zone', '')))} that are not {exhausted}{where}, of {value}"
        paid = f"  Paying N {name}: choose such items of positive value until they cover N (the rest is lost);" \
               f" each becomes {exhausted} and stops counting"
        if spec.get("discard") is not None:
            paid += f"; an item is discarded instead if {text(str(spec['discard']), 'expr')}"
        yield paid
        yield from self.history(entry.id)

    def tracks(self) -> list[str]:
        """The counters that are markers on a track: pushes, laps and marked spaces are rules to print."""
        return [cid for cid, e in self.raw.counters.items() if hasattr(e.data, "get") and e.data.get("track")]

    def track(self, entry: Entry) -> Iterator[str]:
        """A track as rules text: who pushes whom, the laps, the marked spaces."""
        spec, data = entry.data["track"], entry.data
        name = self.render.name_of(entry.id)
        low, high = data.get("min", 0), data.get("max")
        span = f"from {low} to {high}" if high is not None else f"from {low} up"
        yield f"Counter {name} ({entry.id}): a marker for each " \
              f"{'player' if data.get('scope', 'player') == 'player' else 'game'} on a track {span}"
        lap = spec.get("lap")
        if lap is not None:
            yield f"  Laps of {lap} spaces: {lap + 1} is space 1 of the second lap;" \
                  " markers on different laps stand on top of each other"
        if spec.get("push"):
            shared = sorted(spec.get("shared", []) or [])
            but = f" (except on {', '.join(map(str, shared))})" if shared else ""
            yield f"  Markers never share a space{but}: a marker landing on another's space pushes it one" \
                  " space on, in the direction it moved (which may push further)"
        marks = spec.get("marks") or []
        if marks:
            yield f"  Landing on or passing {', '.join(map(str, marks))}: event `passed` for the marker's owner"
        yield from self.history(entry.id)

    def helds(self) -> list[str]:
        """The counters held in containers: where they sit and how they are placed and paid is a rule."""
        return [cid for cid, e in self.raw.counters.items() if hasattr(e.data, "get") and e.data.get("held")]

    def held(self, entry: Entry) -> Iterator[str]:
        spec = entry.data["held"]
        name = self.render.name_of(entry.id)
        zones = ", ".join(self.render.name_of(str(z)) for z in spec.get("zones", []) or [])
        size = spec.get("size", 1)
        yield f"Counter {name} ({entry.id}): held in the containers in {zones}" + \
              (f"; each takes {size} room" if size != 1 else "")
        yield f"  Gaining {name}: place each one in a container with room for it (what fits nowhere is lost);" \
              " paying or losing it: take each one from a container of your choice"
        yield from self.history(entry.id)

    def container(self, data: dict) -> Iterator[str]:
        """A container type's room and what it takes."""
        spec, text = data["container"], self.render.text
        room = text(str(spec["capacity"]), "expr") if spec.get("capacity") is not None else "no limit"
        takes = text(str(spec["takes"]), "expr") if spec.get("takes") is not None else "every held counter"
        yield f"  A container: holds {takes}; capacity {room}"

    def scoring(self, entry: Entry) -> Iterator[str]:
        """The end of the game: score, tie-breakers, and who cannot win."""
        data, text = entry.data, self.render.text
        yield "== Scoring =="
        yield f"  Score: {text(str(data.get('score', '0')), 'expr')}"
        for i, tiebreak in enumerate(data.get("tiebreak", []) or [], 1):
            yield f"  Tie-breaker {i}: {text(str(tiebreak), 'expr')} (higher wins)"
        if data.get("eliminated") is not None:
            yield f"  A player is eliminated (cannot win) if {text(str(data['eliminated']), 'expr')}"
        if data.get("team_loss") is not None:
            yield f"  Everyone loses together if {text(str(data['team_loss']), 'expr')}"
        if data.get("estimate") is not None:
            yield f"  Bots judge a game not yet over by: {text(str(data['estimate']), 'expr')}" \
                  " (higher is better; it decides no winner)"
        yield from self.history("scoring")

    def one(self, ident: str) -> Iterator[str]:
        raw = self.raw
        if ident in raw.components:
            yield from self.component(raw.components[ident])
        elif ident in raw.component_types:
            yield from self.component_type(ident)
        elif ident in self.pools():
            yield from self.pool(raw.counters[ident])
        elif ident in self.tracks():
            yield from self.track(raw.counters[ident])
        elif ident in self.helds():
            yield from self.held(raw.counters[ident])
        elif ident in self.secret_sizes():
            yield from self.secret_size(raw.zones[ident])
        elif ident in raw.procedures:
            data = raw.procedures[ident].data
            params = procedure_params(data)
            text = data.get("effect", "") if isinstance(data, Mapping) else data
            given = f" (given {and_list(list(params))})" if params else ""
            yield f"Procedure {words(ident)}{given}: {self.render.text(str(text), 'effect')}"
            if isinstance(data, Mapping) and data.get("text") is not None:
                yield f"  A call reads: {data['text']}"
            yield from self.history(ident)
        elif ident == "scoring" and raw.scoring is not None:
            yield from self.scoring(raw.scoring)
        elif ident in self.triggers:
            yield f"Trigger {ident}: {self.render.trigger(self.triggers[ident].data)}"
        else:
            known = [*raw.components, *raw.component_types, *raw.procedures, *self.triggers, *self.pools(),
                     *self.tracks(), *self.helds(), *self.secret_sizes(), "scoring"]
            hint = did_you_mean(ident, known)
            raise UsageError(f"'{ident}' is not a component, component type, procedure or trigger of this pack"
                             + (f"; {hint}" if hint else ""))

    def component_type(self, ident: str) -> Iterator[str]:
        """A component type: its rules for what it takes, how it turns or holds, then every component."""
        raw = self.raw
        members = [e for e in raw.components.values() if e.ctype == ident]
        data = raw.component_types[ident].data
        grid = data.get("grid")
        size = grid.get("size") if isinstance(grid, Mapping) else None
        if isinstance(size, list) and len(size) == 2:   # the cells are made from the size, not listed
            shape = grid.get("shape", "hex")
            yield f"== {self.render.name_of(ident)} ({size[0]} by {size[1]} {shape} grid: {size[0] * size[1]}) =="
        else:
            yield f"== {self.render.name_of(ident)} ({len(members)}) =="
        if data.get("admits") is not None:
            holder = f"the {self.render.name_of(ident)}"
            yield f"  Takes an item only if {self.render.admission(str(data['admits']), holder)}"
        if hasattr(data.get("turns"), "get"):
            yield "  Tiles that turn: each is linked to a neighbour when both have an exit facing each other;" \
                  " turning a tile N sides clockwise moves its exits"
        if hasattr(data.get("container"), "get"):
            yield from self.container(data)
        for entry in members:
            yield from self.component(entry)

    def component(self, entry: Entry) -> Iterator[str]:
        data = entry.data
        copies = data.get("copies", 1)
        yield ""
        yield f"{data.get('name', entry.id)} ({entry.id})" + (f" ×{copies}" if copies != 1 else "")
        yield from (f"  {line}" for line in self.render.component(entry))
        if data.get("text"):
            yield f"  Printed: {' '.join(str(data['text']).split())}"
        yield from self.history(entry.id)

    def history(self, key: str) -> Iterator[str]:
        """How patches changed a definition: "defined in A (...)", "replaced cost by B (...)"."""
        if len(self.raw.history.get(key, ())) > 1:
            yield f"  History: {'; '.join(self.raw.history[key])}"
