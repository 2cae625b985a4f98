"""A compiled pack: definitions with their DSL already turned into Python functions (engine/compile/codegen.py).

Nothing here changes during a game; the `State` (engine.runtime.state) does.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from engine.runtime.boards import Graph, Grid
from engine.runtime.limits import MAX_VALUE, too_large
from engine.usage import Usage

if TYPE_CHECKING:
    from engine.runtime.context import Ctx

Expr = Callable[["Ctx"], Any]
Runner = Callable[["Ctx"], None]


@dataclass(slots=True)
class Effect:
    """A compiled effect: `run` carries it out (asking players through `Interpreter.ask`).

    `legal` tells, without running, whether the effect can start (its leading
    cost can be paid); None means always.
    """

    run: Runner
    legal: Expr | None
    text: str


@dataclass(slots=True)
class Cost:
    """`amounts(ctx)`: how many of each counter or wildcard the cost asks for now; `text` as written."""

    amounts: Callable[[Ctx], dict[str, int]]
    text: str


@dataclass
class ItemPool:
    """A counter read from items (`items:`): the sum of their values, paid by exhausting them.

    Why: some games pay with what is on the table (flip cards, tap lands) rather than from a stock; the
    items stay where they are, marked exhausted, and stop counting.
    """

    zone: str
    exhaust: str                          # bool attribute: exhausted items stop counting; paying sets it
    value: Expr | None = None             # the item's value (self = the item); None: 1 each
    where: Expr | None = None             # which items of the zone count; None: all
    discard: Expr | None = None           # items it holds for go to the zone's discard_to instead


@dataclass(frozen=True)
class Track:
    """A counter read as a marker on a track (`track:`): markers that push, laps, marked spaces.

    Why: race and score tracks let no two markers share a space (the one arriving pushes the other on),
    run a second lap past the end, and interlace with another track at spaces whose crossing costs
    something; plain counters plus `changed` triggers cannot move another player's marker in step.
    """

    push: bool = False
    shared: frozenset[int] = frozenset()  # spaces of a lap where markers may stand together
    lap: int | None = None                # spaces in a lap: lap + 1 is space 1 of lap 2
    marks: tuple[int, ...] = ()           # values whose landing on or passing emits `passed`

    def place(self, value: int) -> tuple[int, int]:
        """(lap, space) of a marker at `value`: laps count from 0; with no laps, (0, value)."""
        if self.lap is None or value <= self.lap:
            return 0, value
        turn = (value - 1) // self.lap
        return turn, value - turn * self.lap

    def crossed(self, old: int, new: int) -> list[int]:
        """The marked values a move from old to new lands on or passes, in the order it meets them."""
        if new > old:
            return [m for m in sorted(self.marks) if old < m <= new]
        return [m for m in sorted(self.marks, reverse=True) if new <= m < old]


@dataclass(frozen=True)
class Held:
    """A counter held in containers (`held:`): its value is what the containers in `zones` hold.

    Why: resources that sit in barrels, on tiles or on cards, each with room for so much, are paid from a
    given one and moved between them; a single number per player cannot say where they are.
    """

    zones: tuple[str, ...]
    size: int = 1                          # the capacity one unit takes


@dataclass
class ContainerDef:
    """A component type whose items hold counters (`container:`): how much room, and which counters."""

    capacity: Expr | None = None           # room, in units of size (self = the container); None: no limit
    takes: Expr | None = None              # the counter ids it takes (a list; self = the container); None: all


@dataclass
class CounterDef:
    id: str
    name: str
    scope: str = "player"
    initial: int = 0
    min: int = 0
    max: int | None = None
    resource: bool = False
    substitutes: list[str] = field(default_factory=list)
    zone: str | None = None
    supply: str | None = None  # a global counter gains come from (and payments go back to): a limited supply
    items: ItemPool | None = None  # the counter is the sum of item values, paid by exhausting items
    track: Track | None = None     # a marker on a track: pushes, laps, marked spaces
    held: Held | None = None       # the total held by containers in some zones (engine/runtime/containers.py)

    # kept as a number in the state (not counted from a zone, items or containers): read on every change
    stored: bool = field(init=False, default=True)

    def __post_init__(self) -> None:
        self.stored = self.zone is None and self.items is None and self.held is None

    def clamp(self, value: int) -> int:
        """The value within the counter's bounds; past the engine's hard limit (no declared `max`) an error."""
        value = max(self.min, value)
        if self.max is not None:
            return min(self.max, value)
        if value > MAX_VALUE:
            raise too_large(value, f"counter '{self.id}'")
        return value


@dataclass
class WildcardDef:
    id: str
    name: str
    gain: list[str]
    pay: list[str]


@dataclass(frozen=True)
class DieDef:
    """A kind of die (`dice` section) and the name of its pool in the match: a throw shows one of `faces`."""

    id: str
    name: str
    faces: tuple[int, ...]


# `size` of a zone: whether seats that cannot see its items see how many there are
SIZE_SHOWN = "shown"                                     # always (the default)
SIZE_SECRET_IN_SIMULTANEOUS = "secret_in_simultaneous"   # not while a `simultaneous` flow step runs


@dataclass
class ZoneDef:
    id: str
    name: str
    scope: str = "player"
    visibility: str = "public"
    capacity: int | None = None
    slots: list[Cost | None] = field(default_factory=list)
    refill_from: str | None = None
    draw_from: str | None = None
    discard_to: str | None = None
    active: bool = False
    keep_filled: int = 0         # a market row: refill to this many from `draw_from` when an item leaves
    random_draw: bool = False    # a bag: draws take a random item instead of the first
    sizes: dict[str, Expr] = field(default_factory=dict)  # `capacity`/`keep_filled` read per match (players)
    face_down: str | None = None  # a bool attribute: items with it true are seen by the zone's owner only
    size: str = SIZE_SHOWN        # SIZE_SECRET_IN_SIMULTANEOUS: others do not see how many items during one


@dataclass
class AttrDef:
    name: str
    type: str
    default: Any = None
    enum: list[str] | None = None
    description: str = ""


_ATTR_TYPES = {"int": lambda v: isinstance(v, int) and not isinstance(v, bool),
               "str": lambda v: isinstance(v, str), "bool": lambda v: isinstance(v, bool),
               "list": lambda v: isinstance(v, list)}


def plain_type_fits(attr_type: str, value: Any) -> bool | None:
    """Whether `value` is of the plain attribute type `attr_type` (int, str, bool, list); None for the
    other types (a component or zone reference), which need the pack to check."""
    ok = _ATTR_TYPES.get(attr_type)
    return None if ok is None else ok(value)


@dataclass
class ComponentType:
    id: str
    name: str
    zone: str | None
    per_player: bool
    attrs: dict[str, AttrDef]
    links: str | None = None                 # list attribute naming neighbours: the type is a board graph
    derive: tuple[str, str] | None = None    # ("edges" | "corners", space type): generated locations
    grid: tuple[str, str] | None = None      # ("hex" | "square", coordinate attribute): links from geometry
    grid_size: tuple[int, int] | None = None  # (columns, rows) of a grid declared by size: cells generated
    grid_names: str = "coordinates"          # generated cells' ids and names: "coordinates" or "chess"
    admits: Expr | None = None               # slot admission: may item `it` be put here (self = this item)?
    container: ContainerDef | None = None    # its items hold counters (engine/runtime/containers.py)
    turns: tuple[str, str, str] | None = None  # (sides, exits, rotation) attributes: tiles turned in play


@dataclass
class ActionDef:
    id: str
    label: str
    threshold: int | None
    when: Expr | None
    cost: Cost | None
    effect: Effect
    or_group: str | None
    index: int


@dataclass
class TriggerDef:
    id: str
    on: str
    when: Expr | None
    effect: Effect
    optional: bool
    limit: str | None
    timing: str
    label: str


@dataclass
class ModifierDef:
    """A cost modifier on a component (`modifiers:`): while its item is in an active zone, the costs its
    owner pays (every player's, in a shared active zone) pass through it at the quote stage.

    Why: discounts, surcharges and "pay from the common pool" are set by cards in play, and must reach
    every cost (cards played, actions, cost attributes) without each rule restating them.
    """

    id: str
    applies: Expr | None       # self = this item, it = the item whose cost is paid; None: every cost
    discount: Expr | None      # this many units less, off the parts the payer chooses
    surcharge: Cost | None     # added to the cost
    source: Expr | None        # a container the held counters are paid from (`from:`)


@dataclass
class AnytimeDef:
    """An action its owner may take at any choice they are asked while `window` holds (`anytime:`).

    Why: "at any time during your turn, you may ..." is not a step of the flow: the player starts it, at
    whichever choice they are at; the choice is then worked out afresh.
    """

    id: str
    label: str
    window: Expr | None        # self = the item, for the player asked; None: always
    cost: Cost | None
    effect: Effect
    limit: str | None          # turn, round or game


@dataclass
class ComponentDef:
    id: str
    name: str
    ctype: ComponentType
    copies: int
    values: dict[str, Any]
    derived: dict[str, Expr]
    costs: list[Cost]
    actions: list[ActionDef]
    mode: str
    triggers: list[TriggerDef]
    text: str
    order: int
    triggers_on: dict[str, list[TriggerDef]] = field(default_factory=dict)  # `triggers` by event
    effects: dict[str, Effect] = field(default_factory=dict)  # `effect` attributes: `do ITEM.ATTR` runs one
    prices: dict[str, Cost] = field(default_factory=dict)     # `cost` attributes: `pay ITEM.ATTR` pays one
    modifiers: list[ModifierDef] = field(default_factory=list)  # cost modifiers while in an active zone
    anytime: list[AnytimeDef] = field(default_factory=list)     # actions offered at any choice in a window


@dataclass
class RankTable:
    """Named score bands (e.g. a solo rating), used at the listed player counts (all if empty)."""

    players: list[int]
    bands: list[tuple[int, str]]  # (minimum score, label), ascending
    when: Expr | None = None      # the table applies only while this holds (e.g. an option is on)

    def label(self, score: int) -> str | None:
        found = None
        for minimum, label in self.bands:
            if score >= minimum:
                found = label
        return found


@dataclass
class Scoring:
    score: Expr
    tiebreak: list[Expr]
    breakdown: dict[str, Expr]
    ranks: list[RankTable] = field(default_factory=list)
    team_loss: Expr | None = None    # when it holds at the end, every player loses (no acting player)
    eliminated: Expr | None = None   # per player at the end: an eliminated player cannot win
    estimate: Expr | None = None     # per player, for bots: how good an unfinished position is (not a score)

    def rank(self, ctx: Ctx, players: int, score: int) -> str | None:
        """The first table whose player counts and `when` match decides."""
        for table in self.ranks:
            if (not table.players or players in table.players) and (table.when is None or table.when(ctx)):
                return table.label(score)
        return None


@dataclass
class Pack:
    id: str
    name: str
    version: str
    min_players: int
    max_players: int
    options: dict[str, Any]
    root: str = ""             # the folder it was loaded from (logs name it, so folder packs can resume)
    counters: dict[str, CounterDef] = field(default_factory=dict)
    wildcards: dict[str, WildcardDef] = field(default_factory=dict)
    dice: dict[str, DieDef] = field(default_factory=dict)
    zones: dict[str, ZoneDef] = field(default_factory=dict)
    types: dict[str, ComponentType] = field(default_factory=dict)
    components: dict[str, ComponentDef] = field(default_factory=dict)
    procedures: dict[str, Effect] = field(default_factory=dict)
    # procedures' card phrases, (params, template) as in `text: "draw {n} cards"`: how explain reads a call
    phrases: dict[str, tuple[tuple[str, ...], str]] = field(default_factory=dict)
    triggers: list[TriggerDef] = field(default_factory=list)
    flow: Runner | None = None           # keeps the flow trace a forkable match needs (engine/compile/flow.py)
    untraced_flow: Runner | None = None  # the same without it: for a match that never keeps one
    quiet_flow: Runner | None = None     # and without observer tests: for a game played through unwatched
    scoring: Scoring | None = None
    # every event name some trigger listens to: emitting others is a no-op
    listened: set[str] = field(default_factory=set)
    triggers_on: dict[str, list[TriggerDef]] = field(default_factory=dict)  # `triggers` by event
    item_listened: set[str] = field(default_factory=set)  # events some component's trigger listens to
    early_events: set[str] = field(default_factory=set)  # events some trigger answers `before` or `instead`
    attr_names: set[str] = field(default_factory=set)  # every name `x.NAME` may use (the compiler's check)
    usage: Usage = field(default_factory=Usage)  # cross-reference for the linter
    payers: dict[str, list[str]] = field(default_factory=dict)  # cost solver's cache: who may pay a unit of X
    graphs: dict[str, Graph] = field(default_factory=dict)  # board graphs by space type
    grids: dict[str, Grid] = field(default_factory=dict)    # where each cell is, for grid board types
    # which uid each component's items get, by player count (engine/runtime/state.py `layout`): filled by
    # the first match of each count, the same for all
    layouts: dict[int, Any] = field(default_factory=dict)
    display: dict[str, Any] = field(default_factory=dict)  # pack.yaml `display`: how a table page lays it out
    # each item of a match has a name no other item has, with no ", " in it (see `item_names_unique`): None
    # until first asked, when the pack is complete
    names_unique: bool | None = None
    # attribute name -> every item of a match starts with it (see `held_by_every_item`), once asked
    held_attrs: dict[str, bool] = field(default_factory=dict)
    modified: bool = False     # some component has cost modifiers: costs pass the quote stage
    anytime: bool = False      # some component has anytime actions: choices offer them


def items_at_most(pack: Pack) -> int:
    """How many items a match of the pack has at most (at its largest player count): no rule makes an item
    (only `new_state` and `State.copy_as` do, one a copy of a component), so no zone can ever hold more. Known
    once the components are (the compiler's passes after them)."""
    return sum(c.copies * (pack.max_players if c.ctype.per_player else 1) for c in pack.components.values())


def held_by_every_item(pack: Pack, name: str) -> bool:
    """Every component's starting values hold `name` (its type declares it with a value or default), so every
    item's attributes hold it for good: an item's attribute dict only gains keys (a `set`), and every copy of
    one (`State.load`, `copy_as`, a determinized deal) keeps them all. Then `item.attrs[name]` cannot fail. Ask
    only when the pack is complete (code generation)."""
    held = pack.held_attrs.get(name)
    if held is None:
        held = pack.held_attrs[name] = bool(pack.components) and all(
            name in c.values for c in pack.components.values())
    return held


def item_names_unique(pack: Pack) -> bool:
    """Every item of a match has its own name, with no ", " in it: one copy of each component, none per
    player, no two components named alike. Then a combination of items (`choose p in A, t in B`) has a
    label, the names joined by ", ", that no other combination has, so it needs making only if read."""
    if pack.names_unique is None:
        names = [c.name for c in pack.components.values()
                 if c.copies == 1 and not c.ctype.per_player and ", " not in c.name]
        pack.names_unique = len(names) == len(pack.components) and len(set(names)) == len(names)
    return pack.names_unique
