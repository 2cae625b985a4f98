"""Who answers decisions: seeded random bots, scripts of labels, or a person."""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Iterable, Mapping
from typing import Any, Protocol

from engine.errors import CogworkError
from engine.runtime.decision import Decision


class Agent(Protocol):
    def choose(self, view: Mapping[str, Any], decision: Decision) -> int: ...

    def observe(self, decision: Decision, index: int) -> None:
        """Told of its own decision answered from a log (so a resumed game continues identically)."""


class RandomAgent:
    """Uniform over legal options; exactly one RNG draw per decision, so replays can fast-forward."""

    def __init__(self, seed: int, seat: int) -> None:
        self.rng = random.Random(f"{seed}/{seat}")

    def choose(self, view: Mapping[str, Any], decision: Decision) -> int:
        return int(self.rng.random() * len(decision.labels))

    def observe(self, decision: Decision, index: int) -> None:
        self.rng.random()


class ScriptError(CogworkError):
    """A scripted label is not among the legal options."""


class ScriptedAgent:
    """Answers with labels from a list, in order."""

    def __init__(self, labels: Iterable[str]) -> None:
        self.labels = deque(labels)

    def choose(self, view: Mapping[str, Any], decision: Decision) -> int:
        if not self.labels:
            raise ScriptError(f"the script has no answer left for: {decision.prompt} {decision.labels}")
        label = self.labels.popleft()
        try:
            return decision.index_of(label)
        except KeyError:
            raise ScriptError(f"'{label}' is not a legal option for '{decision.prompt}';"
                              f" legal: {', '.join(decision.labels)}") from None

    def observe(self, decision: Decision, index: int) -> None:
        return None
