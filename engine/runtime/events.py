"""What happened in a match, as typed events for observers (a UI animating, a log, coverage counts).

Every event says who may see it: `visible_to` is None for everyone, else the seats that may. A
seat's feed (the events `seen_by` it) never holds what that seat may not see: an item that moves
between zones a seat cannot see reaches that seat as a twin event without the item. An observer
receives every event (both twins); filtering by seat is the feed's job. Events are made only while
someone observes, and not while a fork catches up (nothing happens then; it is retraced).

An observer may say which kinds it reads (an `event_kinds` attribute, a set of `EventKind`): it is then told only
of those, and no event of a kind nobody reads is made (`simulate`'s coverage count reads two kinds of the
thirteen; a small card game makes ~390 events a game, ~80 of them moves). An observer that reads the events
about an item only whole, never who may see them (`reads_audience = False`: a count, like that coverage
count), is told only the whole event, its `visible_to` not worked out (None), and no twin: when every reader
of a kind says so, the seats' sight of the zones is not looked at for it (most of a watched move's cost).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any


class EventKind(StrEnum):
    ANSWERED = "answered"          # a seat answered a decision (`label`; others see only that it did)
    FORCED = "forced"              # a decision with one option, taken without asking (`label`)
    STEP_STARTED = "step_started"  # a flow step began (`step`, `round`, `turn`: rounds and turns begun)
    ROUND_STARTED = "round_started"  # a flow `repeat` began its pass `round` (1, 2, ...)
    MOVED = "moved"                # an item went `from` one zone `to` another (zones as [id, owner])
    DRAWN = "drawn"                # `amount` items asked for `from` a zone `to` another (each is also `moved`)
    REVEALED = "revealed"          # a zone became public (`items`: what is in it)
    CONCEALED = "concealed"        # a revealed zone went back to its own visibility
    GAINED = "gained"              # the acting seat gained `amount` of `counter`
    PAID = "paid"                  # the acting seat spent `amount` of `counter`
    ACTIVATED = "activated"        # an item's action was performed (`item`, `component`, `action`)
    ROLLED = "rolled"              # dice thrown into a pool (`die`, `faces`: the whole pool, `thrown`: which)
    GAME_ENDED = "game_ended"      # the match is over (`scores`, `winners`)


ALL_KINDS = frozenset(EventKind)
EVERYONE: None = None


def kinds_read(observer: object) -> frozenset[EventKind]:
    """The kinds of event `observer` reads: its `event_kinds` attribute when it has one, else every kind."""
    kinds = getattr(observer, "event_kinds", None)
    return ALL_KINDS if kinds is None else frozenset(kinds)


def reads_audience(observer: object) -> bool:
    """Whether `observer` reads who may see an event about an item (`visible_to`, the twin without the item):
    its `reads_audience` attribute when it has one, else it does."""
    return getattr(observer, "reads_audience", True) is not False


class Readers(list[Any]):
    """The observers told of one kind of event (`Interpreter.heard`), and whether any of them reads who may
    see an event about an item (`reads_audience`)."""

    __slots__ = ("audience",)
    audience: bool


@dataclass(slots=True)
class Event:
    """One thing that happened: its kind, the acting seat (None: nobody's), JSON-safe data, who may see it.

    Read-only by convention, not `frozen`: a frozen dataclass's `__init__` sets each field through
    `object.__setattr__` (1.3 µs an event against 0.2), and every move builds one when anybody watches
    (`simulate`'s coverage count watches every game)."""

    kind: EventKind
    seat: int | None
    data: dict[str, Any] = field(default_factory=dict)
    visible_to: frozenset[int] | None = EVERYONE

    def seen_by(self, seat: int | None) -> bool:
        """May `seat` see this event? (None: an onlooker who sees only public events.)"""
        return self.visible_to is None or (seat is not None and seat in self.visible_to)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind.value, "seat": self.seat, **self.data,
                "visible_to": None if self.visible_to is None else sorted(self.visible_to)}
