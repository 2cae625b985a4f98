"""Final scores, tie-break chains and winners."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from engine.runtime.context import Ctx

if TYPE_CHECKING:
    from engine.runtime.interpreter import Game


@dataclass
class PlayerResult:
    seat: int
    score: int
    tiebreak: list[int] = field(default_factory=list)
    breakdown: dict[str, int] = field(default_factory=dict)
    rank: str | None = None


def final_scores(game: Game) -> list[PlayerResult]:
    scoring = game.pack.scoring
    results = []
    for seat in range(len(game.state.players)):
        if scoring is None:
            results.append(PlayerResult(seat, 0))
            continue
        ctx = Ctx(game, seat)
        score = int(scoring.score(ctx))
        results.append(PlayerResult(seat, score, [int(t(ctx)) for t in scoring.tiebreak],
                                    {k: int(v(ctx)) for k, v in scoring.breakdown.items()},
                                    scoring.rank(ctx, len(game.state.players), score)))
    return results


def winners(results: list[PlayerResult]) -> list[int]:
    """Seats with the best (score, tie-breakers...); several if still tied (shared victory)."""
    best = max((r.score, *r.tiebreak) for r in results)
    return [r.seat for r in results if (r.score, *r.tiebreak) == best]
