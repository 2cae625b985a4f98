"""What happened in a match, as typed events for observers (a UI animating, a log, coverage counts).

Every event says who may see it: `visible_to` is None for everyone, else the seats that may. A
seat's feed (`Event.seen_by`) never holds what that seat may not see; hidden item ids are only in
events visible to their owner (or to nobody: a shuffle inside a deck).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any


class EventKind(StrEnum):
    ANSWERED = "answered"        # a seat answered a decision (forced single options too, marked `forced`)
    STEP_STARTED = "step_started"  # a flow step began (`step`), with the round and turn counts
    MOVED = "moved"              # an item went from one zone to another
    DRAWN = "drawn"              # items were drawn from a zone (each one is also `moved`)
    REVEALED = "revealed"        # a zone became public (`conceal` ends it: `concealed`)
    CONCEALED = "concealed"
    GAINED = "gained"            # a counter went up (`counter`, `amount`, `seat`)
    PAID = "paid"                # a counter was spent
    GAME_ENDED = "game_ended"    # the match is over (`scores`, `winners`)


EVERYONE: None = None


@dataclass(frozen=True, slots=True)
class Event:
    """One thing that happened: its kind, the acting seat (None: nobody's), JSON-safe data, who may see it."""

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
