"""Robot Factory: random games per second, interpreter (content/robot-factory) vs hand-written baseline.

    python tools/bench/robot_factory.py [--games 300] [--seed 1] [--option advanced] [--profile | --breakdown]

Both sides play the same seeded random games (the baseline's chooser draws
like the interpreter's RandomAgent, so every game is the same game) and the
final states are compared. Prints games per second for each and ends with
`interpreter/baseline: X.XXx` (how many times slower the interpreter is).
`--profile` runs the interpreter's games under pyinstrument instead;
`--breakdown` under cProfile, summed into where the time goes: legal-move
enumeration, event dispatch, copying, flow and session plumbing, and the
rest (effect and expression execution).
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "tools")]

from baselines import robot_factory as baseline  # noqa: E402

from engine.agents import RandomAgent  # noqa: E402
from engine.loading import load_pack  # noqa: E402
from engine.pack import Pack  # noqa: E402
from engine.scoring import final_scores, winners  # noqa: E402
from engine.session import Session  # noqa: E402

PACK = "robot-factory"


def engine_state(session: Session) -> dict[str, Any]:
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
    return {"turn": game.state.counters["turn"], "winners": winners(final_scores(game)), "players": players}


def play_engine(pack: Pack, seed: int, advanced: bool = False) -> Session:
    session = Session(pack, 2, seed, {"advanced": advanced})
    session.run([RandomAgent(seed, seat) for seat in range(2)])
    return session


# (file suffix, function) -> category; "cum" = the function and everything it calls, "self" = its own time
CATEGORIES: list[tuple[str, str, str, str]] = [
    ("legal-move enumeration", "engine/compile_effect.py", "options", "cum"),
    ("legal-move enumeration", "engine/compile_effect.py", "_labels", "cum"),
    ("legal-move enumeration", "engine/prompts.py", "render", "cum"),
    ("legal-move enumeration", "engine/game.py", "ask", "self"),
    ("event dispatch", "engine/game.py", "emit", "self"),
    ("event dispatch", "engine/game.py", "_listeners", "cum"),
    ("event dispatch", "engine/game.py", "_fire", "self"),
    ("copying", "engine/values.py", "as_items", "self"),
    ("flow and session plumbing", "engine/flow.py", "*", "self"),
    ("flow and session plumbing", "engine/session.py", "*", "self"),
    ("flow and session plumbing", "engine/build.py", "located", "self"),
    ("flow and session plumbing", "engine/game.py", "call", "self"),
]


def breakdown(pack: Pack, seeds: range, advanced: bool) -> None:
    """Where the interpreter's time goes, by category (cProfile; shares, not absolute times)."""
    profile = cProfile.Profile()
    profile.enable()
    for seed in seeds:
        play_engine(pack, seed, advanced)
    profile.disable()
    stats = pstats.Stats(profile).stats  # type: ignore[attr-defined]
    total = sum(tt for _, _, tt, _, _ in stats.values())
    shares: dict[str, float] = {}
    for (path, _, func), (_, _, tt, ct, _) in stats.items():
        for category, suffix, name, kind in CATEGORIES:
            if path.endswith(suffix) and name in ("*", func):
                shares[category] = shares.get(category, 0.0) + (ct if kind == "cum" else tt)
                break
    shares["effect and expression execution (the rest)"] = total - sum(shares.values())
    for category, seconds in sorted(shares.items(), key=lambda kv: -kv[1]):
        print(f"  {category:<45} {100 * seconds / total:5.1f}%")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1, help="first seed; game i uses seed+i")
    parser.add_argument("--option", action="append", default=[], choices=["advanced"])
    parser.add_argument("--profile", action="store_true", help="profile the interpreter's games (pyinstrument)")
    parser.add_argument("--breakdown", action="store_true", help="the interpreter's time by category (cProfile)")
    args = parser.parse_args()
    advanced = "advanced" in args.option
    pack = load_pack(PACK)
    seeds = range(args.seed, args.seed + args.games)

    if args.profile:
        from pyinstrument import Profiler
        with Profiler() as profiler:
            for seed in seeds:
                play_engine(pack, seed, advanced)
        profiler.print(show_all=False)
        return
    if args.breakdown:
        breakdown(pack, seeds, advanced)
        return

    start = time.perf_counter()
    sessions = [play_engine(pack, seed, advanced) for seed in seeds]
    engine_seconds = time.perf_counter() - start
    start = time.perf_counter()
    states = [baseline.play(seed, baseline.random_chooser(seed), advanced) for seed in seeds]
    baseline_seconds = time.perf_counter() - start

    differ = [seed for seed, s, b in zip(seeds, sessions, states, strict=True) if engine_state(s) != b]
    decisions = sum(len(s.log) for s in sessions) / len(sessions)
    print(f"{PACK}: {args.games} random games (seeds {seeds.start}..{seeds.stop - 1}), "
          f"{decisions:.0f} decisions/game; same final state: {args.games - len(differ)}/{args.games}")
    if differ:
        print(f"  DIFFERENT final states, seeds: {differ[:20]}")
    print(f"interpreter: {engine_seconds:.2f} s, {args.games / engine_seconds:.1f} games/s")
    print(f"baseline:    {baseline_seconds:.2f} s, {args.games / baseline_seconds:.1f} games/s")
    print(f"interpreter/baseline: {engine_seconds / baseline_seconds:.2f}x")


if __name__ == "__main__":
    main()
