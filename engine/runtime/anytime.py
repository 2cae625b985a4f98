"""Anytime actions as options of a choice: what the choice returns when one was taken.

A component's `anytime:` actions are offered, next to a choice's own options, to the player being asked
while the action's window holds (engine/runtime/interpreter.py, `Interpreter.ask`). Taking one runs it
at once; the choice then returns REASK, and the rule that asked works its options out afresh (what the
action changed may change them) and asks again.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine.runtime.defs import AnytimeDef
    from engine.runtime.state import Item


class _Reask:
    """The answer of a choice at which an anytime action was taken: ask again."""

    def __repr__(self) -> str:
        return "REASK"


REASK = _Reask()


@dataclass(frozen=True)
class AnytimeOffer:
    """One anytime action offered at a choice: which action, on which item."""

    action: AnytimeDef
    item: Item

    @property
    def label(self) -> str:
        return f"anytime: {self.action.label}"
