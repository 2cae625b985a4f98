"""A point where a player must choose: the interpreter pauses here."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any


class DecisionKind(StrEnum):
    """What a decision asks for (the generated code names these by value)."""

    CHOOSE = "choose"    # one of several items or values
    NUMBER = "number"    # a number from a range
    MAY = "may"          # yes or no to an optional effect or trigger
    ACTION = "action"    # which of an item's actions to perform
    COST = "cost"        # which alternative cost to pay
    PAY = "pay"          # which counters pay a cost (substitutes, wildcards)
    GAIN = "gain"        # what a wildcard gain becomes


KINDS = {kind.value: kind for kind in DecisionKind}


@dataclass(frozen=True, slots=True)
class Option:
    """One legal answer: its position in `Decision.options` and its stable label (JSON-safe)."""

    index: int
    label: str


@dataclass(slots=True)
class Decision:
    """A pending choice with its enumerated legal options.

    Labels are stable and readable (what scripts, logs and humans use); `payloads` carries what each
    option means to the interpreter (live items, actions: not for callers).
    """

    seat: int
    kind: DecisionKind
    prompt: str
    labels: list[str]
    payloads: list[Any] = field(default_factory=list)
    step: str = ""

    @property
    def options(self) -> list[Option]:
        return [Option(i, label) for i, label in enumerate(self.labels)]

    def index_of(self, label: str) -> int:
        """The option whose label is `label` (exact, then case-insensitive)."""
        if label in self.labels:
            return self.labels.index(label)
        folded = [option.casefold() for option in self.labels]
        if label.casefold() in folded:
            return folded.index(label.casefold())
        raise KeyError(label)

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "kind": self.kind.value, "prompt": self.prompt, "step": self.step,
                "options": list(self.labels)}
