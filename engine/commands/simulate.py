"""cogwork simulate: many seeded bot games on every core (or Ray), statistics, a balance report."""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path
from typing import Any

from engine.commands.common import EXIT_FINDINGS, EXIT_OK, UsageError, options, player_counts
from engine.compile.loading import load_pack
from engine.play import parallel
from engine.play.bots import BotSpec, BotSpecError, describe_seats, parse_seats
from engine.play.simulate import GameRecord, Report, write_failures
from engine.report import balance
from engine.report.compare import compare
from engine.runtime.defs import Pack

NAME = "simulate"
HELP = "play many seeded bot games and report statistics"
DESCRIPTION = ("Play N seeded games with bots (random unless --bot says otherwise) on every core (or as Ray tasks);"
               " report scores, game length,"
               " seat win rates, and check that every game replays identically from its log. --report DIR writes"
               " a balance report (HTML with plots, and JSON); --compare BASE MODDED reports what a change did."
               " Exit 1 if any game fails or does not replay, or if the run was interrupted.")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("pack", nargs="?", help="built-in pack name or a pack folder")
    p.add_argument("--games", type=int, default=100, help="number of games (default 100)")
    p.add_argument("--players", help="player counts: N, N-M or N,M (default: all the pack allows, in turn)")
    p.add_argument("--seed", type=int, default=1, help="first seed; game i uses seed+i (default 1)")
    p.add_argument("--option", action="append", metavar="NAME", help="turn on a pack option (repeatable)")
    p.add_argument("--bot", action="append", metavar="SEAT=KIND[:PARAMS]",
                   help="the bot in a seat (1-based; repeatable): random (the default), greedy, or"
                        " mcts[:iterations=N,seconds=S,depth=N,exploration=C,rescale=0|1,epsilon=E,prior=N,"
                        "paired=0|1,settle=0|1]"
                        " (docs/analytics.md \"Bots\")")
    p.add_argument("--no-replay", action="store_true", help="skip the replay check (twice as fast)")
    p.add_argument("--format", choices=["text", "json"], default="text",
                   help="output format (default text; json: the report as one JSON object)")
    p.add_argument("--json", action="store_const", dest="format", const="json", help="same as --format json")
    p.add_argument("--coverage", action="store_true",
                   help="list every component: times drawn, put into play and activated (and which never were)")
    p.add_argument("--workers", type=int, metavar="N",
                   help="processes (or Ray CPUs) to play on (default: every core); the results do not depend on it")
    p.add_argument("--backend", choices=parallel.BACKENDS, default="processes",
                   help="processes on this machine, or Ray tasks (pip install 'cogwork[ray]')")
    p.add_argument("--ray-address", metavar="ADDR",
                   help="a running Ray cluster (e.g. ray://host:10001); default: a local Ray instance")
    p.add_argument("--failures", metavar="DIR", type=Path,
                   help="save each failed game's log (for `cogwork replay`) and error in DIR")
    p.add_argument("--report", metavar="DIR", type=Path,
                   help="write a balance report: DIR/index.html (plots, opens offline) and DIR/report.json")
    p.add_argument("--compare", nargs=2, metavar=("BASE", "MODDED"),
                   help="play two packs on the same seeds and report what changed (instead of PACK)")


def run(args: argparse.Namespace) -> int:
    _check_flags(args)
    if args.compare:
        return _run_compare(args)
    pack = load_pack(args.pack)
    counts = player_counts(args.players, pack)
    report, interrupted = _play(args, args.pack, pack, counts)
    s = report.summary()
    if args.failures is not None:
        saved = write_failures(report.games, args.failures)
        if saved and args.format != "json":
            print(f"saved {len(saved)} failed games in {args.failures} (cogwork replay FILE reproduces each)")
    if args.report is not None:
        from engine.report.html import write

        page = write(_balance(report.games, pack, args, counts, interrupted), args.report)
        if args.format != "json":
            print(f"balance report: {page}")
    if args.format == "json":
        print(json.dumps(s | {"interrupted": interrupted}, indent=1))
    else:
        _print_summary(pack, counts, args, s, report)
        if interrupted:
            print(f"  interrupted: {s['games']} of {s['planned']} games finished")
    return EXIT_FINDINGS if s["errors"] or s["replay_mismatches"] or interrupted else EXIT_OK


def _check_flags(args: argparse.Namespace) -> None:
    """Usage errors before any game runs: flags that contradict each other, extras not installed."""
    if (args.pack is None) == (args.compare is None):
        raise UsageError("simulate takes a PACK, or --compare BASE MODDED")
    if args.games < 1:
        raise UsageError("--games must be at least 1")
    if args.workers is not None and args.workers < 1:
        raise UsageError("--workers must be at least 1")
    if args.ray_address and args.backend != "ray":
        raise UsageError("--ray-address needs --backend ray")
    if args.report is not None and importlib.util.find_spec("matplotlib") is None:
        raise UsageError("--report needs matplotlib: pip install 'cogwork[report]'")
    if args.backend == "ray" and importlib.util.find_spec("ray") is None:
        raise UsageError("--backend ray needs Ray: pip install 'cogwork[ray]'")


def _seats(args: argparse.Namespace, counts: list[int]) -> dict[int, BotSpec]:
    try:
        return parse_seats(args.bot, max(counts))
    except BotSpecError as exc:
        raise UsageError(str(exc)) from None


def _play(args: argparse.Namespace, spec: str, pack: Pack, counts: list[int]) -> tuple[Report, bool]:
    plan = parallel.Plan(spec, args.games, counts, args.seed, options(args.option, pack), not args.no_replay,
                         {seat: str(bot) for seat, bot in _seats(args, counts).items()})
    with _progress_bar(args.games, enabled=args.format != "json") as bar:
        result = parallel.run(plan, args.workers, args.backend, args.ray_address, loaded=pack,
                              progress=(lambda done: bar.update(done - bar.n)) if bar else None)
    report = Report(result.records, result.seconds, list(pack.components), planned=args.games,
                    team=pack.scoring is not None and pack.scoring.team_loss is not None)
    return report, result.interrupted


def _progress_bar(total: int, enabled: bool) -> AbstractContextManager[Any]:
    """tqdm on a terminal; nothing when output is piped or JSON."""
    if not (enabled and sys.stderr.isatty() and sys.stdout.isatty()):
        return nullcontext()
    from tqdm import tqdm

    return tqdm(total=total, unit="game", file=sys.stderr, dynamic_ncols=True)


def _balance(games: list[GameRecord], pack: Pack, args: argparse.Namespace, counts: list[int],
             interrupted: bool = False) -> dict[str, Any]:
    info = balance.PackInfo(pack.id, pack.name, pack.version,
                            {cid: (c.name, c.ctype.id) for cid, c in pack.components.items()})
    run = {"seeds": [args.seed, args.seed + args.games - 1], "players": counts,
           "options": sorted(n for n, on in options(args.option, pack).items() if on),
           "bots": describe_seats(_seats(args, counts))}
    return balance.build(games, info, run, interrupted)


def _run_compare(args: argparse.Namespace) -> int:
    base_spec, modded_spec = args.compare
    base, modded = load_pack(base_spec), load_pack(modded_spec)
    counts = player_counts(args.players, base)
    player_counts(args.players or ",".join(map(str, counts)), modded)   # both packs must allow them
    reports, interrupted = [], False
    for spec, pack in ((base_spec, base), (modded_spec, modded)):
        report, stopped = _play(args, spec, pack, counts)
        reports.append((report, _balance(report.games, pack, args, counts, stopped)))
        interrupted |= stopped
        if stopped:
            break
    if interrupted:
        print(f"interrupted: the comparison needs both runs complete ({len(reports)} of 2 started)")
        return EXIT_FINDINGS
    (base_run, base_report), (modded_run, modded_report) = reports
    if args.failures is not None:
        for (played, _), side in zip(reports, ("base", "modded"), strict=True):
            write_failures(played.games, args.failures / side)
    result = compare(base_report, modded_report, base_run.games, modded_run.games)
    if args.report is not None:
        from engine.report.html import write

        page = write(modded_report, args.report, result)
        if args.format != "json":
            print(f"balance report with the changes: {page}")
    if args.format == "json":
        print(json.dumps(result, indent=1))
    else:
        _print_compare(result, args)
    failed = any(r.summary()["errors"] or r.summary()["replay_mismatches"] for r, _ in reports)
    return EXIT_FINDINGS if failed else EXIT_OK


def _print_compare(result: dict[str, Any], args: argparse.Namespace) -> None:
    b, m = result["base"], result["modded"]
    print(f"{b['name']} {b['version']} -> {m['name']} {m['version']}: {args.games} games each on seeds {args.seed}.."
          f"{args.seed + args.games - 1}; {result['significant']} of {len(result['shifts'])} shifts significant"
          f" at p < 0.05 (about {result['expected_by_chance']} expected by chance alone)")
    for s in result["shifts"]:
        if s["significant"]:
            print(f"  SHIFT {s['what']} {s['where']}: {s['base']} -> {s['modded']}"
                  f" (change {s['change']:+}, 95% CI {s['ci'][0]:+}..{s['ci'][1]:+}, p {s['p']:.3g})")
    if result["new_components"]:
        print(f"  new components: {len(result['new_components'])}")
        for c in result["new_components"]:
            lift = f", lift {c['lift']['value']:+} (95% CI {c['lift']['ci'][0]:+}..{c['lift']['ci'][1]:+})" \
                if c["lift"] else ""
            print(f"    {c['name']}: played {c['played']} times{lift}{' SIGNIFICANT' if c['significant'] else ''}")
    if result["removed_components"]:
        print(f"  removed components: {', '.join(result['removed_components'])}")


def _print_bots(report: Report, counts: list[int]) -> None:
    """Each bot kind's win rate with its 95% interval, beside the fair share, and its mean score."""
    fair = " or ".join(f"{1 / n:.3f}" for n in counts if n > 1)
    for b in balance.bots([g for g in report.games if g.error is None and g.players > 1]):
        w = b["win"]
        print(f"  bot {b['kind']}: win rate {w['rate']:.3f} (95% CI {w['ci'][0]:.3f}..{w['ci'][1]:.3f},"
              f" {b['seat_games']} seat-games; fair share {fair}), mean score {b['score']['mean']}"
              f" [seats {', '.join(b['seats'])}]")


def _print_summary(pack: Pack, counts: list[int], args: argparse.Namespace, s: dict[str, Any],
                   report: Report) -> None:
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
    if args.bot:
        _print_bots(report, counts)
    for f in s["failures"]:
        print(f"  FAILED seed {f['seed']} ({f['players']} players): {f['error']}")
    _print_coverage(s["coverage"], args.coverage)


def _print_coverage(coverage: dict[str, dict[str, int]], full: bool) -> None:
    """Components that were drawn but never entered play deserve a designer's look."""
    drawn_never_played = [cid for cid, c in coverage.items() if c["drawn"] and not c["played"]]
    print(f"  coverage: {sum(1 for c in coverage.values() if c['played'])}/{len(coverage)} components entered play;"
          f" drawn but never played: {', '.join(drawn_never_played) or 'none'}")
    if full:
        print(f"  {'component':<28} {'drawn':>8} {'played':>8} {'activated':>10}")
        for cid, c in sorted(coverage.items(), key=lambda kv: (kv[1]["played"], kv[0])):
            print(f"  {cid:<28} {c['drawn']:>8} {c['played']:>8} {c['activated']:>10}")
