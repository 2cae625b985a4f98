"""The classic games: random games per second in our engine, in OpenSpiel and hand-written, same run.

    python tools/bench/classics.py [--games 300] [--seed 1] [--repeat 3] [GAME ...]
    python tools/bench/classics.py --profile connect-four [--games 300]

For each game (`tic-tac-toe`, `connect-four`, `goofspiel`, `breakthrough`;
default: all) three players of random games are timed on the same seeds:

- cogwork: the pack in content/GAME played by `Match.played` with `RandomAgent`
  bots and its winners computed, as `cogwork simulate --no-replay` plays a
  game (without the state hash and coverage count simulate adds), one process;
- openspiel: OpenSpiel's game (`pip install open_spiel`, default parameters)
  driven from a plain Python loop, uniform random actions (and chance
  outcomes) drawn from a seeded `random.Random`;
- handwritten: tools/baselines/GAME.py, which offers the same options in the
  same order as the pack and draws like `RandomAgent`, so it plays the very
  same games (the run checks that winners and final boards agree).

Each side is timed `--repeat` times, interleaved, and the best run counts.
Times are this process's CPU time (`time.process_time`; all three run in
this one thread, OpenSpiel's C++ included), so other work on a shared
machine does not count against whichever side it happened to overlap. Ends with one line per game:
`connect-four cogwork/openspiel: X.XXx  cogwork/handwritten: Y.YYx`, the
ratios of time per game (lower is better).

`--profile GAME` plays the games of one pack under the sampling profiler
(sampling.py) and prints where the time goes: the functions with the most
samples inside them (inclusive) and on top of the stack (self), per decision.
"""

from __future__ import annotations

import argparse
import importlib
import random
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "tools")]

from baselines.random_bots import random_chooser  # noqa: E402
from bench.sampling import sample_stacks  # noqa: E402

from engine.compile.loading import load_pack  # noqa: E402
from engine.play.agents import RandomAgent  # noqa: E402
from engine.play.match import Match  # noqa: E402
from engine.runtime.defs import Pack  # noqa: E402
from engine.runtime.scoring import winners  # noqa: E402

GAMES = {  # our pack -> (OpenSpiel game, baseline module, the item attribute the final check compares)
    "tic-tac-toe": ("tic_tac_toe", "tic_tac_toe", "mark"),
    "connect-four": ("connect_four", "connect_four", "mark"),
    "goofspiel": ("goofspiel", "goofspiel", ""),
    "breakthrough": ("breakthrough", "breakthrough", "piece"),
}


def play_engine(pack: Pack, seed: int) -> Match:
    return Match.played(pack, 2, seed, [RandomAgent(seed, seat) for seat in range(2)])


def engine_result(pack: Pack, seed: int) -> tuple[list[int], int]:
    """Winners and the number of decisions asked: a game played and its result known, nothing kept (released,
    as `simulate` releases each game it has recorded: `Match.release`)."""
    session = play_engine(pack, seed)
    result = winners(session.game), session.answered
    session.release()
    return result


def engine_final(session: Match, attribute: str) -> dict[str, Any]:
    """The engine's final state in the baseline's `play()` shape."""
    game = session.game
    final: dict[str, Any] = {"winners": winners(game)}
    if attribute:
        final["board"] = [cell.attrs[attribute] for cell in game.state.zone("board", None).items]
    else:
        final["points"] = [sum(card.attrs["value"] for card in game.state.zone("winnings", seat).items)
                           for seat in range(2)]
    return final


def play_openspiel(game: Any, seed: int) -> tuple[list[float], int]:
    """One uniform random game in OpenSpiel from Python; its returns and the number of actions chosen."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    chosen = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[int(rng.random() * len(outcomes))][0])
        elif state.is_simultaneous_node():
            joint = []
            for player in range(state.num_players()):
                legal = state.legal_actions(player)
                joint.append(legal[int(rng.random() * len(legal))])
            state.apply_actions(joint)
            chosen += len(joint)
        else:
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.random() * len(legal))])
            chosen += 1
    return state.returns(), chosen


def timed(work: Callable[[], Any]) -> tuple[float, Any]:
    """CPU seconds of this process spent on `work`, and its result."""
    start = time.process_time()
    result = work()
    return time.process_time() - start, result


def race(name: str, seeds: range, repeat: int) -> str:
    import pyspiel

    openspiel_name, baseline_name, attribute = GAMES[name]
    pack, openspiel_game = load_pack(name), pyspiel.load_game(openspiel_name)
    baseline = importlib.import_module(f"baselines.{baseline_name}")

    best = {"cogwork": float("inf"), "openspiel": float("inf"), "handwritten": float("inf")}
    results: dict[str, Any] = {}
    for _ in range(max(1, repeat)):
        for side, work in (
            ("cogwork", lambda: [engine_result(pack, seed) for seed in seeds]),
            ("openspiel", lambda: [play_openspiel(openspiel_game, seed) for seed in seeds]),
            ("handwritten", lambda: [baseline.play(seed, random_chooser(seed)) for seed in seeds]),
        ):
            seconds, results[side] = timed(work)
            best[side] = min(best[side], seconds)

    # the hand-written games are ours, decision for decision: same winners and final boards (untimed)
    differ = [seed for seed, b in zip(seeds, results["handwritten"], strict=True)
              if engine_final(play_engine(pack, seed), attribute) != b]
    ours = sum(n for _, n in results["cogwork"]) / len(seeds)
    theirs = sum(n for _, n in results["openspiel"]) / len(seeds)
    print(f"{name}: {len(seeds)} random games (seeds {seeds.start}..{seeds.stop - 1}); decisions/game: "
          f"cogwork {ours:.1f} (forced moves not asked), openspiel {theirs:.1f}; "
          f"hand-written = cogwork games: {len(seeds) - len(differ)}/{len(seeds)}")
    if differ:
        print(f"  DIFFERENT final states, seeds: {differ[:20]}")
    for side, seconds in best.items():
        print(f"  {side:<12} {seconds:6.3f} CPU s  {len(seeds) / seconds:9.1f} games/s")
    return (f"{name} cogwork/openspiel: {best['cogwork'] / best['openspiel']:.2f}x  "
            f"cogwork/handwritten: {best['cogwork'] / best['handwritten']:.2f}x")


def profile(name: str, seeds: range, top: int = 25) -> None:
    """Where one pack's time goes: sampled stacks, inclusive and self, in µs per decision asked."""
    pack = load_pack(name)
    decisions = 0

    def work() -> None:
        nonlocal decisions
        for seed in seeds:
            decisions += engine_result(pack, seed)[1]

    seconds, (inclusive, own, samples) = timed(lambda: sample_stacks(work))
    per_decision = 1e6 * seconds / max(decisions, 1)
    print(f"{name}: {len(seeds)} games, {decisions} decisions asked, {seconds:.2f} CPU s under the profiler, "
          f"{per_decision:.0f} µs per decision; {samples} samples")

    def show(title: str, counts: Counter[tuple[str, str]]) -> None:
        print(title)
        for (path, func), n in counts.most_common(top):
            where = Path(path).name if not path.startswith("<") else path
            print(f"  {100 * n / samples:5.1f}%  {per_decision * n / samples:7.1f} µs  {where}:{func}")

    show("inclusive (the function or anything it calls was running):", inclusive)
    show("self (the function itself was running):", own)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", metavar="GAME", choices=[*GAMES, []], default=[])
    parser.add_argument("--games", type=int, default=300, help="random games per side and repeat")
    parser.add_argument("--seed", type=int, default=1, help="first seed; game i uses seed+i")
    parser.add_argument("--repeat", type=int, default=3, help="time each side this many times; the best run counts")
    parser.add_argument("--profile", choices=list(GAMES), help="profile our engine on this game instead")
    args = parser.parse_args()
    seeds = range(args.seed, args.seed + args.games)
    if args.profile:
        profile(args.profile, seeds)
        return
    lines = [race(name, seeds, args.repeat) for name in args.names or list(GAMES)]
    print()
    for line in lines:
        print(line)


if __name__ == "__main__":
    main()
