"""Mutable match state: players, counters, zones, the items in them, and where the flow is.

Every fact that can change what happens next lives in `State`, and `State.to_data()` turns it into
plain data (numbers, strings, lists, dicts, tuples: ids, never definitions). That form is what is
hashed (`digest`), copied for fork and undo checkpoints (`load` writes one back in place), pickled
and written as JSON. `Item` and `Zone` are the live objects generated code works on; an item keeps
a pointer to its (immutable) definition for speed, and is known in the plain form by its `uid`.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import pairwise
from operator import itemgetter
from typing import TYPE_CHECKING, Any

from engine.runtime.boards import Graph

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

    from engine.runtime.defs import ComponentDef, Pack, ZoneDef
    from engine.runtime.grids import GridMaps


@dataclass(frozen=True, slots=True)
class ItemRef:
    """An attribute that holds an item holds this: that very item (its uid), not its component."""

    uid: int


@dataclass(frozen=True, slots=True)
class ZoneRef:
    """An attribute that holds a zone: which zone, and whose copy of it (None: the global one)."""

    zone: str
    owner: int | None


class RefList(list[Any]):
    """A list attribute that holds item or zone references (`dsl_values.stored` makes it): a read turns them
    back into the items and zones. Plain lists (most: ids, numbers) are read as they are, unscanned."""

    __slots__ = ()


class Item:
    """One instance of a component (a card, a token) living in a zone; `copy` numbers it among its component's.

    Its `attrs` are its component's `values` dict itself, shared by all its copies in every match, until its
    first attribute write, which goes through `own_attrs` (or the generated store's inline test
    `attrs is comp.values`): most items are never written (a card's printed numbers), and a dict copy per item
    per match was ~2% of a short game. A store straight into `attrs` would change the component for every
    later match: every write site makes them the item's own first, nothing changes a value inside them in place.
    """

    __slots__ = ("attrs", "comp", "copy", "owner", "uid", "zone")
    # No `__init__`: only `new_state` and `State.copy_as` make items, `Item()` then a store a slot. A class
    # without one is called with no Python frame and no argument tuple (`object.__new__(Item)` builds one):
    # this runs for every item of every match.
    uid: int
    comp: ComponentDef
    owner: int | None
    copy: int                       # its number among its component's copies
    attrs: dict[str, Any]           # its attributes: its component's `values` (shared) until `own_attrs`
    zone: Zone | None               # where it is (None: nowhere)

    @property
    def name(self) -> str:
        return self.comp.name

    def __repr__(self) -> str:
        return f"<{self.comp.id}#{self.uid}>"

    def own_attrs(self) -> dict[str, Any]:
        """Its attributes to write into: a copy of its component's values at the first call (until then it
        shares them with its component's other copies and matches)."""
        attrs = self.attrs
        if attrs is self.comp.values:
            attrs = self.attrs = attrs.copy()
        return attrs


class Zone:
    """An ordered container of items; slot rows fill from the left."""

    __slots__ = ("capacity", "hears", "items", "keep_filled", "names_differ", "owner", "visibility", "zdef")
    # No `__init__`: zones are made by `new_zones`, several in one call (a class call with an `__init__` runs a
    # frame of its own, and a match makes every zone of the pack for each owner).
    zdef: ZoneDef
    owner: int | None
    items: list[Item]
    visibility: str
    # sizes for this match: the definition's, or read from the player count (Interpreter sets them)
    capacity: int | None
    keep_filled: int
    # the items here were found to have names that differ (`offer`), and none came in since: an item
    # leaving cannot make two names equal, so only what puts an item in a zone clears it
    names_differ: bool
    # the events some item here has a trigger on, worked out by `Interpreter.emit`, or None: not since an item
    # came in (every way in sets it None, where `names_differ` is cleared; an item leaving can only leave
    # events no item here hears, which `emit` finds when it looks at the items)
    hears: frozenset[str] | None

    @property
    def id(self) -> str:
        return self.zdef.id

    def __repr__(self) -> str:
        who = "" if self.owner is None else f"@{self.owner}"
        return f"<zone {self.zdef.id}{who} {len(self.items)}>"

    def visible_to(self, seat: int | None) -> bool:
        """Whether `seat` sees every item here (a `top` zone shows only its first item: see `shows`)."""
        if self.visibility == "public":
            return self.zdef.face_down is None
        if self.visibility == "owner":
            return seat is not None and seat == self.owner and self.zdef.face_down is None
        return False

    def shows(self, item: Item, seat: int | None) -> bool:
        """Whether `seat` sees this item here: the zone's visibility, the visible top of a `top` zone, and
        items turned face down (the zone's `face_down` attribute: seen by the zone's owner only)."""
        if self.visibility == "top":
            if not self.items or self.items[0] is not item:
                return False
        elif self.visibility == "owner":
            if seat is None or seat != self.owner:
                return False
        elif self.visibility == "hidden":
            return False
        face = self.zdef.face_down
        return face is None or not item.attrs.get(face) or (seat is not None and seat == self.owner)


def new_zones(zdefs: Iterable[ZoneDef], owner: int | None, like: dict[str, Zone] | None = None) -> dict[str, Zone]:
    """Empty zones `zdefs` of one owner (None: the shared ones), by id: their sizes the definitions', or those of
    `like`'s zones of the same ids (the zones a fork copies)."""
    zones: dict[str, Zone] = {}
    for zdef in zdefs:
        zone = Zone()
        zone.zdef = zdef
        zone.owner = owner
        zone.items = []
        zone.visibility = zdef.visibility
        sized: ZoneDef | Zone = zdef if like is None else like[zdef.id]
        zone.capacity = sized.capacity
        zone.keep_filled = sized.keep_filled
        zone.names_differ = False
        zone.hears = None
        zones[zdef.id] = zone
    return zones


@dataclass(frozen=True)
class PlayerRef:
    """A player as a DSL value (`me`, `others`, an item's `owner`): reads that seat's counters and zones."""

    seat: int

    def __repr__(self) -> str:
        return f"P{self.seat + 1}"


# `Player` and `State` have no `__init__` (as `Item` and `Zone`): only `new_state` and `State.copy_as` make them,
# each by a class call with no Python frame, then a store an attribute, every one (`_new_state`).
@dataclass(init=False)
class Player:
    seat: int
    counters: dict[str, int]
    zones: dict[str, Zone]


@dataclass(init=False)
class State:
    """Everything that changes during a match (see the module docstring for its plain-data form)."""

    players: list[Player]
    counters: dict[str, int]
    zones: dict[str, Zone]
    seed: int     # the match's random generator is made from it when first used (`rng`): many games never use it
    items: list[Item]
    # (trigger id, seat, "period:count") -> uses: triggers limited to once per turn, round or game
    trigger_uses: dict[tuple[str, int | None, str], int]
    step: str                     # the flow step running now
    # turns and rounds begun (`periods`): plain attributes, which the flow counts up at every seat's turn and
    # every round (an attribute's `+= 1` is about half the work of a dict entry's)
    turns: int
    rounds: int
    decisions: int                # decisions asked (forced single options are not asked)
    firings: int                  # triggers fired (a budget against trigger loops)
    work: int                     # units of work spent: bounded by MAX_WORK (engine/runtime/limits.py)
    steps: int                    # flow steps begun (forkable matches): with the flow trace, where the flow is
    # boards whose links changed in this match (`link`/`unlink`), by (component type, owner seat):
    # a copy of the pack's graph, so the pack stays the same for every match
    boards: dict[tuple[str, int | None], Graph]
    dice: dict[str, list[int]]    # each dice pool's faces, by die id (`roll`)
    # the turn order set by `reorder by EXPR` (seats, first player first); None: clockwise from first_player
    order: list[int] | None
    # decisions asked when the outermost running `simultaneous` flow step began (None: outside every one): the
    # answers given since are secret until its reveal, and a sample for one seat deals the others' again
    # (engine/play/match.py `determinize`)
    secret_since: int | None
    _random: random.Random | None

    @property
    def periods(self) -> dict[str, int]:
        """The turns and rounds begun, by period name (a copy: change `turns` and `rounds`)."""
        return {"turn": self.turns, "round": self.rounds}

    @property
    def rng(self) -> random.Random:
        """The match's random generator, `random.Random(seed)`, made at its first use (its state, hashed and
        copied in `to_data`, is the same whether it was made at the start or now)."""
        made = self._random
        if made is None:
            made = self._random = random.Random(self.seed)
        return made

    def zone(self, zid: str, seat: int | None) -> Zone:
        """The zone `zid`: the seat's own copy for per-player zones."""
        zone = self.zones.get(zid)
        if zone is not None:
            return zone
        if seat is None:
            raise KeyError(f"zone '{zid}' belongs to a player, but no player is acting here")
        return self.players[seat].zones[zid]

    def all_zones(self) -> list[Zone]:
        """Every zone, in a fixed order: the global ones, then each player's."""
        return [*self.zones.values(), *(z for p in self.players for z in p.zones.values())]

    def copy_as(self, data: dict[str, Any]) -> State:
        """New objects for this state's items, zones and players, holding `data` (a `to_data` of this match).

        One pass that makes each item with its attributes and fills each zone: a fork's whole state.
        """
        items: list[Item] = []
        append = items.append
        for old, attrs in zip(self.items, data["attrs"], strict=True):
            item = Item()      # (a store a slot, as in `new_state`)
            item.uid = old.uid
            item.comp = old.comp
            item.owner = old.owner
            item.copy = old.copy
            item.attrs = attrs if attrs is old.comp.values else dict(attrs)   # (shared: see `to_data`)
            item.zone = None
            append(item)
        players = []
        for old_player in self.players:
            player = Player()
            player.seat = old_player.seat
            player.counters = {}
            player.zones = new_zones([z.zdef for z in old_player.zones.values()], old_player.seat, old_player.zones)
            players.append(player)
        state = _new_state(players, {}, new_zones([z.zdef for z in self.zones.values()], None, self.zones), 0, items)
        for zone, (_, uids) in zip(state.all_zones(), data["zones"], strict=True):
            zone.items = [items[uid] for uid in uids]
            for item in zone.items:
                item.zone = zone
        state.load(data, items=False)
        return state

    # ---------------------------------------------------------------- the plain-data form
    def to_data(self, like: dict[str, Any] | None = None) -> dict[str, Any]:
        """Every fact of the state as plain data (item attributes hold `ItemRef`/`ZoneRef`, both plain values).

        `like`: an earlier `to_data` of this state to share unchanged parts with (both are then read-only):
        checkpoints taken every few answers hold mostly the same items, and fresh copies of all of them
        would mostly feed the garbage collector. An item never written holds its component's values dict itself
        (`Item`), and so does the data (`load` and `copy_as` share it again).
        """
        zones = [(z.visibility, tuple([i.uid for i in z.items])) for z in self.all_zones()]
        attrs = [_attrs_data(i) for i in self.items] if like is None else \
            [old if old == i.attrs else _attrs_data(i) for i, old in zip(self.items, like["attrs"], strict=True)]
        if like is not None:
            zones = [old if old == new else new for new, old in zip(zones, like["zones"], strict=True)]
        return {
            "step": self.step, "periods": {"turn": self.turns, "round": self.rounds}, "decisions": self.decisions,
            "firings": self.firings, "work": self.work, "steps": self.steps,
            "counters": dict(self.counters), "players": [dict(p.counters) for p in self.players],
            "zones": zones, "attrs": attrs,
            "trigger_uses": dict(self.trigger_uses),
            "boards": {key: (g.type_id, g.order, {cid: tuple(near) for cid, near in g.links.items()},
                             *((tuple(sorted(g.blocked)),) if g.blocked else ()))
                       for key, g in self.boards.items()},
            "dice": {did: tuple(faces) for did, faces in self.dice.items()},
            "rng": self._random.getstate() if self._random is not None else _fresh_rng(self.seed),
            **({"order": tuple(self.order)} if self.order is not None else {}),   # only once a rule set it
            **({"secret_since": self.secret_since} if self.secret_since is not None else {}),  # in a simultaneous step
        }

    def load(self, data: dict[str, Any], items: bool = True) -> None:
        """Make this state the one `data` describes (from `to_data` of a state of the same match), in place.

        `items=False`: all but the items' attributes and places (a state made by `copy_as(data)` has them).
        """
        self.step, self.decisions, self.firings, self.steps = data["step"], data["decisions"], data["firings"], \
            data["steps"]
        self.work = data["work"]
        periods = data["periods"]
        self.turns, self.rounds = periods["turn"], periods["round"]
        self.counters.clear()
        self.counters.update(data["counters"])
        for player, counters in zip(self.players, data["players"], strict=True):
            player.counters.clear()
            player.counters.update(counters)
        if items:
            for item, attrs in zip(self.items, data["attrs"], strict=True):
                item.attrs = attrs if attrs is item.comp.values else dict(attrs)   # (shared: see `to_data`)
                item.zone = None
        for zone, (visibility, uids) in zip(self.all_zones(), data["zones"], strict=True):
            zone.visibility = visibility
            if items:
                zone.items = [self.items[uid] for uid in uids]
                zone.names_differ = False
                zone.hears = None
                for item in zone.items:
                    item.zone = zone
        self.trigger_uses = dict(data["trigger_uses"])
        self.boards = {key: Graph(board[0], board[1], {cid: list(near) for cid, near in board[2].items()},
                                  {tuple(pair) for pair in board[3]} if len(board) > 3 else set())
                       for key, board in data["boards"].items()}
        self.dice = {did: list(faces) for did, faces in data["dice"].items()}
        self.rng.setstate(data["rng"])
        self.order = list(data["order"]) if data.get("order") is not None else None
        self.secret_since = data.get("secret_since")

    def digest(self) -> str:
        """A hash of `to_data()` but `steps` (the flow's bookkeeping, kept only by forkable matches: it
        changes nothing that happens): two states with equal digests are the same game."""
        data = self.to_data()
        del data["steps"]
        data["rng"] = _shown_rng(data["rng"])
        return hashlib.blake2b(repr(data).encode(), digest_size=8).hexdigest()


def _attrs_data(item: Item) -> dict[str, Any]:
    """An item's attributes in `to_data`: a copy, or its component's values themselves while it shares them."""
    attrs = item.attrs
    return attrs if attrs is item.comp.values else dict(attrs)


@lru_cache(maxsize=8)
def _fresh_rng(seed: int) -> tuple[Any, ...]:
    """The state of `random.Random(seed)` before its first draw: what a match whose generator was never used
    holds (and hashes), without making its generator; kept for a game and its replay."""
    return random.Random(seed).getstate()


class _Shown(str):
    """A text that `repr` shows as it is: a part of a `repr` worked out already."""

    __slots__ = ()

    def __repr__(self) -> str:
        return str.__str__(self)


_last_rng: tuple[Any, _Shown] = (None, _Shown("None"))


def _shown_rng(rng: Any) -> _Shown:
    """`repr` of a random generator's state (625 numbers: most of a small game's digest), kept for the last
    state shown: a game and its replay (`simulate`'s check, a log's final hash) end in the same state.
    (Telling two states apart stops at their first differing number, the second.)"""
    global _last_rng
    last = _last_rng
    if last[0] != rng:
        last = _last_rng = (rng, _Shown(repr(rng)))
    return last[1]


def json_safe(value: Any) -> Any:
    """A plain-data value (from `State.to_data` or an attribute) as JSON: refs become small objects."""
    if isinstance(value, ItemRef):
        return {"item": value.uid}
    if isinstance(value, ZoneRef):
        return {"zone": value.zone, "owner": value.owner}
    if isinstance(value, dict):
        return {str(k) if not isinstance(k, tuple) else "|".join(map(str, k)): json_safe(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [json_safe(v) for v in value]
    return value


def new_state(pack: Pack, players: int, seed: int, plan: Layout | None = None) -> State:
    """The state a match starts from: every component's copies made and put in their starting zones.

    What goes where is the same for every match of a pack and player count (`Layout`, kept on the pack), so
    this only makes the objects, each in one pass: the zones, then the items, then each zone's starting items
    (a slice of the items: `Layout.zone_rows`) (`plan`: that layout, when the caller has it). No class here has
    an `__init__` (each object is made by a class call with no Python frame, then a store a slot).

    A released match's objects are made this one again (`Layout.spares`, `Match.release`): a short game spends
    about a tenth of its time making and freeing them otherwise."""
    if plan is None:
        plan = layout(pack, players)
    if plan.spares:
        try:
            spare = plan.spares.pop()
        except IndexError:      # (another thread took the last)
            pass
        else:
            return _renewed(pack, plan, seed, *spare)
    counters = plan.player_counters
    seats: list[Player] = []
    holders: list[dict[str, Zone]] = [{}]     # by zone row: the dict its zone goes in (0: the shared zones)
    for seat in range(players):
        player = Player()
        player.seat = seat
        player.counters = counters.copy()
        zones: dict[str, Zone] = {}
        player.zones = zones
        seats.append(player)
        holders.append(zones)
    made: list[Zone] = []     # by slot (`State.all_zones` order)
    append_zone = made.append
    for zid, zdef, holder, owner, visibility, capacity, keep_filled, names_differ in plan.zone_rows:
        zone = Zone()
        zone.zdef = zdef
        zone.owner = owner
        zone.visibility = visibility
        zone.capacity = capacity
        zone.keep_filled = keep_filled
        zone.names_differ = names_differ
        zone.hears = None
        holders[holder][zid] = zone
        append_zone(zone)
    state = _new_state(seats, plan.counters.copy(), holders[0], seed, [])
    if pack.dice:
        state.dice = {did: [] for did in pack.dice}
    items = state.items
    append = items.append
    slots: list[Zone | None] = [*made, None]    # an item's starting zone by its slot; -1: none
    for uid, comp, owner, copy, values, slot in plan.item_rows:
        item = Item()      # (one store a slot: a tuple assignment would build and unpack a tuple per item)
        item.uid = uid
        item.comp = comp
        item.owner = owner
        item.copy = copy
        item.attrs = values     # (its component's, shared until its first write: `Item.own_attrs`)
        item.zone = slots[slot]
        append(item)
    for zone, fill in zip(made, plan.fills, strict=True):
        zone.items = fill(items)
    return state


def _renewed(pack: Pack, plan: Layout, seed: int, state: State, zones: list[Zone]) -> State:
    """`new_state`'s state made of a released match's objects (`Spares`): the same players, zones and items in
    the same places (items and zones never change which component, owner or uid they have), their changing
    fields set again as `new_state` sets them."""
    counters = plan.player_counters
    for player in state.players:
        player.counters = counters.copy()
    items = state.items
    slots: list[Zone | None] = [*zones, None]
    for item, values, slot in zip(items, plan.item_values, plan.item_slots, strict=True):
        item.attrs = values     # (shared, as in `new_state`)
        item.zone = slots[slot]
    for zone, (_, _, _, _, visibility, capacity, keep_filled, names_differ), fill in zip(
            zones, plan.zone_rows, plan.fills, strict=True):
        zone.visibility = visibility
        zone.capacity = capacity
        zone.keep_filled = keep_filled
        zone.names_differ = names_differ
        zone.hears = None
        zone.items = fill(items)
    _reset(state, state.players, plan.counters.copy(), state.zones, seed, items)
    if pack.dice:
        state.dice = {did: [] for did in pack.dice}
    return state


def _new_state(players: list[Player], counters: dict[str, int], zones: dict[str, Zone], seed: int,
               items: list[Item]) -> State:
    """A `State` at a match's start, its attributes stored in the order of its fields (every state keeps
    them in one order, so all share one table of attribute names)."""
    return _reset(State(), players, counters, zones, seed, items)


def _reset(state: State, players: list[Player], counters: dict[str, int], zones: dict[str, Zone], seed: int,
           items: list[Item]) -> State:
    state.players = players
    state.counters = counters
    state.zones = zones
    state.seed = seed
    state.items = items
    state.trigger_uses = {}
    state.step = ""
    state.turns = 0
    state.rounds = 0
    state.decisions = 0
    state.firings = 0
    state.work = 0
    state.steps = 0
    state.boards = {}
    state.dice = {}
    state.order = None
    state.secret_since = None
    state._random = None
    return state


@dataclass
class Layout:
    """Where a new match's items are made and put, and which uid each gets: the same for every match of a pack
    and player count (items are made in component order), so it is worked out once and kept on the pack
    (`layout`), with what else depends only on them (seat rotations, grid maps)."""

    copies: dict[tuple[str, int | None], list[int]]   # (component id, owner) -> its items' uids, in copy order
    first: dict[tuple[str, int | None], int]          # (component id, owner) -> the uid of its first copy
    shared: dict[str, int]                            # component id -> first uid, for components no player owns
    # by uid: the item's uid, component, owner, copy number, starting attributes (the component's `values`, which
    # each item shares until its first write: `Item`) and starting zone (its slot: an index in `State.all_zones`
    # order; -1: none)
    item_rows: list[tuple[int, ComponentDef, int | None, int, dict[str, Any], int]]
    # by slot: the zone's id, definition, where `new_state` puts it (0: the state's zones, 1 + seat: that seat's),
    # owner, visibility, capacity, market size and whether its starting items' names all differ (`offer`)
    zone_rows: list[tuple[str, ZoneDef, int, int | None, str, int | None, int, bool]]
    # by slot: what takes its starting items (a new list) from the match's items: mostly a slice of them (they
    # are made in uid order, and a zone's uids mostly run evenly spaced: a component's copies, one per player in
    # turn), read by an `itemgetter` (a C call, as `items[a:b:c]`)
    fills: list[Callable[[list[Item]], list[Item]]]
    global_zones: list[ZoneDef]                       # the zones no player owns, then each player's, in pack order
    player_zones: list[ZoneDef]
    counters: dict[str, int]                          # the stored counters' starting values: shared, per player
    player_counters: dict[str, int]
    active: list[list[int]]                           # by seat: its active zones then the shared ones (slots);
    no_active_zones: tuple[tuple[Zone, ...], ...]     # by seat: none (a match's when no zone is active: read-only)
    sized: list[int]                                  # the zones whose sizes are expressions (slots)
    rotations: list[list[PlayerRef]]                  # by seat: every player from that seat on, clockwise
    orders: list[list[int]]                           # the same as seats
    # the grid maps (engine/runtime/grids.py `GridMaps`): where each grid cell is among the items, by uid, made at
    # the layout's first match
    grid_maps: GridMaps | None = None
    # by uid: each item's starting attributes and slot (`item_rows`' last two columns: a renewed state's)
    item_values: list[dict[str, Any]] = field(default_factory=list)
    item_slots: list[int] = field(default_factory=list)
    spares: Spares = field(default_factory=lambda: Spares())


class Spares(list[tuple[State, list[Zone]]]):
    """Released matches' states (each with its zones in slot order) that `new_state` makes the next ones of,
    at most `LIMIT` (a searching bot releases a sample before it makes the next: a few are enough). A spare is
    put here only by `Match.release` (once per match: a state in play is never here) and taken out by one
    `new_state` (`list.pop`: one thread gets it)."""

    __slots__ = ()
    LIMIT = 4

    def __reduce__(self) -> tuple[type[Spares], tuple[()]]:
        return Spares, ()      # (a copy of a pack holds none)


def layout(pack: Pack, players: int) -> Layout:
    """The layout of the pack's matches of `players` players, from the pack's cache when it has it."""
    found: Layout | None = pack.layouts.get(players)
    if found is None:
        found = pack.layouts.setdefault(players, _laid_out(pack, players))
    return found


def _laid_out(pack: Pack, players: int) -> Layout:
    global_zones = [z for z in pack.zones.values() if z.scope == "global"]
    player_zones = [z for z in pack.zones.values() if z.scope == "player"]
    zones: list[tuple[str, int | None]] = [(z.id, None) for z in global_zones]
    zones += [(z.id, seat) for seat in range(players) for z in player_zones]
    slot = {key: i for i, key in enumerate(zones)}
    starts: list[list[int]] = [[] for _ in zones]
    items: list[tuple[ComponentDef, int | None, int, int]] = []
    copies: dict[tuple[str, int | None], list[int]] = {}
    for comp in pack.components.values():
        zid = comp.ctype.zone
        for owner in range(players) if comp.ctype.per_player else (None,):
            uids = list(range(len(items), len(items) + comp.copies))
            where = -1
            if zid:
                where = slot.get((zid, None), slot.get((zid, owner), -1))
                if where < 0:
                    raise KeyError(f"zone '{zid}' belongs to a player, but no player is acting here")
                starts[where].extend(uids)
            items.extend((comp, owner, k, where) for k in range(comp.copies))
            if uids:
                copies[(comp.id, owner)] = uids
    first = {key: uids[0] for key, uids in copies.items()}
    shared = {cid: uid for (cid, owner), uid in first.items()
              if owner is None and not pack.components[cid].ctype.per_player}
    active_shared = [i for i, z in enumerate(global_zones) if z.active]
    active = [[slot[(z.id, seat)] for z in player_zones if z.active] + active_shared for seat in range(players)]
    refs = [PlayerRef(seat) for seat in range(players)]
    rotations = [refs[seat:] + refs[:seat] for seat in range(players)]
    zone_rows = [_zone_row(pack.zones[zid], owner, [items[uid][0].name for uid in uids])
                 for (zid, owner), uids in zip(zones, starts, strict=True)]
    item_rows = [(uid, comp, owner, copy, comp.values, where) for uid, (comp, owner, copy, where) in enumerate(items)]
    return Layout(copies, first, shared, item_rows, zone_rows, [_fill(uids) for uids in starts],
                  global_zones, player_zones,
                  {c.id: c.initial for c in pack.counters.values() if c.scope == "global" and c.stored},
                  {c.id: c.initial for c in pack.counters.values() if c.scope == "player" and c.stored},
                  active, ((),) * players, [i for i, (zid, _) in enumerate(zones) if pack.zones[zid].sizes],
                  rotations, [[p.seat for p in rotation] for rotation in rotations],
                  item_values=[row[4] for row in item_rows], item_slots=[row[5] for row in item_rows])


def _zone_row(zdef: ZoneDef, owner: int | None, names: list[str]) -> tuple[str, ZoneDef, int, int | None, str,
                                                                          int | None, int, bool]:
    """A zone's row in `Layout.zone_rows`, from its definition, owner and its starting items' names (an empty
    zone's names are not said to differ: as a zone that was never looked at)."""
    return (zdef.id, zdef, 0 if owner is None else 1 + owner, owner, zdef.visibility, zdef.capacity,
            zdef.keep_filled, bool(names) and len(set(names)) == len(names))


def _fill(uids: list[int]) -> Callable[[list[Item]], list[Item]]:
    """How a zone starting with the items `uids` (ascending) takes them from the match's items (`new_state`):
    a slice when they are evenly spaced (no, one or two uids always are), else each picked."""
    if len(uids) < 2:
        return itemgetter(slice(uids[0], uids[0] + 1) if uids else slice(0, 0))
    step = uids[1] - uids[0]
    if step > 0 and all(b - a == step for a, b in pairwise(uids)):
        return itemgetter(slice(uids[0], uids[-1] + 1, step))
    pick = itemgetter(*uids)
    return lambda items: list(pick(items))
