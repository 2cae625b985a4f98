"""A sample made inside a `simultaneous` step deals the hidden items before the step's first statement runs.

The statements of the step that run before its first decision take what they read of the state with them: a
`for c in hand` loop holds the list of the cards in hand when it began, a `sorted(...)` list is ordered by
the items' attributes then. A sample dealt after that (at the step's first decision) would have a paused
loop naming cards that the deal put elsewhere. The fixture pack tests/fixtures/packs/sorting shows it alone:
each player, behind a screen, keeps or stashes each card of their hand in turn, and the stock the hand was
drawn from is hidden from everyone, so a sample for the second player deals the first player's cards among
their hand and stock. Only cards of the hand can reach the stash: every sample must keep the first player's
stock as the rules leave it.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

import engine
from engine.play.agents import RandomAgent
from engine.play.match import SEARCHED_CHECKPOINT_EVERY, Match

ROOT = Path(__file__).resolve().parents[1]
SORTING = engine.load_pack(str(ROOT / "tests/fixtures/packs/sorting"))
STOCK = 4   # six cards a player, two drawn to hand every round; the sort step never touches the stock


def _sorting(forkable: bool, *answers: str) -> Match:
    match = Match(SORTING, 2, 3, forkable=forkable, checkpoint_every=SEARCHED_CHECKPOINT_EVERY)
    for label in answers:
        match.apply_label(label)
    return match


def _zone(match: Match, seat: int, zone: str) -> list[int]:
    return [item.uid for item in match.game.state.players[seat].zones[zone].items]


@pytest.mark.parametrize("forkable", [True, False])
@pytest.mark.parametrize("answers", [("stash", "stash"), ("stash", "keep"), ("keep", "stash")])
def test_the_first_seats_loop_stashes_only_cards_of_its_hand(forkable: bool, answers: tuple[str, ...]) -> None:
    match = _sorting(forkable, *answers)
    assert match.to_move == 1 and match.game.state.secret_since == 0
    assert len(_zone(match, 0, "stock")) == STOCK
    for k in range(40):
        sample = match.determinize(1, random.Random(k))
        assert sample.to_move == 1 and len(sample.log) == 2
        stock, hand, stash = (_zone(sample, 0, zone) for zone in ("stock", "hand", "stash"))
        assert len(stock) == STOCK and len(hand) + len(stash) == 2, (k, stock, hand, stash)
        assert _zone(sample, 1, "hand") == _zone(match, 1, "hand")   # what seat 2 sees stays


@pytest.mark.parametrize("forkable", [True, False])
@pytest.mark.parametrize("answers", [(), ("keep",)])
def test_a_sample_at_the_first_seats_decision_asks_about_a_card_in_its_hand(forkable: bool,
                                                                            answers: tuple[str, ...]) -> None:
    """At the step's first decision too: the loop took its list before it."""
    match = _sorting(forkable, *answers)
    assert match.to_move == 0
    for k in range(40):
        sample = match.determinize(1, random.Random(k))
        assert sample.to_move == 0
        while sample.to_move == 0:
            sample.apply_label("stash")
        assert len(_zone(sample, 0, "stock")) == STOCK, k


@pytest.mark.parametrize("forkable", [True, False])
def test_a_samples_fork_deals_where_the_sample_was_dealt(forkable: bool) -> None:
    match = _sorting(forkable, "stash", "keep", "stash", "stash", "keep")   # round 2: seat 1 keeps a card
    while match.to_move == 0:
        match.apply_label("stash")
    assert match.game.state.secret_since == 4 and match.to_move == 1
    stock = len(_zone(match, 0, "stock"))
    assert stock == STOCK - 2
    for k in range(10):
        sample = match.determinize(1, random.Random(k))
        again = match.determinize(1, random.Random(k))
        assert again.state_hash() == sample.state_hash()
        fork = sample.fork()
        assert fork.state_hash() == sample.state_hash() and fork.legal() == sample.legal()
        sample.apply(0)
        fork.apply(0)
        assert fork.state_hash() == sample.state_hash()
        assert sample.fork().state_hash() == sample.state_hash()
        deeper = sample.determinize(1, random.Random(k + 100))
        assert len(_zone(deeper, 0, "stock")) == stock


RF = engine.load_pack("robot-factory")
MODULE = re.compile(r"module (.*): keep or demolish\?")
ROBOT = re.compile(r"assign a (\d+)★(\d+)▼ robot")


@pytest.mark.parametrize(("seed", "answers"), [(2, 95), (3, 60)])   # (on main: modules at 91, robots at 53)
def test_p2s_samples_replay_p1s_program_over_p1s_dealt_modules_and_robots(seed: int, answers: int) -> None:
    """Robot Factory's programming (`call program`): P1's first decisions come from a `for m in modules` loop
    and a `for r in sorted(robots, ...)` loop, both over zones P2 cannot see. In P2's samples P1's replayed
    decisions must name the modules its slots hold and its robots, highest rank first (on main before this,
    72 of 1,275 samples in 4 random games named other modules, 376 asked robots out of order or not P1's)."""
    match = Match(RF, 2, seed, forkable=True, checkpoint_every=SEARCHED_CHECKPOINT_EVERY)
    agents = [RandomAgent(seed, seat) for seat in range(2)]
    checked = 0
    while not match.done and len(match.log) < answers:
        since = match.game.state.secret_since
        if since is not None and match.to_move == 1 and any(a.decision.seat == 0 for a in match.log[since:]):
            for k in range(3):
                sample = match.determinize(1, random.Random(k))
                p1 = sample.game.state.players[0]
                asked = [a.decision.prompt for a in sample.log[since:] if a.decision.seat == 0]
                modules = [m.group(1) for prompt in asked if (m := MODULE.fullmatch(prompt))]
                robots = [(int(m.group(1)), int(m.group(2))) for prompt in asked if (m := ROBOT.fullmatch(prompt))]
                assert sorted(modules) == sorted(item.comp.name for item in p1.zones["modules"].items)
                assert robots == sorted(((item.attrs["power"], item.attrs["armor"])
                                         for item in p1.zones["robots"].items), key=lambda r: -10 * r[0] - r[1])
                checked += bool(robots)
                sample.close()
        match.run(agents, stop_after=len(match.log) + 1)
    match.close()
    assert checked > 10
