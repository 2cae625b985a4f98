"""Many seeded bot games (random bots unless told otherwise): the designer's statistics and the soak test.

Every game can also be replayed from its own log (`check_replay`), which is
how "random games finish and replay identically" is measured. A game's record
is plain data (numbers, strings, lists, dicts), so it crosses process and
machine boundaries unchanged (see `engine.play.parallel`).
"""

from __future__ import annotations

import json
import statistics
import time
import traceback
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.errors import RuleError
from engine.play.agents import ScriptedAgent
from engine.play.bots import BotSpec, lineup
from engine.play.log import GameLog
from engine.play.match import CHECKPOINT_EVERY, SEARCHED_CHECKPOINT_EVERY, Match, Outcome
from engine.runtime.defs import Pack
from engine.runtime.events import Event, EventKind
from engine.runtime.scoring import Verdict

COVERAGE_KINDS = ("drawn", "played", "activated")


@dataclass
class GameRecord:
    """One game's result; `coverage` maps (component id, kind, seat or None) to times."""

    seed: int
    players: int
    scores: list[int]
    winners: list[int]
    decisions: int
    hash: str
    verdict: str = "win"
    replayed: bool | None = None
    error: str | None = None
    coverage: Counter[tuple[str, str, int | None]] = field(default_factory=Counter)
    rounds: int = 0
    ranks: list[str | None] = field(default_factory=list)
    bots: list[str] = field(default_factory=list)
    log: dict[str, Any] | None = None      # the game's log, kept only when the game failed
    trace: str | None = None               # the Python traceback of an error that is not a rule error

    @property
    def failed(self) -> bool:
        return self.error is not None or self.replayed is False


class CoverageCount:
    """An observer counting, per component and seat, draws from hidden zones, entries into play and actions done.

    A draw is a move out of a hidden zone into one somebody sees: a card the rules set aside unseen (removed at
    this player count, burned, shuffled into another deck) was not drawn, so it is not reported as "drawn but
    never played".

    The seat: who drew it (the zone it went to), who played it (that zone's owner, else the acting seat), who
    used it (the acting seat).
    """

    event_kinds = frozenset((EventKind.MOVED, EventKind.ACTIVATED))   # all it reads: the match makes no other event
    reads_audience = False     # the whole events alone (who may see them is not worked out: engine/runtime/events.py)

    def __init__(self, pack: Pack) -> None:
        self.zones = pack.zones
        self.counts: Counter[tuple[str, str, int | None]] = Counter()

    def __call__(self, event: Event) -> None:
        data = event.data
        if "component" not in data:      # a seat's copy without the item: the full event is counted
            return
        if event.kind is EventKind.MOVED:
            origin, (to_id, owner) = data["from"], data["to"]
            if (origin is not None and self.zones[origin[0]].visibility == "hidden"
                    and self.zones[to_id].visibility != "hidden"):   # hidden to hidden: set aside unseen, not drawn
                self.counts[(data["component"], "drawn", owner)] += 1
            if self.zones[to_id].active and (origin is None or not self.zones[origin[0]].active):
                self.counts[(data["component"], "played", owner if owner is not None else event.seat)] += 1
        elif event.kind is EventKind.ACTIVATED:
            self.counts[(data["component"], "activated", event.seat)] += 1


@dataclass
class Report:
    games: list[GameRecord] = field(default_factory=list)
    seconds: float = 0.0
    components: list[str] = field(default_factory=list)
    planned: int = 0           # games asked for; more than len(games) when the run was interrupted
    team: bool = False  # the pack can lose as a team (`scoring.team_loss`): report team wins and losses

    def coverage(self) -> dict[str, dict[str, int]]:
        """Per component id: how often it was drawn from a hidden zone, entered play, and had an action done."""
        total: Counter[tuple[str, str]] = Counter()
        for g in self.games:
            for (cid, kind, _seat), n in g.coverage.items():
                total[(cid, kind)] += n
        return {cid: {k: total[(cid, k)] for k in COVERAGE_KINDS} for cid in self.components}

    def summary(self) -> dict[str, Any]:
        """Everything but `seconds` and `games_per_second` depends only on the games (not on how they ran)."""
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
            "planned": max(self.planned, len(self.games)),
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
            "failures": [{"seed": g.seed, "players": g.players, "error": g.error or "replay: final state differs"}
                         for g in self.games if g.failed][:20],
            "coverage": self.coverage(),
            "results": [{"seed": g.seed, "players": g.players, "decisions": g.decisions, "hash": g.hash,
                         "verdict": g.verdict, "error": g.error} for g in self.games],
        }


def _stats(values: list[int]) -> dict[str, float] | None:
    if not values:
        return None
    return {"mean": round(statistics.fmean(values), 2), "min": min(values), "max": max(values)}


def play_one(pack: Pack, players: int, seed: int, options: dict[str, bool], check_replay: bool,
             seats: dict[int, BotSpec] | None = None) -> GameRecord:
    """Play one game (`seats`: the bot of each seat named, random elsewhere); any error (a rule error or an
    engine fault) becomes the record's `error`."""
    specs = lineup(seats or {}, players)
    bots = [str(spec) for spec in specs]
    searching = any(spec.searches for spec in specs)
    played = None if searching else _played_through(pack, players, seed, options, specs)
    if played is not None:
        session, outcome, coverage = played
    else:   # a searching bot, or a game that failed: played with a match it can fork, or that keeps the failure
        coverage = CoverageCount(pack)
        try:   # a bot that looks ahead starts each look from a fork: checkpoints make those cheap
            session = Match(pack, players, seed, options, observers=[coverage], forkable=searching,
                            checkpoint_every=SEARCHED_CHECKPOINT_EVERY if searching else CHECKPOINT_EVERY)
        except Exception as exc:
            return _failed(GameRecord(seed, players, [], [], 0, "", bots=bots), exc, None, pack, players, seed,
                           options)
        try:
            session.run([spec.make(seed, seat) for seat, spec in enumerate(specs)])
            outcome = session.outcome()
        except Exception as exc:
            record = GameRecord(seed, players, [], [], len(session.log), "", coverage=coverage.counts, bots=bots)
            return _failed(record, exc, session, pack, players, seed, options)
    game = session.game
    record = GameRecord(seed, players, [r.score for r in outcome.results], outcome.winners, outcome.decisions,
                        outcome.hash, verdict=outcome.verdict.value, coverage=coverage.counts,
                        rounds=game.state.rounds, ranks=[r.rank for r in outcome.results], bots=bots)
    if check_replay and not _replays_through(pack, session, outcome.hash, options):
        try:   # not shown so: replayed from its written log the paused way, which words a failure as always
            again = Match.from_log(pack, session.to_log(), forkable=False, log_forced=False)
            record.replayed = again.done and again.outcome().hash == outcome.hash
        except Exception as exc:
            record.replayed = False
            record.error = f"replay: {_describe(exc)}"
        if record.failed:
            record.log = session.to_log().to_json()
    elif check_replay:
        record.replayed = True
    session.release()   # (recorded: freed at once, not by the garbage collector)
    return record


def _replays_through(pack: Pack, session: Match, expected: str, options: dict[str, bool]) -> bool:
    """Whether the game's answers, given by their labels (what its log holds), play the same game again:
    played through (`Match.played`, each seat's labels in order, no paused flow), every label used, the same
    final hash. False when that does not show it (an error, a label left over or missing, another hash):
    the caller then replays the written log as before, which gives such a game its usual record."""
    scripts = [ScriptedAgent([]) for _ in session.game.state.players]
    for answer in session.log:
        scripts[answer.seat].labels.append(answer.label)
    try:
        again = Match.played(pack, len(scripts), session.game.seed, list(scripts), options)
        same = not any(script.labels for script in scripts) and again.outcome().hash == expected
        again.release()
        return same
    except Exception:
        return False


def _played_through(pack: Pack, players: int, seed: int, options: dict[str, bool],
                    specs: list[BotSpec]) -> tuple[Match, Outcome, CoverageCount] | None:
    """The game played through in place (`Match.played`, no paused flow), its outcome and coverage; None when
    it fails (the caller plays it again with a match that stops where it failed, for the record)."""
    coverage = CoverageCount(pack)
    try:
        session = Match.played(pack, players, seed, [spec.make(seed, seat) for seat, spec in enumerate(specs)],
                               options, observers=[coverage])
        return session, session.outcome(), coverage
    except Exception:
        return None


def _failed(record: GameRecord, exc: Exception, session: Match | None, pack: Pack, players: int, seed: int,
            options: dict[str, bool]) -> GameRecord:
    record.error = _describe(exc)
    if not isinstance(exc, RuleError):
        record.trace = "".join(traceback.format_exception(exc))
    if session is not None:
        record.log = session.to_log().to_json()
    else:   # failed while setting up: the log has no answers, replaying it sets up again
        record.log = GameLog(pack=pack.id, version=pack.version, players=players, seed=seed,
                             options={k: v for k, v in options.items() if v}, pack_path=pack.root).to_json()
    return record


def _describe(exc: Exception) -> str:
    return str(exc) if isinstance(exc, RuleError) else f"{type(exc).__name__}: {exc}"


def simulate(pack: Pack, games: int, players: list[int], seed: int, options: dict[str, bool],
             check_replay: bool = True, seats: dict[int, BotSpec] | None = None) -> Report:
    """Play `games` games in this process, cycling through `players` counts, seeds seed, seed+1, ..."""
    report = Report(components=list(pack.components), planned=games,
                    team=pack.scoring is not None and pack.scoring.team_loss is not None)
    start = time.perf_counter()
    for i in range(games):
        report.games.append(play_one(pack, players[i % len(players)], seed + i, options, check_replay, seats))
    report.seconds = time.perf_counter() - start
    return report


def write_failures(records: list[GameRecord], folder: Path) -> list[Path]:
    """Each failed game's log (replayable with `cogwork replay`) and its error next to it; the log paths."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for g in records:
        if not g.failed or g.log is None:
            continue
        stem = folder / f"seed-{g.seed}-{g.players}p"
        stem.with_suffix(".json").write_text(json.dumps(g.log, indent=1))
        stem.with_suffix(".txt").write_text(
            f"seed {g.seed}, {g.players} players, {g.decisions} decisions answered\n"
            f"error: {g.error or 'replay: final state differs'}\n"
            f"reproduce: cogwork replay {stem.with_suffix('.json')}\n" + (f"\n{g.trace}" if g.trace else ""))
        written.append(stem.with_suffix(".json"))
    return written
