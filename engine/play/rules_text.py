"""Rules text for what a player sees at a table: options, cards and events in English, never raw DSL.

An option's label is what logs, scenarios and scripts store: the designer's label where the pack writes
one (`choose { "two coins": gain 2 coin | ... }`, `may { "draw": ... }`), else the engine's (the DSL text
of a `choose` alternative, `yes: <effect>` for a `may`). A table shows a designer's label as it is and
an engine label as `short(...)` English; `option(...)` is the option's full rules text. Both come from the
same English renderer as `cogwork explain`.
"""

from __future__ import annotations

from typing import Any

from engine.compile.build import build_pack
from engine.dsl.parse import parse
from engine.dsl.render import Renderer, plural, threshold_unit
from engine.dsl.sites import parsed_sites
from engine.packs.files import find_pack, load_pack_files
from engine.packs.raw import RawPack
from engine.runtime.decision import YES, Decision, DecisionKind
from engine.runtime.defs import ActionDef, Cost, Pack
from engine.runtime.state import Item

SHORT = 60   # characters a short option text keeps (a button, a terminal menu line)


def load_with_rules(spec: str) -> tuple[Pack, RulesText]:
    """Compile the pack named by `spec` and the rules text renderer for it (one read of the files)."""
    raw = load_pack_files(find_pack(spec))
    pack = build_pack(raw)
    return pack, RulesText(raw, pack)


def shorten(text: str, limit: int = SHORT) -> str:
    """The first sentence of `text`, cut at a word to at most `limit` characters."""
    first = text.split(". ")[0].rstrip(".")
    if len(first) <= limit:
        return first
    cut = first[:limit - 1].rsplit(" ", 1)[0]
    return cut + "…"


class RulesText:
    """English for one pack's options, components and events, as a table shows them."""

    def __init__(self, raw: RawPack, pack: Pack) -> None:
        self.raw, self.pack = raw, pack
        self.render = Renderer(pack, threshold_unit((tree for _, _, tree in parsed_sites(raw)), pack))
        self._cards: dict[str, str] = {}

    # ---------------------------------------------------------------- components
    def card(self, component_id: str) -> str:
        """A component's rules: its rendered costs, actions and triggers, then its printed text."""
        if component_id not in self._cards:
            entry = self.raw.components.get(component_id)
            lines = [] if entry is None else list(self.render.component(entry))
            printed = "" if entry is None else " ".join(str(entry.data.get("text", "")).split())
            if printed:
                lines.append(f"Printed: {printed}")
            self._cards[component_id] = "\n".join(lines)
        return self._cards[component_id]

    # ---------------------------------------------------------------- decisions
    def prompt(self, decision: Decision) -> str:
        """The decision's prompt; a `may` without a written prompt ("do: <DSL>?") reads as English."""
        prompt = decision.prompt
        if decision.kind is DecisionKind.MAY and prompt.startswith("do: ") and prompt.endswith("?"):
            return f"Do this? {self.render.text(prompt[4:-1], 'effect')}"
        return prompt

    def option(self, decision: Decision, index: int) -> str:
        """Option `index`'s full rules text ("" when its label says it all)."""
        payload = decision.payloads[index] if index < len(decision.payloads) else None
        if isinstance(payload, Item):
            return self.card(payload.comp.id)
        if isinstance(payload, ActionDef):
            return self._action(payload)
        if isinstance(payload, Cost):
            return f"Pay {self.render.text(payload.text, 'cost')}."
        rules = self._rules(decision, index)
        if rules:
            text = self.render.text(rules, "effect")
            return f"Yes: {text}" if decision.kind is DecisionKind.MAY else text
        return ""

    def short(self, decision: Decision, index: int) -> str:
        """What a button or menu line shows for option `index`: the label, or a short English rendering
        where the label is DSL (an unlabelled `choose { ... }` alternative or `may`)."""
        label = decision.labels[index]
        rules = self._rules(decision, index)
        if not rules or (decision.is_branch(index) and label != decision.unlabelled(index)):
            return label            # not a block of the rules, or one the designer labelled
        text = shorten(self.render.text(rules, "effect"))
        return f"Yes: {text}" if decision.kind is DecisionKind.MAY else text

    @staticmethod
    def _rules(decision: Decision, index: int) -> str:
        """The DSL option `index` runs: its block, or for a trigger's or action's `may` the text after "yes: "."""
        if decision.is_branch(index):
            return decision.rules_of(index)
        label = decision.labels[index]
        return label[len(YES):] if decision.kind is DecisionKind.MAY and label.startswith(YES) else ""

    def _action(self, action: ActionDef) -> str:
        body = self.render.text(action.effect.text, "effect")
        if action.cost is not None:
            body = f"Pay {self.render.text(action.cost.text, 'cost')}: {body}"
        if action.threshold is not None and self.render.unit:
            unit = plural(self.render.name_of(self.render.unit), str(action.threshold))
            body = f"{action.threshold} {unit}: {body}"
        return body

    # ---------------------------------------------------------------- names and events
    def name(self, ident: str) -> str:
        """A counter's, zone's or component's name (the id in words when it has none)."""
        return self.render.name_of(ident)

    def event(self, event: dict[str, Any], seat: int | None) -> str:
        """One event of a seat's feed (`Event.to_json()`) as a line; "" for ones not worth a line."""
        who = "nobody" if event.get("seat") is None else (
            "you" if event["seat"] == seat else f"P{event['seat'] + 1}")
        kind = event["kind"]
        if kind in ("gained", "paid"):
            verb = "gained" if kind == "gained" else "paid"
            amount = str(event.get("amount", ""))
            return f"{who} {verb} {amount} {plural(self.name(str(event.get('counter', ''))), amount)}"
        if kind == "moved":
            what = self.name(str(event["component"])) if event.get("component") else "an item"
            return f"{who}: {what} {self._zone(event.get('from'))} → {self._zone(event.get('to'))}"
        if kind == "drawn":
            where = f"{self._zone(event.get('from'))} to {self._zone(event.get('to'))}"
            return f"{who} drew {event.get('amount')} from {where}"
        if kind == "activated":
            return f"{who} used {self.name(str(event.get('component', '')))}: {event.get('action', '')}"
        if kind == "revealed" and event.get("components"):
            shown = ", ".join(self.name(str(c)) for c in event["components"])
            return f"revealed {self._zone(event.get('zone'))}: {shown}"
        if kind == "rolled":
            faces = event.get("faces", [])
            thrown = set(event.get("thrown", []))
            shown = ", ".join(f"[{face}]" if i in thrown else str(face) for i, face in enumerate(faces))
            die = plural(self.name(str(event.get("die", ""))), "2")
            return f"{who} rolled {die}: {shown or 'none'}" + (" ([n]: thrown now)" if len(thrown) < len(faces) else "")
        if kind == "step_started":
            return ""
        if kind == "round_started":
            return f"— round {event.get('round')} —"
        if kind == "game_ended":
            return f"game over: scores {event.get('scores')}"
        if kind in {k.value for k in DecisionKind} or kind in ("answered", "forced"):
            if "label" in event:
                return f"{who} chose {self.logged_label(str(event['label']))}"
            return f"{who} answered"
        return ""

    def logged_label(self, label: str) -> str:
        """An answer's label as a feed shows it: DSL labels (`pay 1 coin`, `yes: ...`) in short English."""
        if label.startswith(YES):
            return "yes: " + shorten(self.render.text(label[len(YES):], "effect"))
        if " " in label and parse(label, "effect") is not None:
            return shorten(self.render.text(label, "effect"))
        return label

    def _zone(self, zone: Any) -> str:
        if isinstance(zone, list) and len(zone) == 2:
            zid, owner = zone
            name = self.name(str(zid))
            return name if owner is None else f"P{owner + 1}'s {name}"
        return "?"
