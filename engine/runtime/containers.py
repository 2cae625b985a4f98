"""Containers: items that hold amounts of counters (barrels, tiles holding goods, a shared pool on the table).

A counter declared `held: {zones: [...], size: N}` is not stored as a number: its value is the total held
by the containers in those zones (the owner's copies of per-player zones, and the global ones). A
container is an item whose component type declares `container: {capacity, takes}`; what it holds lives in
the item's attributes under HELD, a sorted tuple of (counter, amount) pairs: plain data, so it is part of
the match state, its hash, forks and replays like any attribute. Each unit of a counter takes `size`
of the container's `capacity`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from engine.errors import RuleError

if TYPE_CHECKING:
    from engine.runtime.defs import CounterDef
    from engine.runtime.state import Item

HELD = "_held"   # the attribute holding a container's contents (not an id: packs cannot declare it)


def held(item: Item, counter: str) -> int:
    """How many of `counter` the container holds."""
    for name, amount in item.attrs.get(HELD, ()):
        if name == counter:
            return int(amount)
    return 0


def contents(item: Item) -> dict[str, int]:
    """Everything the container holds, by counter."""
    return {str(name): int(amount) for name, amount in item.attrs.get(HELD, ())}


def put(item: Item, counter: str, amount: int) -> None:
    """Set what the container holds of `counter` (a new tuple: earlier copies of the state keep theirs)."""
    now = contents(item)
    if amount > 0:
        now[counter] = amount
    else:
        now.pop(counter, None)
    item.own_attrs()[HELD] = tuple(sorted(now.items()))


def need_container(value: Any) -> Item:
    """The item a `within` block or held()/room() names, or a rule error saying what it got."""
    from engine.runtime.state import Item
    if not isinstance(value, Item) or value.comp.ctype.container is None:
        what = value.comp.name if isinstance(value, Item) else type(value).__name__
        raise RuleError(f"'{what}' is not a container (its component type declares no `container`)")
    return value


def need_containers(value: Any) -> tuple[Item, ...]:
    """The containers a `within` block names: one container, or several (a zone or a list of them: units
    are then read from, placed in and paid from any of them, the player picking), else a rule error."""
    from engine.runtime.state import Zone
    if isinstance(value, Zone):
        value = value.items
    if isinstance(value, list | tuple):
        return tuple(need_container(v) for v in value)
    return (need_container(value),)


def used(item: Item, sizes: dict[str, CounterDef]) -> int:
    """The capacity the container's contents take: each unit its counter's `size`."""
    total = 0
    for name, amount in item.attrs.get(HELD, ()):
        cdef = sizes.get(name)
        total += amount * (cdef.held.size if cdef is not None and cdef.held is not None else 1)
    return total


def held_sum(containers: Iterable[Item], counter: str) -> int:
    """How many of `counter` the containers hold together."""
    total = 0
    for item in containers:
        total += held(item, counter)
    return total
