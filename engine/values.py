"""Run-time helpers over DSL values: collections, attributes, labels."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.errors import RuleError
from engine.model import Item, PlayerRef, Zone
from engine.pack import ActionDef

if TYPE_CHECKING:
    from engine.context import Ctx


def as_items(value: Any) -> list[Any]:
    """A collection value as a list (a snapshot for zones)."""
    if isinstance(value, Zone):
        return list(value.items)
    if isinstance(value, list):
        return value
    if value is None:
        return []
    raise RuleError(f"expected a collection (a zone or a list), got {describe(value)}")


def describe(value: Any) -> str:
    if isinstance(value, Item):
        return f"item {value.comp.id}"
    if isinstance(value, Zone):
        return f"zone {value.id}"
    return f"{type(value).__name__} {value!r}"


def get_attr(ctx: Ctx, obj: Any, name: str) -> Any:
    """`obj.name` for items (declared, derived and built-in attributes), dicts and actions."""
    if isinstance(obj, Item):
        return _item_attr(ctx, obj, name)
    if isinstance(obj, PlayerRef):
        return _player_attr(ctx, obj, name)
    if isinstance(obj, dict):
        return obj.get(name)
    if isinstance(obj, ActionDef):
        if name in ("threshold", "label", "id"):
            return getattr(obj, name)
        raise RuleError(f"an action has no attribute '{name}'")
    raise RuleError(f"cannot read '.{name}' of {describe(obj)}")


def _item_attr(ctx: Ctx, item: Item, name: str) -> Any:
    attrs = item.attrs
    if name in attrs:
        kind = item.comp.ctype.attrs[name].type if name in item.comp.ctype.attrs else "int"
        value = attrs[name]
        if value is None or kind in _PLAIN:
            return value
        seat = item.owner if item.owner is not None else ctx.seat
        if kind == "zone":
            return ctx.game.state.zone(value, seat)
        return ctx.game.instance(value, seat)
    derived = item.comp.derived.get(name)
    if derived is not None:
        inner = ctx.child(seat=item.owner if item.owner is not None else ctx.seat, self_item=item)
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


_PLAIN = frozenset({"int", "str", "bool", "list"})


def _player_attr(ctx: Ctx, player: PlayerRef, name: str) -> Any:
    """`p.NAME`: that player's counter or zone, or `p.seat` (1-based)."""
    game = ctx.game
    if name == "seat":
        return player.seat + 1
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
