"""Robot Factory: random games per second, interpreter (content/robot-factory) vs hand-written baseline.

    python tools/bench/robot_factory.py [--games 300] [--seed 1] [--option advanced] [--repeat 3] [--breakdown]

Both sides play the same seeded random games (the baseline's chooser draws
like the interpreter's RandomAgent, so every game is the same game) and the
final states are compared. Prints games per second for each and ends with
`interpreter/baseline: X.XXx` (how many times slower the interpreter is).
`--breakdown` runs the interpreter's games under a sampling profiler that
sees inside the flow's greenlet (bench/sampling.py) and sums the samples
into where the time goes: generated code, event dispatch, decisions
(options, labels, asking, agents), game operations, value helpers, flow
helpers and setting up each game. Each side is timed `--repeat` times
(best run counts), interleaved, so a busy machine skews both alike.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "tools")]

from baselines import robot_factory as baseline  # noqa: E402
from bench.sampling import sample  # noqa: E402

from engine.compile.loading import keep_packs_out_of_collections, load_pack  # noqa: E402
from engine.play.agents import RandomAgent  # noqa: E402
from engine.play.match import Match  # noqa: E402
from engine.runtime.defs import Pack  # noqa: E402
from engine.runtime.scoring import winners  # noqa: E402

PACK = "robot-factory"


def engine_state(session: Match) -> dict[str, Any]:
    """The interpreter's final state in the baseline's `final_state()` shape."""
    game = session.game
    players = []
    for p in game.state.players:
        z = p.zones
        players.append({
            "shields": p.counters["shields"], "minerals": p.counters["minerals"], "crystals": p.counters["crystals"],
            "robots": [[r.attrs["power"], r.attrs["armor"]] for r in z["robots"].items],
            "modules": [[m.comp.id, m.attrs["tracker"]] for m in z["modules"].items],
            "upgrades": sorted(u.comp.id for u in z["upgrades"].items),
            "upgrade_hand": [u.comp.id for u in z["upgrade_hand"].items],
            "hand": [c.comp.id for c in z["hand"].items], "deck": len(z["module_deck"].items),
            "discard": len(z["discard"].items), "software": next(s.comp.id for s in z["software"].items),
        })
    return {"turn": game.state.counters["turn"], "winners": winners(game), "players": players}


def final_and_length(session: Match) -> tuple[dict[str, Any], int]:
    return engine_state(session), session.answered


def play_engine(pack: Pack, seed: int, advanced: bool = False, paused: bool = False) -> Match:
    """One random game, played through as `simulate` plays it (`Match.played`), or with `paused` in a flow
    greenlet that can stop at any decision, as `play`, `serve` and searching bots use a match."""
    agents = [RandomAgent(seed, seat) for seat in range(2)]
    if not paused:
        return Match.played(pack, 2, seed, agents, {"advanced": advanced})
    session = Match(pack, 2, seed, {"advanced": advanced})
    session.run(agents)
    return session


# where a sample's innermost frame is -> category: (file suffix or "<dsl>", qualified function prefix or "*")
CATEGORIES: list[tuple[str, str, str]] = [
    ("generated code (effects, conditions, flow)", "<dsl>", "*"),
    ("event dispatch", "engine/runtime/interpreter.py", "Interpreter.emit"),
    ("event dispatch", "engine/runtime/interpreter.py", "Interpreter._listeners"),
    ("event dispatch", "engine/runtime/interpreter.py", "Interpreter._fire"),
    ("decisions: options, labels, asking, agents", "engine/runtime/dsl_values.py", "distinct"),
    ("decisions: options, labels, asking, agents", "engine/runtime/dsl_values.py", "option_labels"),
    ("decisions: options, labels, asking, agents", "engine/runtime/dsl_values.py", "show"),
    ("decisions: options, labels, asking, agents", "engine/runtime/interpreter.py", "Interpreter.ask"),
    ("decisions: options, labels, asking, agents", "engine/play/match.py", "*"),
    ("decisions: options, labels, asking, agents", "engine/play/agents.py", "*"),
    ("decisions: options, labels, asking, agents", "engine/runtime/decision.py", "*"),
    ("setting up each game", "engine/runtime/interpreter.py", "_new_state"),
    ("setting up each game", "engine/runtime/interpreter.py", "Interpreter.__init__"),
    ("setting up each game", "engine/runtime/state.py", "*"),
    ("setting up each game", "<string>", "*"),
    ("setting up each game", "random.py", "*"),
    ("flow helpers", "engine/compile/flow.py", "*"),
    ("game operations (move, counters, calls)", "engine/runtime/interpreter.py", "*"),
    ("value helpers (attributes, collections)", "engine/runtime/dsl_values.py", "*"),
]


def breakdown(pack: Pack, seeds: range, advanced: bool) -> None:
    """Where the interpreter's time goes, by category: a sampling profile (see sampling.py)."""
    counts = sample(lambda: [play_engine(pack, seed, advanced) for seed in seeds])
    total = sum(counts.values())
    shares: dict[str, int] = {}
    for (path, func), n in counts.items():
        category = next((c for c, suffix, prefix in CATEGORIES
                         if path.endswith(suffix) and (prefix == "*" or func.startswith(prefix))), "other")
        shares[category] = shares.get(category, 0) + n
    print(f"{total} samples")
    for category, n in sorted(shares.items(), key=lambda kv: -kv[1]):
        print(f"  {category:<45} {100 * n / max(total, 1):5.1f}%")


def main() -> None:
    keep_packs_out_of_collections()   # as the console script does (`cogwork simulate`)
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1, help="first seed; game i uses seed+i")
    parser.add_argument("--option", action="append", default=[], choices=["advanced"])
    parser.add_argument("--repeat", type=int, default=3, help="time each side this many times; the best run counts")
    parser.add_argument("--breakdown", action="store_true", help="the interpreter's time by category (sampling)")
    parser.add_argument("--paused", action="store_true",
                        help="play each game as a pausable Match (Match.run, as play/serve do), not played through")
    args = parser.parse_args()
    advanced = "advanced" in args.option
    pack = load_pack(PACK)
    seeds = range(args.seed, args.seed + args.games)

    if args.breakdown:
        breakdown(pack, seeds, advanced)
        return

    engine_seconds = baseline_seconds = float("inf")
    for _ in range(max(1, args.repeat)):
        start = time.perf_counter()
        # like the baseline's play(), each game yields its final state and is let go (holding 300 games'
        # objects would make every garbage collection slower for the interpreter alone)
        finals = [final_and_length(play_engine(pack, seed, advanced, args.paused)) for seed in seeds]
        engine_seconds = min(engine_seconds, time.perf_counter() - start)
        start = time.perf_counter()
        states = [baseline.play(seed, baseline.random_chooser(seed), advanced) for seed in seeds]
        baseline_seconds = min(baseline_seconds, time.perf_counter() - start)

    differ = [seed for seed, (e, _), b in zip(seeds, finals, states, strict=True) if e != b]
    decisions = sum(n for _, n in finals) / len(finals)
    print(f"{PACK}: {args.games} random games (seeds {seeds.start}..{seeds.stop - 1}), "
          f"{decisions:.0f} decisions/game; same final state: {args.games - len(differ)}/{args.games}")
    if differ:
        print(f"  DIFFERENT final states, seeds: {differ[:20]}")
    print(f"interpreter: {engine_seconds:.2f} s, {args.games / engine_seconds:.1f} games/s")
    print(f"baseline:    {baseline_seconds:.2f} s, {args.games / baseline_seconds:.1f} games/s")
    print(f"interpreter/baseline: {engine_seconds / baseline_seconds:.2f}x")


if __name__ == "__main__":
    main()
