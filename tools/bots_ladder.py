"""How strong the bots are: seeded games between two bot kinds, with 95% intervals and decision times.

    python tools/bots_ladder.py [--pack robot-factory:2] [--pairing mcts/random] [--games 100] [--json] [--progress]

A pairing `A/B` (two bot specs as for `--bot`, e.g. `mcts:iterations=50,depth=40/random`) seats A in one
seat and B in every other; game i uses seed `--seed + i` and puts A in seat i mod players, so every seat gets its share
(first-player advantage cancels out). For each pack and pairing it prints A's win rate (a shared win counts
its share) with its Wilson 95% interval and the fair share 1/players, A's mean score against the mean of
B's seats with the difference's 95% interval, and the CPU time a decision takes for each kind (process
time around `choose`, so other programs on the machine do not inflate it).

Default packs: robot-factory (2 players) and raising-robots (4); default pairings: greedy/random,
mcts/random, mcts/greedy. Ctrl-C prints the games finished so far (marked `interrupted`) and exits 1.
Exit 0 when every pairing ran, 2 for a bad pack, spec or count. No pass/fail against a target: the
numbers are for quoting (docs/analytics.md "Bots").
"""

from __future__ import annotations

import argparse
import contextlib
import json
import signal
import statistics
import sys
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.compile.loading import load_pack  # noqa: E402
from engine.errors import CogworkError  # noqa: E402
from engine.play.agents import Agent  # noqa: E402
from engine.play.bots import BotSpec  # noqa: E402
from engine.play.match import SEARCHED_CHECKPOINT_EVERY, Match  # noqa: E402
from engine.report.stats import mean_difference, wilson  # noqa: E402
from engine.runtime.decision import Decision  # noqa: E402

PACKS = ["robot-factory:2", "raising-robots:4"]
PAIRINGS = ["greedy/random", "mcts/random", "mcts/greedy"]


class _Timed:
    """An agent whose `choose` calls are timed in CPU seconds (a searching one stays a `Searcher`)."""

    def __init__(self, agent: Agent, clock: _Clock) -> None:
        self.agent, self.clock = agent, clock

    def bind(self, match: Match) -> None:
        bind = getattr(self.agent, "bind", None)
        if callable(bind):
            bind(match)

    def choose(self, view: Mapping[str, Any], decision: Decision) -> int:
        start = time.process_time()
        index = self.agent.choose(view, decision)
        self.clock.seconds += time.process_time() - start
        self.clock.decisions += 1
        return index

    def observe(self, decision: Decision, index: int) -> None:
        self.agent.observe(decision, index)


@dataclass
class _Clock:
    seconds: float = 0.0
    decisions: int = 0

    def ms(self) -> float:
        return 1000 * self.seconds / self.decisions if self.decisions else 0.0


@dataclass
class Pairing:
    """Games of bot `a` (one seat) against bot `b` (every other seat)."""

    pack: str
    players: int
    a: BotSpec
    b: BotSpec
    wins: float = 0.0
    games: int = 0
    a_scores: list[float] = field(default_factory=list)
    b_scores: list[float] = field(default_factory=list)   # the mean of B's seats, per game
    clocks: tuple[_Clock, _Clock] = field(default_factory=lambda: (_Clock(), _Clock()))
    game_seconds: float = 0.0

    def play(self, pack: Any, seed: int, game: int) -> float:
        """Play game `game` (seed `seed`); A's share of the win."""
        seat_a = game % self.players
        specs = [self.a if seat == seat_a else self.b for seat in range(self.players)]
        agents: list[Agent] = [_Timed(spec.make(seed, seat), self.clocks[0 if seat == seat_a else 1])
                               for seat, spec in enumerate(specs)]
        start = time.process_time()
        match = Match(pack, self.players, seed, forkable=True, checkpoint_every=SEARCHED_CHECKPOINT_EVERY)
        match.run(agents)
        outcome = match.outcome(digest=False)
        self.game_seconds += time.process_time() - start
        share = 1 / len(outcome.winners) if seat_a in outcome.winners else 0.0
        self.wins += share
        scores = [r.score for r in outcome.results]
        self.a_scores.append(scores[seat_a])
        self.b_scores.append(statistics.fmean(s for seat, s in enumerate(scores) if seat != seat_a))
        self.games += 1
        return share

    def summary(self) -> dict[str, Any]:
        low, high = wilson(self.wins, self.games)
        diff = mean_difference(self.a_scores, self.b_scores)
        return {
            "pack": self.pack, "players": self.players, "a": str(self.a), "b": str(self.b), "games": self.games,
            "a_win_rate": round(self.wins / self.games, 3) if self.games else None,
            "a_win_ci": [round(low, 3), round(high, 3)], "fair_share": round(1 / self.players, 3),
            "a_mean_score": round(statistics.fmean(self.a_scores), 2) if self.a_scores else None,
            "b_mean_score": round(statistics.fmean(self.b_scores), 2) if self.b_scores else None,
            "score_difference": diff,
            "a_decision_ms": round(self.clocks[0].ms(), 3), "a_decisions": self.clocks[0].decisions,
            "b_decision_ms": round(self.clocks[1].ms(), 3), "b_decisions": self.clocks[1].decisions,
            "cpu_seconds_per_game": round(self.game_seconds / self.games, 2) if self.games else None,
        }


def line(s: dict[str, Any]) -> str:
    diff = s["score_difference"]
    gap = "" if diff is None else \
        f" (difference {diff['value']:+.2f}, 95% CI {diff['ci'][0]:+.2f}..{diff['ci'][1]:+.2f})"
    return (f"{s['pack']} {s['players']}p  {s['a']} vs {s['b']}: {s['a']} wins {s['a_win_rate']}"
            f" (95% CI {s['a_win_ci'][0]}..{s['a_win_ci'][1]}, {s['games']} games; fair share {s['fair_share']});"
            f" mean score {s['a_mean_score']} vs {s['b_mean_score']}{gap};"
            f" decision CPU {s['a']} {s['a_decision_ms']} ms ({s['a_decisions']}), {s['b']} {s['b_decision_ms']} ms"
            f" ({s['b_decisions']}); {s['cpu_seconds_per_game']} CPU s a game")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--pack", action="append", metavar="NAME:PLAYERS", help=f"(repeatable; default {PACKS})")
    p.add_argument("--pairing", action="append", metavar="A/B", help=f"(repeatable; default {PAIRINGS})")
    p.add_argument("--games", type=int, default=100, help="games per pack and pairing (default 100)")
    p.add_argument("--seed", type=int, default=1, help="first seed (default 1)")
    p.add_argument("--from-game", type=int, default=0, metavar="I",
                   help="start at game I (seed + I, A in seat I mod players): the rest of an interrupted run")
    p.add_argument("--json", action="store_true", help="one JSON object per pairing instead of a line")
    p.add_argument("--progress", action="store_true",
                   help="a line on stderr after each game (its index, seed and A's share of the win)")
    args = p.parse_args(argv)
    try:
        if not 0 <= args.from_game < args.games:
            raise CogworkError("--games must be 1 or more, and --from-game below it")
        packs = [_pack_players(text) for text in args.pack or PACKS]
        pairings = [tuple(BotSpec.parse(part) for part in _two(text)) for text in args.pairing or PAIRINGS]
        loaded = {name: load_pack(name) for name, _ in packs}
    except CogworkError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    for name, players in packs:
        for a, b in pairings:
            pairing = Pairing(name, players, a, b)
            try:
                with _interruptible():
                    for game in range(args.from_game, args.games):
                        share = pairing.play(loaded[name], args.seed + game, game)
                        if args.progress:
                            print(f"game {game} seed {args.seed + game}: {pairing.a} {share:g}"
                                  f" ({pairing.wins:g} of {pairing.games})", file=sys.stderr, flush=True)
            except KeyboardInterrupt:
                if pairing.games:
                    _show(pairing, args.json, interrupted=True)
                print(f"interrupted: {pairing.games} of {args.games - args.from_game} games of this pairing finished",
                      flush=True)
                return 1
            _show(pairing, args.json)
    return 0


@contextlib.contextmanager
def _interruptible() -> Iterator[None]:
    """Ctrl-C and `kill` (SIGINT, SIGTERM) stop the ladder with the summary of the games played, also when
    it runs in the background, where a shell starts it with SIGINT ignored. The old handlers come back after."""
    def stop(signum: int, frame: object) -> None:
        raise KeyboardInterrupt
    old = {sig: signal.signal(sig, stop) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for sig, handler in old.items():
            signal.signal(sig, handler)


def _show(pairing: Pairing, as_json: bool, interrupted: bool = False) -> None:
    s = pairing.summary() | ({"interrupted": True} if interrupted else {})
    print(json.dumps(s) if as_json else line(s) + ("  [interrupted]" if interrupted else ""), flush=True)


def _pack_players(text: str) -> tuple[str, int]:
    name, _, players = text.partition(":")
    if not players.isdigit():
        raise CogworkError(f"--pack '{text}': give NAME:PLAYERS, e.g. robot-factory:2")
    return name, int(players)


def _two(text: str) -> list[str]:
    parts = text.split("/")
    if len(parts) != 2:
        raise CogworkError(f"--pairing '{text}': give A/B, e.g. mcts:iterations=50/random")
    return parts


if __name__ == "__main__":
    sys.exit(main())
