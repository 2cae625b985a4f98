"""The execution context a compiled closure reads: who acts, on what, with which locals."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from engine.game import Game
    from engine.model import Item


class Ctx:
    """Per-invocation context; `vars` holds DSL local variables (loop items, `it`)."""

    __slots__ = ("event", "game", "seat", "self_item", "vars")

    def __init__(self, game: Game, seat: int | None, self_item: Item | None = None,
                 event: dict[str, Any] | None = None) -> None:
        self.game = game
        self.seat = seat
        self.self_item = self_item
        self.event = event
        self.vars: dict[str, Any] = {}

    def child(self, seat: int | None = None, self_item: Item | None = None,
              event: dict[str, Any] | None = None) -> Ctx:
        """A fresh context for a trigger or an item's action (no inherited locals)."""
        return Ctx(self.game, self.seat if seat is None else seat, self_item, event)
