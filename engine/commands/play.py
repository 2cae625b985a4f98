"""cogwork play: a full game with bots and/or people, a log, save and resume."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from engine.commands.common import EXIT_OK, UsageError, options
from engine.play.agents import Agent
from engine.play.bots import BotSpec, BotSpecError, lineup, parse_seats
from engine.play.log import GameLog
from engine.play.match import CHECKPOINT_EVERY, SEARCHED_CHECKPOINT_EVERY, Match, Outcome
from engine.play.rules_text import RulesText, load_with_rules
from engine.play.seat_feed import SeatFeed
from engine.play.table_text import TableText
from engine.play.terminal_player import HumanAgent
from engine.runtime.defs import Pack
from engine.runtime.events import Event, EventKind
from engine.runtime.scoring import Verdict, final_scores

NAME = "play"
HELP = "play a game with bots and/or people"
DESCRIPTION = ("Play a full game. Seats not given to --human are seeded bots: random, or the kind --bot names"
               " (greedy: one step of lookahead on the score; mcts: information-set tree search).")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("pack", nargs="?", help="built-in pack name (see content/) or a path to a pack folder"
                   " (with --resume: use this pack instead of the logged one)")
    p.add_argument("--players", type=int, help="number of players (default: the pack's minimum)")
    p.add_argument("--seed", type=int, default=1, help="random seed for shuffles and bots (default 1)")
    p.add_argument("--option", action="append", metavar="NAME", help="turn on a pack option (repeatable)")
    p.add_argument("--human", type=int, action="append", metavar="SEAT",
                   help="seat (1-based) played at the terminal (repeatable)")
    p.add_argument("--bot", action="append", metavar="SEAT=KIND[:PARAMS]",
                   help="the bot in a seat (1-based; repeatable): random (the default), greedy, or"
                        " mcts[:iterations=N,seconds=S,depth=N,exploration=C,rescale=0|1,epsilon=E,prior=N,"
                        "paired=0|1,settle=0|1]"
                        " (docs/analytics.md \"Bots\")")
    p.add_argument("--log", metavar="FILE", help="write the game log (JSON) here, for replay or resume")
    p.add_argument("--stop-after", type=int, metavar="N", help="stop after N decisions (save with --log)")
    p.add_argument("--resume", metavar="FILE", help="continue a game saved with --stop-after/--log")
    p.add_argument("--quiet", "-q", action="store_true", help="print only the final scores")


def _agents(players: int, seed: int, rules: RulesText, feeds: dict[int, SeatFeed],
            bots: dict[int, BotSpec]) -> list[Agent]:
    """Bots (of the kinds --bot names), and a terminal player for each --human seat (with its event feed)."""
    table = TableText(rules, sys.stdout)
    specs = lineup(bots, players)
    return [HumanAgent(table, feeds[seat]) if seat in feeds else specs[seat].make(seed, seat)
            for seat in range(players)]


def _bots(specs: list[str] | None, players: int, humans: dict[int, SeatFeed]) -> dict[int, BotSpec]:
    try:
        bots = parse_seats(specs, players)
    except BotSpecError as exc:
        raise UsageError(str(exc)) from None
    both = sorted(set(bots) & set(humans))
    if both:
        raise UsageError(f"seat {both[0] + 1} is given to --human and to --bot")
    return bots


def summary_line(session: Match, label: str) -> str:
    parts = []
    with session.game.looking():
        results = final_scores(session.game)
    for r in results:
        detail = ", ".join(f"{k} {v}" for k, v in r.breakdown.items())
        parts.append(f"P{r.seat + 1} {r.score}" + (f" ({detail})" if detail else ""))
    return f"{label}: " + " | ".join(parts)


def print_outcome(pack: Pack, outcome: Outcome) -> None:
    print(f"\nFinal scores ({pack.name}):")
    for r in sorted(outcome.results, key=lambda r: (-r.score, r.seat)):
        detail = ", ".join(f"{k} {v}" for k, v in r.breakdown.items())
        tie = f" tie-break {r.tiebreak}" if r.tiebreak else ""
        rank = f"  rank: {r.rank}" if r.rank else ""
        out = "  (eliminated)" if r.eliminated else ""
        print(f"  P{r.seat + 1}: {r.score}" + (f"  ({detail})" if detail else "") + tie + rank + out)
    names = ", ".join(f"P{s + 1}" for s in outcome.winners)
    if outcome.verdict is Verdict.TEAM_LOSS:
        print("Team loss: every player loses")
    elif outcome.verdict is Verdict.NO_WINNER:
        print("No winner: every player was eliminated")
    elif outcome.verdict is Verdict.DRAW:
        print(f"Winners: {names} (a draw: every player ties)")
    else:
        print(f"Winner{'s' if len(outcome.winners) > 1 else ''}: {names}")
    print(f"{outcome.decisions} decisions, state hash {outcome.hash}")


def _follow_rounds(session: Match) -> None:
    """Print a summary line each time a flow `repeat` starts its next pass (an observer of the match)."""
    def on_round(event: Event) -> None:
        if event.kind is EventKind.ROUND_STARTED and event.data["round"] > 1:
            print(summary_line(session, f"After round {event.data['round'] - 1}"))
    session.subscribe(on_round)


def run(args: argparse.Namespace) -> int:
    resume = GameLog.read(Path(args.resume)) if args.resume else None
    spec = args.pack or (resume.pack_spec() if resume else None)
    if spec is None:
        raise UsageError("play needs a PACK (or --resume FILE)")
    pack, rules = load_with_rules(spec)
    players = resume.players if resume else (pack.min_players if args.players is None else args.players)
    seed = resume.seed if resume else args.seed
    feeds = {seat - 1: SeatFeed(seat - 1) for seat in args.human or [] if 1 <= seat <= players}
    bots = _bots(args.bot, players, feeds)
    agents = _agents(players, seed, rules, feeds, bots)
    logged = bool(args.log)   # a saved log lists the decisions taken without asking too
    searching = any(spec.searches for spec in bots.values())   # their looks ahead start from forks
    every = SEARCHED_CHECKPOINT_EVERY if searching else CHECKPOINT_EVERY
    if resume:
        session = Match.from_log(pack, resume, agents, forkable=searching, log_forced=logged, checkpoint_every=every)
        for feed in feeds.values():   # news from the resumed point on
            session.subscribe(feed)
    else:
        session = Match(pack, players, seed, options(args.option, pack), log_forced=logged,
                        observers=feeds.values(), forkable=searching, checkpoint_every=every)
    if not args.quiet:
        print(f"{pack.name} {pack.version}: {players} players, seed {seed}")
        _follow_rounds(session)
    session.run(agents, stop_after=args.stop_after)
    if args.log:
        session.to_log().write(Path(args.log))
    if not session.done:
        hint = f"cogwork play --resume {args.log}" if args.log else "add --log FILE to save it"
        print(f"stopped after {len(session.log)} decisions; continue with: {hint}")
        return EXIT_OK
    if not args.quiet:
        print(summary_line(session, "End of game"))
    print_outcome(pack, session.outcome())
    return EXIT_OK
