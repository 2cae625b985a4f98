"""A cross-reference of the pack, filled while compiling: what is used, emitted and produced where.

The linter reads it to find unused definitions, triggers on events nothing
emits and costs naming counters nothing can produce.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

Where = tuple[str, int, int]  # file, line, col (1-based)
# a place, or how to work it out: most uses are never shown (lint reads places only for its findings),
# and working out a DSL token's line and column was a tenth of a cold lint of a big pack
Place = Where | Callable[[], Where]


def position_of(place: Place) -> Where:
    """The file, line and column of a recorded use."""
    return place() if callable(place) else place


@dataclass
class Usage:
    refs: dict[str, list[Place]] = field(default_factory=dict)
    emitted: dict[str, list[Place]] = field(default_factory=dict)
    produced: dict[str, list[Place]] = field(default_factory=dict)
    paid: dict[str, list[Place]] = field(default_factory=dict)
    listened: dict[str, list[Place]] = field(default_factory=dict)
    # items of another seat's `owner`/`hidden` zone read through a player value (`q.hand`, not a count)
    hidden_reads: dict[str, list[Place]] = field(default_factory=dict)

    @staticmethod
    def _add(table: dict[str, list[Place]], name: str, where: Place) -> None:
        table.setdefault(name, []).append(where)

    def ref(self, name: str, where: Place) -> None:
        self._add(self.refs, name, where)

    def emit(self, name: str, where: Place) -> None:
        self._add(self.emitted, name, where)

    def produce(self, name: str, where: Place) -> None:
        self._add(self.produced, name, where)

    def pay(self, name: str, where: Place) -> None:
        self._add(self.paid, name, where)

    def listen(self, name: str, where: Place) -> None:
        self._add(self.listened, name, where)

    def read_hidden(self, name: str, where: Place) -> None:
        self._add(self.hidden_reads, name, where)
