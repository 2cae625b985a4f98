"""The interpreter: applies compiled effects to the state of one game.

Generated DSL code calls the methods here. A method that needs a player's
choice calls `ask`, which hands a `Decision` to whoever drives the game (the
`Match`, through `pause`) and returns the answer: effects are plain calls
that can stop anywhere and resume where they stopped.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from functools import partial
from typing import Any

from engine.errors import MoveError, RuleError, StopLoop
from engine.runtime.anytime import REASK, AnytimeOffer
from engine.runtime.boards import Graph, faces_open
from engine.runtime.containers import held, held_sum, need_container, need_containers, put, used
from engine.runtime.context import Ctx
from engine.runtime.costs import can_pay, explain, payment_ways, reductions, way_label
from engine.runtime.decision import (
    DONE,
    KINDS,
    Decision,
    MadeDecision,
    Prompt,
    derived_labels,
    in_public_zone,
    joined_prompt,
    not_an_option,
)
from engine.runtime.defs import ActionDef, AnytimeDef, CounterDef, Pack, TriggerDef
from engine.runtime.dsl_values import as_items, contains, describe, offer, stored
from engine.runtime.events import Event, EventKind, Readers, kinds_read, reads_audience
from engine.runtime.grids import GridCells
from engine.runtime.limits import (
    DRAW_WORK,
    MAX_CALL_DEPTH,
    MAX_GAME_WORK,
    MAX_LIST,
    MAX_VALUE,
    MAX_WORK,
    SIZE_FREE,
    LimitError,
    out_of_work,
    searching,
    taking_out,
)
from engine.runtime.state import Item, ItemRef, PlayerRef, Zone, layout, new_state
from engine.runtime.views import SeatView, in_simultaneous, size_unseen

MAX_TRIGGER_DEPTH = 16
MAX_TRIGGER_FIRINGS = 200_000
MAX_DECISIONS = 200_000
# events the interpreter emits itself; packs add their own with `emit`
BUILTIN_EVENTS = ("gained", "paid", "changed", "passed", "moved", "placed", "exhausted", "step_start", "step_end")
# the observer events' kinds as plain names (`EventKind.X` is a slow class attribute read on an enum)
STEP_STARTED, ROUND_STARTED, MOVED, DRAWN = EventKind.STEP_STARTED, EventKind.ROUND_STARTED, EventKind.MOVED, \
    EventKind.DRAWN
REVEALED, CONCEALED, GAINED, PAID = EventKind.REVEALED, EventKind.CONCEALED, EventKind.GAINED, EventKind.PAID
ACTIVATED, ROLLED = EventKind.ACTIVATED, EventKind.ROLLED
ANSWERED = EventKind.ANSWERED


class AgentFailed(BaseException):
    """An agent's error on its way out through the flow, past the generated code's handlers for content
    mistakes (`except content_faults`)."""

    def __init__(self, error: Exception) -> None:
        super().__init__(error)
        self.error = error


def _picked(pick: Callable[[int], int], size: int) -> int:
    """The index an agent that answers by the number of options gives, checked; its error as `AgentFailed`."""
    try:
        index = pick(size)
        if index.__class__ is not int or not 0 <= index < size:
            raise not_an_option(index, size)
    except Exception as exc:   # the generated code would take it for a content mistake
        raise AgentFailed(exc) from None
    return index


class InPlace:
    """The agents that answer a match's decisions inside `ask` (its `pause`, in a match played through:
    `Match.played`; a match that can pause calls it from its own answerer): called with a decision,
    `chooses[seat](views[seat], decision)` gives the index (the seat's `SeatView` made at its first decision
    so asked: a seat answered by the number of options needs none); a good one, while nobody listens for answers
    (`heard`, the interpreter's, changed in place), is logged as `logged()` with its two slots stored (an `Answer`
    made without `__init__`); anything else goes to `record` (checked: a bad index raises; told). `ask` itself
    asks a seat whose agent answers by the number of options alone (`by_size[seat]`, not None) that number, and
    while nobody listens for answers makes no `Decision`: the answer is logged as a row, a tuple of its fields
    (`ROW_FIELDS` in engine/play/log.py), which the match makes an answer of when its log is read. A seat whose
    agent's answer is `int(d() * size)` (`draws[seat]`, not None: `agents.uniform_draw`) is answered so by `ask`
    itself. An agent's error leaves as `AgentFailed`."""

    __slots__ = ("by_size", "chooses", "draws", "game", "heard", "log", "logged", "record", "views")

    def __init__(self, game: Interpreter, chooses: list[Callable[[Any, Decision], int]],
                 by_size: list[Callable[[int], int] | None], draws: list[Callable[[], float] | None],
                 log: list[Any], logged: Callable[[], Any], record: Callable[[Decision, int], None]) -> None:
        self.game, self.chooses, self.by_size, self.draws = game, chooses, by_size, draws
        self.views: list[SeatView | None] = [None] * len(game.state.players)
        self.heard, self.log, self.logged, self.record = game.heard, log, logged, record

    def __call__(self, decision: Decision) -> int:
        seat = decision.seat
        try:
            view = self.views[seat]
            if view is None:
                view = self.views[seat] = SeatView(self.game, seat)
            index = self.chooses[seat](view, decision)
            if index.__class__ is int and 0 <= index < decision.size and ANSWERED not in self.heard:
                answer = self.logged()
                answer.decision = decision
                answer.index = index
                self.log.append(answer)
            else:
                self.record(decision, index)   # checked (a bad index raises), told
        except Exception as exc:   # the generated code would take it for a content mistake
            raise AgentFailed(exc) from None
        return index


class Unwatched(list[Callable[[Event], None]]):
    """The observers of a game whose flow runs unwatched (`Match.played` with nobody watching runs the quiet
    flow, which tells nobody, engine/compile/flow.py): always empty; `Interpreter.watch` meanwhile is an error,
    not an observer that would silently hear nothing."""

    def append(self, observer: Callable[[Event], None]) -> None:
        raise MoveError("cannot subscribe to a match while it plays through unwatched (`Match.played` with no "
                        "observers runs a flow that tells nobody): pass the observer to `Match.played`, or "
                        "subscribe to a `Match` and `run` it")


class Interpreter:
    """One game of a pack: its state plus the operations effects perform."""

    # A catch-up's place in its trace and the flow step it retraces to (`catch_up`): class defaults, so a game
    # that is never forked stores neither (at most 29 attributes, forked or not: tests/test_interpreter_attributes.py)
    _cursor = _target = 0
    # the checkpoint a catch-up arrives at (`catch_up` sets it, `_arrive` loads and drops it): a class default too
    _arrival: dict[str, Any] | None = None

    def __init__(self, pack: Pack, players: int, seed: int, options: dict[str, bool] | None = None,
                 like: Interpreter | None = None, data: dict[str, Any] | None = None) -> None:
        """A new game; or, with `like` (a game of the same match) and `data` (its `to_data` at a checkpoint),
        a copy holding `data` (a fork, whose flow then catches up with it)."""
        if not pack.min_players <= players <= pack.max_players:
            raise RuleError(f"{pack.name} plays with {pack.min_players} to {pack.max_players} players,"
                            f" not {players}")
        self.options = dict.fromkeys(pack.options, False)
        if options:
            unknown = [name for name in options if name not in pack.options]
            if unknown:
                known = ", ".join(pack.options) or "none"
                raise RuleError(f"'{unknown[0]}' is not an option of {pack.name} (its options: {known})")
            self.options.update(options)
        self.pack = pack
        self.seed = seed
        # where each component's items are, and what else is fixed for the pack and player count
        self.layout = plan = layout(pack, players)
        if like is None or data is None:
            self.state = new_state(pack, players, seed, plan)
        else:
            self.state = like.state.copy_as(data)
        self.grids = GridCells(pack, plan, self.state)   # grid boards' cells by coordinates (the DSL's grid functions)
        # each type's items by owner, for `all_of` (the state's Item objects are this game's for good: `load`
        # rewrites them in place, a fork is a new game)
        self._of_type: dict[tuple[str, int | None], list[Item]] = {}
        if like is None and plan.sized:
            self._size_zones(players)
        # the total at which the work since the last decision runs out (a fork resumes at a decision); generated
        # code reads it (a procedure paying for its call, a collection paid inline: engine/compile/charges.py)
        self.work_limit = min(self.state.work + MAX_WORK, MAX_GAME_WORK)
        self._trigger_depth = 0
        self.trace: list[Any] | None = None   # the flow trace (None: not kept, this match will not be forked)
        self.live = True                      # False while a fork catches up with its checkpoint
        self.at_step: Callable[[int], None] | None = None  # told at a step start (the trace length then) once
        self.checkpoint_at = NEVER                          # this many decisions were asked: time for a checkpoint
        self.on_forced: Callable[[int | None, str, str], None] | None = None  # told of (seat, kind, label) taken
        # without asking: a decision with a single option
        self.call_depth = 0   # procedures (and `do`s) running inside one another; a procedure's generated
        # function counts itself in (engine/compile/codegen.py)
        self._reserved: set[Item] = set()  # items being played: they cannot pay for themselves
        # choices being carried out (an option taken, a trigger, an anytime action running): anytime actions
        # are offered only at choices outside all of them (generated code counts the chosen options)
        self.committed = 0
        # told of events (engine/runtime/events.py); change it with watch/unwatch, which keep `quiet` and `heard`
        # (the kinds some observer reads, each with its readers; changed in place: no other kind is made)
        self.observers: list[Callable[[Event], None]] = []
        self.heard: dict[EventKind, Readers] = {}
        self.quiet = True   # no trace, nobody watching: the generated flow keeps no position and tells nothing
        # the session sets this: it returns the answer (`InPlace`: the agents answer inside `ask`)
        self.pause: Callable[[Decision], int] = _no_driver
        # the acting seat's player, for generated code: no seat (a top-level step) reads as a clear error
        self.seats: dict[int | None, Any] = dict(enumerate(self.state.players))
        self.seats[None] = _NOBODY
        # zones whose items' triggers answer a seat's events: its own active zones, then the shared ones
        # (cards on the table answer every player; their `when` says for whom)
        if any(plan.active):
            zones = self.state.all_zones().__getitem__
            self._active_zones: Sequence[Sequence[Zone]] = [list(map(zones, slots)) for slots in plan.active]
        else:   # no active zone (only read: the layout's empty tuple a seat, shared by every match, will do)
            self._active_zones = plan.no_active_zones
        self._rotations, self._orders = plan.rotations, plan.orders   # (read-only: shared by every match)
        self.clockwise = plan.orders[0]   # the turn order of a pack with no `first_player` that no rule set

    def _size_zones(self, players: int) -> None:
        """Zones whose capacity or market size depends on the player count: read once, for this match."""
        zones = self.state.all_zones()
        for zone in (zones[i] for i in self.layout.sized):
            for key, size in zone.zdef.sizes.items():
                value = int(size(Ctx(self, None)))
                if value < 0:
                    raise RuleError(f"zone '{zone.id}': {key} is {value} with {players} players; it must be 0 or more")
                setattr(zone, key, value)

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
        """A flow `repeat` begins its pass `n` (the untraced flow does this inline: engine/compile/flow.py)."""
        self.state.rounds += 1
        if self.live:   # a fork catching up loads its checkpoint's budget when it arrives
            self.spend(1, "a flow repeat")
        if self.observers:
            self.round_told(n)

    def round_told(self, n: int) -> None:
        """Tell the observers a flow `repeat` began its pass `n`."""
        if ROUND_STARTED in self.heard:
            self.tell(Event(ROUND_STARTED, None, {"round": n}))

    # ---------------------------------------------------------------- events
    def tell(self, event: Event) -> None:
        """Hand `event` to every observer that reads its kind (not while a fork catches up: nothing happens
        then)."""
        if self.live:
            for observer in self.heard.get(event.kind, ()):
                observer(event)

    def step_started(self) -> None:
        """Tell the observers a flow step began (the untraced flow calls this itself when someone watches)."""
        if STEP_STARTED in self.heard:
            state = self.state
            self.tell(Event(STEP_STARTED, None, {"step": state.step, "round": state.rounds, "turn": state.turns}))

    def _seats_seeing(self, *zones: Zone | None, item: Item | None = None,
                      left_top: bool = False) -> frozenset[int] | None:
        """Who may see into any of `zones` (with `item`: that item there): None when everyone may.
        `left_top`: the item just left the first place of a `top` zone (where everyone saw it)."""
        for zone in zones:     # (loops written out: with someone watching, this runs at every move)
            if zone is not None and (zone.visibility != "public" or zone.zdef.face_down is not None):
                break
        else:
            return None
        places = [z for z in zones if z is not None]
        seeing = []
        for seat in range(len(self.state.players)):
            for zone in places:
                if zone.visible_to(seat) if item is None else self._sees(zone, item, seat, left_top):
                    seeing.append(seat)
                    break
        return frozenset(seeing)

    @staticmethod
    def _sees(zone: Zone, item: Item, seat: int, left_top: bool) -> bool:
        """The seat sees `item` in `zone`, or saw it there before it left."""
        if item.zone is zone:
            return zone.shows(item, seat)
        if zone.visibility == "top":
            face = zone.zdef.face_down
            return left_top and (face is None or not item.attrs.get(face))
        return zone.visible_to(seat)

    def _tell_about_item(self, kind: EventKind, seat: int | None, item: Item, zones: tuple[Zone | None, ...],
                         data: dict[str, Any], left_top: bool = False) -> None:
        """An event naming `item` for the seats that may see it in one of `zones`; the others get it without.
        Only the whole event, and nobody's sight worked out, when no reader of `kind` reads who sees it."""
        if not self.heard[kind].audience:
            self.tell(Event(kind, seat, {"item": item.uid, "component": item.comp.id, **data}))
            return
        seeing = self._seats_seeing(*zones, item=item, left_top=left_top)
        self.tell(Event(kind, seat, {"item": item.uid, "component": item.comp.id, **data}, seeing))
        if seeing is not None and not self._sizes_unseen(zones):   # else the twin would tell a secret size
            others = frozenset(range(len(self.state.players))) - seeing
            if others:
                self.tell(Event(kind, seat, data, others))

    def _sizes_unseen(self, zones: tuple[Zone | None, ...]) -> bool:
        """Some of `zones` hides how many items it holds from the seats that cannot see them (views.py)."""
        during = in_simultaneous(self)
        return any(zone is not None and size_unseen(zone, during) for zone in zones)

    def catch_up(self, trace: list[Any], steps: int, data: dict[str, Any]) -> None:
        """Make the next run of the flow retrace `trace` up to flow step `steps`, then continue from `data`."""
        self.trace, self.live, self._cursor, self._target, self._arrival = trace, False, 0, steps, data
        # as at the flow's start: the retrace counts and names steps, and enters its simultaneous steps again
        self.state.steps, self.state.step, self.state.secret_since = 0, "", None
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
        readers: dict[EventKind, Readers] = {}
        for observer in self.observers:
            audience = reads_audience(observer)
            for kind in kinds_read(observer):
                told = readers.get(kind)
                if told is None:
                    told = readers[kind] = Readers()
                    told.audience = False
                told.append(observer)
                told.audience = told.audience or audience
        self.heard.clear()          # (in place: a match's answerer holds it)
        self.heard.update(readers)

    def _arrive(self) -> None:
        # the items are as the checkpoint has them already (`copy_as`: a catch-up moves nothing): put back
        # what it did touch (step, counts, visibility, counters, the RNG)
        arrival = self._arrival
        assert arrival is not None   # (set by `catch_up`)
        self.state.load(arrival, items=False)
        self._arrival = None
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
        uid = self.layout.shared.get(comp_id)   # the common case, a component no player owns: one dict read
        if uid is None:
            comp = self.pack.components[comp_id]
            owner = seat if comp.ctype.per_player else None
            uid = self.layout.first.get((comp_id, owner))
            if uid is None:
                raise RuleError(f"component '{comp_id}' has no item for player {owner}")
        return self.state.items[uid]

    def item(self, ref: ItemRef) -> Item:
        """The very item an attribute refers to."""
        return self.state.items[ref.uid]

    def all_of(self, type_id: str, seat: int | None) -> list[Item]:
        ctype = self.pack.types[type_id]
        owner = seat if ctype.per_player else None
        self.each(self.state.items)  # it looks at every item of the game
        found = self._of_type.get((type_id, owner))
        if found is None:
            found = self._of_type[(type_id, owner)] = [i for i in self.state.items
                                                       if i.comp.ctype is ctype and i.owner == owner]
        return list(found)

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

    # ---------------------------------------------------------------- dice pools
    def roll_dice(self, ctx: Ctx, die: str, count: int) -> None:
        """`roll N DIE`: the pool of DIE becomes N fresh throws (what was in it is picked up first)."""
        if count > MAX_LIST:
            raise LimitError(f"rolling {count:,} dice: the engine allows {MAX_LIST:,} in one pool")
        count = max(0, count)
        self.spend(count, f"rolling {count:,} dice")
        faces, rng = self.pack.dice[die].faces, self.state.rng
        self.state.dice[die] = [faces[rng.randrange(len(faces))] for _ in range(count)]
        self._rolled(ctx, die, list(range(count)))

    def reroll(self, ctx: Ctx, die: str, prompt: Prompt, limit: int | None, eligible: list[int]) -> None:
        """`reroll DIE [where COND] [up to N]`: the acting player picks dice of the pool, one at a time by the
        face each shows (dice showing the same face are alike), until `done` or N are picked; those dice
        are thrown again together. Each die is picked at most once, so a `reroll` is once per die."""
        pool, picked = self.state.dice[die], list[int]()
        left = list(eligible)
        while left and (limit is None or len(picked) < limit):
            faces = sorted({pool[i] for i in left})
            labels = [f"die showing {face}" for face in faces] + [DONE]
            asked = prompt if not picked else f"{joined_prompt(prompt)} ({len(picked)} picked)"
            face = self.ask(ctx, "reroll", asked, labels, [*faces, None], optional=True)
            if face is None:
                break
            index = next(i for i in left if pool[i] == face)
            left.remove(index)
            picked.append(index)
        if picked:
            sides, rng = self.pack.dice[die].faces, self.state.rng
            for index in sorted(picked):
                pool[index] = sides[rng.randrange(len(sides))]
            self._rolled(ctx, die, sorted(picked))

    def _rolled(self, ctx: Ctx, die: str, thrown: list[int]) -> None:
        if self.observers and ROLLED in self.heard:
            self.tell(Event(ROLLED, ctx.seat, {"die": die, "faces": list(self.state.dice[die]),
                                                         "thrown": thrown}))

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

    def _own_graph(self, item: Item) -> Graph:
        """This match's own copy of the board `item` is on (made at its first change)."""
        key = (item.comp.ctype.id, item.owner)
        graph = self.graph_of(item)
        if key not in self.state.boards:
            graph = self.state.boards[key] = graph.copy()
        return graph

    def block(self, a: Any, b: Any, blocked: bool) -> None:
        """`block A from B` / `unblock A from B`: take a link out of this match's board until unblocked."""
        first, second = _need_item(a, "block"), _need_item(b, "block")
        if first.comp.ctype is not second.comp.ctype or first.owner != second.owner:
            raise RuleError(f"'{first.comp.name}' and '{second.comp.name}' are not spaces of the same board")
        graph = self._own_graph(first)
        (graph.block if blocked else graph.unblock)(first.comp.id, second.comp.id)

    def is_blocked(self, a: Any, b: Any) -> bool:
        """`blocked(A, B)`: the link between A and B is blocked now."""
        first, second = _need_item(a, "blocked"), _need_item(b, "blocked")
        pair = tuple(sorted((first.comp.id, second.comp.id)))
        return pair in self.graph_of(first).blocked

    def rotate(self, tile: Any, steps: Any) -> None:
        """`rotate T by N`: turn a tile N sides clockwise; its links follow its exits (blocked ones stay)."""
        item = _need_item(tile, "rotate")
        turns = item.comp.ctype.turns
        if turns is None:
            raise RuleError(f"'{item.comp.name}' does not turn (its type declares no `turns`)")
        sides_attr, exits_attr, rotation_attr = turns
        sides = [str(s) if s else "" for s in item.attrs.get(sides_attr) or []]
        if not sides:
            return
        item.own_attrs()[rotation_attr] = (int(item.attrs.get(rotation_attr) or 0) + int(steps)) % len(sides)
        graph = self._own_graph(item)

        def tile_of(cid: str) -> tuple[list[str], list[int], int]:
            other = self.instance(cid, item.owner)
            return ([str(s) if s else "" for s in other.attrs.get(sides_attr) or []],
                    [int(x) for x in other.attrs.get(exits_attr) or []], int(other.attrs.get(rotation_attr) or 0))
        here = tile_of(item.comp.id)
        for near in dict.fromkeys(s for s in sides if s and s in graph.links):
            if tuple(sorted((item.comp.id, near))) in graph.blocked:
                continue
            if faces_open(*here, near) and faces_open(*tile_of(near), item.comp.id):
                graph.link(item.comp.id, near)
            else:
                graph.unlink(item.comp.id, near)

    def distance(self, a: Any, b: Any) -> int:
        """`distance(A, B)`: fewest links between two spaces of a board; a search past SIZE_FREE spaces pays
        for each space it visits (a pack may build a board of thousands)."""
        steps, visited = self.graph_of(a).search(a.comp.id, _need_item(b, "a board function").comp.id)
        if visited > SIZE_FREE:
            searching(self, visited)
        return steps

    def neighbors(self, space: Any) -> list[Item]:
        """The spaces linked to `space`: of a board with several copies, those of the same copy."""
        graph = self.graph_of(space)
        found = []
        for cid in graph.links[space.comp.id]:
            self.instance(cid, space.owner)  # a clear error if the linked space has no item
            copies = self.layout.copies[(cid, space.owner if self.pack.components[cid].ctype.per_player else None)]
            found.append(self.state.items[copies[space.copy] if space.copy < len(copies) else copies[0]])
        return found

    def counter(self, name: str, seat: int | None) -> int:
        cdef = self.pack.counters[name]
        # (no comprehension reads `self` or `name`: they would be cells, paid at every call)
        if cdef.items is not None:
            return sum(value for _, value in self._pool(cdef, seat))
        if cdef.held is not None:
            return held_sum(self.containers(cdef, seat), cdef.id)
        if cdef.zone is not None:
            items = self.state.zone(cdef.zone, seat).items
            reserved = self._reserved
            if reserved:
                return sum(1 for i in items if i not in reserved)
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

    def spendable(self, name: str, seat: int | None, within: tuple[Item, ...] | None = None) -> int:
        """How much of a counter a payment may use: an item-backed counter's items of positive value; a
        held counter's units in the `within` containers, when a `within` block names them."""
        cdef = self.pack.counters.get(name)
        if cdef is not None and cdef.items is not None:
            return sum(value for _, value in self._pool(cdef, seat) if value > 0)
        if within is not None and cdef is not None and cdef.held is not None:
            return sum(held(c, name) for c in within)
        return self.counter(name, seat)

    # ---------------------------------------------------------------- containers
    def containers(self, cdef: CounterDef, seat: int | None) -> list[Item]:
        """The containers holding a held counter: in its zones (the seat's copies of per-player ones)."""
        assert cdef.held is not None
        found: list[Item] = []
        for zid in cdef.held.zones:
            zone = self.state.zones.get(zid)
            if zone is None:
                if seat is None:
                    continue
                zone = self.state.players[seat].zones[zid]
            found.extend(i for i in zone.items if i.comp.ctype.container is not None)
        return self.each(found)

    def held_total(self, ctx: Ctx, name: str) -> int:
        """A held counter as a rule reads it: the `within` containers', or the total of the seat's."""
        if ctx.pool is not None:
            return held_sum(ctx.pool, name)
        return self.counter(name, ctx.seat)

    def room_for(self, container: Any, name: str) -> int:
        """How many more units of `name` fit in the container (0 if it does not take that counter)."""
        item = need_container(container)
        cdef = self.pack.counters.get(name)
        if cdef is None or cdef.held is None:
            raise RuleError(f"'{name}' is not held in containers (its counter declares no `held`)")
        spec = item.comp.ctype.container
        assert spec is not None
        inner = Ctx(self, item.owner, item)
        if spec.takes is not None:
            takes = spec.takes(inner)
            if name not in (takes if isinstance(takes, list | tuple) else [takes]):
                return 0
        if spec.capacity is None:
            return MAX_VALUE - held(item, name)
        return max(0, (int(spec.capacity(inner)) - used(item, self.pack.counters)) // cdef.held.size)

    def legal_within(self, ctx: Ctx, container: Any, legal: Callable[[], Any]) -> bool:
        """Whether a `within` block can start: its leading statement's test, run within the container."""
        saved, ctx.pool = ctx.pool, need_containers(container)
        try:
            return bool(legal())
        finally:
            ctx.pool = saved

    def held_in(self, container: Any, name: str) -> int:
        """`held(C, NAME)`: how many of a held counter the container holds."""
        return held(need_container(container), name)

    def _fill(self, ctx: Ctx, cdef: CounterDef, amount: int) -> None:
        """Gain units of a held counter: into the `within` container, or one unit at a time into a container
        with room that the player picks (of the `within` ones, when it names several); what fits nowhere is
        lost."""
        pool = ctx.pool
        if pool is not None and len(pool) == 1:
            put(pool[0], cdef.id, held(pool[0], cdef.id) + min(amount, self.room_for(pool[0], cdef.id)))
            return
        self.spend(amount, f"placing {amount:,} {cdef.name} one at a time")
        for _ in range(amount):
            open_ = [c for c in (pool if pool is not None else self.containers(cdef, ctx.seat))
                     if self.room_for(c, cdef.id) > 0]
            if not open_:
                return
            chosen = self.choose_item(ctx, f"put 1 {cdef.name} in", open_)
            put(chosen, cdef.id, held(chosen, cdef.id) + 1)

    def _drain(self, ctx: Ctx, cdef: CounterDef, amount: int) -> None:
        """Take up to `amount` units of a held counter: from the `within` container, or one unit at a time
        from a container the player picks (of the `within` ones, when it names several; all of them at once
        when there is no choice to make)."""
        pool = ctx.pool
        if pool is not None and len(pool) == 1:
            put(pool[0], cdef.id, held(pool[0], cdef.id) - min(amount, held(pool[0], cdef.id)))
            return
        having = [c for c in (pool if pool is not None else self.containers(cdef, ctx.seat)) if held(c, cdef.id) > 0]
        if sum(held(c, cdef.id) for c in having) <= amount:
            for c in having:
                put(c, cdef.id, 0)
            return
        self.spend(amount, f"paying {amount:,} {cdef.name} one at a time")
        for _ in range(amount):
            chosen = self.choose_item(ctx, f"take 1 {cdef.name} from", having)
            put(chosen, cdef.id, held(chosen, cdef.id) - 1)
            having = [c for c in having if held(c, cdef.id) > 0]

    def acting(self, seat: int | None) -> int:
        """The acting seat, or a clear error where no player acts (e.g. a top-level flow step)."""
        if seat is None:   # _seat, inlined: generated code asks this for every `me`
            return self._seat(seat)
        return seat

    def turn_order(self) -> list[int]:
        """Every seat in turn order from the first player (a list made once per first player: never change it);
        the order a rule set (`reorder by`), once one did."""
        if self.state.order is not None:
            return self.state.order
        return self._orders[self.state.counters.get("first_player", 0) % len(self._orders)]

    def everyone(self) -> list[PlayerRef]:
        """`everyone`: every player in turn order."""
        rotations = self._rotations   # (a local: `self` in the comprehension would be a cell, paid at every call)
        if self.state.order is not None:
            return [rotations[seat][0] for seat in self.state.order]
        return rotations[self.state.counters.get("first_player", 0) % len(rotations)]   # players_from, inlined

    def reorder(self, ctx: Ctx, key: Callable[[Ctx], Any]) -> None:
        """`reorder by EXPR`: the turn order becomes the seats sorted by EXPR (each read for that seat),
        lowest first; seats with equal values keep their order (a stable sort of the current order)."""
        current = self.turn_order()
        self.state.order = sorted(current, key=lambda seat: key(Ctx(self, seat)))

    def players_from(self, seat: int) -> list[PlayerRef]:
        """Every player in turn order, starting with `seat` (a list made once per seat: never change it)."""
        return self._rotations[seat % len(self._rotations)]

    def _seat(self, seat: int | None) -> int:
        if seat is None:
            raise RuleError(_NO_ACTING)
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
        if state.work > self.work_limit:
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
            if work > self.work_limit:   # the message is made only then (this runs for every `repeat`)
                raise self.out_of_work(f"a repeat of {count:,} passes")
        return range(count)

    def each(self, collection: Any) -> Any:
        """A collection a rule is about to go through (a loop, a filter, a sum, a choice's options), paid for
        by its length."""
        state = self.state
        work = state.work = state.work + len(collection)
        if work > self.work_limit:
            raise self.overrun(collection)
        return collection

    def overrun(self, collection: Any) -> LimitError:
        """The error for going through `collection` past the work budget."""
        return self.out_of_work(f"going through {len(collection):,} elements")

    def contains(self, value: Any, collection: Any) -> bool:
        """`value in collection`, paid by the length of what it searches (a list, a text or a zone)."""
        if collection.__class__ is Zone:   # searched where it is, not in a copy
            return value in self.each(collection.items)
        self.each(collection if isinstance(collection, (list, tuple, str)) else ())
        return contains(value, collection)

    # ---------------------------------------------------------------- decisions
    def ask(self, ctx: Ctx, kind: str, prompt: Prompt, labels: list[str] | None, values: list[Any],
            optional: bool = False, rules: list[str] | None = None, fresh: bool = False) -> Any:
        """Pause for the acting player's choice; a forced single option is taken at once.

        `labels` None: made from the values only if read (`Decision`: values whose labels never change).
        `rules`: the DSL text each option runs, for options that are blocks of the rules (see `Decision`).
        `fresh`: the caller can work its options out again: anytime actions in their window are offered
        too, and when one is taken it runs and the answer is REASK (engine/runtime/anytime.py).

        The decision is handed to whoever drives the game (`pause`), which returns the index of the answer."""
        if fresh and self.pack.anytime and ctx.seat is not None and not self.committed and not self._trigger_depth:
            answer = self._ask_beside_anytime(ctx, kind, prompt, labels, values, rules)
            if answer is not _NOT_OFFERED:
                return answer
        size = len(values)   # (labels, when given, are one per value: `Decision.size` counts either)
        if size == 1 and not optional:
            if self.on_forced is not None:
                self._tell_forced(ctx.seat, kind, labels, values)
            return values[0]
        state = self.state
        decisions = state.decisions = state.decisions + 1
        seat = ctx.seat
        if decisions > MAX_DECISIONS or seat is None:
            raise self._unaskable(decisions, seat)
        limit = state.work + MAX_WORK   # a new stretch: the work from here is bounded afresh (and the game's)
        self.work_limit = limit if limit < MAX_GAME_WORK else MAX_GAME_WORK
        # `Decision(seat, KINDS[kind], prompt, labels, values, state.step, rules or (), open_source)`, its fields
        # stored one by one (`MadeDecision`: no `__init__` frame; tests/test_decision_made.py holds the two equal)
        source = ctx.self_item
        open_source = True if source is None else in_public_zone(source)
        answering: Any = self.pause
        # (`isinstance`, a builtin call, costs more at every decision)
        if answering.__class__ is InPlace and ANSWERED not in self.heard:
            # an agent that answers by the number of options, nobody told of answers: no `Decision` is made
            # (the log's row holds its fields; the match makes an `UnmadeAnswer` of it when its log is read)
            draw = answering.draws[seat]
            if draw is not None:
                index = int(draw() * size)   # `RandomAgent.choose_by_size` without its frame (`uniform_draw`)
            else:
                pick = answering.by_size[seat]
                index = -1 if pick is None else _picked(pick, size)
            if index >= 0:
                # a row (a tuple: one object, no stores), in `ROW_FIELDS` order (engine/play/log.py); `rules`
                # None for none (`()` when the decision is made)
                answering.log.append((seat, kind, prompt, labels, values, state.step, rules, open_source, index))
                return values[index]
        decision = MadeDecision()
        decision.seat = seat
        decision.kind = KINDS[kind]
        decision._prompt = prompt
        decision._labels = labels
        decision.payloads = values
        decision.size = size
        decision.step = state.step
        decision.rules = rules or ()
        decision.open_source = open_source
        return values[answering(decision)]

    def _ask_beside_anytime(self, ctx: Ctx, kind: str, prompt: Prompt, labels: list[str] | None, values: list[Any],
                            rules: list[str] | None) -> Any:
        """`ask` with the anytime actions the seat may take now offered beside the options (REASK when one was
        taken and ran), or `_NOT_OFFERED` when there is none."""
        assert ctx.seat is not None
        offers = self._anytime_offers(ctx.seat)
        if not offers:
            return _NOT_OFFERED
        texts = [*(rules or [""] * len(values)), *(o.action.effect.text for o in offers)]
        own = labels if labels is not None else derived_labels(values)
        answer = self.ask(ctx, kind, prompt, [*own, *(o.label for o in offers)], [*values, *offers],
                          True, texts)   # (never forced: there is an anytime action beside)
        if isinstance(answer, AnytimeOffer):
            self._take_anytime(ctx.seat, answer)
            return REASK
        return answer

    def _tell_forced(self, seat: int | None, kind: str, labels: list[str] | None, values: list[Any]) -> None:
        """Tell `on_forced` of a single option taken without asking (not while a fork catches up)."""
        if self.on_forced is not None and self.live:
            self.on_forced(seat, kind, labels[0] if labels is not None else derived_labels(values)[0])

    def _unaskable(self, decisions: int, seat: int | None) -> Exception:
        """Why a decision cannot be asked: too many in one game, or nobody acting to ask (`seat` None)."""
        if decisions > MAX_DECISIONS:
            return LimitError(f"more than {MAX_DECISIONS} decisions in one game: does a loop never end?")
        return RuleError(_NO_ACTING)

    def _anytime_offers(self, seat: int) -> list[AnytimeOffer]:
        """The anytime actions the seat may take now: on items in its active zones (and the shared ones),
        in their window, within their limit, payable and able to start."""
        offers = []
        for zone in self._active_zones[seat]:
            for item in zone.items:
                for action in item.comp.anytime:
                    inner = Ctx(self, seat, item)
                    if action.window is not None and not action.window(inner):
                        continue
                    if action.limit is not None and self.state.trigger_uses.get(self._use_key(action, seat), 0):
                        continue
                    if action.cost is not None and not self.can_pay(inner, action.cost.amounts(inner), item):
                        continue
                    if action.effect.legal is None or action.effect.legal(inner):
                        offers.append(AnytimeOffer(action, item))
        return offers

    def _use_key(self, action: AnytimeDef, seat: int) -> tuple[str, int | None, str]:
        assert action.limit is not None
        return (action.id, seat, f"{action.limit}:{self._epoch(action.limit)}")

    def _take_anytime(self, seat: int, offer: AnytimeOffer) -> None:
        """Run an anytime action (its cost, then its effect), not offering anytime actions inside it."""
        action, inner = offer.action, Ctx(self, seat, offer.item)
        if action.limit is not None:
            key = self._use_key(action, seat)
            self.state.trigger_uses[key] = self.state.trigger_uses.get(key, 0) + 1
        self.committed += 1
        try:
            if action.cost is not None:
                self.pay(inner, action.cost.amounts(inner), action.cost.text, offer.item)
            action.effect.run(inner)
        finally:
            self.committed -= 1

    # ---------------------------------------------------------------- counters
    def set_counter(self, ctx: Ctx, name: str, value: int) -> None:
        cdef = self.pack.counters[name]
        if cdef.items is not None:
            raise RuleError(f"'{cdef.name}' is the sum of the items in zone '{cdef.items.zone}': it cannot be"
                            " gained, lost or set, only paid (by exhausting items)")
        if cdef.held is not None:
            raise RuleError(f"'{cdef.name}' is held in containers: gain, lose or pay it (within a container),"
                            " it cannot be set")
        self._store(cdef, ctx.seat)[name] = cdef.clamp(value)

    def _store(self, cdef: CounterDef, seat: int | None) -> dict[str, int]:
        """The dict holding a counter's value: the game's for global counters, else the seat's."""
        if cdef.scope == "global":
            return self.state.counters
        return self.state.players[self._seat(seat)].counters

    def gain(self, ctx: Ctx, name: str, amount: int) -> None:
        if amount <= 0:
            return
        if self.observers and GAINED in self.heard:
            self.tell(Event(GAINED, ctx.seat, {"counter": name, "amount": amount}))
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
        # (the event's action a partial, not a closure: that would make every local of `gain` a cell)
        self.emit("gained", ctx.seat, {"counter": name, "amount": amount}, partial(self._gained, ctx, cdef, amount))

    def _gained(self, ctx: Ctx, cdef: CounterDef, amount: int) -> None:
        """What `gain` does once no trigger replaced it."""
        if cdef.held is not None:
            self._fill(ctx, cdef, amount)
        elif cdef.zone is not None:
            own = self.state.zone(cdef.zone, ctx.seat)
            src = self._linked_zone(self.pack.zones[cdef.zone].draw_from, ctx.seat)
            self.draw(ctx, src, own, amount)
        else:
            self.change(ctx, cdef.id, self.counter(cdef.id, ctx.seat) + self._from_supply(cdef, amount))

    def change(self, ctx: Ctx, name: str, value: int) -> None:
        """Set a counter and tell listeners: event `changed` with `old` and `new` (tracks, thresholds)."""
        cdef = self.pack.counters[name]
        if cdef.stored:
            store = self._store(cdef, ctx.seat)
            old = store[name]
            new = store[name] = cdef.clamp(value)
        else:   # a zone's count; items and containers refuse to be set (set_counter says why)
            old = self.counter(name, ctx.seat)
            self.set_counter(ctx, name, value)
            new = self.counter(name, ctx.seat)
        if cdef.track is not None and new != old:
            self._track_moved(cdef, ctx.seat, old, new)
        elif new != old and "changed" in self.pack.listened:
            self.emit("changed", ctx.seat, {"counter": name, "old": old, "new": new})

    def _track_moved(self, cdef: CounterDef, seat: int | None, old: int, new: int) -> None:
        """A marker on a track moved from old to new: it pushes the markers it lands on (which may push
        further), then every moved marker tells `changed` and the marked spaces it passed (`passed`)."""
        track = cdef.track
        assert track is not None
        moved = [(seat, old, new)]
        if track.push and seat is not None:
            step = 1 if new > old else -1
            players = self.state.players
            here, value = seat, new
            for _ in range(len(players)):   # each push moves another marker; at most every other one
                lap, space = track.place(value)
                if space in track.shared:
                    break
                hit = next((p for p in players if p.seat != here and track.place(p.counters[cdef.id]) == (lap, space)),
                           None)
                if hit is None:
                    break
                was = hit.counters[cdef.id]
                value = hit.counters[cdef.id] = cdef.clamp(was + step)
                if value == was:
                    break
                here = hit.seat
                moved.append((here, was, value))
        listened = self.pack.listened
        for who, before, after in moved:
            if "changed" in listened:
                self.emit("changed", who, {"counter": cdef.id, "old": before, "new": after})
            if "passed" in listened:
                for space in track.crossed(before, after):
                    self.emit("passed", who, {"counter": cdef.id, "space": space, "old": before, "new": after})

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
        if cdef.held is not None:
            if amount > 0:
                self._drain(ctx, cdef, amount)
            return
        have = self.counter(name, ctx.seat)
        self.change(ctx, name, have - max(0, amount))
        self._to_supply(cdef, have - self.counter(name, ctx.seat))

    def can_pay(self, ctx: Ctx, need: dict[str, int], source: Item | None = None) -> bool:
        """Whether `need` can be paid now: as quoted (cost modifiers in play) when the pack has modifiers.
        `source`: the item whose cost it is (a card played, an action's item), if any."""
        if self.pack.modified:
            needs, pool = self.quote(ctx, need, source)
            saved, ctx.pool = ctx.pool, pool or ctx.pool
            try:
                return any(can_pay(self.pack, n, lambda c: self.spendable(c, ctx.seat, ctx.pool)) for n in needs)
            finally:
                ctx.pool = saved
        return can_pay(self.pack, need, lambda c: self.spendable(c, ctx.seat, ctx.pool))

    def pay(self, ctx: Ctx, need: dict[str, int], text: str, source: Item | None = None) -> None:
        needs, pool = self.quote(ctx, need, source) if self.pack.modified else ([need], None)
        saved, ctx.pool = ctx.pool, pool or ctx.pool
        try:
            available = lambda c: self.spendable(c, ctx.seat, ctx.pool)  # noqa: E731
            ways: list[dict[str, int]] = []
            for quoted in needs:
                ways.extend(w for w in payment_ways(self.pack, quoted, available) if w not in ways)
            if not ways:
                raise RuleError(f"cannot pay '{text}': {explain(self.pack, needs[0], available)}")
            way = self.ask(ctx, "pay", f"pay {text}", [way_label(w) for w in ways], ways)
            for name, amount in sorted(way.items()):
                self._spend(ctx, name, amount)
        finally:
            ctx.pool = saved

    def quote(self, ctx: Ctx, need: dict[str, int],
              source: Item | None) -> tuple[list[dict[str, int]], tuple[Item, ...] | None]:
        """The quote stage every cost passes: the cost modifiers of the items in the payer's active zones
        (and the shared ones) that apply add their surcharges, take off their discounts (each way to place
        them is a cost the payer may pay) and may name containers to pay from. Returns the costs and those
        containers (None: the usual pools)."""
        if ctx.seat is None:
            return [need], None
        quoted, discount, pool = dict(need), 0, None
        for zone in self._active_zones[ctx.seat]:
            for item in zone.items:
                for modifier in item.comp.modifiers:
                    inner = Ctx(self, ctx.seat, item, offered=source)
                    if modifier.applies is not None and (source is None or not modifier.applies(inner)):
                        continue
                    if modifier.surcharge is not None:
                        for name, amount in modifier.surcharge.amounts(inner).items():
                            quoted[name] = quoted.get(name, 0) + amount
                    if modifier.discount is not None:
                        discount += int(modifier.discount(inner))
                    if modifier.source is not None and pool is None:
                        pool = need_containers(modifier.source(inner))
        return reductions(quoted, discount), pool

    def _spend(self, ctx: Ctx, name: str, amount: int) -> None:
        cdef = self.pack.counters[name]
        if self.observers and PAID in self.heard:
            self.tell(Event(PAID, ctx.seat, {"counter": name, "amount": amount}))
        # (the event's action a partial, not a closure: that would make every local of `_spend` a cell)
        self.emit("paid", ctx.seat, {"counter": name, "amount": amount}, partial(self._paid, ctx, cdef, amount))

    def _paid(self, ctx: Ctx, cdef: CounterDef, amount: int) -> None:
        """What paying `amount` of a counter does once no trigger replaced it."""
        if cdef.items is not None:
            self._exhaust(ctx, cdef, amount)
            return
        if cdef.held is not None:
            self._drain(ctx, cdef, amount)
            return
        if cdef.zone is None:
            self.change(ctx, cdef.id, self.counter(cdef.id, ctx.seat) - amount)
            self._to_supply(cdef, amount)
            return
        own = self.state.zone(cdef.zone, ctx.seat)
        to = self._linked_zone(self.pack.zones[cdef.zone].discard_to, ctx.seat)
        reserved = self._reserved
        for _ in range(amount):
            spendable = [i for i in own.items if i not in reserved]
            item = self.choose_item(ctx, f"spend 1 {cdef.name}", spendable)
            self.move(ctx, item, to)

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

    def choose_item(self, ctx: Ctx, prompt: Prompt, items: list[Item]) -> Item:
        """One of `items`, offered like a DSL `choose`: equal items once, labels unique (a log names one)."""
        options, labels = offer(items)
        return self.ask(ctx, "choose", prompt, labels, options)

    # ---------------------------------------------------------------- zones
    def set_attr(self, item: Item, attr: str, value: Any) -> None:
        item.own_attrs()[attr] = stored(value)

    def move(self, ctx: Ctx, item: Item, zone: Zone, top: bool = False) -> None:
        cap = zone.capacity
        if cap is not None and len(zone.items) >= cap and item.zone is not zone:
            raise RuleError(f"zone '{zone.id}' is full ({cap} items)")
        origin = item.zone
        if "moved" in self.pack.listened:
            self._move_told(ctx, item, origin, zone, top)
        elif top or origin is None or origin.keep_filled or (self.observers and MOVED in self.heard):
            self._place(ctx, item, origin, zone, top)
        else:   # the usual case, `_place` inline: out of a zone onto the end of another, no event, nobody told
            items = origin.items
            if len(items) > SIZE_FREE:
                taking_out(self, len(items))
            items.remove(item)
            zone.items.append(item)
            zone.names_differ = False
            zone.hears = None
            item.zone = zone

    def _move_told(self, ctx: Ctx, item: Item, origin: Zone | None, zone: Zone, top: bool) -> None:
        """A move some trigger listens to: the event `moved`, around the move itself. (Apart from `move`:
        its lambda would make every argument of `move` a cell, paid at every move.)"""
        self.emit("moved", ctx.seat, {"item": item, "from": origin, "to": zone},
                  lambda: self._place(ctx, item, origin, zone, top))

    def _place(self, ctx: Ctx, item: Item, origin: Zone | None, zone: Zone, top: bool) -> None:
        observers = bool(self.observers) and MOVED in self.heard
        left_top = False
        if origin is not None:
            items = origin.items
            if observers:
                left_top = origin.visibility == "top" and items[0] is item
            if len(items) > SIZE_FREE:      # the search and the shift grow with the zone (limits.py)
                taking_out(self, len(items))
            items.remove(item)
        items = zone.items
        zone.names_differ = False
        zone.hears = None
        if not top:
            items.append(item)
        else:
            if len(items) > SIZE_FREE:
                taking_out(self, len(items))
            items.insert(0, item)
        item.zone = zone
        if observers:
            self._tell_about_item(MOVED, ctx.seat, item, (origin, zone),
                                  {"from": _key(origin), "to": _key(zone)}, left_top)
        if origin is not None and origin.keep_filled:
            self.refill(ctx, origin)

    def refill(self, ctx: Ctx, zone: Zone) -> None:
        """A market row tops itself up from its `draw_from` zone whenever an item leaves it."""
        source = self._linked_zone(zone.zdef.draw_from, zone.owner)
        missing = zone.keep_filled - len(zone.items)
        if missing > 0:
            self.draw(ctx, source, zone, missing)

    def draw(self, ctx: Ctx, src: Zone, dst: Zone, amount: int) -> None:
        if self.observers and DRAWN in self.heard:
            # how many, to every seat, unless one of the zones keeps its size secret now
            seeing = self._seats_seeing(src, dst) if self._sizes_unseen((src, dst)) else None
            self.tell(Event(DRAWN, ctx.seat, {"from": _key(src), "to": _key(dst), "amount": amount},
                            seeing))
        state, zdef, items = self.state, src.zdef, src.items   # (a refill fills `items` in place)
        for _ in range(amount):
            work = state.work = state.work + DRAW_WORK
            if work > self.work_limit:
                raise self.out_of_work(f"drawing {amount:,} items")
            if not items:
                if not zdef.refill_from:
                    return
                self._refill_from(ctx, src, tell=False)
                if not items:
                    return
            self.move(ctx, items[state.rng.randrange(len(items))] if zdef.random_draw else items[0], dst)
            if not items and zdef.refill_from and "exhausted" in self.pack.listened:
                self._refill_from(ctx, src, tell=True)   # the deck ran out: its event now, then the reshuffle

    def _refill_from(self, ctx: Ctx, deck: Zone, tell: bool) -> None:
        """An empty deck takes its `refill_from` zone, shuffled; `tell`: first the event `exhausted` (when a
        trigger listens, a draw that takes the last item does this at once; else the next draw does it)."""
        if tell:
            self.emit("exhausted", ctx.seat, {"zone": deck})
        refill = self.state.zone(deck.zdef.refill_from, deck.owner)  # type: ignore[arg-type]
        deck.items.extend(refill.items)
        deck.names_differ = False
        deck.hears = None
        for item in refill.items:
            item.zone = deck
        refill.items.clear()
        self.shuffle(deck)

    def shuffle(self, zone: Zone) -> None:
        self.state.rng.shuffle(self.each(zone.items))

    def reveal(self, zone: Zone) -> None:
        if self.observers and REVEALED in self.heard and zone.visibility != "public":
            self.tell(Event(REVEALED, None, {"zone": _key(zone), "items": [i.uid for i in zone.items],
                                                       "components": [i.comp.id for i in zone.items]}))
        zone.visibility = "public"

    def conceal(self, zone: Zone) -> None:
        if self.observers and CONCEALED in self.heard and zone.visibility != zone.zdef.visibility:
            self.tell(Event(CONCEALED, None, {"zone": _key(zone)}))
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
        cap = zone.capacity
        if cap is not None and len(zone.items) >= cap:
            return False
        self._reserved.add(item)  # the item being played cannot pay for itself
        try:
            return any(self.can_pay(ctx, need, item) for _, need in self._play_needs(ctx, item, zone, free))
        finally:
            self._reserved.discard(item)

    def play(self, ctx: Ctx, item: Item, zone: Zone, free: bool) -> None:
        if not self.can_play(ctx, item, zone, free):
            raise RuleError(f"'{item.comp.name}' cannot be played to '{zone.id}' now")
        self._reserved.add(item)
        try:
            options = [(text, need) for text, need in self._play_needs(ctx, item, zone, free)
                       if self.can_pay(ctx, need, item)]
            labels = [text for text, _ in options]
            text, need = self.ask(ctx, "cost", f"cost for {item.comp.name}", labels, options)
            self.pay(ctx, need, text, item)
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
        if action.cost is not None and not self.can_pay(ctx, action.cost.amounts(ctx), ctx.self_item):
            return False
        return action.effect.legal is None or bool(action.effect.legal(ctx))

    def perform(self, ctx: Ctx, action: ActionDef) -> None:
        item = ctx.self_item
        if item is not None and self.observers and ACTIVATED in self.heard:
            self._tell_about_item(ACTIVATED, ctx.seat, item, (item.zone,), {"action": action.label})
        if action.cost is not None:
            self.pay(ctx, action.cost.amounts(ctx), action.cost.text, ctx.self_item)
        action.effect.run(ctx)

    @contextmanager
    def _nested(self, what: str) -> Iterator[None]:
        """`do` runs rules inside rules, like `call`: at most MAX_CALL_DEPTH deep, so a rule that does
        itself is a rule error, not a crash."""
        self.call_depth += 1
        try:
            if self.call_depth > MAX_CALL_DEPTH:
                raise RuleError(f"'do' nested deeper than {MAX_CALL_DEPTH} (at {what}): recursion?")
            yield
        finally:
            self.call_depth -= 1

    def can_do(self, ctx: Ctx, target: Any) -> bool:
        item = _need_item(target, "do")
        if self.call_depth >= MAX_CALL_DEPTH:
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
        if self.state.order is not None:
            return self.state.order.index(seat) + 1
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
        if self.call_depth >= MAX_CALL_DEPTH:
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
        return self.can_pay(ctx, self.price_of(ctx, target, name)[0], target if isinstance(target, Item) else None)

    def pay_attr(self, ctx: Ctx, target: Any, name: str) -> None:
        """`pay ITEM.ATTR`: pay the item's `cost` attribute (the player chooses among the ways)."""
        need, text = self.price_of(ctx, target, name)
        self.pay(ctx, need, text, target if isinstance(target, Item) else None)

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
    def call_with(self, ctx: Ctx, name: str, args: tuple[Any, ...]) -> None:
        """`call NAME(A, ...)`: the caller's context, holding the parameters' values."""
        self.call(Ctx(self, ctx.seat, ctx.self_item, ctx.event, ctx.offered, args), name)

    def call(self, ctx: Ctx, name: str) -> None:
        """`call NAME` (generated code runs the procedure's function itself): the procedure's function pays
        for the call and counts its depth (engine/compile/codegen.py, `Unit.module`), so every way into a
        procedure is paid and a call costs one Python frame, not two."""
        self.pack.procedures[name].run(ctx)

    def can_call_with(self, ctx: Ctx, name: str, args: tuple[Any, ...]) -> bool:
        """Whether `call NAME(A, ...)` can start."""
        return self.can_call(Ctx(self, ctx.seat, ctx.self_item, ctx.event, ctx.offered, args), name)

    def can_call(self, ctx: Ctx, name: str) -> bool:
        legal = self.pack.procedures[name].legal
        if legal is None:
            return True
        if self.call_depth >= MAX_CALL_DEPTH:
            return False
        self.call_depth += 1
        try:
            return bool(legal(ctx))
        finally:
            self.call_depth -= 1

    def emit(self, name: str, seat: int | None, payload: dict[str, Any],
             action: Callable[[], None] | None = None) -> None:
        """An event: `before` triggers, then `action` (unless an `instead` trigger replaces it), then `after`.

        Nesting depth and the number of firings per game are bounded, so a trigger loop is an error.
        """
        pack = self.pack
        if name in pack.listened:
            # the listeners: the pack's triggers on `name`, then those of items in the seat's active zones (most
            # events find none: gathered here, in one frame, and a list made only for a listener)
            on = pack.triggers_on.get(name)
            listeners: list[tuple[TriggerDef, Item | None]] | None = [(t, None) for t in on] if on else None
            if seat is not None and name in pack.item_listened:
                for zone in self._active_zones[seat]:
                    # (most zones have no item with a trigger on most events: their items are not looked at)
                    if name not in (zone.hears if zone.hears is not None else _hears(zone)):
                        continue
                    for item in zone.items:
                        if name in item.comp.triggers_on:
                            on = item.comp.triggers_on[name]
                            if on:
                                if listeners is None:
                                    listeners = []
                                for t in on:
                                    listeners.append((t, item))
            if listeners is not None:
                self._dispatch(name, seat, payload, action, listeners)
                return
        if action is not None:   # nobody in play listens now
            action()

    def _dispatch(self, name: str, seat: int | None, payload: dict[str, Any], action: Callable[[], None] | None,
                  listeners: list[tuple[TriggerDef, Item | None]]) -> None:
        """An event some trigger listens to: `before` and `instead` triggers, the action, `after` triggers."""
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
        # `Ctx(self, seat, item, payload)`, its slots stored here: no `__init__` frame for every trigger
        # fired (tests/test_ctx_made.py holds the two equal)
        ctx = _new_ctx(Ctx)
        ctx.game, ctx.seat, ctx.self_item, ctx.event = self, seat, item, payload
        ctx.offered = ctx.pool = None
        ctx.args = ()
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
        return 0 if limit == "game" else self.state.turns if limit == "turn" else self.state.rounds


class _NoActingPlayer:
    """What `game.seats[None]` holds: reading a player's counters or zones where nobody acts fails clearly."""

    @property
    def counters(self) -> dict[str, int]:
        raise RuleError(_NO_ACTING)

    zones = seat = counters


_NOBODY = _NoActingPlayer()
_NO_ACTING = "this needs an acting player, but it runs outside any player's turn"
_NOT_OFFERED = object()   # (`_ask_beside_anytime`: no anytime action to offer beside the options)
_new_ctx = object.__new__        # (`_fire` makes a context without one)


def _hears(zone: Zone) -> frozenset[str]:
    """The events some item in `zone` has a trigger on, kept in the zone (`Zone.hears`) until an item comes in."""
    hears = zone.hears = frozenset([event for item in zone.items for event, on in item.comp.triggers_on.items() if on])
    return hears


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
