"""Reading and writing the state by documented paths (scenarios use these).

Paths (see docs/scenarios.md):
- `NAME` — a global counter, or a global zone (its component ids), or `NAME.count`;
- `P2.NAME` — player 2's counter or zone (1-based seats); `P2.NAME.count`;
- `COMPONENT.ATTR` — an attribute of a global component's item; `P2.COMPONENT.ATTR` for per-player ones;
- `COMPONENT.zone` — the zone id an item is in;
- `score.P2` — player 2's score right now; `winners` — the 1-based seats who would win now;
- `turn_order` — the 1-based seats in turn order (set: a new order, as `reorder by` would leave it);
- `pending.seat|prompt|labels|step|kind` — the pending decision.
"""

from __future__ import annotations

from typing import Any
from weakref import WeakKeyDictionary

from engine.errors import CogworkError, RuleError
from engine.play.match import Match
from engine.runtime.containers import held, put
from engine.runtime.context import Ctx
from engine.runtime.defs import plain_type_fits
from engine.runtime.interpreter import Interpreter
from engine.runtime.scoring import winners
from engine.runtime.state import Item, ItemRef, Zone


class PathError(CogworkError):
    """A state path that names nothing."""


class ValueTypeError(PathError):
    """A value of the wrong kind for what the path names (text or a list for a counter): broken input."""


def _whole_number(name: str, value: Any) -> int:
    """A counter's new value: whole numbers only (no text, booleans, .inf, .nan, fractions or lists)."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    raise ValueTypeError(f"counter '{name}' is set from a whole number, not {_kind(value)}")


def _kind(value: Any) -> str:
    if isinstance(value, bool | float | int):
        return repr(value)
    if isinstance(value, str):
        return "text" if len(value) > 40 else f"the text {value!r}"
    return f"a {type(value).__name__}"


def _seat(token: str, game: Interpreter) -> int | None:
    if len(token) > 1 and token[0] in "Pp" and token[1:].isdigit():
        seat = int(token[1:]) - 1
        if not 0 <= seat < len(game.state.players):
            raise PathError(f"no player {token} in a {len(game.state.players)}-player game")
        return seat
    return None


def _split(game: Interpreter, path: str) -> tuple[int | None, list[str]]:
    parts = path.split(".")
    seat = _seat(parts[0], game)
    return (seat, parts[1:]) if seat is not None else (None, parts)


def _zone(game: Interpreter, zid: str, seat: int | None) -> Zone | None:
    if zid not in game.pack.zones:
        return None
    try:
        return game.state.zone(zid, seat)
    except KeyError:
        raise PathError(f"zone '{zid}' belongs to each player: write P1.{zid}") from None


def read(session: Match, path: str) -> Any:
    """The value at `path` (a look: it leaves the match's state as it was)."""
    with session.game.looking():
        return _read(session, path)


def _read(session: Match, path: str) -> Any:
    game = session.game
    head = path.split(".")[0]
    if head == "pending":
        return _pending(session, path)
    if head == "score":
        return _score(game, path)
    if path == "winners":
        return [seat + 1 for seat in winners(game)]
    if path == TURN_ORDER and not _pack_name(game, path):
        return [seat + 1 for seat in game.turn_order()]
    seat, parts = _split(game, path)
    if not parts:
        raise PathError(f"'{path}' names a player, not a value")
    name, rest = parts[0], parts[1:]
    if name in game.pack.counters and not rest:
        if game.pack.counters[name].scope == "player" and seat is None:
            raise PathError(f"counter '{name}' belongs to each player: write P1.{name}")
        return game.counter(name, seat)
    if name in game.pack.dice and not rest:       # a dice pool: the faces its dice show
        return list(game.state.dice[name])
    zone = _zone(game, name, seat)
    if zone is not None:
        return _zone_value(zone, rest, path)
    if name in game.pack.components and len(rest) == 1:
        return _item_attr(game, name, rest[0], seat)
    raise PathError(f"'{path}' names no counter, dice pool, zone or component attribute")


def _zone_value(zone: Any, rest: list[str], path: str) -> Any:
    """A zone's item ids, or with `.count` how many it holds."""
    if rest == ["count"]:
        return len(zone.items)
    if not rest:
        return [i.comp.id for i in zone.items]
    raise PathError(f"'{path}': a zone has only `.count`")


def _item_attr(game: Any, name: str, attr: str, seat: int | None) -> Any:
    """`COMPONENT.ATTR`: the zone it is in, a stored attribute or a derived one."""
    item = game.instance(name, seat)
    if attr == "zone":
        return item.zone.id if item.zone else None
    if _held_counter(game, item, attr):
        return held(item, attr)
    if attr in item.attrs:
        value = item.attrs[attr]
        if isinstance(value, ItemRef):  # an attribute holding an item reads as that item's component id
            return game.state.items[value.uid].comp.id
        return value
    if attr in item.comp.derived:
        return item.comp.derived[attr](Ctx(game, item.owner if item.owner is not None else seat, item))
    raise PathError(f"'{name}' has no attribute '{attr}'")


def write(session: Match, path: str, value: Any) -> None:
    game = session.game
    if path == TURN_ORDER and not _pack_name(game, path):
        _write_turn_order(game, value)
        return
    seat, parts = _split(game, path)
    if not parts:
        raise PathError(f"'{path}' names a player, not a value")
    name, rest = parts[0], parts[1:]
    ctx = Ctx(game, seat)
    if name in game.pack.counters and not rest:
        cdef = game.pack.counters[name]
        if cdef.zone is not None:
            raise PathError(f"'{name}' counts the items in zone '{cdef.zone}': set that zone instead")
        if cdef.held is not None:
            raise PathError(f"'{name}' is what containers hold: set a container's, like P1.CONTAINER.{name}")
        if cdef.scope == "player" and seat is None:
            raise PathError(f"counter '{name}' belongs to each player: write P1.{name}")
        game.set_counter(ctx, name, _whole_number(name, value))
        return
    if name in game.pack.dice and not rest:
        faces = game.pack.dice[name].faces
        if not isinstance(value, list) or any(type(f) is not int or f not in faces for f in value):
            raise PathError(f"'{name}' is a dice pool: set it to a list of its faces (from {sorted(set(faces))})")
        game.state.dice[name] = list(value)
        return
    zone = _zone(game, name, seat)
    if zone is not None and not rest:
        _fill_zone(game, zone, seat, value)
        return
    if name in game.pack.components and len(rest) == 1:
        _write_attr(game, game.instance(name, seat), path, rest[0], value)
        return
    raise PathError(f"'{path}' cannot be set (counters, dice pools, zones and component attributes can)")


TURN_ORDER = "turn_order"   # the seats in turn order (a pack's own counter, zone or component of that name wins)


def _pack_name(game: Interpreter, name: str) -> bool:
    pack = game.pack
    return name in pack.counters or name in pack.zones or name in pack.components or name in pack.dice


def _write_turn_order(game: Interpreter, value: Any) -> None:
    """`turn_order: [2, 1, 3]`: every seat once, first player first; kept like an order `reorder by` set."""
    seats = len(game.state.players)
    if (not isinstance(value, list) or any(type(s) is not int for s in value)
            or sorted(value) != list(range(1, seats + 1))):
        got = f"{value!r:.40}" if isinstance(value, list) else _kind(value)
        raise ValueTypeError(f"turn_order is set from every seat once (1..{seats}), first player first, not {got}")
    game.state.order = [s - 1 for s in value]


def _write_attr(game: Interpreter, item: Item, path: str, attr: str, value: Any) -> None:
    """`COMPONENT.ATTR`: a declared attribute, or what a container holds of a held counter."""
    if _held_counter(game, item, attr):
        put(item, attr, _whole_number(path, value))
        return
    if attr not in item.comp.ctype.attrs:
        raise PathError(f"'{item.comp.id}' has no attribute '{attr}' (declared: {', '.join(item.comp.ctype.attrs)});"
                        f" to move it, set a zone's list instead")
    attr_type = item.comp.ctype.attrs[attr].type
    if plain_type_fits(attr_type, value) is False:
        raise ValueTypeError(f"'{item.comp.id}.{attr}' is of type {attr_type}, not {_kind(value)}")
    game.set_attr(item, attr, value)


def _held_counter(game: Interpreter, item: Item, name: str) -> bool:
    """`CONTAINER.COUNTER`: what a container holds of a counter held in containers."""
    cdef = game.pack.counters.get(name)
    return item.comp.ctype.container is not None and cdef is not None and cdef.held is not None


# Items each game's scenario `set`s have placed: a later `set` takes other copies first, so filling two zones
# with copies of one component (two players' hands of one card) leaves the first zone as it was set.
_PLACED: WeakKeyDictionary[Interpreter, set[int]] = WeakKeyDictionary()


def _fill_zone(game: Interpreter, zone: Zone, seat: int | None, ids: Any) -> None:
    """Make `zone` hold exactly the named components' items, in order; others go back to their start zone."""
    if not isinstance(ids, list) or not all(isinstance(cid, str) for cid in ids):
        raise ValueTypeError(f"zone '{zone.id}' is set from a list of component ids, not {_kind(ids)}")
    wanted: list[Item] = []
    for cid in ids:
        if cid not in game.pack.components:
            raise PathError(f"unknown component '{cid}'")
        wanted.append(_free_item(game, str(cid), seat, wanted, zone))
    for item in wanted:
        if item.zone is not None:
            item.zone.items.remove(item)
        item.zone = None
    leftovers = list(zone.items)  # not listed: back to their starting zone (after the listed ones, if that is here)
    zone.items[:] = wanted
    zone.names_differ = False
    zone.hears = None
    for item in wanted:
        item.zone = zone
    _PLACED.setdefault(game, set()).update(item.uid for item in wanted)
    for item in leftovers:
        home = game.state.zone(item.comp.ctype.zone, item.owner) if item.comp.ctype.zone else None
        if home is zone:
            zone.items.append(item)
            continue
        item.zone = home
        if home is not None:
            home.items.append(item)
            home.names_differ = False
            home.hears = None


def _free_item(game: Interpreter, cid: str, seat: int | None, taken: list[Item], zone: Zone) -> Item:
    """An item of `cid` (the seat's own for per-player components), preferring one already in `zone`, then one
    no earlier `set` placed."""
    comp = game.pack.components[cid]
    owner = seat if comp.ctype.per_player else None
    candidates = [i for i in game.state.items if i.comp is comp and i.owner == owner and i not in taken]
    if not candidates:
        raise PathError(f"no free item of '{cid}' left")
    placed = _PLACED.get(game, set())
    candidates.sort(key=lambda i: (i.zone is not zone, i.uid in placed))
    return candidates[0]


def _pending(session: Match, path: str) -> Any:
    field = path.partition(".")[2]
    decision = session.decision
    if decision is None:
        return None
    values = {"seat": decision.seat + 1, "prompt": decision.prompt, "labels": decision.labels,
              "step": decision.step, "kind": decision.kind}
    if field not in values:
        raise PathError(f"'pending' has {', '.join(values)}")
    return values[field]


def _score(game: Interpreter, path: str) -> int:
    seat = _seat(path.partition(".")[2], game)
    if seat is None or game.pack.scoring is None:
        raise PathError("write score.P1 (the pack must have scoring)")
    try:
        return int(game.pack.scoring.score(Ctx(game, seat)))
    except RuleError as exc:
        raise PathError(str(exc)) from exc
