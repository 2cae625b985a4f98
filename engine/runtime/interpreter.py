"""The interpreter: applies compiled effects to the state of one game.

Generated DSL code calls the methods here. A method that needs a player's
choice calls `ask`, which hands a `Decision` to whoever drives the game (the
`Match`, through `pause`) and returns the answer: effects are plain calls
that can stop anywhere and resume where they stopped.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from engine.errors import RuleError, StopLoop
from engine.runtime.boards import Graph
from engine.runtime.context import Ctx
from engine.runtime.costs import can_pay, explain, payment_ways, way_label
from engine.runtime.decision import KINDS, Decision
from engine.runtime.defs import ActionDef, CounterDef, Pack, TriggerDef
from engine.runtime.dsl_values import as_items, contains, describe, offer, stored
from engine.runtime.events import Event, EventKind
from engine.runtime.limits import CALL_WORK, DRAW_WORK, MAX_GAME_WORK, MAX_WORK, LimitError, out_of_work
from engine.runtime.state import Item, ItemRef, PlayerRef, Zone, new_state

MAX_TRIGGER_DEPTH = 16
MAX_TRIGGER_FIRINGS = 200_000
MAX_CALL_DEPTH = 64
MAX_DECISIONS = 200_000
# events the interpreter emits itself; packs add their own with `emit`
BUILTIN_EVENTS = ("gained", "paid", "changed", "moved", "placed", "step_start", "step_end")


class Interpreter:
    """One game of a pack: its state plus the operations effects perform."""

    def __init__(self, pack: Pack, players: int, seed: int, options: dict[str, bool] | None = None,
                 like: Interpreter | None = None, data: dict[str, Any] | None = None) -> None:
        """A new game; or, with `like` (a game of the same match) and `data` (its `to_data` at a checkpoint),
        a copy holding `data` (a fork, whose flow then catches up with it)."""
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
        if like is None or data is None:
            self.state = new_state(pack, players, seed)
            # each component's items by owner, as uids in copy order (fixed for the match and its forks)
            self._copies: dict[tuple[str, int | None], list[int]] = {}
            for item in self.state.items:
                self._copies.setdefault((item.comp.id, item.owner), []).append(item.uid)
        else:
            self.state, self._copies = like.state.copy_as(data), like._copies
        self._first = {key: self.state.items[uids[0]] for key, uids in self._copies.items()}  # for `instance`
        # the total at which the work since the last decision runs out (a fork resumes at a decision)
        self._work_limit = min(self.state.work + MAX_WORK, MAX_GAME_WORK)
        self._trigger_depth = 0
        self.trace: list[Any] | None = None   # the flow trace (None: not kept, this match will not be forked)
        self.live = True                      # False while a fork catches up with its checkpoint
        self.at_step: Callable[[int], None] | None = None  # told at a step start (the trace length then) once
        self.checkpoint_at = NEVER                          # this many decisions were asked: time for a checkpoint
        self.on_forced: Callable[[int | None, str, str], None] | None = None  # told of (seat, kind, label) taken
        # without asking: a decision with a single option
        self._cursor = self._target = 0
        self._arrival: dict[str, Any] = {}
        self._call_depth = 0
        self._reserved: set[Item] = set()  # items being played: they cannot pay for themselves
        # told of every event (engine/runtime/events.py); change it with watch/unwatch, which keep `quiet`
        self.observers: list[Callable[[Event], None]] = []
        self.quiet = True   # no trace, nobody watching: the generated flow keeps no position and tells nothing
        self.pause: Callable[[Decision], int] = _no_driver  # the session sets this: it returns the answer
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

    # ---------------------------------------------------------------- the flow's position
    # The flow is one generated function; where it stands is its Python stack. To rebuild that stack
    # (fork, undo, another thread) a match records a trace while it runs: a slot per flow step begun
    # (filled with (steps begun, trace length) when the step ends) and every value the flow's shape
    # depends on (`if` conditions, `for` collections, seat orders, repeat counts, `until` results,
    # `stop`s). A fork loads a checkpoint of the state taken at a step start, then runs the flow with
    # `live` False: the recorded values replace the evaluations, finished steps are jumped over whole
    # and no effect runs, until it reaches the checkpoint's step; there it loads the checkpoint and
    # goes live. See docs/architecture.md ("A match is a value").
    def enter_step(self) -> int:
        """A flow step begins: its trace slot (>= 0) to run it, or -1 to skip it (a fork catching up)."""
        trace = self.trace
        if trace is None:
            if self.observers:
                self.step_started()
            return 0
        if self.live:
            self.state.steps += 1
            if self.observers:
                self.step_started()
            if self.state.decisions >= self.checkpoint_at and self.at_step is not None:
                self.at_step(len(trace))
            trace.append(None)
            return len(trace) - 1
        if self._cursor < len(trace) and trace[self._cursor] is _STOPPED:
            self._cursor += 1
            raise StopLoop
        self.state.steps += 1
        if self.state.steps == self._target:
            self._arrive()
            trace.append(None)
            return len(trace) - 1
        record = trace[self._cursor]
        slot = self._cursor
        self._cursor += 1
        if record is not None and record[0] < self._target:   # it ended before the checkpoint: jump over it
            self.state.steps, self._cursor = record
            return -1
        return slot

    def exit_step(self, slot: int) -> None:
        trace = self.trace
        if trace is not None and self.live:
            trace[slot] = (self.state.steps, len(trace))

    def traced(self, value: Any) -> Any:
        if self.trace is not None:
            self.trace.append(value)
        return value

    def untrace(self) -> Any:
        value = self.trace[self._cursor]  # type: ignore[index]
        self._cursor += 1
        if value is _STOPPED:
            raise StopLoop
        return self._adopt(value)

    def stopped(self) -> None:
        """A `stop` ended the innermost flow `repeat`."""
        if self.trace is not None and self.live:
            self.trace.append(_STOPPED)

    def round_started(self, n: int) -> None:
        """A flow `repeat` begins its pass `n`."""
        self.state.periods["round"] += 1
        if self.live:   # a fork catching up loads its checkpoint's budget when it arrives
            self.spend(1, "a flow repeat")
        if self.observers:
            self.tell(Event(EventKind.ROUND_STARTED, None, {"round": n}))

    # ---------------------------------------------------------------- events
    def tell(self, event: Event) -> None:
        """Hand `event` to every observer (not while a fork catches up: nothing happens then)."""
        if self.live:
            for observer in self.observers:
                observer(event)

    def step_started(self) -> None:
        """Tell the observers a flow step began (the untraced flow calls this itself when someone watches)."""
        periods = self.state.periods
        self.tell(Event(EventKind.STEP_STARTED, None, {"step": self.state.step, "round": periods["round"],
                                                       "turn": periods["turn"]}))

    def _seats_seeing(self, *zones: Zone | None) -> frozenset[int] | None:
        """Who may see into any of `zones`: None when they are all public."""
        if all(z is None or z.visibility == "public" for z in zones):
            return None
        return frozenset(s for s in range(len(self.state.players))
                         if any(z is not None and z.visible_to(s) for z in zones))

    def _tell_about_item(self, kind: EventKind, seat: int | None, item: Item, zones: tuple[Zone | None, ...],
                         data: dict[str, Any]) -> None:
        """An event naming `item` for the seats that may see it in one of `zones`; the others get it without."""
        seeing = self._seats_seeing(*zones)
        self.tell(Event(kind, seat, {"item": item.uid, "component": item.comp.id, **data}, seeing))
        if seeing is not None:
            others = frozenset(range(len(self.state.players))) - seeing
            if others:
                self.tell(Event(kind, seat, data, others))

    def catch_up(self, trace: list[Any], steps: int, data: dict[str, Any]) -> None:
        """Make the next run of the flow retrace `trace` up to flow step `steps`, then continue from `data`."""
        self.trace, self.live, self._cursor, self._target, self._arrival = trace, False, 0, steps, data
        self.state.steps, self.state.step = 0, ""   # as at the flow's start: the retrace counts and names steps
        self._update_quiet()

    def keep_trace(self, trace: list[Any] | None) -> None:
        """Record the flow's position from now on (a list), or stop (None): a game that will not be forked."""
        self.trace = trace
        self._update_quiet()

    def watch(self, observer: Callable[[Event], None]) -> None:
        self.observers.append(observer)
        self._update_quiet()

    def unwatch(self, observer: Callable[[Event], None]) -> None:
        if observer in self.observers:
            self.observers.remove(observer)
        self._update_quiet()

    def _update_quiet(self) -> None:
        self.quiet = self.trace is None and not self.observers

    def _arrive(self) -> None:
        # the items are as the checkpoint has them already (`copy_as`: a catch-up moves nothing): put back
        # what it did touch (step, counts, visibility, counters, the RNG)
        self.state.load(self._arrival, items=False)
        self._arrival = {}
        assert self.trace is not None   # a catch-up always retraces a trace
        del self.trace[self._cursor:]
        self.live = True

    def _adopt(self, value: Any) -> Any:
        """A traced value as this match's own: items and zones of the match that traced it become ours."""
        cls = value.__class__
        if cls is Item:
            return self.state.items[value.uid]
        if cls is Zone:
            return self.state.zone(value.id, value.owner)
        if cls is list or cls is tuple:
            return cls(self._adopt(v) for v in value)
        return value

    # ---------------------------------------------------------------- lookups
    def instance(self, comp_id: str, seat: int | None) -> Item:
        """The item of component `comp_id`: the seat's own for per-player types."""
        comp = self.pack.components[comp_id]
        owner = seat if comp.ctype.per_player else None
        item = self._first.get((comp_id, owner))
        if item is None:
            raise RuleError(f"component '{comp_id}' has no item for player {owner}")
        return item

    def item(self, ref: ItemRef) -> Item:
        """The very item an attribute refers to."""
        return self.state.items[ref.uid]

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
        """The spaces linked to `space`: of a board with several copies, those of the same copy."""
        graph = self.graph_of(space)
        found = []
        for cid in graph.links[space.comp.id]:
            self.instance(cid, space.owner)  # a clear error if the linked space has no item
            copies = self._copies[(cid, space.owner if self.pack.components[cid].ctype.per_player else None)]
            found.append(self.state.items[copies[space.copy] if space.copy < len(copies) else copies[0]])
        return found

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
    @contextmanager
    def looking(self) -> Iterator[None]:
        """A look from outside the flow (the scores, a scenario reading a derived value): it pays from the work
        budget while it runs, so a runaway score still stops, but leaves the match as it was: the same
        match has the same state (and hash) however often anyone looked at it."""
        state = self.state
        spent = state.work
        try:
            yield
        finally:
            state.work = spent

    def spend(self, units: int, what: str) -> None:
        """Spend units of this game's work budget; a LimitError when it runs out (a runaway rule)."""
        state = self.state
        state.work += units
        if state.work > self._work_limit:
            raise self.out_of_work(what)

    def out_of_work(self, what: str) -> LimitError:
        if self.state.work > MAX_GAME_WORK:
            return out_of_work(what, MAX_GAME_WORK, whole_game=True)
        return out_of_work(what, MAX_WORK, whole_game=False)

    def passes(self, count: Any) -> range:
        """`repeat N`: the passes of the loop, all paid for when it starts (so `repeat 1000000000` fails at once)."""
        count = int(count)
        if count > 0:
            state = self.state
            work = state.work = state.work + count
            if work > self._work_limit:   # the message is made only then (this runs for every `repeat`)
                raise self.out_of_work(f"a repeat of {count:,} passes")
        return range(count)

    def each(self, collection: Any) -> Any:
        """A collection a rule is about to go through (a loop, a filter, a sum, a choice's options), paid for
        by its length."""
        state = self.state
        work = state.work = state.work + len(collection)
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
            if self.on_forced is not None and self.live:
                self.on_forced(ctx.seat, kind, labels[0])
            return values[0]
        state = self.state
        decisions = state.decisions = state.decisions + 1
        seat = ctx.seat
        if decisions > MAX_DECISIONS or seat is None:
            if decisions > MAX_DECISIONS:
                raise LimitError(f"more than {MAX_DECISIONS} decisions in one game: does a loop never end?")
            seat = self._seat(seat)  # raises: nobody is there to ask
        limit = state.work + MAX_WORK   # a new stretch: the work from here is bounded afresh (and the game's)
        self._work_limit = limit if limit < MAX_GAME_WORK else MAX_GAME_WORK
        return values[self.pause(Decision(seat, KINDS[kind], prompt, labels, values, state.step))]

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
        if self.observers:
            self.tell(Event(EventKind.GAINED, ctx.seat, {"counter": name, "amount": amount}))
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
        if self.observers:
            self.tell(Event(EventKind.PAID, ctx.seat, {"counter": name, "amount": amount}))

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
        item.attrs[attr] = stored(value)

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
        zone.items.insert(0, item) if top else zone.items.append(item)
        item.zone = zone
        if self.observers:
            self._tell_about_item(EventKind.MOVED, ctx.seat, item, (origin, zone),
                                  {"from": _key(origin), "to": _key(zone)})
        if origin is not None and origin.zdef.keep_filled:
            self.refill(ctx, origin)

    def refill(self, ctx: Ctx, zone: Zone) -> None:
        """A market row tops itself up from its `draw_from` zone whenever an item leaves it."""
        source = self._linked_zone(zone.zdef.draw_from, zone.owner)
        missing = zone.zdef.keep_filled - len(zone.items)
        if missing > 0:
            self.draw(ctx, source, zone, missing)

    def draw(self, ctx: Ctx, src: Zone, dst: Zone, amount: int) -> None:
        if self.observers:
            self.tell(Event(EventKind.DRAWN, ctx.seat, {"from": _key(src), "to": _key(dst), "amount": amount}))
        state = self.state
        for _ in range(amount):
            state.work += DRAW_WORK
            if state.work > self._work_limit:
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
        if self.observers and zone.visibility != "public":
            self.tell(Event(EventKind.REVEALED, None, {"zone": _key(zone), "items": [i.uid for i in zone.items],
                                                       "components": [i.comp.id for i in zone.items]}))
        zone.visibility = "public"

    def conceal(self, zone: Zone) -> None:
        if self.observers and zone.visibility != zone.zdef.visibility:
            self.tell(Event(EventKind.CONCEALED, None, {"zone": _key(zone)}))
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
        item = ctx.self_item
        if item is not None and self.observers:
            self._tell_about_item(EventKind.ACTIVATED, ctx.seat, item, (item.zone,), {"action": action.label})
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
        # (few locals on purpose: a recursion of procedures stacks this frame, and CPython 3.11 frees and
        # allocates a chunk of its frame stack each time a recursion crosses a chunk's end; a larger frame
        # put that crossing inside the hostile case `hang-lint-plays-a-runaway` and made it 10x slower)
        state = self.state
        state.work += CALL_WORK
        if state.work > self._work_limit:
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
        self.state.firings += 1
        if self.state.firings > MAX_TRIGGER_FIRINGS:
            raise LimitError(f"more than {MAX_TRIGGER_FIRINGS} trigger firings in one game")
        if key is not None:
            self.state.trigger_uses[key] = self.state.trigger_uses.get(key, 0) + 1
        trigger.effect.run(ctx)
        return True

    def _epoch(self, limit: str) -> int:
        return 0 if limit == "game" else self.state.periods[limit]


class _NoActingPlayer:
    """What `game.seats[None]` holds: reading a player's counters or zones where nobody acts fails clearly."""

    @property
    def counters(self) -> dict[str, int]:
        raise RuleError("this needs an acting player, but it runs outside any player's turn")

    zones = counters


def _key(zone: Zone | None) -> list[Any] | None:
    """A zone in an event: [id, owner]."""
    return None if zone is None else [zone.id, zone.owner]


NEVER = 1 << 62
_STOPPED = ("stopped",)  # in a flow trace: a `stop` left the innermost repeat here


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
