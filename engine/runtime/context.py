"""The execution context generated code reads: which game, who acts, on which item, for which event."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from engine.runtime.interpreter import Interpreter
    from engine.runtime.state import Item


class Ctx:
    """Per-invocation context. DSL locals are Python locals of the generated function, not kept here.

    `seat` changes inside `as PLAYER { ... }` blocks and per seat in `each_player` steps.
    """

    __slots__ = ("args", "event", "game", "offered", "pool", "seat", "self_item")

    def __init__(self, game: Interpreter, seat: int | None, self_item: Item | None = None,
                 event: dict[str, Any] | None = None, offered: Item | None = None, args: tuple[Any, ...] = ()) -> None:
        self.game = game
        self.seat = seat
        self.self_item = self_item
        self.event = event
        self.offered = offered  # an admission rule's `it`: the item offered to `self_item`
        self.pool: tuple[Item, ...] | None = None  # the containers a `within` block reads, gains into, pays from
        self.args = args        # a procedure's parameters' values (`call NAME(A, B)`)

    def child(self, seat: int | None = None, self_item: Item | None = None,
              event: dict[str, Any] | None = None) -> Ctx:
        """A fresh context for an item's action, effect or cost attribute (triggers get their own)."""
        inner = Ctx(self.game, self.seat if seat is None else seat, self_item, event)
        inner.pool = self.pool   # an item's action or cost run within a container pays from it too
        return inner
