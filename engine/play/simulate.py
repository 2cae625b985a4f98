"""Many seeded random-bot games: the designer's statistics and the soak test.

Every game can also be replayed from its own log (`check_replay`), which is
how "random games finish and replay identically" is measured.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, TextIO

from engine.errors import MoveError, RuleError
from engine.play.agents import RandomAgent
from engine.play.match import Match
from engine.runtime.defs import Pack
from engine.runtime.events import Event, EventKind
from engine.runtime.scoring import Verdict


@dataclass
class GameRecord:
    seed: int
    players: int
    scores: list[int]
    winners: list[int]
    decisions: int
    hash: str
    verdict: str = "win"
    replayed: bool | None = None
    error: str | None = None
    coverage: Counter[tuple[str, str]] = field(default_factory=Counter)


class CoverageCount:
    """An observer counting, per component, draws from hidden zones, entries into play and actions done."""

    def __init__(self, pack: Pack) -> None:
        self.zones = pack.zones
        self.counts: Counter[tuple[str, str]] = Counter()

    def __call__(self, event: Event) -> None:
        data = event.data
        if "component" not in data:      # a seat's copy without the item: the full event is counted
            return
        if event.kind is EventKind.MOVED:
            origin, to = data["from"], self.zones[data["to"][0]]
            if origin is not None and self.zones[origin[0]].visibility == "hidden":
                self.counts[(data["component"], "drawn")] += 1
            if to.active and (origin is None or not self.zones[origin[0]].active):
                self.counts[(data["component"], "played")] += 1
        elif event.kind is EventKind.ACTIVATED:
            self.counts[(data["component"], "activated")] += 1


@dataclass
class Report:
    games: list[GameRecord] = field(default_factory=list)
    seconds: float = 0.0
    components: list[str] = field(default_factory=list)
    team: bool = False  # the pack can lose as a team (`scoring.team_loss`): report team wins and losses

    def coverage(self) -> dict[str, dict[str, int]]:
        """Per component id: how often it was drawn from a hidden zone, entered play, and had an action done."""
        total: Counter[tuple[str, str]] = Counter()
        for g in self.games:
            total.update(g.coverage)
        return {cid: {k: total[(cid, k)] for k in ("drawn", "played", "activated")} for cid in self.components}

    def summary(self) -> dict[str, Any]:
        ok = [g for g in self.games if g.error is None]
        scores = [s for g in ok for s in g.scores]
        wins: dict[int, float] = {}
        for g in ok:
            for seat in g.winners:
                wins[seat] = wins.get(seat, 0.0) + 1 / len(g.winners)
        seat_games: dict[int, int] = {}
        for g in ok:
            for seat in range(g.players):
                seat_games[seat] = seat_games.get(seat, 0) + 1
        return {
            "games": len(self.games),
            "errors": len(self.games) - len(ok),
            "replay_mismatches": sum(1 for g in ok if g.replayed is False),
            "replays_checked": sum(1 for g in ok if g.replayed is not None),
            "score": _stats(scores),
            "decisions_per_game": _stats([g.decisions for g in ok]),
            "verdicts": {v.value: round(sum(1 for g in ok if g.verdict == v.value) / len(ok), 3)
                         for v in Verdict} if ok else {},
            "team": {"win": round(sum(1 for g in ok if g.verdict != "team_loss") / len(ok), 3),
                     "loss": round(sum(1 for g in ok if g.verdict == "team_loss") / len(ok), 3)}
            if self.team and ok else None,
            "seat_win_rate": {f"P{s + 1}": round(wins.get(s, 0.0) / n, 3) for s, n in sorted(seat_games.items())},
            "seconds": round(self.seconds, 2),
            "games_per_second": round(len(self.games) / self.seconds, 1) if self.seconds else None,
            "failures": [{"seed": g.seed, "players": g.players, "error": g.error}
                         for g in self.games if g.error is not None or g.replayed is False][:20],
            "coverage": self.coverage(),
            "results": [{"seed": g.seed, "players": g.players, "decisions": g.decisions, "hash": g.hash,
                         "verdict": g.verdict, "error": g.error} for g in self.games],
        }


def _stats(values: list[int]) -> dict[str, float] | None:
    if not values:
        return None
    return {"mean": round(statistics.fmean(values), 2), "min": min(values), "max": max(values)}


def play_one(pack: Pack, players: int, seed: int, options: dict[str, bool], check_replay: bool) -> GameRecord:
    coverage = CoverageCount(pack)
    session = Match(pack, players, seed, options, observers=[coverage])
    try:
        session.run([RandomAgent(seed, s) for s in range(players)])
    except (RuleError, MoveError) as exc:
        return GameRecord(seed, players, [], [], len(session.log), "", error=str(exc))
    outcome = session.outcome()
    record = GameRecord(seed, players, [r.score for r in outcome.results], outcome.winners, outcome.decisions,
                        outcome.hash, verdict=outcome.verdict.value, coverage=coverage.counts)
    if check_replay:
        try:
            again = Match.from_log(pack, session.to_log(), forkable=False, log_forced=False)
            record.replayed = again.done and again.outcome().hash == outcome.hash
        except (RuleError, MoveError) as exc:
            record.replayed = False
            record.error = f"replay: {exc}"
    return record


class Progress:
    """A one-line progress bar on a terminal; silent when output is not a terminal."""

    def __init__(self, total: int, stream: TextIO = sys.stderr) -> None:
        self.total, self.stream = total, stream
        self.enabled = stream.isatty()
        self.start = time.perf_counter()

    def update(self, done: int) -> None:
        if not self.enabled:
            return
        width = 30
        filled = width * done // max(1, self.total)
        rate = done / max(1e-9, time.perf_counter() - self.start)
        self.stream.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{self.total} {rate:.1f} games/s")
        if done == self.total:
            self.stream.write("\n")
        self.stream.flush()


def simulate(pack: Pack, games: int, players: list[int], seed: int, options: dict[str, bool],
             check_replay: bool = True, progress: Progress | None = None) -> Report:
    """Play `games` games, cycling through `players` counts, seeds seed, seed+1, ..."""
    report = Report(components=list(pack.components),
                    team=pack.scoring is not None and pack.scoring.team_loss is not None)
    start = time.perf_counter()
    for i in range(games):
        report.games.append(play_one(pack, players[i % len(players)], seed + i, options, check_replay))
        if progress is not None:
            progress.update(i + 1)
    report.seconds = time.perf_counter() - start
    return report
