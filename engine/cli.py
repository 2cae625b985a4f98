"""The `cogwork` command line.

Exit codes follow the usual convention: 0 success, 1 findings (a failed
replay or scenario), 2 usage errors or broken input (a pack that does not
load, a rule that cannot be carried out).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from engine import __version__
from engine.agents import Agent, HumanAgent, RandomAgent
from engine.diagnostics import PackError
from engine.errors import RuleError
from engine.loading import load_pack
from engine.pack import Pack
from engine.scoring import final_scores
from engine.session import Outcome, Session

EXIT_OK, EXIT_FINDINGS, EXIT_BROKEN = 0, 1, 2


def _options(names: list[str] | None) -> dict[str, bool]:
    return {n: True for n in names or []}


def _agents(players: int, seed: int, human: list[int]) -> list[Agent]:
    return [HumanAgent() if seat + 1 in human else RandomAgent(seed, seat) for seat in range(players)]


def _summary_line(session: Session, label: str) -> str:
    parts = []
    for r in final_scores(session.game):
        detail = ", ".join(f"{k} {v}" for k, v in r.breakdown.items())
        parts.append(f"P{r.seat + 1} {r.score}" + (f" ({detail})" if detail else ""))
    return f"{label}: " + " | ".join(parts)


def _print_outcome(pack: Pack, outcome: Outcome) -> None:
    print(f"\nFinal scores ({pack.name}):")
    for r in sorted(outcome.results, key=lambda r: (-r.score, r.seat)):
        detail = ", ".join(f"{k} {v}" for k, v in r.breakdown.items())
        tie = f" tie-break {r.tiebreak}" if r.tiebreak else ""
        print(f"  P{r.seat + 1}: {r.score}" + (f"  ({detail})" if detail else "") + tie)
    names = ", ".join(f"P{s + 1}" for s in outcome.winners)
    print(f"Winner{'s' if len(outcome.winners) > 1 else ''}: {names}")
    print(f"{outcome.decisions} decisions, state hash {outcome.hash}")


def cmd_play(args: argparse.Namespace) -> int:
    resume = json.loads(Path(args.resume).read_text()) if args.resume else None
    spec = resume["pack"] if resume else args.pack
    if spec is None:
        raise UsageError("play needs a PACK (or --resume FILE)")
    pack = load_pack(spec)
    players = resume["players"] if resume else (args.players or pack.min_players)
    seed = resume["seed"] if resume else args.seed
    options = resume["options"] if resume else _options(args.option)
    session = Session(pack, players, seed, options)
    agents = _agents(players, seed, args.human or [])
    if resume:
        session.replay([d["label"] for d in resume["decisions"]], agents)
    if not args.quiet:
        print(f"{pack.name} {pack.version}: {players} players, seed {seed}")
        _follow_rounds(session)
    session.run(agents, stop_after=args.stop_after)
    if args.log:
        Path(args.log).write_text(json.dumps(session.to_log(), indent=1))
    if not session.done:
        print(f"stopped after {len(session.log)} decisions; continue with: cogwork play --resume {args.log}")
        return EXIT_OK
    if not args.quiet:
        print(_summary_line(session, "End of game"))
    outcome = session.outcome()
    _print_outcome(pack, outcome)
    return EXIT_OK


def _follow_rounds(session: Session) -> None:
    """Print a summary line each time a flow `repeat` starts its next pass."""
    def on_round(number: int) -> None:
        if number > 1:
            print(_summary_line(session, f"After round {number - 1}"))
    session.game.round_listener = on_round


def cmd_replay(args: argparse.Namespace) -> int:
    log = json.loads(Path(args.log).read_text())
    pack = load_pack(args.pack or log["pack"])
    if pack.version != log.get("version"):
        print(f"warning: log was made with {log['pack']} {log.get('version')}, replaying with {pack.version}",
              file=sys.stderr)
    session = Session(pack, log["players"], log["seed"], log.get("options"))
    try:
        session.replay([d["label"] for d in log["decisions"]])
    except RuleError as exc:
        print(f"replay diverged at decision {len(session.log) + 1}: {exc}")
        return EXIT_FINDINGS
    if not session.done:
        print(f"replay ended with the game still running (after {len(session.log)} decisions)")
        return EXIT_FINDINGS
    outcome = session.outcome()
    expected = log.get("hash")
    if expected != outcome.hash:
        print(f"MISMATCH: final state hash {outcome.hash}, log says {expected}")
        return EXIT_FINDINGS
    print(f"OK: {outcome.decisions} decisions replayed, final state hash {outcome.hash}")
    return EXIT_OK


def cmd_scenario(args: argparse.Namespace) -> int:
    from engine.scenario import run_scenario_files
    return run_scenario_files([Path(f) for f in args.files], verbose=args.verbose)


def _player_counts(text: str | None, pack: Pack) -> list[int]:
    """'4', '1-6' or '2,3' -> a list of player counts (default: every count the pack allows)."""
    if not text:
        return list(range(pack.min_players, pack.max_players + 1))
    counts: list[int] = []
    for part in text.split(","):
        low, _, high = part.partition("-")
        if not low.strip().isdigit() or (high and not high.strip().isdigit()):
            raise UsageError(f"--players takes N, N-M or N,M,...; got '{text}'")
        counts.extend(range(int(low), int(high or low) + 1))
    bad = [n for n in counts if not pack.min_players <= n <= pack.max_players]
    if bad:
        raise UsageError(f"{pack.name} plays with {pack.min_players}-{pack.max_players} players, not {bad[0]}")
    return counts


def cmd_simulate(args: argparse.Namespace) -> int:
    from engine.simulate import Progress, simulate
    pack = load_pack(args.pack)
    counts = _player_counts(args.players, pack)
    progress = None if args.json else Progress(args.games)
    report = simulate(pack, args.games, counts, args.seed, _options(args.option), not args.no_replay, progress)
    summary = report.summary()
    if args.json:
        print(json.dumps(summary, indent=1))
    else:
        s = summary
        print(f"{pack.name}: {s['games']} games ({', '.join(map(str, counts))} players), seeds {args.seed}.."
              f"{args.seed + args.games - 1}, {s['seconds']} s ({s['games_per_second']} games/s)")
        print(f"  errors: {s['errors']}; replays checked: {s['replays_checked']},"
              f" mismatches: {s['replay_mismatches']}")
        if s["score"]:
            print(f"  score: mean {s['score']['mean']}, min {s['score']['min']}, max {s['score']['max']}")
            d = s["decisions_per_game"]
            print(f"  decisions per game: mean {d['mean']}, min {d['min']}, max {d['max']}")
        print("  seat win rate: " + ", ".join(f"{k} {v}" for k, v in s["seat_win_rate"].items()))
        for f in s["failures"]:
            print(f"  FAILED seed {f['seed']} ({f['players']} players): {f['error']}")
    return EXIT_FINDINGS if summary["errors"] or summary["replay_mismatches"] else EXIT_OK


def cmd_lint(args: argparse.Namespace) -> int:
    from engine.lint import FORMATS, LintUsageError, exit_code, lint, pack_roots
    try:
        roots = pack_roots([Path(p) for p in args.paths])
    except LintUsageError as exc:
        raise UsageError(str(exc)) from exc
    results = [lint(root) for root in roots]
    text = FORMATS[args.format](results)
    if text:
        print(text)
    code = exit_code(results, args.strict)
    if args.format == "text":
        n = sum(len(r.diagnostics) for r in results)
        print(f"{len(roots)} pack{'s' if len(roots) != 1 else ''} checked, {n} problem{'s' if n != 1 else ''}",
              file=sys.stderr)
    return code


class UsageError(Exception):
    """Bad command-line use (exit 2)."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="cogwork", description="Data-driven rules interpreter for tabletop games.")
    parser.add_argument("--version", action="version", version=f"cogwork {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    play = sub.add_parser("play", help="play a game with bots and/or people",
                          description="Play a full game. Seats not given to --human are seeded random bots.")
    play.add_argument("pack", nargs="?", help="built-in pack name (see content/) or a path to a pack folder")
    play.add_argument("--players", type=int, help="number of players (default: the pack's minimum)")
    play.add_argument("--seed", type=int, default=1, help="random seed for shuffles and bots (default 1)")
    play.add_argument("--option", action="append", metavar="NAME", help="turn on a pack option (repeatable)")
    play.add_argument("--human", type=int, action="append", metavar="SEAT",
                      help="seat (1-based) played at the terminal (repeatable)")
    play.add_argument("--log", metavar="FILE", help="write the game log (JSON) here, for replay or resume")
    play.add_argument("--stop-after", type=int, metavar="N", help="stop after N decisions (save with --log)")
    play.add_argument("--resume", metavar="FILE", help="continue a game saved with --stop-after/--log")
    play.add_argument("--quiet", "-q", action="store_true", help="print only the final scores")
    play.set_defaults(func=cmd_play)

    replay = sub.add_parser("replay", help="re-run a game log and check the final state hash",
                            description="Exit 0 if the replay reaches the logged final state, 1 if not.")
    replay.add_argument("log", help="log file written by `cogwork play --log`")
    replay.add_argument("--pack", help="pack to use instead of the one named in the log")
    replay.set_defaults(func=cmd_replay)

    scenario = sub.add_parser("scenario", help="run scenario files (rules tests)",
                              description="Run scenario YAML files; exit 1 if any expectation fails."
                              " Format: docs/scenarios.md.")
    scenario.add_argument("files", nargs="+", help="scenario files")
    scenario.add_argument("--verbose", "-v", action="store_true", help="print every step")
    scenario.set_defaults(func=cmd_scenario)
    lint = sub.add_parser("lint", help="check packs: YAML, schemas, DSL and names",
                          description="Report every problem in the given packs (folders, a folder of packs, or"
                          " files inside a pack). Exit 0 clean, 1 problems found, 2 usage error.")
    lint.add_argument("paths", nargs="+", metavar="PATH", help="pack folder, folder of packs, or a file in a pack")
    lint.add_argument("--format", choices=["text", "json", "github"], default="text", help="output format")
    lint.add_argument("--strict", action="store_true", help="count warnings as problems (exit 1)")
    lint.set_defaults(func=cmd_lint)

    sim = sub.add_parser("simulate", help="play many seeded random-bot games and report statistics",
                         description="Play N seeded games with random bots; report scores, game length, seat win"
                         " rates, and check that every game replays identically from its log. Exit 1 if any"
                         " game fails or does not replay.")
    sim.add_argument("pack", help="built-in pack name or a pack folder")
    sim.add_argument("--games", type=int, default=100, help="number of games (default 100)")
    sim.add_argument("--players", help="player counts: N, N-M or N,M (default: all the pack allows, in turn)")
    sim.add_argument("--seed", type=int, default=1, help="first seed; game i uses seed+i (default 1)")
    sim.add_argument("--option", action="append", metavar="NAME", help="turn on a pack option (repeatable)")
    sim.add_argument("--no-replay", action="store_true", help="skip the replay check (twice as fast)")
    sim.add_argument("--json", action="store_true", help="print the report as JSON")
    sim.set_defaults(func=cmd_simulate)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    func: Callable[[argparse.Namespace], int] = args.func
    try:
        return func(args)
    except PackError as exc:
        print(str(exc), file=sys.stderr)
        return EXIT_BROKEN
    except RuleError as exc:
        print(str(exc), file=sys.stderr)
        return EXIT_BROKEN
    except (UsageError, OSError, json.JSONDecodeError, KeyError) as exc:
        print(f"cogwork: error: {exc}", file=sys.stderr)
        return EXIT_BROKEN


def run() -> Any:
    """Console-script entry point."""
    sys.exit(main())
