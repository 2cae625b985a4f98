"""The MCTS bot: information-set Monte Carlo tree search (single-observer ISMCTS, Cowling et al. 2012).

Each iteration takes a fresh sample of the game as the bot's seat sees it (`Match.determinize`: every
item it cannot see dealt again, the random generator reseeded), walks the tree down choosing by UCB
among the options that sample allows, adds one node, plays random moves to the end (or for `depth`
answers, where each seat's margin in the pack's position estimate, or its score where the pack declares
none, stands in for the result: `cut_value`) and credits every seat that chose on the way with its
result. A node stands for a sequence of answers, not a state, so one tree gathers what the samples have
in common; an option is counted as available each time a sample offers it, which keeps options that are
rarely legal from looking better than they are. The bot then answers with the option visited most.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.play.agents import decision_rng
from engine.play.match import Match
from engine.runtime.decision import Decision
from engine.runtime.scoring import Verdict

DEFAULT_ITERATIONS = 200
EXPLORATION = 0.7     # UCB's constant for results in [0, 1]
CUT_WEIGHT = 0.45     # how far from 0.5 a score margin moves an unfinished rollout's value


@dataclass(slots=True)
class _Node:
    """The answers leading here from the root; `reward` is the total result of the seat that gave the last."""

    seat: int = -1
    visits: int = 0
    available: int = 0
    reward: float = 0.0
    children: dict[tuple[int, str], _Node] = field(default_factory=dict)

    def ucb(self, exploration: float) -> float:
        return self.reward / self.visits + exploration * math.sqrt(math.log(self.available) / self.visits)


class MctsAgent:
    """Searches `iterations` samples per decision, or as many as fit in `seconds` (a time budget makes
    the games depend on the machine's speed); `depth` cuts rollouts short and scores the position there."""

    kind = "mcts"

    def __init__(self, seed: int, seat: int, iterations: int | None = None, seconds: float | None = None,
                 depth: int | None = None, exploration: float = EXPLORATION) -> None:
        self.seed, self.seat = seed, seat
        self.iterations = iterations if iterations is not None or seconds is not None else DEFAULT_ITERATIONS
        self.seconds, self.depth, self.exploration = seconds, depth, exploration
        self.match: Match | None = None

    def bind(self, match: Match) -> None:
        self.match = match

    def choose(self, view: Mapping[str, Any], decision: Decision) -> int:
        match = self.match
        if match is None:
            raise RuntimeError("an MCTS bot plays only a match it was bound to (Match.run binds it)")
        rng = decision_rng(self.seed, self.seat, len(match.log))
        root = _Node(seat=self.seat)
        deadline = None if self.seconds is None else time.monotonic() + self.seconds
        done = 0
        while done == 0 or ((self.iterations is None or done < self.iterations)
                            and (deadline is None or time.monotonic() < deadline)):
            self._iterate(match.determinize(self.seat, rng), root, rng)
            done += 1
        visits = [node.visits if (node := root.children.get((decision.seat, label))) else -1
                  for label in decision.labels]
        return max(range(len(visits)), key=lambda i: (visits[i], -i))

    def _iterate(self, game: Match, root: _Node, rng: random.Random) -> None:
        node, path = root, []
        while game.decision is not None:       # down the tree, adding one node
            pending = game.decision
            keys = [(pending.seat, label) for label in pending.labels]
            untried = []
            for index, key in enumerate(keys):
                child = node.children.get(key)
                if child is None:
                    untried.append(index)
                else:
                    child.available += 1
            if untried:
                index = untried[int(rng.random() * len(untried))]
                child = node.children[keys[index]] = _Node(seat=pending.seat, available=1)
                game.apply(index)
                path.append(child)
                break
            index = max(range(len(keys)), key=lambda i: node.children[keys[i]].ucb(self.exploration))
            node = node.children[keys[index]]
            game.apply(index)
            path.append(node)
        if game.decision is not None:     # the rollout: random answers, given inside the flow (`run`)
            rollout = _Rollout(rng)
            game.run([rollout] * len(game.outcome().results),
                     stop_after=None if self.depth is None else len(game.log) + self.depth)
        results = seat_results(game)
        game.close()
        for step in path:
            step.visits += 1
            step.reward += results[step.seat]
        root.visits += 1

    def observe(self, decision: Decision, index: int) -> None:
        return None


class _Rollout:
    """Uniform random answers from the search's own generator."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, view: Mapping[str, Any], decision: Decision) -> int:
        return int(self.rng.random() * decision.size)

    def observe(self, decision: Decision, index: int) -> None:
        return None


def seat_results(match: Match) -> list[float]:
    """Each seat's result in [0, 1]: its share of the win once the match is over; before that (a rollout cut
    at `depth`), 0.5 moved by its margin over the best other seat, relative to the two values
    (`cut_value`), so a small lead counts a little, a big one nearly as much as a win. The values are the
    pack's position estimate (`scoring.estimate`), or the score where it declares none."""
    if not match.done:
        values = match.estimates()
        return [cut_value(values, seat) for seat in range(len(values))]
    outcome = match.outcome(digest=False)
    seats = len(outcome.results)
    if outcome.verdict in (Verdict.TEAM_LOSS, Verdict.NO_WINNER) or not outcome.winners:
        return [0.0] * seats
    share = 1 / len(outcome.winners)
    return [share if seat in outcome.winners else 0.0 for seat in range(seats)]


def cut_value(values: list[int], seat: int) -> float:
    """The value of an unfinished position for `seat`, in (0.05, 0.95): a finished win (1) is always better.

    A lead of 2 at 10 to 8 is worth less than at 2 to 0: the margin is taken relative to the values'
    sizes, which needs no scale from the pack (nor from its estimate)."""
    mine = values[seat]
    best = max((v for i, v in enumerate(values) if i != seat), default=0)
    return 0.5 + CUT_WEIGHT * (mine - best) / (abs(mine) + abs(best) + 1)
