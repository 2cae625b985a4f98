"""cogwork simulate: many seeded random-bot games, statistics, and a replay check of each."""

from __future__ import annotations

import argparse
import json

from engine.commands.common import EXIT_FINDINGS, EXIT_OK, options, player_counts
from engine.compile.loading import load_pack
from engine.play.simulate import Progress, simulate

NAME = "simulate"
HELP = "play many seeded random-bot games and report statistics"
DESCRIPTION = ("Play N seeded games with random bots; report scores, game length, seat win rates, and check that"
               " every game replays identically from its log. Exit 1 if any game fails or does not replay.")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("pack", help="built-in pack name or a pack folder")
    p.add_argument("--games", type=int, default=100, help="number of games (default 100)")
    p.add_argument("--players", help="player counts: N, N-M or N,M (default: all the pack allows, in turn)")
    p.add_argument("--seed", type=int, default=1, help="first seed; game i uses seed+i (default 1)")
    p.add_argument("--option", action="append", metavar="NAME", help="turn on a pack option (repeatable)")
    p.add_argument("--no-replay", action="store_true", help="skip the replay check (twice as fast)")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.add_argument("--coverage", action="store_true",
                   help="list every component: times drawn, put into play and activated (and which never were)")


def run(args: argparse.Namespace) -> int:
    pack = load_pack(args.pack)
    counts = player_counts(args.players, pack)
    progress = None if args.json else Progress(args.games)
    report = simulate(pack, args.games, counts, args.seed, options(args.option, pack), not args.no_replay, progress)
    s = report.summary()
    if args.json:
        print(json.dumps(s, indent=1))
    else:
        print(f"{pack.name}: {s['games']} games ({', '.join(map(str, counts))} players), seeds {args.seed}.."
              f"{args.seed + args.games - 1}, {s['seconds']} s ({s['games_per_second']} games/s)")
        print(f"  errors: {s['errors']}; replays checked: {s['replays_checked']}, mismatches: {s['replay_mismatches']}")
        if s["score"]:
            print(f"  score: mean {s['score']['mean']}, min {s['score']['min']}, max {s['score']['max']}")
            d = s["decisions_per_game"]
            print(f"  decisions per game: mean {d['mean']}, min {d['min']}, max {d['max']}")
        print("  outcomes: " + ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in s["verdicts"].items() if v))
        if s["team"]:
            print(f"  team: win {s['team']['win']}, loss {s['team']['loss']} (a team win is then scored per player)")
        print("  seat win rate: " + ", ".join(f"{k} {v}" for k, v in s["seat_win_rate"].items()))
        for f in s["failures"]:
            print(f"  FAILED seed {f['seed']} ({f['players']} players): {f['error']}")
        _print_coverage(s["coverage"], args.coverage)
    return EXIT_FINDINGS if s["errors"] or s["replay_mismatches"] else EXIT_OK


def _print_coverage(coverage: dict[str, dict[str, int]], full: bool) -> None:
    """Components that were drawn but never entered play deserve a designer's look."""
    drawn_never_played = [cid for cid, c in coverage.items() if c["drawn"] and not c["played"]]
    print(f"  coverage: {sum(1 for c in coverage.values() if c['played'])}/{len(coverage)} components entered play;"
          f" drawn but never played: {', '.join(drawn_never_played) or 'none'}")
    if full:
        print(f"  {'component':<28} {'drawn':>8} {'played':>8} {'activated':>10}")
        for cid, c in sorted(coverage.items(), key=lambda kv: (kv[1]["played"], kv[0])):
            print(f"  {cid:<28} {c['drawn']:>8} {c['played']:>8} {c['activated']:>10}")
