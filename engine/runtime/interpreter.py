"""The interpreter: applies compiled effects to the state of one game.

Generated DSL code calls the methods here. A method that needs a player's
choice calls `ask`, which hands a `Decision` to whoever drives the game (the
`Session`, through `pause`) and returns the answer: effects are plain calls
that can stop anywhere and resume where they stopped.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from engine.errors import RuleError
from engine.runtime.boards import Graph
from engine.runtime.context import Ctx
from engine.runtime.costs import can_pay, explain, payment_ways, way_label
from engine.runtime.decision import Decision
from engine.runtime.defs import ActionDef, CounterDef, Pack, TriggerDef
from engine.runtime.dsl_values import as_items, contains, describe, offer
from engine.runtime.limits import CALL_WORK, DRAW_WORK, MAX_GAME_WORK, MAX_WORK, LimitError, out_of_work
from engine.runtime.state import Item, Player, PlayerRef, State, Zone

MAX_TRIGGER_DEPTH = 16
MAX_TRIGGER_FIRINGS = 200_000
MAX_CALL_DEPTH = 64
MAX_DECISIONS = 200_000
# events the interpreter emits itself; packs add their own with `emit`
BUILTIN_EVENTS = ("gained", "paid", "changed", "moved", "placed", "step_start", "step_end")


class Game:
    """One game of a pack: its state plus the operations effects perform."""

    def __init__(self, pack: Pack, players: int, seed: int, options: dict[str, bool] | None = None) -> None:
        if not pack.min_players <= players <= pack.max_players:
            raise RuleError(f"{pack.name} plays with {pack.min_players} to {pack.max_players} players,"
                            f" not {players}")
        unknown = [name for name in options or {} if name not in pack.options]
        if unknown:
            known = ", ".join(pack.options) or "none"
            raise RuleError(f"'{unknown[0]}' is not an option of {pack.name} (its options: {known})")
        self.pack = pack
        self.seed = seed
        self.options = {name: False for name in pack.options} | dict(options or {})
        self.state, self._instances = _new_state(pack, players, seed)
        self.step = ""
        self.epochs = {"turn": 0, "round": 0}
        self.decisions = 0
        self.work = 0  # units of work spent in all (engine/runtime/limits.py)
        self.stretch_start = 0  # the work spent when the last decision was asked
        self._work_limit = min(MAX_WORK, MAX_GAME_WORK)  # the total at which this stretch runs out
        self._trigger_depth = 0
        self._trigger_firings = 0
        self._call_depth = 0
        self._reserved: set[Item] = set()  # items being played: they cannot pay for themselves
        self.round_listener: Callable[[int], None] | None = None  # told when a flow `repeat` starts a pass
        self.draw_listener: Callable[[Zone, int], None] | None = None  # told of every draw (zone, amount asked)
        self.pause: Callable[[Decision], int] = _no_driver  # the session sets this: it returns the answer
        # (component id, "drawn" | "played" | "activated", seat or None) -> times: the designer's coverage
        # report; the seat (who drew, played or used it) lets the balance report relate components to wins
        self.coverage: Counter[tuple[str, str, int | None]] = Counter()
        # the acting seat's player, for generated code: no seat (a top-level step) reads as a clear error
        self.seats: dict[int | None, Any] = {p.seat: p for p in self.state.players}
        self.seats[None] = _NoActingPlayer()
        # zones whose items' triggers answer a seat's events: its own active zones, then the shared ones
        # (cards on the table answer every player; their `when` says for whom)
        shared = [z for z in self.state.zones.values() if z.zdef.active]
        self._active_zones = [[*(z for z in p.zones.values() if z.zdef.active), *shared] for p in self.state.players]
        refs = [PlayerRef(seat) for seat in range(players)]
        self._rotations = [refs[seat:] + refs[:seat] for seat in range(players)]
        self._orders = [[p.seat for p in rotation] for rotation in self._rotations]

    # ---------------------------------------------------------------- lookups
    def instance(self, comp_id: str, seat: int | None) -> Item:
        """The item of component `comp_id`: the seat's own for per-player types."""
        comp = self.pack.components[comp_id]
        owner = seat if comp.ctype.per_player else None
        item = self._instances.get((comp_id, owner))
        if item is None:
            raise RuleError(f"component '{comp_id}' has no item for player {owner}")
        return item

    def all_of(self, type_id: str, seat: int | None) -> list[Item]:
        ctype = self.pack.types[type_id]
        owner = seat if ctype.per_player else None
        self.each(self.state.items)  # it looks at every item of the game
        return [i for i in self.state.items if i.comp.ctype is ctype and i.owner == owner]

    def graph_of(self, space: Any) -> Graph:
        """The board `space` is on, as this match has it (its own copy once a link changed)."""
        item = _need_item(space, "a board function")
        changed = self.state.boards.get((item.comp.ctype.id, item.owner)) if self.state.boards else None
        if changed is not None:
            return changed
        graph = self.pack.graphs.get(item.comp.ctype.id)
        if graph is None:
            raise RuleError(f"'{item.comp.name}' is not a space of a board (its type declares no `links`)")
        return graph

    def admits(self, ctx: Ctx, receiver: Any, offered: Any) -> bool:
        """`admits(R, X)`: R's type's admission rule, with self = R and it = X (no rule: anything)."""
        item = _need_item(receiver, "admits")
        rule = item.comp.ctype.admits
        if rule is None:
            return True
        return bool(rule(Ctx(self, ctx.seat if item.owner is None else item.owner, item, offered=offered)))

    def relink(self, a: Any, b: Any, joined: bool) -> None:
        """`link A to B` / `unlink A from B`: change this match's copy of their board."""
        first, second = _need_item(a, "link"), _need_item(b, "link")
        graph = self.graph_of(first)
        if first.comp.ctype is not second.comp.ctype or first.owner != second.owner:
            raise RuleError(f"'{first.comp.name}' and '{second.comp.name}' are not spaces of the same board")
        key = (first.comp.ctype.id, first.owner)
        if key not in self.state.boards:
            graph = self.state.boards[key] = graph.copy()
        (graph.link if joined else graph.unlink)(first.comp.id, second.comp.id)

    def neighbors(self, space: Any) -> list[Item]:
        graph = self.graph_of(space)
        return [self.instance(cid, space.owner) for cid in graph.links[space.comp.id]]

    def counter(self, name: str, seat: int | None) -> int:
        cdef = self.pack.counters[name]
        if cdef.items is not None:
            return sum(value for _, value in self._pool(cdef, seat))
        if cdef.zone is not None:
            items = self.state.zone(cdef.zone, seat).items
            if self._reserved:
                return sum(1 for i in items if i not in self._reserved)
            return len(items)
        if cdef.scope == "global":
            return self.state.counters[name]
        return self.state.players[self._seat(seat)].counters[name]

    def _pool(self, cdef: CounterDef, seat: int | None) -> list[tuple[Item, int]]:
        """The unexhausted items an item-backed counter counts, each with its value."""
        pool = cdef.items
        assert pool is not None
        found = []
        for item in self.state.zone(pool.zone, seat).items:
            if item.attrs.get(pool.exhaust) or item in self._reserved:
                continue
            ctx = Ctx(self, seat if item.owner is None else item.owner, item)
            if pool.where is None or pool.where(ctx):
                found.append((item, 1 if pool.value is None else int(pool.value(ctx))))
        return found

    def spendable(self, name: str, seat: int | None) -> int:
        """How much of a counter a payment may use: an item-backed counter's items of positive value."""
        cdef = self.pack.counters.get(name)
        if cdef is not None and cdef.items is not None:
            return sum(value for _, value in self._pool(cdef, seat) if value > 0)
        return self.counter(name, seat)

    def acting(self, seat: int | None) -> int:
        """The acting seat, or a clear error where no player acts (e.g. a top-level flow step)."""
        return self._seat(seat)

    def turn_order(self) -> list[int]:
        """Every seat in turn order from the first player (a list made once per first player: never change it)."""
        return self._orders[self.state.counters.get("first_player", 0) % len(self._orders)]

    def players_from(self, seat: int) -> list[PlayerRef]:
        """Every player in turn order, starting with `seat` (a list made once per seat: never change it)."""
        return self._rotations[seat % len(self._rotations)]

    def _seat(self, seat: int | None) -> int:
        if seat is None:
            raise RuleError("this needs an acting player, but it runs outside any player's turn")
        return seat

    def _linked_zone(self, zid: str | None, seat: int | None) -> Zone:
        """The zone a `draw_from`/`discard_to` link names; a link the pack left out fails as an unknown zone."""
        if zid is None:
            raise KeyError(zid)
        return self.state.zone(zid, seat)

    # ---------------------------------------------------------------- the work budget
    def spend(self, units: int, what: str) -> None:
        """Spend units of this game's work budget; a LimitError when it runs out (a runaway rule)."""
        self.work += units
        if self.work > self._work_limit:
            raise self.out_of_work(what)

    def out_of_work(self, what: str) -> LimitError:
        if self.work > MAX_GAME_WORK:
            return out_of_work(what, MAX_GAME_WORK, whole_game=True)
        return out_of_work(what, MAX_WORK, whole_game=False)

    def new_stretch(self) -> None:
        """A decision is asked: the work since it is bounded afresh by MAX_WORK, the game's by MAX_GAME_WORK."""
        self.stretch_start = self.work
        self._work_limit = min(self.work + MAX_WORK, MAX_GAME_WORK)

    def passes(self, count: Any) -> range:
        """`repeat N`: the passes of the loop, all paid for when it starts (so `repeat 1000000000` fails at once)."""
        count = int(count)
        if count > 0:
            self.spend(count, f"a repeat of {count:,} passes")
        return range(count)

    def each(self, collection: Any) -> Any:
        """A collection a rule is about to go through (a loop, a filter, a sum, a choice's options), paid for
        by its length."""
        work = self.work = self.work + len(collection)
        if work > self._work_limit:
            raise self.out_of_work(f"going through {len(collection):,} elements")
        return collection

    def contains(self, value: Any, collection: Any) -> bool:
        """`value in collection`, paid by the length of what it searches (a list, a text or a zone)."""
        self.each(collection.items if isinstance(collection, Zone) else
                  collection if isinstance(collection, (list, tuple, str)) else ())
        return contains(value, collection)

    # ---------------------------------------------------------------- decisions
    def ask(self, ctx: Ctx, kind: str, prompt: str, labels: list[str], values: list[Any],
            optional: bool = False) -> Any:
        """Pause for the acting player's choice; a forced single option is taken at once."""
        if len(values) == 1 and not optional:
            return values[0]
        self.decisions += 1
        if self.decisions > MAX_DECISIONS:
            raise LimitError(f"more than {MAX_DECISIONS} decisions in one game: does a loop never end?")
        seat = self._seat(ctx.seat)  # raises when nobody is there to ask
        self.new_stretch()
        return values[self.pause(Decision(seat, kind, prompt, labels, values, self.step))]

    # ---------------------------------------------------------------- counters
    def set_counter(self, ctx: Ctx, name: str, value: int) -> None:
        cdef = self.pack.counters[name]
        if cdef.items is not None:
            raise RuleError(f"'{cdef.name}' is the sum of the items in zone '{cdef.items.zone}': it cannot be"
                            " gained, lost or set, only paid (by exhausting items)")
        self._store(cdef, ctx.seat)[name] = cdef.clamp(value)

    def _store(self, cdef: CounterDef, seat: int | None) -> dict[str, int]:
        """The dict holding a counter's value: the game's for global counters, else the seat's."""
        if cdef.scope == "global":
            return self.state.counters
        return self.state.players[self._seat(seat)].counters

    def gain(self, ctx: Ctx, name: str, amount: int) -> None:
        if amount <= 0:
            return
        wildcard = self.pack.wildcards.get(name)
        if wildcard is not None:
            self.spend(amount, f"gaining {amount:,} {wildcard.name} one at a time")
            for _ in range(amount):  # one unit at a time: a drawn card may inform the next choice
                member = self.ask(ctx, "gain", f"gain 1 {wildcard.name} as", list(wildcard.gain),
                                  list(wildcard.gain))
                self.gain(ctx, member, 1)
            return
        cdef = self.pack.counters[name]
        if cdef.items is not None:
            self.set_counter(ctx, name, 0)  # raises: an item-backed counter is never gained

        def apply() -> None:
            if cdef.zone is not None:
                own = self.state.zone(cdef.zone, ctx.seat)
                src = self._linked_zone(self.pack.zones[cdef.zone].draw_from, ctx.seat)
                self.draw(ctx, src, own, amount)
            else:
                self.change(ctx, name, self.counter(name, ctx.seat) + self._from_supply(cdef, amount))
        self.emit("gained", ctx.seat, {"counter": name, "amount": amount}, apply)

    def change(self, ctx: Ctx, name: str, value: int) -> None:
        """Set a counter and tell listeners: event `changed` with `old` and `new` (tracks, thresholds)."""
        cdef = self.pack.counters[name]
        if cdef.zone is None:
            store = self._store(cdef, ctx.seat)
            old = store[name]
            new = store[name] = cdef.clamp(value)
        else:
            old = self.counter(name, ctx.seat)
            self.set_counter(ctx, name, value)
            new = self.counter(name, ctx.seat)
        if new != old and "changed" in self.pack.listened:
            self.emit("changed", ctx.seat, {"counter": name, "old": old, "new": new})

    def _from_supply(self, cdef: CounterDef, amount: int) -> int:
        """Take up to `amount` from a limited shared supply (all of it when the counter has none)."""
        if cdef.supply is None:
            return amount
        taken = min(amount, self.state.counters[cdef.supply])
        self.state.counters[cdef.supply] -= taken
        return taken

    def _to_supply(self, cdef: CounterDef, amount: int) -> None:
        if cdef.supply is not None:
            self.state.counters[cdef.supply] += amount

    def lose(self, ctx: Ctx, name: str, amount: int) -> None:
        cdef = self.pack.counters[name]
        if cdef.items is not None:
            self.set_counter(ctx, name, 0)  # raises: an item-backed counter is only paid
        have = self.counter(name, ctx.seat)
        self.change(ctx, name, have - max(0, amount))
        self._to_supply(cdef, have - self.counter(name, ctx.seat))

    def can_pay(self, ctx: Ctx, need: dict[str, int]) -> bool:
        return can_pay(self.pack, need, lambda c: self.spendable(c, ctx.seat))

    def pay(self, ctx: Ctx, need: dict[str, int], text: str) -> None:
        ways = payment_ways(self.pack, need, lambda c: self.spendable(c, ctx.seat))
        if not ways:
            why = explain(self.pack, need, lambda c: self.spendable(c, ctx.seat))
            raise RuleError(f"cannot pay '{text}': {why}")
        way = self.ask(ctx, "pay", f"pay {text}", [way_label(w) for w in ways], ways)
        for name, amount in sorted(way.items()):
            self._spend(ctx, name, amount)

    def _spend(self, ctx: Ctx, name: str, amount: int) -> None:
        cdef = self.pack.counters[name]

        def apply() -> None:
            if cdef.items is not None:
                self._exhaust(ctx, cdef, amount)
                return
            if cdef.zone is None:
                self.change(ctx, name, self.counter(name, ctx.seat) - amount)
                self._to_supply(cdef, amount)
                return
            own = self.state.zone(cdef.zone, ctx.seat)
            to = self._linked_zone(self.pack.zones[cdef.zone].discard_to, ctx.seat)
            for _ in range(amount):
                spendable = [i for i in own.items if i not in self._reserved]
                item = self.choose_item(ctx, f"spend 1 {cdef.name}", spendable)
                self.move(ctx, item, to)
        self.emit("paid", ctx.seat, {"counter": name, "amount": amount}, apply)

    def _exhaust(self, ctx: Ctx, cdef: CounterDef, amount: int) -> None:
        """Pay `amount` with items: the player picks items until their values cover it (any excess is lost).

        A picked item is marked exhausted (it stays, and stops counting), or, when the pool's `discard`
        holds for it, moved to the zone's `discard_to`.
        """
        pool = cdef.items
        assert pool is not None
        left = amount
        while left > 0:
            offered = [item for item, value in self._pool(cdef, ctx.seat) if value > 0]
            item = self.choose_item(ctx, f"exhaust for {left} {cdef.name}", offered)
            inner = Ctx(self, ctx.seat if item.owner is None else item.owner, item)
            left -= int(1 if pool.value is None else pool.value(inner))
            if pool.discard is not None and pool.discard(inner):
                zone = item.zone
                assert zone is not None and zone.zdef.discard_to is not None
                self.move(ctx, item, self.state.zone(zone.zdef.discard_to, zone.owner))
            else:
                self.set_attr(item, pool.exhaust, True)

    def choose_item(self, ctx: Ctx, prompt: str, items: list[Item]) -> Item:
        """One of `items`, offered like a DSL `choose`: equal items once, labels unique (a log names one)."""
        options, labels = offer(items)
        return self.ask(ctx, "choose", prompt, labels, options)

    # ---------------------------------------------------------------- zones
    def set_attr(self, item: Item, attr: str, value: Any) -> None:
        if isinstance(value, Item):
            value = value.comp.id
        elif isinstance(value, Zone):
            value = value.id
        item.attrs[attr] = value

    def move(self, ctx: Ctx, item: Item, zone: Zone, top: bool = False) -> None:
        cap = zone.zdef.capacity
        if cap is not None and len(zone.items) >= cap and item.zone is not zone:
            raise RuleError(f"zone '{zone.id}' is full ({cap} items)")
        origin = item.zone
        if "moved" in self.pack.listened:
            self.emit("moved", ctx.seat, {"item": item, "from": origin, "to": zone},
                      lambda: self._place(ctx, item, origin, zone, top))
        else:  # the usual case: no event to build
            self._place(ctx, item, origin, zone, top)

    def _place(self, ctx: Ctx, item: Item, origin: Zone | None, zone: Zone, top: bool) -> None:
        if origin is not None:
            origin.items.remove(item)
            if origin.zdef.visibility == "hidden":
                self.coverage[(item.comp.id, "drawn", zone.owner)] += 1
        zone.items.insert(0, item) if top else zone.items.append(item)
        item.zone = zone
        if zone.zdef.active and (origin is None or not origin.zdef.active):
            self.coverage[(item.comp.id, "played", zone.owner if zone.owner is not None else ctx.seat)] += 1
        if origin is not None and origin.zdef.keep_filled:
            self.refill(ctx, origin)

    def refill(self, ctx: Ctx, zone: Zone) -> None:
        """A market row tops itself up from its `draw_from` zone whenever an item leaves it."""
        source = self._linked_zone(zone.zdef.draw_from, zone.owner)
        missing = zone.zdef.keep_filled - len(zone.items)
        if missing > 0:
            self.draw(ctx, source, zone, missing)

    def draw(self, ctx: Ctx, src: Zone, dst: Zone, amount: int) -> None:
        if self.draw_listener is not None:
            self.draw_listener(src, amount)
        for _ in range(amount):
            self.work += DRAW_WORK
            if self.work > self._work_limit:
                raise self.out_of_work(f"drawing {amount:,} items")
            if not src.items and src.zdef.refill_from:
                refill = self.state.zone(src.zdef.refill_from, src.owner)
                src.items.extend(refill.items)
                for item in refill.items:
                    item.zone = src
                refill.items.clear()
                self.shuffle(src)
            if not src.items:
                return
            pick = self.state.rng.randrange(len(src.items)) if src.zdef.random_draw else 0
            self.move(ctx, src.items[pick], dst)

    def shuffle(self, zone: Zone) -> None:
        self.state.rng.shuffle(self.each(zone.items))

    def reveal(self, zone: Zone) -> None:
        zone.visibility = "public"

    def conceal(self, zone: Zone) -> None:
        zone.visibility = zone.zdef.visibility

    # ---------------------------------------------------------------- placing with costs
    def _play_needs(self, ctx: Ctx, item: Item, zone: Zone, free: bool) -> list[tuple[str, dict[str, int]]]:
        """(label, combined cost) for each alternative cost of `item` plus the slot's cost."""
        slots = zone.zdef.slots
        slot_cost = slots[len(zone.items)] if len(zone.items) < len(slots) else None
        extra = slot_cost.amounts(ctx) if slot_cost is not None else {}
        alternatives = [] if free else [(c.text, c.amounts(ctx)) for c in item.comp.costs]
        if not alternatives:
            return [("free", dict(extra))]
        out = []
        for text, need in alternatives:
            combined = dict(need)
            for name, n in extra.items():
                combined[name] = combined.get(name, 0) + n
            out.append((text, combined))
        return out

    def can_play(self, ctx: Ctx, item: Any, zone: Any, free: bool) -> bool:
        if not isinstance(item, Item) or not isinstance(zone, Zone):
            raise RuleError(f"play needs an item and a zone, got {describe(item)} and {describe(zone)}")
        cap = zone.zdef.capacity
        if cap is not None and len(zone.items) >= cap:
            return False
        self._reserved.add(item)  # the item being played cannot pay for itself
        try:
            return any(self.can_pay(ctx, need) for _, need in self._play_needs(ctx, item, zone, free))
        finally:
            self._reserved.discard(item)

    def play(self, ctx: Ctx, item: Item, zone: Zone, free: bool) -> None:
        if not self.can_play(ctx, item, zone, free):
            raise RuleError(f"'{item.comp.name}' cannot be played to '{zone.id}' now")
        self._reserved.add(item)
        try:
            options = [(text, need) for text, need in self._play_needs(ctx, item, zone, free)
                       if self.can_pay(ctx, need)]
            labels = [text for text, _ in options]
            text, need = self.ask(ctx, "cost", f"cost for {item.comp.name}", labels, options)
            self.pay(ctx, need, text)
        finally:
            self._reserved.discard(item)
        self.emit("placed", ctx.seat, {"item": item, "zone": zone},
                             lambda: self.move(ctx, item, zone))

    # ---------------------------------------------------------------- actions
    def _action_ctx(self, ctx: Ctx, item: Item) -> Ctx:
        return ctx.child(seat=item.owner if item.owner is not None else ctx.seat, self_item=item)

    def _legal_action(self, ctx: Ctx, action: ActionDef) -> bool:
        if action.when is not None and not action.when(ctx):
            return False
        if action.cost is not None and not self.can_pay(ctx, action.cost.amounts(ctx)):
            return False
        return action.effect.legal is None or bool(action.effect.legal(ctx))

    def perform(self, ctx: Ctx, action: ActionDef) -> None:
        if ctx.self_item is not None:
            self.coverage[(ctx.self_item.comp.id, "activated", ctx.seat)] += 1
        if action.cost is not None:
            self.pay(ctx, action.cost.amounts(ctx), action.cost.text)
        action.effect.run(ctx)

    @contextmanager
    def _nested(self, what: str) -> Iterator[None]:
        """`do` runs rules inside rules, like `call`: at most MAX_CALL_DEPTH deep, so a rule that does
        itself is a rule error, not a crash."""
        self._call_depth += 1
        try:
            if self._call_depth > MAX_CALL_DEPTH:
                raise RuleError(f"'do' nested deeper than {MAX_CALL_DEPTH} (at {what}): recursion?")
            yield
        finally:
            self._call_depth -= 1

    def can_do(self, ctx: Ctx, target: Any) -> bool:
        item = _need_item(target, "do")
        if self._call_depth >= MAX_CALL_DEPTH:
            return False
        inner = self._action_ctx(ctx, item)
        with self._nested(item.comp.name):
            return any(self._legal_action(inner, a) for a in item.comp.actions)

    def do(self, ctx: Ctx, target: Any) -> None:
        item = _need_item(target, "do")
        inner = self._action_ctx(ctx, item)
        with self._nested(item.comp.name):
            legal = [a for a in item.comp.actions if self._legal_action(inner, a)]
            if not legal:
                raise RuleError(f"'{item.comp.name}' has no action that can be done now")
            action = self.ask(ctx, "action", f"action of {item.comp.name}", [a.label for a in legal], legal)
            self.perform(inner, action)

    def position(self, seat: int) -> int:
        """A seat's place in turn order: 1 for the first player (the counter `first_player`), then clockwise."""
        players = len(self.state.players)
        return (seat - self.state.counters.get("first_player", 0)) % players + 1

    def counter_id(self, value: Any, wildcards: bool = True) -> str:
        """A counter named through data (`gain 1 c.cube`): the attribute must hold a counter's id."""
        if isinstance(value, str) and (value in self.pack.counters or (wildcards and value in self.pack.wildcards)):
            return value
        raise RuleError(f"{describe(value)} does not name a counter")

    @staticmethod
    def add_amounts(pairs: list[tuple[str, int]]) -> dict[str, int]:
        """A cost's amounts when some counters are named through data: the same counter twice adds up."""
        need: dict[str, int] = {}
        for name, amount in pairs:
            need[name] = need.get(name, 0) + amount
        return need

    def can_run_attr(self, ctx: Ctx, target: Any, name: str) -> bool:
        item = _need_item(target, "do")
        effect = _attr_of(item, name, item.comp.effects, "effect")
        if effect.legal is None:
            return True
        if self._call_depth >= MAX_CALL_DEPTH:
            return False
        with self._nested(f"'{name}' of {item.comp.name}"):
            return bool(effect.legal(ctx.child(self_item=item)))

    def run_attr(self, ctx: Ctx, target: Any, name: str) -> None:
        """`do ITEM.ATTR`: run the item's `effect` attribute for the acting player, with `self` = the item."""
        item = _need_item(target, "do")
        with self._nested(f"'{name}' of {item.comp.name}"):
            _attr_of(item, name, item.comp.effects, "effect").run(ctx.child(self_item=item))

    def price_of(self, ctx: Ctx, target: Any, name: str) -> tuple[dict[str, int], str]:
        """The amounts and text of the item's `cost` attribute (its `(expr)` amounts read with `self` = the item);
        for a collection of items (a row of tiles), their costs added up."""
        items = [target] if isinstance(target, Item) else as_items(target)
        need: dict[str, int] = {}
        texts: list[str] = []
        for item in items:
            cost = _attr_of(_need_item(item, "pay"), name, item.comp.prices, "cost")
            for counter, amount in cost.amounts(ctx.child(self_item=item)).items():
                need[counter] = need.get(counter, 0) + amount
            texts.append(cost.text)
        return need, " + ".join(texts) or "nothing"

    def can_pay_attr(self, ctx: Ctx, target: Any, name: str) -> bool:
        return self.can_pay(ctx, self.price_of(ctx, target, name)[0])

    def pay_attr(self, ctx: Ctx, target: Any, name: str) -> None:
        """`pay ITEM.ATTR`: pay the item's `cost` attribute (the player chooses among the ways)."""
        need, text = self.price_of(ctx, target, name)
        self.pay(ctx, need, text)

    def activate(self, ctx: Ctx, target: Any, limit: int) -> None:
        """Mode `one`: do one action with threshold <= limit, or none. Mode `each`: each in order."""
        item = _need_item(target, "activate")
        inner = self._action_ctx(ctx, item)

        def usable(a: ActionDef) -> bool:
            return (a.threshold is None or a.threshold <= limit) and self._legal_action(inner, a)

        if item.comp.mode == "one":
            legal = [a for a in item.comp.actions if usable(a)]
            if not legal:
                return
            action = self.ask(ctx, "action", f"activate {item.comp.name}",
                              [a.label for a in legal] + ["skip"], [*legal, None], optional=True)
            if action is not None:
                self.perform(inner, action)
            return
        used_groups: set[str] = set()
        for action in item.comp.actions:
            if (action.or_group is not None and action.or_group in used_groups) or not usable(action):
                continue
            yes = self.ask(ctx, "may", f"{item.comp.name}: {action.label}?",
                           [f"yes: {action.label}", "no"], [True, False], optional=True)
            if yes:
                if action.or_group is not None:
                    used_groups.add(action.or_group)
                self.perform(inner, action)

    # ---------------------------------------------------------------- procedures and events
    def call(self, ctx: Ctx, name: str) -> None:
        self.work += CALL_WORK
        if self.work > self._work_limit:
            raise self.out_of_work(f"calling '{name}'")
        self._call_depth += 1
        try:
            if self._call_depth > MAX_CALL_DEPTH:
                raise LimitError(f"procedure calls nested deeper than {MAX_CALL_DEPTH} (at '{name}'): recursion?")
            self.pack.procedures[name].run(ctx)
        finally:
            self._call_depth -= 1

    def can_call(self, ctx: Ctx, name: str) -> bool:
        legal = self.pack.procedures[name].legal
        if legal is None:
            return True
        if self._call_depth >= MAX_CALL_DEPTH:
            return False
        self._call_depth += 1
        try:
            return bool(legal(ctx))
        finally:
            self._call_depth -= 1

    def _listeners(self, name: str, seat: int | None) -> list[tuple[TriggerDef, Item | None]]:
        found: list[tuple[TriggerDef, Item | None]] = [(t, None) for t in self.pack.triggers_on.get(name, ())]
        if seat is not None and name in self.pack.item_listened:
            for zone in self._active_zones[seat]:
                for item in zone.items:
                    on = item.comp.triggers_on.get(name)
                    if on:
                        for t in on:
                            found.append((t, item))
        return found

    def emit(self, name: str, seat: int | None, payload: dict[str, Any],
             action: Callable[[], None] | None = None) -> None:
        """An event: `before` triggers, then `action` (unless an `instead` trigger replaces it), then `after`.

        Nesting depth and the number of firings per game are bounded, so a trigger loop is an error.
        """
        if name not in self.pack.listened:
            if action is not None:
                action()
            return
        listeners = self._listeners(name, seat)
        if not listeners:  # nobody in play listens now
            if action is not None:
                action()
            return
        if self._trigger_depth >= MAX_TRIGGER_DEPTH:
            raise LimitError(f"triggers nested deeper than {MAX_TRIGGER_DEPTH} on event '{name}': a trigger loop?")
        self._trigger_depth += 1
        try:
            event = dict(payload, name=name)
            # some trigger answers it `before` or `instead`
            replaced = name in self.pack.early_events and self._fire_early(listeners, seat, event)
            if action is not None and not replaced:
                action()
            for trigger, item in listeners:
                if trigger.timing == "after":
                    self._fire(trigger, item, seat, event)
        finally:
            self._trigger_depth -= 1

    def _fire_early(self, listeners: list[tuple[TriggerDef, Item | None]], seat: int | None,
                    event: dict[str, Any]) -> bool:
        """The `before` triggers, then the first `instead` trigger that runs; True if one replaced the action."""
        for trigger, item in listeners:
            if trigger.timing == "before":
                self._fire(trigger, item, seat, event)
        replaced = False
        for trigger, item in listeners:
            if trigger.timing == "instead" and not replaced:
                replaced = self._fire(trigger, item, seat, event)
        return replaced

    def _fire(self, trigger: TriggerDef, item: Item | None, seat: int | None,
              payload: dict[str, Any]) -> bool:
        """Run one trigger if its condition, limit and leading cost allow; True if it ran."""
        ctx = Ctx(self, seat, item, payload)
        if trigger.when is not None and not trigger.when(ctx):
            return False
        key = None if trigger.limit is None else (trigger.id, seat, f"{trigger.limit}:{self._epoch(trigger.limit)}")
        if key is not None and self.state.trigger_uses.get(key, 0) >= 1:
            return False
        if trigger.effect.legal is not None and not trigger.effect.legal(ctx):
            return False
        if trigger.optional and seat is not None:
            yes = self.ask(ctx, "may", f"use {trigger.label}?", [f"yes: {trigger.label}", "no"],
                           [True, False], optional=True)
            if not yes:
                return False
        self._trigger_firings += 1
        if self._trigger_firings > MAX_TRIGGER_FIRINGS:
            raise LimitError(f"more than {MAX_TRIGGER_FIRINGS} trigger firings in one game")
        if key is not None:
            self.state.trigger_uses[key] = self.state.trigger_uses.get(key, 0) + 1
        trigger.effect.run(ctx)
        return True

    def _epoch(self, limit: str) -> int:
        return 0 if limit == "game" else self.epochs[limit]


class _NoActingPlayer:
    """What `game.seats[None]` holds: reading a player's counters or zones where nobody acts fails clearly."""

    @property
    def counters(self) -> dict[str, int]:
        raise RuleError("this needs an acting player, but it runs outside any player's turn")

    zones = counters


def _no_driver(decision: Decision) -> int:
    raise RuleError(f"'{decision.prompt}' needs a player's answer, but no session is running this game")


def _need_item(value: Any, what: str) -> Item:
    if not isinstance(value, Item):
        raise RuleError(f"{what} needs an item, got {describe(value)}")
    return value


def _attr_of(item: Item, name: str, table: dict[str, Any], kind: str) -> Any:
    """An item's compiled `effect` or `cost` attribute; a rule error when its type has none of that name."""
    found = table.get(name)
    if found is None:
        raise RuleError(f"'{item.comp.name}' has no {kind} attribute '{name}'")
    return found


def _new_state(pack: Pack, players: int, seed: int) -> tuple[State, dict[tuple[str, int | None], Item]]:
    """The state a game starts from, and each component's first item by (component id, owner)."""
    rng = random.Random(seed)
    seats = [Player(seat) for seat in range(players)]
    global_zones = {z.id: Zone(z, None) for z in pack.zones.values() if z.scope == "global"}
    counters = {c.id: c.initial for c in pack.counters.values()
                if c.scope == "global" and c.zone is None and c.items is None}
    for player in seats:
        player.counters = {c.id: c.initial for c in pack.counters.values()
                           if c.scope == "player" and c.zone is None and c.items is None}
        player.zones = {z.id: Zone(z, player.seat) for z in pack.zones.values() if z.scope == "player"}
    state = State(seats, counters, global_zones, rng)
    everyone: tuple[int | None, ...] = tuple(range(players))
    instances: dict[tuple[str, int | None], Item] = {}
    for comp in pack.components.values():
        zid = comp.ctype.zone
        for owner in everyone if comp.ctype.per_player else (None,):
            made = [Item(len(state.items) + k, comp, owner) for k in range(comp.copies)]
            state.items.extend(made)
            if made:
                instances[(comp.id, owner)] = made[0]
            if zid:
                zone = state.zone(zid, owner)
                zone.items.extend(made)
                for item in made:
                    item.zone = zone
    return state, instances

