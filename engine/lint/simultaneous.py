"""HIDDEN002 and HIDDEN003: what one seat decides in a `simultaneous` step must not show to the seats after it.

The kernel asks the seats of a `simultaneous` step one after the other, so whatever the first seat's
answers change in state another seat can see is in that seat's view before it answers (a person behind a
divider, a bot, the serve page). Two checks, over the texts a seat's pass of such a step runs (its
sub-steps in order and the procedures they call):

- HIDDEN002, in a step with a `reveal:` list (the pack says its choices are secret until then): a write,
  at a point where the seat may already have answered a decision of the pass, to state other seats see: a
  counter (every seat sees every counter), an attribute of an item in a zone others see, a move or draw
  into or out of such a zone. A zone others see is `public` or `top` (no `face_down`: an item moved in face
  down shows only that it is there), or one the step's `reveal:` lists that no rule ever conceals while the
  step is in a flow loop (revealed after the first pass, it stays public for the next ones). Writes before
  the pass's first decision are the same whatever the seat plans and are not reported.
- HIDDEN003, in any `simultaneous` step: `count(q.Z)` of another seat's zone with
  `size: secret_in_simultaneous` (its size is not shown while such a step runs), or `q.C` of a counter that
  is the number of items in such a zone (`zone: Z`). Rules that run outside
  the flow's order (triggers, component actions, scoring and the bots' estimate) may run during the step
  and are checked too.

An item's own texts that `do ITEM.ATTR`, `do ACTION` and `activate` may run are walked too: every component's
ATTR effect, or every component's action effects (which item it is is known only in play). What is paid
without a `pay` statement is followed too: `play` (every component's `costs`, unless `free`, and the target
zone's slot costs), `pay ITEM.ATTR` (every cost ATTR a component or type gives) and an action's `cost` (`do
ACTION`, `activate`). Not followed: a `reveal` of a zone by some other rule before the step.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from lark import Token, Tree

from engine.diagnostics import Diagnostic
from engine.dsl.parse import DslText, choice_binders
from engine.dsl.sites import Site, procedure_text_path
from engine.lint.hidden import Text, reached, threaded_block
from engine.packs.raw import RawPack
from engine.runtime.defs import SIZE_SECRET_IN_SIMULTANEOUS, Pack

WRITE_CODE = "HIDDEN002"
SIZE_CODE = "HIDDEN003"
Where = tuple[str, int, int]
_DECISIONS = {"choose_item", "choose_number", "choose_alt", "repeat_choose_item", "repeat_choose_alt", "may"}
_BLOCKS = ("block", "branch", "alternatives", "if_stmt")
_LOOPS = {"for_stmt", "repeat_n", "while_stmt"}
_LINKS = {"link": "makes", "unlink": "cuts", "block_link": "blocks", "unblock_link": "frees"}
# the built-in events a statement may make (docs/pack-format.md `triggers`), for the triggers it may fire
_EVENTS = {"gain": ("gained", "changed", "passed"), "lose": ("changed", "passed"),
           "pay": ("paid", "changed", "passed"), "pay_attr": ("paid", "changed", "passed"),
           "move": ("moved", "placed"), "play": ("moved", "placed"), "draw": ("moved", "placed", "exhausted"),
           "set": ("changed", "passed"), "roll_dice": ("rolled",), "reroll": ("rolled",)}
_WRITE_HINT = ("keep a plan in state only its seat sees until the step's reveal (a `let`, an attribute of an item "
               "in an owner-only zone, a zone with `visibility: owner` listed in `reveal:`), or make the change "
               "after the step")


@dataclass(frozen=True)
class _Trigger:
    """A trigger's effect, as the walk follows it where its event fires."""

    text: Text
    when: Tree | None         # its condition, when it has one
    optional: bool            # it asks its owner first: a decision


@dataclass(frozen=True)
class _Step:
    """One `simultaneous` step of the flow."""

    sid: str                  # its id path, as the compiled flow names it (`turns/programming`)
    path: tuple               # where its sub-steps are in the flow file
    data: Any                 # its sub-steps
    reveal: frozenset[str]
    in_loop: bool             # inside a flow `repeat` or `for`: it may run again after its reveal


@dataclass
class _Pass:
    """Walks one seat's pass of a step: `decided` says whether the seat may have answered a decision yet."""

    leaks: _Leaks
    step: _Step
    found: dict[Where, str] = field(default_factory=dict)
    _stack: list[str] = field(default_factory=list)
    # a block walked again with the same `decided` ends the same way and reports nothing new: nested loops
    # and procedures called from many places are walked once per state, not once per path to them
    _done: dict[tuple[int, bool], bool] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.seen = self.leaks.seen_zones(self.step)

    def steps(self, path: tuple, data: Any, decided: bool) -> bool:
        for i, sub in enumerate(data if isinstance(data, list) else []):
            if isinstance(sub, Mapping):
                decided = self.fire("step_start", decided)
                decided = self.sub_step((*path, i), sub, decided)
                decided = self.fire("step_end", decided)
        return decided

    def sub_step(self, path: tuple, sub: Mapping, decided: bool) -> bool:
        if "do" in sub:
            return self.text(self.leaks.flow_text((*path, "do")), decided)
        if "if" in sub:
            then = self.steps((*path, "then"), sub.get("then"), decided)
            return then or self.steps((*path, "else"), sub.get("else"), decided)
        for key in ("each_player", "simultaneous", "steps"):
            if key in sub:    # a nested per-seat step or loop: it may run again after a decision in it
                once = self.steps((*path, key), sub.get(key), decided)
                return self.steps((*path, key), sub.get(key), once) if once and not decided else once
        return decided

    def text(self, text: Text | None, decided: bool) -> bool:
        if text is None or text[1].data != "effect":
            return decided
        return self.block(text[0], text[1], decided)

    def block(self, dsl: DslText, tree: Tree, decided: bool) -> bool:
        return threaded_block(self._done, (id(tree), decided), tree, decided,
                              lambda child, state: self.stmt(dsl, child, state))

    def stmt(self, dsl: DslText, t: Tree, decided: bool) -> bool:
        kind = str(t.data)
        if kind in ("effect", "block", "branch"):
            return self.block(dsl, t, decided)
        if decided:
            self.writes(dsl, t)
        if kind == "call":
            return self.call(str(t.children[0]), decided)
        if kind in ("do_stmt", "activate"):
            decided = self.item_texts(dsl, t, decided)
        for event, facts in self.leaks.events_of(dsl, t):
            decided = self.fire(event, decided, facts)
        inner = decided or kind in _DECISIONS
        blocks = [c for c in t.children if isinstance(c, Tree) and c.data in _BLOCKS]
        after = [self.inside(dsl, b, inner) for b in blocks]
        if kind in _LOOPS and any(after) and not inner:
            after += [self.inside(dsl, b, True) for b in blocks]     # its next pass runs after a decision
        return inner or any(after)

    def inside(self, dsl: DslText, block: Tree, decided: bool) -> bool:
        if block.data == "alternatives":
            return any([self.block(dsl, b, decided) for b in block.children if isinstance(b, Tree)])
        return self.stmt(dsl, block, decided)

    def fire(self, event: str, decided: bool, facts: Mapping[str, str] | None = None) -> bool:
        """Walk the triggers `event` may fire, where it fires: after them the seat may have answered when it
        had before, when one of them asks (an `optional` trigger asks its owner) or when one may not fire.
        `facts`: what the event is known to carry (`zone`, `counter`); a trigger whose `when` requires
        another value cannot fire."""
        after = decided
        for trigger in self.leaks.triggers.get(event, ()):
            key = f"trigger {id(trigger.text[1])}"
            if key in self._stack or not _may_fire(trigger.when, facts or {}):
                continue    # (a trigger firing itself: the kernel's nesting limit stops it in play)
            self._stack.append(key)
            try:
                after = self.text(trigger.text, decided or trigger.optional) or after
            finally:
                self._stack.pop()
        return after

    def item_texts(self, dsl: DslText, t: Tree, decided: bool) -> bool:
        """Walk the item texts `do ITEM.ATTR` (every component's ATTR effect), `do ACTION` and `activate ITEM with N`
        (every component's action effects; `activate` asks first) may run: which item is known only in play."""
        target = t.children[0]
        if t.data == "do_stmt" and isinstance(target, Tree) and target.data == "attr":
            texts = self.leaks.item_effects.get(str(target.children[1]), [])
        else:
            texts = self.leaks.actions
            decided = decided or t.data == "activate"
            if decided:
                self.cost_paid(dsl, t, "the action's", self.leaks.action_costs)
        after = decided
        for text in texts:
            key = f"item text {id(text[1])}"
            if key not in self._stack:
                self._stack.append(key)
                try:
                    after = self.text(text, decided) or after
                finally:
                    self._stack.pop()
        return after

    def call(self, name: str, decided: bool) -> bool:
        text = self.leaks.procedures.get(name)
        if text is None or name in self._stack:
            return decided
        self._stack.append(name)
        try:
            return self.text(text, decided)
        finally:
            self._stack.pop()

    # ---------------------------------------------------------------- what a statement writes
    def writes(self, dsl: DslText, t: Tree) -> None:
        kind = str(t.data)
        seen = self.seen
        if kind == "set":
            self.set_target(dsl, t, t.children[0], seen)
        elif kind in ("gain", "lose"):
            counter = t.children[1]
            if isinstance(counter, Token) and counter in self.leaks.pack.counters:
                self.report(dsl, counter, f"changes the counter '{counter}'", "every seat sees every counter")
        elif kind == "pay":
            for term in t.children[0].children:
                name = term.children[1] if isinstance(term, Tree) else None
                if isinstance(name, Token) and name in self.leaks.pack.counters:
                    self.report(dsl, name, f"pays the counter '{name}'", "every seat sees every counter")
        elif kind in ("play", "pay_attr"):
            whose = "the played item's" if kind == "play" else "the item's"
            self.cost_paid(dsl, t, whose, self.leaks.costs_paid(t))
        if kind in ("move", "play"):
            self.zone_write(dsl, t.children[1], "moves an item into", seen)
            for zone in self.leaks.zones_of(dsl, t.children[0]):
                if zone in seen:
                    self.report(dsl, t.children[0], f"moves an item out of zone '{zone}'", seen[zone])
        elif kind == "draw":
            self.zone_write(dsl, t.children[1], "draws out of", seen)
            self.zone_write(dsl, t.children[2], "draws into", seen)
        else:
            self.table_writes(dsl, t, kind)

    def table_writes(self, dsl: DslText, t: Tree, kind: str) -> None:
        """Dice thrown and boards changed: both lie on the table."""
        if kind in ("roll_dice", "reroll"):
            die = t.children[1] if kind == "roll_dice" else t.children[0]
            self.report(dsl, die, f"throws '{die}' dice", "dice lie on the table: every seat sees every pool")
        elif kind in _LINKS:
            self.report(dsl, t, f"{_LINKS[kind]} a link of a board", "every seat sees the boards")
        elif kind == "rotate":
            zones = self.leaks.zones_of(dsl, t.children[0])
            shown = [z for z in zones if z in self.seen]
            if shown or not zones:      # a tile on the board (or anywhere not known): its links show
                self.report(dsl, t, "turns a tile", self.seen[shown[0]] if shown else "every seat sees the boards")

    def set_target(self, dsl: DslText, t: Tree, target: Any, seen: dict[str, str]) -> None:
        counters = self.leaks.pack.counters
        if isinstance(target, Tree) and target.data == "name":
            name = str(target.children[0])
            if name in counters and name not in self.leaks.locals_of(dsl):
                self.report(dsl, target, f"sets the counter '{name}'", "every seat sees every counter")
            return
        if not (isinstance(target, Tree) and target.data == "attr"):
            return
        base, attr = target.children
        if str(attr) in counters and not self.leaks.zones_of(dsl, base):
            self.report(dsl, target, f"sets the counter '{attr}'", "every seat sees every counter")
            return
        for zone in self.leaks.zones_of(dsl, base):
            if zone in seen:
                self.report(dsl, target, f"sets '{attr}' of an item in zone '{zone}'", seen[zone])
                return

    def cost_paid(self, dsl: DslText, t: Tree, whose: str, counters: frozenset[str]) -> None:
        """A statement that pays a cost the pack wrote elsewhere (an item's, a slot's, an action's)."""
        if counters:
            names = ", ".join(f"'{c}'" for c in sorted(counters))
            self.report(dsl, t, f"pays {whose} cost (from the counter{'s' * (len(counters) > 1)} {names})",
                        "every seat sees every counter")

    def zone_write(self, dsl: DslText, target: Any, verb: str, seen: dict[str, str]) -> None:
        zone = _zone_named(target, self.leaks.pack)
        if zone is not None and zone in seen:
            self.report(dsl, target, f"{verb} zone '{zone}'", seen[zone])

    def report(self, dsl: DslText, at: Tree | Token, what: str, why: str) -> None:
        where = dsl.place(at)
        if where not in self.found:
            self.found[where] = (f"{what} during the simultaneous step '{self.step.sid}' after a choice, before the "
                                 f"step's reveal; {why}: the seats that choose after this one see its plan")


class _Leaks:
    """The pack's texts by place and what the checks need to know about its zones."""

    def __init__(self, raw: RawPack, pack: Pack, sites: list[tuple[Site, DslText, Tree]]) -> None:
        self.raw, self.pack = raw, pack
        self.texts: dict[tuple[str, tuple], Text] = {(s.src.display, s.path): (d, t) for s, d, t in sites}
        self._roots = {id(d): t for d, t in self.texts.values()}
        proc_paths = {(e.src.display, procedure_text_path(e)): name for name, e in raw.procedures.items()}
        self.procedures: dict[str, Text] = {proc_paths[k]: text for k, text in self.texts.items() if k in proc_paths}
        self.outside = [text for k, text in self.texts.items() if k not in proc_paths and not self.in_flow(k)]
        # (a tree holds a `conceal` only where its text has the keyword: most texts are not walked)
        self.concealed = {z for dsl, tree in self.texts.values() if "conceal" in dsl.text
                          for z in _concealed(tree, pack)}
        self._locals: dict[int, set[str]] = {}
        # the effect texts items carry: by attribute name (`do ITEM.ATTR`), and their actions (`do`, `activate`)
        self.item_effects: dict[str, list[Text]] = {}
        self.actions: list[Text] = []
        components = {(e.src.display, e.path) for e in raw.components.values()}
        for (file, where), item_text in self.texts.items():
            if item_text[1].data != "effect":
                continue
            if (file, where[:-1]) in components:
                self.item_effects.setdefault(str(where[-1]), []).append(item_text)
            elif where[-3:-2] == ("actions",) and where[-1] == "effect" and (file, where[:-3]) in components:
                self.actions.append(item_text)
        self._collect_costs(components)
        self.triggers: dict[str, list[_Trigger]] = {}
        for src, path, data in _trigger_entries(raw):
            text = self.texts.get((src, (*path, "effect")))
            if text is not None and isinstance(data.get("on"), str):
                when = self.texts.get((src, (*path, "when")))
                self.triggers.setdefault(data["on"], []).append(
                    _Trigger(text, None if when is None else when[1], data.get("optional") is True))

    def _collect_costs(self, components: set[tuple[str, tuple]]) -> None:
        """The counters the costs written apart from the statement paying them may take: items' `costs`
        (`play`), actions' `cost` (`do`, `activate`), zones' slot costs (`play`), cost attributes (`pay ITEM.ATTR`)."""
        self.item_costs: frozenset[str] = frozenset()
        self.action_costs: frozenset[str] = frozenset()
        self.slot_costs: dict[str, frozenset[str]] = {}
        self.attr_costs: dict[str, frozenset[str]] = {}
        for (file, where), (_, tree) in self.texts.items():
            if tree.data != "cost":
                continue
            paid = _cost_counters(tree, self.pack)
            if where[-2:-1] == ("costs",) and (file, where[:-2]) in components:
                self.item_costs |= paid
            elif where[-3:-2] == ("actions",) and where[-1] == "cost":
                self.action_costs |= paid
            elif where[:1] == ("zones",) and where[-3:-2] == ("slots",):
                self.slot_costs[str(where[1])] = self.slot_costs.get(str(where[1]), frozenset()) | paid
            elif (file, where[:-1]) in components:
                self.attr_costs[str(where[-1])] = self.attr_costs.get(str(where[-1]), frozenset()) | paid
            elif where[:1] == ("component_types",) and where[-3:-2] == ("attrs",):
                self.attr_costs[str(where[-2])] = self.attr_costs.get(str(where[-2]), frozenset()) | paid

    def costs_paid(self, t: Tree) -> frozenset[str]:
        """The counters `play` (its item's costs unless `free`, the zone's slot costs: any zone's when the target
        is not a zone name) or `pay ITEM.ATTR` (every cost ATTR a component gives) may pay from."""
        if t.data == "pay_attr":
            target = t.children[0]
            attr = str(target.children[1]) if isinstance(target, Tree) and target.data == "attr" else None
            return self.attr_costs.get(attr, frozenset()) if attr is not None else \
                frozenset().union(*self.attr_costs.values())
        zone = _zone_named(t.children[1], self.pack)
        slots = self.slot_costs.get(zone, frozenset()) if zone is not None else \
            frozenset().union(*self.slot_costs.values())
        return slots if t.children[2] is not None else slots | self.item_costs

    def events_of(self, dsl: DslText, t: Tree) -> list[tuple[str, dict[str, str]]]:
        """The events statement `t` may make, each with what it is known to carry (none for a `set` of a
        local or of an item's attribute)."""
        kind = str(t.data)
        if kind == "emit":
            return [(str(t.children[0]), {})]
        counters: list[Any] = []
        if kind in ("gain", "lose"):
            counters = [t.children[1]]
        elif kind == "pay":
            counters = [term.children[1] for term in t.children[0].children if isinstance(term, Tree)]
        elif kind == "set":
            target = t.children[0]
            name = target.children[0] if isinstance(target, Tree) and target.data == "name" else \
                target.children[1] if isinstance(target, Tree) and target.data == "attr" else None
            if name is None or str(name) not in self.pack.counters or str(name) in self.locals_of(dsl):
                return []
            counters = [name]
        if counters:
            return [(event, _known("counter", c, self.pack.counters)) for c in counters for event in _EVENTS[kind]]
        zones = self.pack.zones
        if kind in ("move", "play"):
            paid = [(event, {"counter": c}) for c in sorted(self.costs_paid(t)) for event in _EVENTS["pay"]] \
                if kind == "play" else []
            return [("moved", {}), ("placed", _known("zone", _zone_named(t.children[1], self.pack), zones)), *paid]
        if kind == "draw":
            return [("moved", {}), ("placed", _known("zone", _zone_named(t.children[2], self.pack), zones)),
                    ("exhausted", _known("zone", _zone_named(t.children[1], self.pack), zones))]
        return [(event, {}) for event in _EVENTS.get(kind, ())]

    def in_flow(self, key: tuple[str, tuple]) -> bool:
        flow = self.raw.flow
        return flow is not None and key[0] == flow.src.display and key[1][:len(flow.path)] == flow.path

    def flow_text(self, path: tuple) -> Text | None:
        flow = self.raw.flow
        return None if flow is None else self.texts.get((flow.src.display, path))

    def seen_zones(self, step: _Step) -> dict[str, str]:
        """The zones other seats see into during `step`'s passes, each with why."""
        out = {}
        for zid, z in self.pack.zones.items():
            if z.face_down is None and z.visibility in ("public", "top"):
                out[zid] = f"other seats see its items (visibility: {z.visibility})"
            elif step.in_loop and zid in step.reveal and zid not in self.concealed:
                out[zid] = ("the step's `reveal:` shows it and no rule conceals it, so other seats see its items "
                            "from the step's second pass on")
        return out

    def zones_of(self, dsl: DslText, value: Any) -> list[str]:
        """The zones an item named by `value` may be in: a component (its type's zone) or a name bound by a
        `for`/`choose` (the zones its collection names); [] when not known."""
        if not (isinstance(value, Tree) and value.data == "name"):
            return []
        name = str(value.children[0])
        comp = self.pack.components.get(name)
        if comp is not None:
            return [comp.ctype.zone] if comp.ctype.zone else []
        root = self.texts_root(dsl)
        for node in root.iter_subtrees() if root is not None else ():
            if node.data in ("choose_item", "repeat_choose_item", "for_stmt"):
                for bound, coll in choice_binders(node):
                    if str(bound) == name:
                        return _zones_in(coll, self.pack)
            if node.data == "let" and str(node.children[0]) == name:
                return _zones_in(node.children[1], self.pack)
        return []

    def texts_root(self, dsl: DslText) -> Tree | None:
        return self._roots.get(id(dsl))

    def locals_of(self, dsl: DslText) -> set[str]:
        """Names a text binds itself (`let`, `for`, `choose`): a `set` of one changes no counter."""
        found = self._locals.get(id(dsl))
        if found is None:
            root = self.texts_root(dsl)
            found = set()
            for node in root.iter_subtrees() if root is not None else ():
                if node.data == "let":
                    found.add(str(node.children[0]))
                elif node.data in ("choose_item", "repeat_choose_item", "for_stmt", "choose_number"):
                    found.update(str(n) for n in node.children if isinstance(n, Token) and n.type == "NAME")
            self._locals[id(dsl)] = found
        return found

    def reached(self, texts: Iterable[Text]) -> list[Text]:
        return reached(texts, self.procedures)

    def step_texts(self, path: tuple, data: Any) -> Iterator[Text]:
        """Every text of a step's sub-steps, nested ones included."""
        flow = self.raw.flow
        for (file, where), text in self.texts.items():
            if flow is not None and file == flow.src.display and where[:len(path)] == path:
                yield text


def simultaneous_leaks(raw: RawPack, pack: Pack, sites: Iterable[tuple[Site, DslText, Tree]]) -> Iterator[Diagnostic]:
    """HIDDEN002 and HIDDEN003 findings (see the module docstring)."""
    steps = list(_simultaneous_steps(raw))
    if not steps:      # most packs: nothing to walk (a big pack's texts are not even looked at)
        return
    leaks = _Leaks(raw, pack, list(sites))
    found: dict[Where, Diagnostic] = {}
    for step in steps:
        if not step.reveal:
            continue
        walk = _Pass(leaks, step)    # one seat's pass (each seat's starts before any decision of its own)
        walk.steps(step.path, step.data, False)
        for where, message in walk.found.items():
            found.setdefault(where, Diagnostic(WRITE_CODE, message, *where, severity="warning", hint=_WRITE_HINT))
    secret = {zid for zid, z in pack.zones.items() if z.size == SIZE_SECRET_IN_SIMULTANEOUS}
    if secret and steps:
        texts = [t for step in steps for t in leaks.step_texts(step.path, step.data)] + leaks.outside
        counters = {cid: c.zone for cid, c in pack.counters.items() if c.zone is not None and c.zone in secret}
        for dsl, tree in leaks.reached(texts):
            for node, zone in _size_reads(tree, secret, counters):
                where = dsl.place(node)
                found.setdefault(where, Diagnostic(
                    SIZE_CODE, f"reads how many items another player's zone '{zone}' holds where a simultaneous "
                    f"step may be running: its size is secret then (size: {SIZE_SECRET_IN_SIMULTANEOUS})",
                    *where, severity="warning",
                    hint=f"count only your own (`count({zone})`), or read it in a step after the simultaneous one"))
    yield from found.values()


def _known(key: str, name: Any, names: Mapping[str, Any]) -> dict[str, str]:
    """`{key: name}` when `name` is a plain name of `names` (a counter, a zone), else nothing known."""
    return {key: str(name)} if isinstance(name, str) and str(name) in names else {}


def _may_fire(when: Tree | None, facts: Mapping[str, str]) -> bool:
    """False when one of the `and`-ed parts of `when` is `event.K == V` for a K the event is known to carry
    with another value than V (a zone or counter name, or a string)."""
    if when is None or not facts:
        return True
    todo: list[Any] = [when]
    while todo:
        node = todo.pop()
        if not isinstance(node, Tree):
            continue
        if node.data in ("and_", "expr"):
            todo.extend(node.children)
        elif node.data == "eq":
            for side, other in (node.children, node.children[::-1]):
                key = _event_key(side)
                value = _literal(other)
                if key is not None and key in facts and value is not None and value != facts[key]:
                    return False
    return True


def _event_key(node: Any) -> str | None:
    """K of `event.K`."""
    if isinstance(node, Tree) and node.data == "attr" and isinstance(node.children[0], Tree) \
            and node.children[0].data == "name" and str(node.children[0].children[0]) == "event":
        return str(node.children[1])
    return None


def _literal(node: Any) -> str | None:
    """A bare name (`table`) or a string (`"coin"`) as the text it stands for."""
    if isinstance(node, Tree) and node.data == "name":
        return str(node.children[0])
    if isinstance(node, Tree) and node.data == "string":
        return str(node.children[0])[1:-1]
    return None


def _trigger_entries(raw: RawPack) -> Iterator[tuple[str, tuple, Mapping]]:
    """Every trigger of the pack, global or on a component: its file, its place and its data."""
    for e in raw.triggers:
        if isinstance(e.data, Mapping):
            yield e.src.display, e.path, e.data
    for e in raw.components.values():
        listed = e.data.get("triggers") if isinstance(e.data, Mapping) else None
        for i, data in enumerate(listed if isinstance(listed, list) else []):
            if isinstance(data, Mapping):
                yield e.src.display, (*e.path, "triggers", i), data


def _simultaneous_steps(raw: RawPack) -> Iterator[_Step]:
    """The flow's `simultaneous` steps, nested ones included."""
    flow = raw.flow
    if flow is None:
        return
    todo: list[tuple[tuple, Any, str, bool]] = [(flow.path, flow.data, "", False)]
    while todo:
        path, data, prefix, in_loop = todo.pop()
        for i, step in enumerate(data if isinstance(data, list) else []):
            if not isinstance(step, Mapping):
                continue
            here, sid = (*path, i), f"{prefix}{step.get('id', i)}"
            if "simultaneous" in step:
                reveal = frozenset(str(z) for z in step.get("reveal") or [])
                yield _Step(sid, (*here, "simultaneous"), step["simultaneous"], reveal, in_loop)
            for key in ("each_player", "simultaneous", "then", "else", "steps"):
                if isinstance(step.get(key), list):
                    todo.append(((*here, key), step[key], sid + "/", in_loop or "repeat" in step or "for" in step))


def _size_reads(tree: Tree, secret: set[str], counters: Mapping[str, str]) -> Iterator[tuple[Tree, str]]:
    """`q.Z` (q not `me`) for a size-secret Z inside the collection a `count(...)` counts, and `q.C` for a
    counter C that is the number of items in such a zone (`counters`: counter -> zone)."""
    for node in tree.iter_subtrees():
        if node.data == "attr" and str(node.children[1]) in counters and not _is_me(node.children[0]):
            yield node, counters[str(node.children[1])]
        if node.data != "call_fn" or str(node.children[0]) != "count" or len(node.children) < 2:
            continue
        for inner in node.children[1].iter_subtrees() if isinstance(node.children[1], Tree) else ():
            if inner.data == "attr" and str(inner.children[1]) in secret and not _is_me(inner.children[0]):
                yield inner, str(inner.children[1])


def _cost_counters(cost: Tree, pack: Pack) -> frozenset[str]:
    """The counters a cost text may pay from: the ones it names, and those its wildcards may stand for."""
    out: set[str] = set()
    for term in cost.children:
        if not isinstance(term, Tree):
            continue
        named = term.children[1]
        name = str(named) if isinstance(named, Token) else str(named.children[-1])
        wildcard = pack.wildcards.get(name)
        out.update(wildcard.pay if wildcard is not None else (name,) if name in pack.counters else ())
    return frozenset(out)


def _is_me(node: Any) -> bool:
    return isinstance(node, Tree) and node.data == "name" and str(node.children[0]) == "me"


def _zone_named(target: Any, pack: Pack) -> str | None:
    """The zone `Z`, `me.Z` or `q.Z` names (a player's zone: any seat's is the same kind), else None."""
    if isinstance(target, Tree) and target.data == "name" and str(target.children[0]) in pack.zones:
        return str(target.children[0])
    if isinstance(target, Tree) and target.data == "attr" and str(target.children[1]) in pack.zones:
        return str(target.children[1])
    return None


def _zones_in(coll: Any, pack: Pack) -> list[str]:
    """The zones a collection expression takes items from (`hand`, `items(a, b)`, `sorted(q.hand, ...)`,
    `hand where ...`): the zones it names outside any `where` condition or sort key."""
    if not isinstance(coll, Tree):
        return []
    zone = _zone_named(coll, pack)
    if zone is not None:
        return [zone]
    if coll.data == "collection":
        return _zones_in(coll.children[0], pack)
    if coll.data == "call_fn" and str(coll.children[0]) in ("items", "sorted"):
        args = coll.children[1:] if str(coll.children[0]) == "items" else coll.children[1:2]
        return [z for a in args for z in _zones_in(a, pack)]
    return []


def _concealed(tree: Tree, pack: Pack) -> Iterator[str]:
    for t in tree.iter_subtrees():
        if t.data == "conceal":
            zone = _zone_named(t.children[0], pack)
            yield from pack.zones if zone is None else (zone,)
