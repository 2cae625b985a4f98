"""Mutable game state: players, counters, zones and the items in them.

The state holds only data (no closures), so it can be hashed, snapshotted for
a seat's view and compared between a game and its replay.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from engine.runtime.boards import Graph

if TYPE_CHECKING:
    from engine.runtime.defs import ComponentDef, ZoneDef


class Item:
    """One instance of a component (a card, a token) living in a zone."""

    __slots__ = ("attrs", "comp", "owner", "uid", "zone")

    def __init__(self, uid: int, comp: ComponentDef, owner: int | None) -> None:
        self.uid = uid
        self.comp = comp
        self.owner = owner
        self.attrs: dict[str, Any] = dict(comp.values)
        self.zone: Zone | None = None

    @property
    def name(self) -> str:
        return self.comp.name

    def __repr__(self) -> str:
        return f"<{self.comp.id}#{self.uid}>"


class Zone:
    """An ordered container of items; slot rows fill from the left."""

    __slots__ = ("items", "owner", "visibility", "zdef")

    def __init__(self, zdef: ZoneDef, owner: int | None) -> None:
        self.zdef = zdef
        self.owner = owner
        self.items: list[Item] = []
        self.visibility = zdef.visibility

    @property
    def id(self) -> str:
        return self.zdef.id

    def __repr__(self) -> str:
        who = "" if self.owner is None else f"@{self.owner}"
        return f"<zone {self.zdef.id}{who} {len(self.items)}>"

    def visible_to(self, seat: int | None) -> bool:
        if self.visibility == "public":
            return True
        if self.visibility == "owner":
            return seat is not None and seat == self.owner
        return False


@dataclass(frozen=True)
class PlayerRef:
    """A player as a DSL value (`me`, `others`, an item's `owner`): reads that seat's counters and zones."""

    seat: int

    def __repr__(self) -> str:
        return f"P{self.seat + 1}"


@dataclass
class Player:
    seat: int
    counters: dict[str, int] = field(default_factory=dict)
    zones: dict[str, Zone] = field(default_factory=dict)


@dataclass
class State:
    """Everything that changes during a game."""

    players: list[Player]
    counters: dict[str, int]
    zones: dict[str, Zone]
    rng: random.Random
    items: list[Item] = field(default_factory=list)
    trigger_uses: dict[tuple[str, int | None, str], int] = field(default_factory=dict)
    # boards whose links changed in this match (`link`/`unlink`), by (component type, owner seat):
    # a copy of the pack's graph, so the pack stays the same for every match
    boards: dict[tuple[str, int | None], Graph] = field(default_factory=dict)
    turn: int = 0
    finished: bool = False

    def zone(self, zid: str, seat: int | None) -> Zone:
        """The zone `zid`: the seat's own copy for per-player zones."""
        zone = self.zones.get(zid)
        if zone is not None:
            return zone
        if seat is None:
            raise KeyError(f"zone '{zid}' belongs to a player, but no player is acting here")
        return self.players[seat].zones[zid]
