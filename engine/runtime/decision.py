"""A point where a player must choose: the interpreter pauses here."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(slots=True)
class Decision:
    """A pending choice with its enumerated legal options.

    Labels are stable and readable (what scripts, logs and humans use);
    `values` carries what each option means to the interpreter.
    """

    seat: int
    kind: str
    prompt: str
    labels: list[str]
    values: list[Any] = field(default_factory=list)
    step: str = ""

    def index_of(self, label: str) -> int:
        """The option whose label is `label` (exact, then case-insensitive)."""
        if label in self.labels:
            return self.labels.index(label)
        folded = [option.casefold() for option in self.labels]
        if label.casefold() in folded:
            return folded.index(label.casefold())
        raise KeyError(label)
