"""Run-time helpers over DSL values: collections, attributes, labels."""

from __future__ import annotations

from collections import Counter
from typing import Any

from engine.errors import RuleError
from engine.runtime.context import Ctx
from engine.runtime.defs import ActionDef
from engine.runtime.state import Item, ItemRef, PlayerRef, RefList, Zone, ZoneRef


def as_items(value: Any) -> list[Any]:
    """A collection value as a list (a snapshot for zones)."""
    if isinstance(value, Zone):
        return list(value.items)
    if isinstance(value, list):
        return value
    if value is None:
        return []
    raise RuleError(f"expected a collection (a zone or a list), got {describe(value)}")


_new_ctx = object.__new__   # (`item_attr` makes a context without a class call)


def describe(value: Any) -> str:
    if isinstance(value, Item):
        return f"item {value.comp.id}"
    if isinstance(value, Zone):
        return f"zone {value.id}"
    return f"{type(value).__name__} {value!r}"


def get_attr(ctx: Ctx, obj: Any, name: str) -> Any:
    """`obj.name` for items (declared, derived and built-in attributes), dicts and actions."""
    if isinstance(obj, Item):
        return item_attr(ctx, obj, name)
    if isinstance(obj, PlayerRef):
        return _player_attr(ctx, obj, name)
    if isinstance(obj, dict):
        return obj.get(name)
    if isinstance(obj, ActionDef):
        if name in ("threshold", "label", "id"):
            return getattr(obj, name)
        raise RuleError(f"an action has no attribute '{name}'")
    raise RuleError(f"cannot read '.{name}' of {describe(obj)}")


def plain_attr(ctx: Ctx, obj: Any, name: str) -> Any:
    """`obj.name` for an attribute every type stores as a number, string or bool: straight from the item."""
    if obj.__class__ is Item and name in obj.attrs:
        return obj.attrs[name]
    return get_attr(ctx, obj, name)


def item_attr(ctx: Ctx, item: Item, name: str) -> Any:
    """`item.name` of an item (`get_attr`'s item case: generated code calls it for a value known to be an item)."""
    attrs = item.attrs
    if name in attrs:
        adef = item.comp.ctype.attrs.get(name)
        kind = "int" if adef is None else adef.type
        value = attrs[name]
        if value is None or kind in _PLAIN:
            return _resolved(ctx, value) if value.__class__ is RefList else value
        if value.__class__ is ItemRef:
            return ctx.game.state.items[value.uid]
        if value.__class__ is ZoneRef:
            return ctx.game.state.zone(value.zone, value.owner)
        seat = item.owner if item.owner is not None else ctx.seat
        if kind == "zone":   # a zone or a component named in the pack's data, by id
            return ctx.game.state.zone(value, seat)
        return ctx.game.instance(value, seat)
    derived = item.comp.derived.get(name)
    if derived is not None:   # `Ctx(game, the owner or the acting seat, item)`, its slots stored here (no
        inner = _new_ctx(Ctx)  # `__init__` frame for every derived read: tests/test_ctx_made.py)
        inner.game, inner.self_item = ctx.game, item
        inner.seat = item.owner if item.owner is not None else ctx.seat
        inner.event = inner.offered = inner.pool = None
        inner.args = ()
        return derived(inner)
    if name == "name":
        return item.comp.name
    if name == "id":
        return item.comp.id
    if name == "owner":
        return None if item.owner is None else PlayerRef(item.owner)
    if name == "zone":
        return item.zone
    return 0  # declared by another type: reads as 0/false here, so mixed collections can be filtered


_PLAIN = frozenset({"int", "str", "bool", "list", "counter"})  # a `counter` attribute reads as the counter's id


def _player_attr(ctx: Ctx, player: PlayerRef, name: str) -> Any:
    """`p.NAME`: that player's counter or zone, `p.seat` (1-based) or `p.position` (in turn order)."""
    game = ctx.game
    if name == "seat":
        return player.seat + 1
    if name == "position":
        return game.position(player.seat)
    if name in game.pack.counters:
        return game.counter(name, player.seat)
    if name in game.pack.zones:
        return game.state.zone(name, player.seat)
    raise RuleError(f"a player has no counter or zone '{name}'")


def item_actions(ctx: Ctx, item: Any) -> list[ActionDef]:
    """The item's actions whose `when` condition holds."""
    if not isinstance(item, Item):
        raise RuleError(f"actions() needs an item, got {describe(item)}")
    inner = ctx.child(seat=item.owner if item.owner is not None else ctx.seat, self_item=item)
    return [a for a in item.comp.actions if a.when is None or a.when(inner)]


def item_label(item: Item) -> str:
    return item.comp.name


def item_key(item: Item) -> tuple:
    """Two items with the same key are the same option to a player."""
    return (item.comp.id, tuple(sorted((k, repr(v)) for k, v in item.attrs.items())))


# ---------------------------------------------------------------- helpers the generated code calls
def iterate(value: Any) -> list[Any]:
    """A collection to read (no snapshot: conditions and counts never move items)."""
    return value.items if value.__class__ is Zone else as_items(value)


def count(value: Any) -> int:
    return len(value.items) if value.__class__ is Zone else len(as_items(value))


def contains(a: Any, b: Any) -> bool:
    if isinstance(b, (list, tuple, str)):
        return a in b
    return a in as_items(b)


def div(a: Any, b: Any) -> int:
    if b == 0:
        raise RuleError("division by zero")
    return a // b


def mod(a: Any, b: Any) -> int:
    if b == 0:
        raise RuleError("modulo by zero")
    return a % b


def index(value: Any, i: Any) -> Any:
    """`coll[i]`, 1-based."""
    if value.__class__ is list and i.__class__ is int and 0 < i <= len(value):   # the usual case: a zone's items
        return value[i - 1]
    seq = as_items(value)
    i = int(i)
    if not 1 <= i <= len(seq):
        raise RuleError(f"index {i} is outside 1..{len(seq)}")
    return seq[i - 1]


def first(seq: Any) -> Any:
    """first(COLL): its first element; a rule error when it is empty."""
    for value in seq:
        return value
    raise RuleError("first() of an empty collection")


def pick(seq: list[Any], i: Any) -> Any:
    """pick(list, i): the i-th element (1-based); 0 for i <= 0."""
    i = int(i)
    if i <= 0:
        return 0
    if i > len(seq):
        raise RuleError(f"pick: index {i} is outside 1..{len(seq)}")
    return seq[i - 1]


def rank(value: Any, minimums: list[Any]) -> int:
    """rank(value, minimums): how many of the ascending minimums value reaches."""
    return sum(1 for m in minimums if value >= m)


def cost_uses(ctx: Ctx, item: Any, counter: str, want: int | None) -> bool:
    """Some alternative cost of `item` names `counter` (exactly `want` of it, when given)."""
    for cost in item.comp.costs:
        need = cost.amounts(ctx).get(counter, 0)
        if need and (want is None or need == want):
            return True
    return False


def need_zone(value: Any) -> Zone:
    if not isinstance(value, Zone):
        raise RuleError(f"expected a zone, got {describe(value)}")
    return value


def need_item(value: Any, what: str) -> Item:
    if not isinstance(value, Item):
        raise RuleError(f"{what} needs an item, got {describe(value)}")
    return value


def _resolved(ctx: Ctx, values: RefList) -> list[Any]:
    """A list attribute's elements, with stored item and zone references turned back into those very things."""
    state = ctx.game.state
    return [state.items[v.uid] if v.__class__ is ItemRef
            else state.zone(v.zone, v.owner) if v.__class__ is ZoneRef else v for v in values]


def set_item_attr(target: Any, attr: str, value: Any) -> None:
    """`set x.attr = value` on an item; an item is stored as that item's uid, a zone as (id, owner)."""
    if target.__class__ is not Item:
        raise RuleError(f"cannot set '.{attr}' on {describe(target)}")
    target.own_attrs()[attr] = stored(value)


def need_number(value: Any, attr: str) -> Any:
    """A value for an attribute every type declares `int` or `bool`: anything else is refused (the type pass
    reports it; this is for packs played without it)."""
    what = f"a list of {len(value):,} elements" if isinstance(value, list) else \
        "a text" if isinstance(value, str) else describe(value)
    raise RuleError(f"attribute '{attr}' holds numbers (declared int or bool), not {what}")


def stored(value: Any) -> Any:
    """How an attribute stores `value`: an item as that item's uid, a zone as (id, owner), lists element-wise."""
    if value.__class__ is Item:
        return ItemRef(value.uid)
    if value.__class__ is Zone:
        return ZoneRef(value.id, value.owner)
    if value.__class__ is list or value.__class__ is RefList:
        elements = [stored(v) for v in value]
        return RefList(elements) if any(v.__class__ in _REFS for v in elements) else elements
    return value


_REFS = (ItemRef, ZoneRef)


def show(value: Any) -> str:
    """A value inside a prompt: items by name."""
    if isinstance(value, Item):
        return value.comp.name
    return str(value)


def distinct(things: list[Any]) -> list[Any]:
    """The options a player tells apart: items of one component with equal attributes are one option."""
    out: list[Any] = []
    seen: set[str] = set()
    kept: dict[str, list[dict[str, Any]]] = {}  # component id -> attributes of the items kept
    for thing in things:
        if thing.__class__ is Item:
            same = kept.get(thing.comp.id)
            if same is None:
                kept[thing.comp.id] = [thing.attrs]
            elif thing.attrs in same:
                continue
            else:
                same.append(thing.attrs)
        else:
            key = repr(thing)
            if key in seen:
                continue
            seen.add(key)
        out.append(thing)
    return out


_INTS = {int}


def offer(things: list[Any], fresh: bool = False) -> tuple[list[Any], list[str] | None]:
    """The options a player tells apart (`distinct`) and their labels (`option_labels`), in one go.

    Labels None: the options' labels are their names or numbers, which never change, so the `Decision` makes
    them only if someone reads them (`derived_labels`: `option_labels` of the options). That holds for distinct
    numbers, for items whose names all differ (the usual cases) and for items whose copies (same component,
    equal attributes) merge into options whose names differ (a hand with copies of a card). Anything else is
    merged by `distinct` and labelled now. `fresh`: `things` is a list made for this choice (a `where`), so it
    is offered as it is; any other list is copied (a zone's own list changes as items move).
    """
    size = len(things)
    if size > 1:
        if things[0].__class__ is Item:      # a zone's cards (the usual case): one pass over their names
            # a zone's own list (its first item's zone holds it) whose names were found to differ, and nothing
            # came in since (`Zone.names_differ`): no pass
            zone = things[0].zone
            if zone is not None and zone.items is things and zone.names_differ:
                return list(things), None
            names: set[str] | None = set()
            try:    # only items have `.comp`: anything else raises here, and is looked at below
                for thing in things:    # (a loop, not a comprehension: no function made and called)
                    names.add(thing.comp.name)   # type: ignore[union-attr]
            except AttributeError:
                names = None
            if names is not None:
                if len(names) == size:
                    if zone is not None and zone.items is things:   # a zone's own list: always a copy
                        zone.names_differ = True
                        return list(things), None
                    return (things if fresh else list(things)), None
                return _distinct_items(things, len(names))
        elif set(map(type, things)) == _INTS and len(set(things)) == size:   # (C loops: at every choice)
            return (things if fresh else list(things)), None
    elif not size or things[0].__class__ is Item:   # nothing, or one item (a last card, taken without asking):
        return list(things), None                    # its name is its label
    options = distinct(things)
    return options, option_labels(options)


def _distinct_items(items: list[Item], names: int) -> tuple[list[Item], list[str] | None]:
    """`distinct(items)` and its `option_labels` (None where those are the options' names, as `offer` says),
    for items some of whose names clash; `names`: how many different names they have.

    The usual case, copies of a card with equal attributes, takes one pass that keeps the first item of
    each component and drops the copies equal to it; a copy that differs from it sends the whole list
    through `distinct`. The options then hold an item of every component of `items`, so their names are
    the `names` different names: as many as the options, and the labels are the names, or not."""
    out: list[Item] = []
    kept: dict[str, dict[str, Any]] = {}  # component id -> attributes of the item kept of it
    for item in items:
        comp_id = item.comp.id
        first = kept.get(comp_id)
        if first is None:
            kept[comp_id] = item.attrs
        elif first == item.attrs:
            continue
        else:   # copies of one component that differ: kept apart, and their labels tell them apart
            options = distinct(items)
            return options, option_labels(options)
        out.append(item)
    return out, None if len(out) == names else _clashing_labels(out, [item.comp.name for item in out])


def option_labels(things: list[Any]) -> list[str]:
    """Readable, unique labels: names, with the component id added where names clash."""
    raw = [x.comp.name if x.__class__ is Item else _joined(x) if x.__class__ is tuple else str(x) for x in things]
    if len(set(raw)) == len(raw):
        return raw
    return _clashing_labels(things, raw)


def _clashing_labels(things: list[Any], raw: list[str]) -> list[str]:
    """`option_labels` of `things` whose plain labels `raw` clash: ids added, then what tells copies apart."""
    out = []
    for thing, label in zip(things, raw, strict=True):
        if raw.count(label) > 1 and isinstance(thing, Item):
            label = f"{label} ({thing.comp.id})"
        out.append(label)
    return out if len(set(out)) == len(out) else _unclash(things, out)


def offer_combinations(combinations: list[tuple[Any, ...]],
                       named: bool = False) -> tuple[list[tuple[Any, ...]], list[str] | None]:
    """The options of a `choose` of several parts (`choose p in A, t in B`) and their labels: the parts'
    labels (an item's name, else the value) joined by ", " (`a7, a6`). Combinations whose parts are the same
    options (copies of one component with equal attributes) are offered once; labels that still clash get
    their items' ids (`Beta (b), 2`), then numbers: a label names exactly one option.

    `named`: every part is an item and every item of the match has a name of its own (`item_names_unique`),
    so nothing merges and no label clashes: the labels are None, made (`option_labels`) only if read."""
    if named:
        return combinations, None
    try:
        if len(combinations[0]) == 2:   # the usual case (a piece and where it goes), written out: 3x faster
            labels = [f"{a.comp.name}, {b.comp.name}" for a, b in combinations]
        else:
            labels = [", ".join([p.comp.name for p in combo]) for combo in combinations]
    except (AttributeError, IndexError):   # parts that are not items (numbers, texts, players), or no options
        labels = [_joined(combo) for combo in combinations]
    if len(set(labels)) == len(labels):
        return combinations, labels
    kept: list[tuple[Any, ...]] = []
    seen: set[str] = set()
    for combo in combinations:
        key = repr([(p.comp.id, sorted(p.attrs.items())) if p.__class__ is Item else p for p in combo])
        if key not in seen:
            seen.add(key)
            kept.append(combo)
    labels = [_joined(combo) for combo in kept]
    clash = {label for label, n in Counter(labels).items() if n > 1}
    labels = [_joined(combo, ids=True) if label in clash else label for combo, label in zip(kept, labels, strict=True)]
    return kept, labels if len(set(labels)) == len(labels) else _unclash(list(kept), labels)


def _joined(combo: tuple[Any, ...], ids: bool = False) -> str:
    """A combination's label: its parts' labels joined by ", " (items by name, with their ids when `ids`)."""
    return ", ".join([(f"{p.comp.name} ({p.comp.id})" if ids else p.comp.name) if p.__class__ is Item else str(p)
                      for p in combo])


def _unclash(things: list[Any], labels: list[str]) -> list[str]:
    """Copies of one component that differ (they were not merged as one option) show how: `Beta (b) [power 5]`.

    Labels must be unique, or a log of labels could not say which option was taken.
    """
    out = list(labels)
    for label in {x for x in labels if labels.count(x) > 1}:
        group = [i for i, x in enumerate(labels) if x == label and isinstance(things[i], Item)]
        if len(group) < 2:
            continue
        keys = sorted({k for i in group for k in things[i].attrs})
        differ = [k for k in keys if len({repr(things[i].attrs.get(k)) for i in group}) > 1]
        for i in group:
            out[i] = f"{label} [{', '.join(f'{k} {things[i].attrs.get(k)}' for k in differ)}]"
    for label in {x for x in out if out.count(x) > 1}:  # still the same (e.g. plain values): number them
        for n, i in enumerate([i for i, x in enumerate(out) if x == label], 1):
            out[i] = f"{label} #{n}"
    return out
