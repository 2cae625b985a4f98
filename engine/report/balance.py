"""From game records to the balance report's data (`report.json`): what a designer looks at.

Win rates are per player count (a seat's chance depends on how many play), with the fair share 1/n
beside them, so a first-player advantage shows at a glance. A shared victory (or a draw) counts 1/k
to each of the k winners; a team loss counts nothing to anyone. Solo games have no opponent, so they
report score, rank bands and verdicts (a team loss is a solo loss), not seat win rates.

A component's link with winning is measured on seat-games of multiplayer games: the mean "win
share above the fair share" (win share - 1/n) of seats that played it minus that of seats that
did not, with a 95% interval. It is an association, not a cause (a seat that plays more cards may
be winning anyway), and with many components some intervals miss 0 by chance: `significant` uses a
Bonferroni bound over the components tested.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

from engine.play.simulate import COVERAGE_KINDS, GameRecord
from engine.report.stats import describe, histogram, mean_difference, two_sided_p, wilson
from engine.runtime.scoring import Verdict

ALPHA = 0.05
MIN_GROUP = 5        # seat-games on each side before a component's lift is estimated


@dataclass
class PackInfo:
    """What the report names: the pack and each component's display name and type."""

    id: str
    name: str
    version: str
    components: dict[str, tuple[str, str]]      # id -> (name, type id)


def build(records: list[GameRecord], pack: PackInfo, run: dict[str, Any], interrupted: bool = False
          ) -> dict[str, Any]:
    """The whole report as JSON-ready data; `run` says how the games were made (the seeds planned, options,
    bots). A run cut short (Ctrl-C) says so: `run.interrupted`, and its `seeds` are the ones played."""
    ok = [g for g in records if g.error is None]
    multi = [g for g in ok if g.players > 1]
    return {
        "pack": {"id": pack.id, "name": pack.name, "version": pack.version},
        "run": run | played_seeds(records, run["seeds"], interrupted)
               | {"games": len(records), "errors": len(records) - len(ok),
                  "replay_mismatches": sum(1 for g in ok if g.replayed is False)},
        "by_players": [_player_count(n, [g for g in ok if g.players == n])
                       for n in sorted({g.players for g in ok})],
        "length": {"decisions": describe([g.decisions for g in ok]), "rounds": describe([g.rounds for g in ok]),
                   "histogram": histogram([g.decisions for g in ok])},
        "verdicts": _verdicts(ok),
        "components": components(multi, pack),
        "bots": bots(multi),
    }


def played_seeds(records: list[GameRecord], planned: list[int], interrupted: bool) -> dict[str, Any]:
    """`seeds`: the first and last seed played (the planned range when the run finished); an interrupted
    run adds `planned` (the range asked for) and `seeds_skipped`, the ranges between its first and last
    seed that no game played (workers finish their chunks in any order), so every seed in `seeds` not
    listed there was played. `seeds` is empty when no game finished."""
    if not interrupted:
        return {"seeds": list(planned), "interrupted": False}
    seeds = sorted(g.seed for g in records)
    skipped = [[a + 1, b - 1] for a, b in pairwise(seeds) if b - a > 1]
    return {"seeds": [seeds[0], seeds[-1]] if seeds else [], "interrupted": True, "planned": list(planned),
            "seeds_skipped": skipped}


def _rate(k: float, n: int) -> dict[str, Any]:
    lo, hi = wilson(k, n)
    return {"rate": round(k / n, 4) if n else None, "ci": [round(lo, 4), round(hi, 4)], "n": n}


def _verdicts(games: list[GameRecord]) -> dict[str, dict[str, Any]]:
    """How games ended (one winner, a shared win, a draw, a team loss, no winner), each rate with its interval."""
    return {v.value: _rate(sum(1 for g in games if g.verdict == v.value), len(games)) for v in Verdict}


def _win_shares(g: GameRecord) -> list[float]:
    return [1 / len(g.winners) if seat in g.winners else 0.0 for seat in range(g.players)]


def _player_count(n: int, games: list[GameRecord]) -> dict[str, Any]:
    seats = []
    for seat in range(n):
        scores = [g.scores[seat] for g in games]
        entry: dict[str, Any] = {"seat": seat + 1, "score": describe(scores),
                                 "score_histogram": histogram(scores, bins=15)}
        if n > 1:
            wins = sum(_win_shares(g)[seat] for g in games)
            entry["win"] = _rate(wins, len(games))
        seats.append(entry)
    out: dict[str, Any] = {"players": n, "games": len(games), "fair_share": round(1 / n, 4), "seats": seats,
                           "verdicts": _verdicts(games),
                           "length": {"decisions": describe([g.decisions for g in games]),
                                      "rounds": describe([g.rounds for g in games])}}
    if n > 1 and games:
        first = seats[0]["win"]["rate"]
        x = sum(_win_shares(g)[0] for g in games)
        se = (first * (1 - first) / len(games)) ** 0.5
        z = (first - 1 / n) / se if se else 0.0
        out["first_player_advantage"] = {"win_rate": first, "fair_share": round(1 / n, 4),
                                         "difference": round(x / len(games) - 1 / n, 4),
                                         "p": two_sided_p(z), "significant": two_sided_p(z) < ALPHA}
    ranks = Counter(g.ranks[0] for g in games if n == 1 and g.ranks and g.ranks[0])
    if ranks:
        out["ranks"] = dict(sorted(ranks.items(), key=lambda kv: -kv[1]))
    return out


def components(games: list[GameRecord], pack: PackInfo) -> list[dict[str, Any]]:
    """Per component: totals, how many games saw it drawn/played, and its win-share lift; outliers first."""
    totals: Counter[tuple[str, str]] = Counter()
    games_with: Counter[tuple[str, str]] = Counter()
    played_by: defaultdict[str, list[float]] = defaultdict(list)    # excess win share of seats that played it
    seat_games: list[tuple[float, set[str]]] = []
    for g in games:
        shares = _win_shares(g)
        per_seat: defaultdict[int, set[str]] = defaultdict(set)
        seen: set[tuple[str, str]] = set()
        for (cid, kind, seat), times in g.coverage.items():
            totals[(cid, kind)] += times
            seen.add((cid, kind))
            if kind == "played" and seat is not None:
                per_seat[seat].add(cid)
        games_with.update(seen)
        for seat in range(g.players):
            excess = shares[seat] - 1 / g.players
            seat_games.append((excess, per_seat[seat]))
            for cid in per_seat[seat]:
                played_by[cid].append(excess)
    rows: list[dict[str, Any]] = []
    for cid, (name, ctype) in pack.components.items():
        with_it = played_by.get(cid, [])
        without = [e for e, played in seat_games if cid not in played] if len(with_it) >= MIN_GROUP else []
        lift = mean_difference(with_it, without) if len(without) >= MIN_GROUP else None
        rows.append({"id": cid, "name": name, "type": ctype,
                     **{kind: totals[(cid, kind)] for kind in COVERAGE_KINDS},
                     "games_drawn": round(games_with[(cid, "drawn")] / len(games), 4) if games else 0.0,
                     "games_played": round(games_with[(cid, "played")] / len(games), 4) if games else 0.0,
                     "seat_games_played": len(with_it), "lift": lift})
    tested = sum(1 for r in rows if r["lift"] is not None)
    for r in rows:
        r["significant"] = r["lift"] is not None and r["lift"]["p"] < ALPHA / max(1, tested)
    rows.sort(key=lambda r: (r["lift"] is None, -_strength(r["lift"]), r["id"]))
    return rows


def _strength(lift: dict[str, Any] | None) -> float:
    """|z| of a lift; a difference between two constant groups (no z) counts as the strongest."""
    if lift is None:
        return 0.0
    return float("inf") if lift["z"] is None else abs(lift["z"])


def bots(games: list[GameRecord]) -> list[dict[str, Any]]:
    """Each bot kind over every seat it held (listed in `seats`): win rate, win share above the fair share,
    mean score."""
    wins: defaultdict[str, float] = defaultdict(float)
    excess: defaultdict[str, list[float]] = defaultdict(list)
    scores: defaultdict[str, list[int]] = defaultdict(list)
    seats: defaultdict[str, set[int]] = defaultdict(set)
    for g in games:
        shares = _win_shares(g)
        for seat, kind in enumerate(g.bots):
            wins[kind] += shares[seat]
            excess[kind].append(shares[seat] - 1 / g.players)
            scores[kind].append(g.scores[seat])
            seats[kind].add(seat)
    return [{"kind": kind, "seats": [f"P{seat + 1}" for seat in sorted(seats[kind])],
             "seat_games": len(excess[kind]), "win": _rate(wins[kind], len(excess[kind])),
             "excess_win_share": round(sum(excess[kind]) / len(excess[kind]), 4),
             "score": describe(scores[kind])} for kind in sorted(excess)]
