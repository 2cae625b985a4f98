"""Robot Factory from content alone: rulebook scenarios, random games that replay, and the differential test.

The differential test plays seeded games in the interpreter and replays every
game, decision for decision (by label), in the hand-written baseline
(tools/baselines/robot_factory.py); both must reach the same final state.
Uniform random bots rarely keep modules, so half the seeds use a "builder"
bot that keeps, builds and pays more often, and the advanced software option.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from engine.compile.loading import load_pack
from engine.play.agents import Agent, RandomAgent
from engine.play.match import Match
from engine.play.seat_feed import SeatFeed
from engine.play.simulate import play_one
from engine.runtime.decision import Decision
from engine.runtime.defs import Pack

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

from baselines import robot_factory as baseline  # noqa: E402
from bench.robot_factory import engine_state  # noqa: E402

SCENARIOS = sorted((ROOT / "content" / "robot-factory" / "scenarios").glob("*.yaml"))
DIFFERENTIAL_SEEDS = range(1, 501)


class BuilderAgent:
    """A seeded bot that keeps modules, fills the build zone, pays selectors and rarely discards."""

    def __init__(self, seed: int, seat: int) -> None:
        self.rng = random.Random(f"builder/{seed}/{seat}")

    def choose(self, view: Mapping[str, Any], decision: Decision) -> int:
        labels, rng = decision.labels, self.rng
        if labels == ["keep", "demolish"]:
            return int(rng.random() < 0.1)
        if "done" in labels:
            building = decision.prompt.startswith("add to the build zone")
            if building and len(labels) > 1 and rng.random() < 0.7:
                return rng.randrange(len(labels) - 1)
            return len(labels) - 1 if building or rng.random() < 0.85 else rng.randrange(len(labels) - 1)
        if labels[0] == "don't pay":
            return rng.randrange(1, len(labels)) if rng.random() < 0.7 else 0
        return rng.randrange(len(labels))

    def observe(self, decision: Decision, index: int) -> None:
        return None


@pytest.fixture(scope="module")
def pack() -> Pack:
    return load_pack("robot-factory")


def test_every_rulebook_example_has_a_scenario() -> None:
    names = {p.stem for p in SCENARIOS}
    assert {"fight-example-1", "fight-example-2", "produce-two-robots", "production-stat-cap",
            "workshop-then-gamma-cannon", "forge-then-gamma-cannon", "forcefield-and-explosives-depot",
            "extractor-with-crystal", "salvage-bay-doubled", "security-center-once-per-turn"} <= names


@pytest.mark.parametrize("advanced", [False, True], ids=["basic", "advanced"])
def test_random_games_finish_and_replay(pack: Pack, advanced: bool) -> None:
    for seed in range(1, 26):
        record = play_one(pack, 2, seed, {"advanced": advanced}, check_replay=True)
        assert record.error is None, f"seed {seed}: {record.error}"
        assert record.replayed, f"seed {seed} did not replay to the same state"
        assert 0 in record.scores or record.scores[0] == record.scores[1]  # a factory fell, or a stalemate


def _play(pack: Pack, seed: int, agents: list[Agent], advanced: bool) -> Match:
    session = Match(pack, 2, seed, {"advanced": advanced})
    session.run(agents)
    return session


def _differential(pack: Pack, seed: int, builder: bool) -> None:
    advanced = builder and seed % 2 == 0
    bots: list[Agent] = [BuilderAgent(seed, s) if builder else RandomAgent(seed, s) for s in range(2)]
    session = _play(pack, seed, bots, advanced)
    labels = [d["label"] for d in session.log]
    try:
        theirs = baseline.replay(labels, seed, advanced)
    except baseline.ReplayError as exc:
        pytest.fail(f"seed {seed} ({'builder' if builder else 'random'}): {exc}")
    assert engine_state(session) == theirs, f"seed {seed}: the final states differ"


def test_differential_random_bots(pack: Pack) -> None:
    for seed in DIFFERENTIAL_SEEDS:
        _differential(pack, seed, builder=False)


def test_differential_builder_bots(pack: Pack) -> None:
    for seed in DIFFERENTIAL_SEEDS:
        _differential(pack, seed, builder=True)


def test_baseline_plays_the_same_random_games(pack: Pack) -> None:
    """Without a log: the baseline's chooser draws like RandomAgent, so it plays the very same games."""
    for seed in range(1, 21):
        session = _play(pack, seed, [RandomAgent(seed, s) for s in range(2)], False)
        assert engine_state(session) == baseline.play(seed, baseline.random_chooser(seed))


def test_baseline_rejects_a_label_it_does_not_offer() -> None:
    with pytest.raises(baseline.ReplayError, match="not among the baseline's options"):
        baseline.replay(["Teleport"], 1)


@pytest.mark.parametrize("seed", [3, 4, 5])
def test_the_second_programmer_never_sees_the_first_ones_plan(seed: int) -> None:
    """Rulebook lines 56 and 78: both players program secretly, behind the divider. P1 answers the
    simultaneous step first, so at each of P2's programming decisions, every turn (the divider goes up
    again at cleanup), P2's view must hide how P1 assigned robots (`actions[].used`) and what P1 queued
    to build (`build_zone`), and the two games that differ only in P1's first assignment look the same."""
    pack = load_pack("robot-factory")

    def programming_views(flip: bool) -> list[Any]:
        match = Match(pack, 2, seed)
        rng, flipped, views = random.Random(seed), False, []
        while match.decision is not None:
            decision = match.decision
            if decision.seat == 1 and "assign" in decision.prompt:
                zones = match.view(1)["players"][0]["zones"]
                assert set(zones["actions"]) == {"hidden"} and set(zones["build_zone"]) == {"hidden"}
                views.append((zones["actions"], zones["robots"]))
            index = int(rng.random() * decision.size)
            if flip and not flipped and decision.seat == 0 and "assign" in decision.prompt and decision.size > 1:
                index, flipped = (index + 1) % decision.size, True
            match.apply(index)
        return views

    assert programming_views(False)[0] == programming_views(True)[0]


def _first_programming(pack: Pack, seed: int, p1_seed: int) -> tuple[Any, int, list[Any], Any]:
    """Seed `seed`, P1's programming answers from `p1_seed`, everything else from `seed`: at P2's first
    programming decision, (P2's view, P2's seen key, P2's feed, the full view)."""
    match = Match(pack, 2, seed)
    feed = SeatFeed(1)
    match.subscribe(feed)
    rng, p1 = random.Random(seed), random.Random(p1_seed)
    while match.decision is not None:
        decision = match.decision
        if decision.seat == 1 and match.game.state.step.startswith("turns/programming"):
            return match.view(1), match.seen_key(1), list(feed.events), match.view(None)
        source = p1 if decision.seat == 0 and match.game.state.step.startswith("turns/programming") else rng
        match.apply(int(source.random() * decision.size))
    raise AssertionError("the game ended before P2 programmed")


@pytest.mark.parametrize("seed", [3, 4])
def test_the_first_programmers_card_counts_stay_behind_the_divider(seed: int) -> None:
    """How many cards P1 queues to build or discards while programming is part of P1's plan (rulebook 5.1,
    behind the divider): hand, upgrade hand, build zone and discard have `size: secret_in_simultaneous`.
    Two games that differ only in P1's programming answers, and in those zones' sizes, look the same to P2
    at its first programming decision: view, seen key (what the determinizer compares) and feed (no
    moves between P1's zones, no "P1 answered")."""
    pack = load_pack("robot-factory")
    zones = ("hand", "upgrade_hand", "build_zone", "discard")
    base = _first_programming(pack, seed, 0)
    sizes = {z: len(base[3]["players"][0]["zones"][z]) for z in zones}
    differing = 0
    for p1_seed in range(1, 12):
        other = _first_programming(pack, seed, p1_seed)
        if {z: len(other[3]["players"][0]["zones"][z]) for z in zones} != sizes:
            differing += 1
        assert other[:3] == base[:3]
    assert differing > 0        # the check above compared games whose secret sizes differed
    for z in zones:
        assert base[0]["players"][0]["zones"][z] == {"hidden": None}
