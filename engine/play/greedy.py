"""The greedy bot: tries every option one step ahead and keeps the one that leaves its position best.

It looks ahead on a sample of what it cannot see (`Match.determinize`), never on the real match, so a
draw it tries shows a card the deck might hold, not the one it does. One step: the option is applied
and the match runs on to the next decision (whoever's), where the position is judged: by the result if
the match is over, else by the pack's position estimate (`scoring.estimate`), or its score where it
declares none. A score that moves only now and then (points paid only at the end) leaves nearly every
option tied; an estimate that values what leads there (an army, an economy) tells them apart.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from engine.play.agents import decision_rng
from engine.play.match import Match
from engine.runtime.decision import Decision
from engine.runtime.scoring import Verdict

SAMPLE_TRIES = 8   # samples drawn until one is at this decision (see `GreedyAgent.choose`)


class GreedyAgent:
    """Best position value one step ahead; ties go to an option that leads somewhere it has not been yet,
    then to a seeded coin. Without that tie-break a bot whose options all score the same would answer the
    same way forever (pass, pass, ...) in a game that only ends when somebody acts."""

    kind = "greedy"

    def __init__(self, seed: int, seat: int) -> None:
        self.seed, self.seat = seed, seat
        self.match: Match | None = None
        self.been: set[int] = set()    # the views it has answered from (`Match.seen_key`)

    def bind(self, match: Match) -> None:
        if match is not self.match:
            self.match, self.been = match, set()

    def choose(self, view: Mapping[str, Any], decision: Decision) -> int:
        """The best option on one sample. A sample stands at the match's pending decision, which is the one
        asked when the bot is called by `Match.run` (a bot called with another decision, say by hand, would
        judge options of a question it was not asked): one that does not offer this decision's options is
        put aside and another drawn, and after `SAMPLE_TRIES` such samples the bot answers at random rather
        than fail."""
        match = self.match
        if match is None:
            raise RuntimeError("a greedy bot plays only a match it was bound to (Match.run binds it)")
        rng = decision_rng(self.seed, self.seat, match.answers_known(self.seat))
        tried = one_step(match, self.seat, decision, rng)
        if tried is None:
            return int(rng.random() * decision.size)
        self.been.add(match.seen_key(self.seat))
        trials = [(position_value(trial, self.seat), rng.random(), trial) for trial in tried]
        top = max(value for value, _, _ in trials)
        best, best_key = 0, None
        for index, (value, coin, trial) in enumerate(trials):
            if value == top:    # only a tie needs the tie-break (and the view's key, which costs a little)
                key = (trial.seen_key(self.seat) not in self.been, coin)
                if best_key is None or key > best_key:
                    best, best_key = index, key
            trial.release()
        return best

    def observe(self, decision: Decision, index: int) -> None:
        return None


def one_step(match: Match, seat: int, decision: Decision, rng: random.Random) -> list[Match] | None:
    """Every option of `decision` applied on its own sample of `match` for `seat` (the match's pending
    decision), each run on to the next decision: the samples are dealt alike (one seed drawn from `rng`), so
    the options are compared on the same deal. A sample that does not offer this decision's options (a bot
    called with another decision than the pending one) is put aside and another drawn; None after
    `SAMPLE_TRIES` such samples. The caller releases the trials (`Match.release`)."""
    labels = list(decision.labels)
    for _ in range(SAMPLE_TRIES):
        sample = rng.getrandbits(64)
        first = match.determinize(seat, random.Random(sample))
        if first.legal() == labels:
            break
        first.release()
    else:
        return None
    trials = []
    for index in range(len(labels)):
        trial = first if index == 0 else match.determinize(seat, random.Random(sample))
        trial.apply(index)
        trials.append(trial)
    return trials


def position_value(match: Match, seat: int) -> tuple[float, int, int]:
    """How good the position is for `seat`: the result if the match is over (1 a win, shared among the
    winners; 0 a loss; 0.5 meaning not over yet), then its lead over the best other seat, then its own
    value. The lead and value are the final scores once the match is over, and before that the pack's
    position estimate (`scoring.estimate`; the score where it declares none)."""
    if not match.done:
        return (0.5, *_lead(match.estimates(), seat))
    outcome = match.outcome(digest=False)
    lead, mine = _lead([r.score for r in outcome.results], seat)
    if outcome.verdict in (Verdict.TEAM_LOSS, Verdict.NO_WINNER) or seat not in outcome.winners:
        return 0.0, lead, mine
    return 0.5 + 0.5 / len(outcome.winners), lead, mine


def _lead(values: list[int], seat: int) -> tuple[int, int]:
    """`seat`'s value less the best other seat's (its value alone when it plays alone), and its value."""
    mine = values[seat]
    others = [v for i, v in enumerate(values) if i != seat]
    return (mine - max(others) if others else mine), mine
