"""One seat's event feed: the match's events that seat may see, kept as JSON, with a "since you last
answered" mark. The terminal and the web table both show a seat only its feed."""

from __future__ import annotations

from typing import Any

from engine.runtime.events import Event


class SeatFeed:
    """Subscribe it to a match (`match.subscribe(feed)`); it keeps the events `seat` may see."""

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.events: list[dict[str, Any]] = []
        self.mark = 0     # index of the first event since the seat's last answer

    def __call__(self, event: Event) -> None:
        if event.seen_by(self.seat):
            data = event.to_json()
            data.pop("visible_to", None)
            self.events.append(data)

    def since_mark(self) -> list[dict[str, Any]]:
        return self.events[self.mark:]

    def answered(self) -> None:
        """The seat just answered: what comes next is news for its next turn."""
        self.mark = len(self.events)

    def recent(self, n: int) -> list[dict[str, Any]]:
        return self.events[-n:]
