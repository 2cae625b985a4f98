"""The MCTS bot: information-set Monte Carlo tree search (single-observer ISMCTS, Cowling et al. 2012).

Each iteration takes a fresh sample of the game as the bot's seat sees it (`Match.determinize`: every
item it cannot see dealt again, the random generator reseeded), walks the tree down choosing by UCB
among the options that sample allows, adds one node, plays a rollout to the end (or for `depth` answers,
where each seat's margin in the pack's position estimate, or its score where the pack declares none,
stands in for the result: `cut_value`; `depth=0` values the new node at once) and credits every seat that
chose on the way with its result. A node stands for a sequence of answers, not a state, so one tree
gathers what the samples have in common; an option is counted as available each time a sample offers
it, which keeps options that are rarely legal from looking better than they are. The bot then answers
with the option visited most.

Three options make the search stronger where a position estimate decides (docs/analytics.md "Bots"):
- `rescale`: UCB compares the children's mean results rescaled to the range of results this search has
  seen (as MuZero does). A cut's value is 0.5 moved by a *relative* margin, so in a game whose estimates
  are in the thousands every cut is within a few hundredths of 0.5, and UCB's exploration term (sized
  for results in [0, 1]) swamps the differences: the search spreads its visits evenly and learns little.
  A finished win (1) stays above every cut (< 0.95), rescaled or not.
- `epsilon`: rollouts answer at random only with that probability; otherwise each seat gives the option
  label with the best mean result so far in this search (MAST, Finnsson and Björnsson 2008: the averages
  of every answer given on the tree's paths and in rollouts, per seat and label). Uniform rollouts model
  an opponent who plays at random; these follow what the search has found good for each seat, at the
  cost of a table look-up per answer (no fork). Absent, or 1: uniform random, as before.
- `prior`: before searching, each option is judged one step ahead as the greedy bot judges it (one sample
  per option, dealt alike: `greedy.one_step`), and the root's child for it starts with `prior` visits at
  that value (prior knowledge as virtual visits, Gelly and Silver 2007). The search then starts from
  greedy's choice and leaves it only when its own results say so: with few iterations it answers as greedy
  would. Absent, or 0: no prior, as before.
- `paired`: the iterations come in rounds of one rollout per root option, every option dealt the same
  sample and answered in its rollout from a generator seeded alike (common random numbers), and the bot
  answers with the option of the best mean result (its prior included). Where the options' true
  differences are a hundredth of the rollouts' spread (docs/analytics.md "The ladder, session 9": two
  options about 0.005 apart in cut value, one rollout spread by about 0.03), unpaired iterations compare
  each option on other luck and the answer is nearly a coin; paired, the luck cancels in the comparison. Flat
  at the root (no tree below it: its branches would part the pairs), so the other seats' answers come from
  the rollouts (`epsilon`). Absent, or 0: the tree search, as before.
- `settle`: a rollout cut at `depth` plays on to the bot's own next decision (or the end) before it is
  judged. A cut after a fixed number of answers falls anywhere: often partway through another seat's
  answers, where the part of its plan already given counts in the estimate (as promises: what an answer
  would bring if nobody answered it) and the rest does not yet, so cuts differ by where they fell as much
  as by what the option led to. Judged at the bot's own decision, every cut of a search stands at an alike
  point, with each other seat's answers since the bot's last one all given. Absent, or 0: cut at `depth`,
  as before.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.play.agents import Agent, decision_rng
from engine.play.greedy import one_step
from engine.play.match import Match
from engine.runtime.decision import Decision
from engine.runtime.scoring import Verdict

DEFAULT_ITERATIONS = 200
EXPLORATION = 0.7     # UCB's constant for results in [0, 1]
CUT_WEIGHT = 0.45     # how far from 0.5 a score margin moves an unfinished rollout's value
UNTRIED = 2.0         # a label no answer has used yet in this search: above every mean, so rollouts try it

Key = tuple[int, str]   # (seat, option label): a tree edge, and a rollout table entry


@dataclass(slots=True)
class _Node:
    """The answers leading here from the root; `reward` is the total result of the seat that gave the last."""

    seat: int = -1
    visits: int = 0
    available: int = 0
    reward: float = 0.0
    children: dict[Key, _Node] = field(default_factory=dict)

    def ucb(self, exploration: float, low: float = 0.0, span: float = 1.0) -> float:
        """UCB1 with the mean result seen as `(mean - low) / span` (0 and 1: the results as they are)."""
        return ((self.reward / self.visits - low) / span
                + exploration * math.sqrt(math.log(self.available) / self.visits))


class _Range:
    """The lowest and highest result this search has credited (`rescale`)."""

    def __init__(self) -> None:
        self.low, self.high = math.inf, -math.inf

    def add(self, results: list[float]) -> None:
        self.low, self.high = min(self.low, *results), max(self.high, *results)

    def scale(self) -> tuple[float, float]:
        """(low, span) for `_Node.ucb`: (0, 1) until two different results have been seen."""
        return (self.low, self.high - self.low) if self.high > self.low else (0.0, 1.0)


class MctsAgent:
    """Searches `iterations` samples per decision, or as many as fit in `seconds` (a time budget makes
    the games depend on the machine's speed); `depth` cuts rollouts short and scores the position there
    (0: no rollout); `rescale`, `epsilon`, `prior`, `paired` and `settle` as the module says."""

    kind = "mcts"

    def __init__(self, seed: int, seat: int, iterations: int | None = None, seconds: float | None = None,
                 depth: int | None = None, exploration: float = EXPLORATION, rescale: bool = False,
                 epsilon: float = 1.0, prior: int = 0, paired: bool = False, settle: bool = False) -> None:
        self.seed, self.seat = seed, seat
        self.iterations = iterations if iterations is not None or seconds is not None else DEFAULT_ITERATIONS
        self.seconds, self.depth, self.exploration = seconds, depth, exploration
        self.rescale, self.epsilon, self.prior, self.paired = rescale, epsilon, prior, paired
        self.settle = settle
        self.match: Match | None = None

    def bind(self, match: Match) -> None:
        self.match = match

    def choose(self, view: Mapping[str, Any], decision: Decision) -> int:
        match = self.match
        if match is None:
            raise RuntimeError("an MCTS bot plays only a match it was bound to (Match.run binds it)")
        search = _Search(self, decision_rng(self.seed, self.seat, match.answers_known(self.seat)))
        deadline = None if self.seconds is None else time.monotonic() + self.seconds
        if self.prior:
            search.judge_options(match, decision)
        labels = list(decision.labels)
        done = 0
        while done == 0 or ((self.iterations is None or done < self.iterations)
                            and (deadline is None or time.monotonic() < deadline)):
            done += search.paired_round(match, labels) if self.paired else search.sampled(match, labels)
        children = search.root.children
        if not children:
            return int(search.rng.random() * decision.size)
        if self.paired:     # every option had the same samples: the best mean result (prior included) answers
            means = [node.reward / node.visits if (node := children.get((decision.seat, label))) and node.visits
                     else -math.inf for label in labels]
            return max(range(len(means)), key=lambda i: (means[i], -i))
        visits = [node.visits if (node := children.get((decision.seat, label))) else -1 for label in labels]
        return max(range(len(visits)), key=lambda i: (visits[i], -i))

    def observe(self, decision: Decision, index: int) -> None:
        return None


class _Search:
    """One decision's search: its tree, generator, the results' range and the rollouts' table."""

    def __init__(self, agent: MctsAgent, rng: random.Random) -> None:
        self.agent, self.rng = agent, rng
        self.root = _Node(seat=agent.seat)
        self.range = _Range()
        self.table: dict[Key, list[float]] | None = {} if agent.epsilon < 1 else None   # key -> [total, count]

    def judge_options(self, match: Match, decision: Decision) -> None:
        """The root's children with `prior` visits each at the option's value one step ahead (`prior`)."""
        seat, weight = self.agent.seat, self.agent.prior
        trials = one_step(match, seat, decision, self.rng)
        if trials is None:    # no sample stood at this decision: search without a prior
            return
        for label, trial in zip(decision.labels, trials, strict=True):
            value = seat_results(trial)[seat]
            trial.release()
            self.root.children[(seat, label)] = _Node(seat=seat, visits=weight, available=weight,
                                                      reward=weight * value)
            if self.agent.rescale:
                self.range.add([value])

    def sampled(self, match: Match, labels: list[str]) -> int:
        """One iteration on a fresh sample (none if the sample stops at another decision: it teaches nothing
        here; `GreedyAgent.choose` says when that happens). The iterations spent: 1."""
        sample = match.determinize(self.agent.seat, self.rng)
        if sample.legal() == labels:
            self.iterate(sample)
        else:
            sample.release()
        return 1

    def paired_round(self, match: Match, labels: list[str]) -> int:
        """One rollout per root option, all on samples dealt alike and with rollouts drawn from generators
        seeded alike (`paired`: common random numbers), so the options' results differ by what the option
        does more than by luck. No tree below the root (its branches would part the pairs); the rollouts'
        table learns only after the round, so every option's rollout reads the same one. The iterations
        spent: one per option (1 if the sample stands at another decision)."""
        seat, deal, luck = self.agent.seat, self.rng.getrandbits(64), self.rng.getrandbits(64)
        learned = []
        for index, label in enumerate(labels):
            sample = match.determinize(seat, random.Random(deal))
            if sample.legal() != labels:
                sample.release()
                return 1
            sample.apply(index)
            said = [(seat, label)]
            self.roll_out(sample, random.Random(luck), said)
            results = seat_results(sample)
            sample.release()
            child = self.root.children.setdefault((seat, label), _Node(seat=seat))
            child.visits += 1
            child.reward += results[seat]
            learned.append((said, results))
        if self.agent.rescale:
            self.range.add([result for _, results in learned for result in results])
        for said, results in learned:
            self.learn(said, results)
        return len(labels)

    def iterate(self, game: Match) -> None:
        agent, rng = self.agent, self.rng
        node, path, said = self.root, [], []
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
                said.append(keys[index])
                game.apply(index)
                path.append(child)
                break
            low, span = self.range.scale() if agent.rescale else (0.0, 1.0)
            index = max(range(len(keys)), key=lambda i: node.children[keys[i]].ucb(agent.exploration, low, span))
            node = node.children[keys[index]]
            said.append(keys[index])
            game.apply(index)
            path.append(node)
        self.roll_out(game, rng, said)
        results = seat_results(game)
        game.release()
        for step in path:
            step.visits += 1
            step.reward += results[step.seat]
        self.root.visits += 1
        if agent.rescale:
            self.range.add(results)
        self.learn(said, results)

    def roll_out(self, game: Match, rng: random.Random, said: list[Key]) -> None:
        """Play `game` on for `depth` answers (to the end without one; not at all at 0), answered inside the
        flow (`run`) by `_Rollout`; its answers are added to `said`. With `settle`, a rollout cut at `depth`
        plays on to the bot's own next decision (or the end)."""
        depth = self.agent.depth
        if game.decision is not None and depth != 0:
            rollout = _Rollout(rng, self.agent.epsilon, self.table, said)
            agents: list[Agent] = [rollout] * len(game.outcome().results)
            game.run(agents, stop_after=None if depth is None else len(game.log) + depth)
            if self.agent.settle:
                while game.decision is not None and game.decision.seat != self.agent.seat:
                    game.run(agents, stop_after=len(game.log) + 1)

    def learn(self, said: list[Key], results: list[float]) -> None:
        """The rollouts' table (`epsilon`) credits every answer in `said` with its seat's result."""
        if self.table is not None:
            for key in said:
                entry = self.table.setdefault(key, [0.0, 0])
                entry[0] += results[key[0]]
                entry[1] += 1


class _Rollout:
    """Rollout answers from the search's own generator: at random with probability `epsilon`, otherwise
    the label with the best mean result for the seat in `table` (ties and untried labels at random);
    every answer is added to `said` (the table learns from it). `epsilon` 1: uniform, no table."""

    def __init__(self, rng: random.Random, epsilon: float, table: dict[Key, list[float]] | None,
                 said: list[Key]) -> None:
        self.rng, self.epsilon, self.table, self.said = rng, epsilon, table, said

    def choose(self, view: Mapping[str, Any], decision: Decision) -> int:
        table = self.table
        if table is None:
            return int(self.rng.random() * decision.size)
        seat = decision.seat
        if self.rng.random() < self.epsilon:
            index = int(self.rng.random() * decision.size)
        else:
            means = [UNTRIED if (entry := table.get((seat, label))) is None else entry[0] / entry[1]
                     for label in decision.labels]
            top = max(means)
            best = [i for i, mean in enumerate(means) if mean == top]
            index = best[int(self.rng.random() * len(best))]
        self.said.append((seat, decision.labels[index]))
        return index

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
