"""Plain-data pictures of the state: as one seat may see it (JSON-safe), and the hash of all of it."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from engine.runtime.defs import SIZE_SHOWN
from engine.runtime.state import Item, Zone, json_safe

if TYPE_CHECKING:
    from engine.runtime.interpreter import Interpreter


def _item(item: Item) -> dict[str, Any]:
    return {"id": item.comp.id, "name": item.comp.name, "uid": item.uid, **json_safe(item.attrs)}


FACE_DOWN = {"face_down": True, "name": "face down"}   # an item here the seat may not see: only that it is there


def in_simultaneous(game: Interpreter) -> bool:
    """Whether a `simultaneous` flow step is running (the seats behind the divider): the flow marks where
    the outermost one began (`State.secret_since`) and clears it after its reveal."""
    return game.state.secret_since is not None


def size_unseen(zone: Zone, during: bool) -> bool:
    """Whether seats that cannot see `zone`'s items may not see how many there are either (`size:
    secret_in_simultaneous` while a simultaneous step runs: `during`, from `in_simultaneous`)."""
    return during and zone.zdef.size != SIZE_SHOWN and zone.visibility != "public"


def _zone(zone: Zone, seat: int | None, full: bool, during: bool) -> Any:
    if full or zone.visible_to(seat):
        return [_item(i) for i in zone.items]
    if zone.visibility == "top" or zone.zdef.face_down is not None:
        return [_item(i) if zone.shows(i, seat) else dict(FACE_DOWN) for i in zone.items]
    return {"hidden": None if size_unseen(zone, during) else len(zone.items)}   # None: how many is secret too


def snapshot(game: Interpreter, seat: int | None = None, full: bool = False) -> dict[str, Any]:
    """The state as `seat` may see it (`full=True`: everything, for debugging), as JSON-safe data."""
    state = game.state
    links = {"boards": {f"{tid}@{owner}": graph.links for (tid, owner), graph in sorted(
        state.boards.items(), key=lambda kv: (kv[0][0], -1 if kv[0][1] is None else kv[0][1]))}} if state.boards else {}
    dice = {"dice": {did: list(faces) for did, faces in state.dice.items()}} if state.dice else {}
    during = in_simultaneous(game)
    return {
        **links,  # only when a match changed its boards
        **dice,   # only in packs with dice: every pool's faces (dice lie on the table: every seat sees them)
        "step": state.step,
        "counters": dict(state.counters),
        "zones": {zid: _zone(z, seat, full, during) for zid, z in state.zones.items()},
        "players": [
            {"seat": p.seat, "counters": dict(p.counters),
             "zones": {zid: _zone(z, seat, full, during) for zid, z in p.zones.items()}}
            for p in state.players
        ],
    }


class SeatView(Mapping[str, Any]):
    """What one seat may see, computed only when an agent looks (random bots never do).

    A match keeps one per seat for all its decisions (making one per decision cost a random game a few
    percent): what it shows is worked out at the first look during a decision, and again at the first look
    during a later one (`State.decisions` tells them apart)."""

    __slots__ = ("_at", "_data", "_game", "_seat")

    def __init__(self, game: Interpreter, seat: int) -> None:
        self._game, self._seat = game, seat
        self._data: dict[str, Any] | None = None
        self._at = -1

    def _get(self) -> dict[str, Any]:
        at = self._game.state.decisions
        if self._data is None or self._at != at:
            self._data, self._at = snapshot(self._game, self._seat), at
        return self._data

    def __getitem__(self, key: str) -> Any:
        return self._get()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._get())

    def __len__(self) -> int:
        return len(self._get())


def seen_key(game: Interpreter, seat: int) -> int:
    """A hash of what `seat` may see (the facts `snapshot` shows, read without making them JSON-safe): equal
    views give equal keys within one process. A searching bot compares the positions it reaches by this key,
    which costs a small part of a `snapshot`."""
    state = game.state
    during = in_simultaneous(game)

    def zone_key(zone: Zone) -> Any:
        if zone.visible_to(seat):
            return tuple([(i.uid, repr(i.attrs)) for i in zone.items])
        if zone.visibility == "top" or zone.zdef.face_down is not None:
            return tuple([(i.uid, repr(i.attrs)) if zone.shows(i, seat) else None for i in zone.items])
        return None if size_unseen(zone, during) else len(zone.items)

    return hash((
        repr([(key, graph.links) for key, graph in state.boards.items()]) if state.boards else None,
        repr(state.dice) if state.dice else None, state.step,
        repr(state.counters), tuple([zone_key(z) for z in state.all_zones()]),
        tuple([repr(p.counters) for p in state.players]),
    ))


def state_hash(game: Interpreter) -> str:
    """A digest of the whole state (`State.digest`): equal hashes mean identical games from here on."""
    return game.state.digest()
