"""Final scores, tie-break chains, and the verdict: who won, who lost, or whether the team lost together."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING

from engine.runtime.context import Ctx

if TYPE_CHECKING:
    from engine.runtime.interpreter import Interpreter


@dataclass
class PlayerResult:
    seat: int
    score: int
    tiebreak: list[int] = field(default_factory=list)
    breakdown: dict[str, int] = field(default_factory=dict)
    rank: str | None = None
    eliminated: bool = False
    result: str = "loss"             # "win", "loss" or "draw", set by `verdict`


class Verdict(StrEnum):
    """How a finished match ended, for everyone at once."""

    WIN = "win"                  # one player has the best score
    SHARED_WIN = "shared_win"    # several (not all) players tie for the best score
    DRAW = "draw"                # every player ties (two or more players)
    TEAM_LOSS = "team_loss"      # `scoring.team_loss` held: every player loses
    NO_WINNER = "no_winner"      # every player was eliminated


# (an enum's members read from the class are slow class attribute reads: `verdict` runs at every game's end)
WIN, SHARED_WIN, DRAW, TEAM_LOSS, NO_WINNER = Verdict.WIN, Verdict.SHARED_WIN, Verdict.DRAW, Verdict.TEAM_LOSS, \
    Verdict.NO_WINNER


def final_scores(game: Interpreter) -> list[PlayerResult]:
    scoring = game.pack.scoring
    players = len(game.state.players)
    if scoring is None:
        return [PlayerResult(seat, 0) for seat in range(players)]
    score_of, tiebreak, breakdown, eliminated = scoring.score, scoring.tiebreak, scoring.breakdown, scoring.eliminated
    results = []
    for seat in range(players):   # (what a pack leaves out is not looked at: this runs at the end of every game)
        ctx = Ctx(game, seat)
        score = int(score_of(ctx))
        results.append(PlayerResult(seat, score, [int(t(ctx)) for t in tiebreak] if tiebreak else [],
                                    {k: int(v(ctx)) for k, v in breakdown.items()} if breakdown else {},
                                    scoring.rank(ctx, players, score) if scoring.ranks else None,
                                    eliminated is not None and bool(eliminated(ctx))))
    return results


def estimates(game: Interpreter) -> list[int]:
    """Each seat's position estimate, for bots judging a game that is not over: the pack's
    `scoring.estimate` read for that seat (`me`), or its score where the pack declares none (so a pack
    without one is judged exactly as before the estimate existed)."""
    scoring = game.pack.scoring
    if scoring is None:
        return [0] * len(game.state.players)
    judge = scoring.score if scoring.estimate is None else scoring.estimate
    return [int(judge(Ctx(game, seat))) for seat in range(len(game.state.players))]


def team_lost(game: Interpreter) -> bool:
    """Whether the pack's `scoring.team_loss` holds now (checked with no acting player)."""
    scoring = game.pack.scoring
    return scoring is not None and scoring.team_loss is not None and bool(scoring.team_loss(Ctx(game, None)))


def verdict(results: list[PlayerResult], team_loss: bool = False) -> tuple[Verdict, list[int]]:
    """The verdict and the winning seats; sets each result's `result`.

    The best (score, tie-breakers...) among players not eliminated wins; several if still tied.
    """
    for r in results:
        r.result = "loss"
    alive = [r for r in results if not r.eliminated]
    if team_loss or not alive:
        return (TEAM_LOSS if team_loss else NO_WINNER), []
    best = max((r.score, *r.tiebreak) for r in alive)
    won = [r for r in alive if (r.score, *r.tiebreak) == best]
    if len(won) == len(results) > 1:
        for r in won:
            r.result = "draw"
        return DRAW, [r.seat for r in won]
    for r in won:
        r.result = "win"
    return (WIN if len(won) == 1 else SHARED_WIN), [r.seat for r in won]


def winners(game: Interpreter) -> list[int]:
    """The seats that would win if the game ended now."""
    scoring = game.pack.scoring
    if scoring is not None and not (scoring.tiebreak or scoring.breakdown or scoring.ranks) \
            and scoring.eliminated is None and scoring.team_loss is None:
        # a score alone decides (the usual case; this runs at the end of every game): the seats with the best
        # one, as `verdict` finds them, without the results it would build and throw away
        # (one loop, one context moved from seat to seat: no comprehension, context or `max` call per game)
        score_of = scoring.score
        ctx = Ctx(game, None)
        best = 0
        won: list[int] = []
        for seat in range(len(game.state.players)):
            ctx.seat = seat
            score = int(score_of(ctx))
            if not won or score > best:
                best, won = score, [seat]
            elif score == best:
                won.append(seat)
        return won
    return verdict(final_scores(game), team_lost(game))[1]
