"""Who answers decisions: seeded random bots, scripts of labels, a person, or a searching bot.

Every one is an `Agent`: `choose(view, decision)` gives an option's index. A bot that looks ahead
(engine/play/greedy.py, engine/play/mcts.py) is also a `Searcher`: `Match.run` (and a served table)
first `bind`s it to the match it plays, and it reads that match only through its public API
(`determinize`, `apply`, `outcome`, `view`), never its state.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from engine.errors import CogworkError
from engine.runtime.decision import Decision

if TYPE_CHECKING:
    from engine.play.match import Match


class Agent(Protocol):
    def choose(self, view: Mapping[str, Any], decision: Decision) -> int: ...

    def observe(self, decision: Decision, index: int) -> None:
        """Told of its own decision answered from a log (so a resumed game continues identically)."""


@runtime_checkable
class Searcher(Protocol):
    """An agent that plays the position forward before it answers: told which match it plays first."""

    def bind(self, match: Match) -> None: ...


def is_searcher(agent: object) -> bool:
    """`isinstance(agent, Searcher)` without its price: a runtime-checkable protocol's check walks the
    protocol's attributes on every call (~20 µs on CPython 3.11, a tenth of a short random game)."""
    return callable(getattr(agent, "bind", None))


def decision_rng(seed: int, seat: int, answers: int) -> random.Random:
    """A searching bot's generator for one decision: from its seed, its seat and how many answers its seat
    knows were given (`Match.answers_known`: not another seat's secret ones), so a game resumed from a log,
    or a worker that replays it, decides the same way."""
    return random.Random(f"{seed}/{seat}/{answers}")


class BySize:
    """An agent that answers from the number of options alone (`choose_by_size`): a match played through asks it
    without making the `Decision`, which its log makes only if read (`by_size`)."""

    def choose(self, view: Mapping[str, Any], decision: Decision) -> int:
        return self.choose_by_size(decision.size)

    def choose_by_size(self, size: int) -> int:
        raise NotImplementedError


def by_size(agent: Any) -> Callable[[int], int] | None:
    """The agent's `choose_by_size` when its `choose` is `BySize`'s (a subclass that overrides `choose` reads
    the decision), else None."""
    return agent.choose_by_size if _answers(type(agent)) else None


def uniform_draw(agent: Any) -> Callable[[], float] | None:
    """The draw `d` of an agent whose answer to `size` options is `int(d() * size)`: `RandomAgent`'s own
    `choose` and `choose_by_size` (a subclass overriding either is asked as before), else None. A match played
    through computes that answer inside `ask`, without the agent's frame: the same draw, the same number."""
    return agent.rng.random if _answers(type(agent)) == _UNIFORM else None


_BY_SIZE, _UNIFORM = 1, 2


def _answers(kind: type) -> int:
    """How agents of a class answer: 0 from the decision, `_BY_SIZE` from the number of options, `_UNIFORM` as
    `RandomAgent` does; kept per class (a match makes its answerers from this at its start, twice an agent)."""
    found = _KNOWN.get(kind)
    if found is None:
        found = _KNOWN[kind] = (0 if getattr(kind, "choose", None) is not BySize.choose else
                                _UNIFORM if getattr(kind, "choose_by_size", None) is RandomAgent.choose_by_size
                                else _BY_SIZE)
    return found


_KNOWN: dict[type, int] = {}


class RandomAgent(BySize):
    """Uniform over legal options; exactly one RNG draw per decision, so replays can fast-forward."""

    def __init__(self, seed: int, seat: int) -> None:
        self.rng = random.Random(f"{seed}/{seat}")

    def choose_by_size(self, size: int) -> int:
        return int(self.rng.random() * size)   # (`ask` computes the same itself: `uniform_draw`)

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
