"""Raising Robots as a whole game: card counts, random games with every option, coverage, the solo rank.

The full soak (2,000 games per option) is `cogwork simulate raising-robots --games 2000 --players 1-6
--coverage [--option bidding]`; this module runs a sample of it.
"""

from __future__ import annotations

import pytest

from engine.cli import main
from engine.compile.loading import load_pack
from engine.play.simulate import play_one, simulate
from engine.runtime.defs import Pack

SOLO_RANKS = {"Keep Practicing", "Beginner", "Amateur", "Heroic", "Epic", "Legendary"}


@pytest.fixture(scope="module")
def pack() -> Pack:
    return load_pack("raising-robots")


def of_type(pack: Pack, type_id: str) -> list:
    return [c for c in pack.components.values() if c.ctype.id == type_id]


def test_component_counts(pack: Pack) -> None:
    robots = of_type(pack, "robot")
    assert sum(r.copies for r in robots) == 96 and len(robots) == 96
    assert len({r.name for r in robots}) == 96                                  # all different
    for row in ("design", "fabricate", "recycle"):
        in_row = [r for r in robots if r.values["phase"] == row]
        assert len(in_row) == 32
        for kind in ("cosmetic", "speed", "communications", "efficiency"):
            assert sum(1 for r in in_row if r.values["upgrade"] == kind) == 8
    for r in robots:
        assert len(r.costs) == 2, r.id                                          # two assembly-cost columns
        assert [a.when is None for a in r.actions] == [True, False], r.id       # basic, then upgraded
        assert all(1 <= a.threshold <= 7 for a in r.actions), r.id
    assert len(of_type(pack, "class_card")) == 32
    assert len(of_type(pack, "inventor")) == 14
    assert len(of_type(pack, "energy_card")) == 12
    assert len(of_type(pack, "line_card")) == 5


CASES = [(players, option, seed) for option in (None, "bidding") for players in range(1, 7)
         for seed in (101, 202)] + [(1, "solo_challenge", 303)]


@pytest.mark.parametrize(("players", "option", "seed"), CASES)
def test_random_games_finish_and_replay(pack: Pack, players: int, option: str | None, seed: int) -> None:
    record = play_one(pack, players, seed, {option: True} if option else {}, check_replay=True)
    assert record.error is None, record.error
    assert record.replayed is True
    assert len(record.scores) == players


def test_coverage_sample(pack: Pack) -> None:
    """A modest sample already assembles almost every robot; the 2,000-game soak assembles all 96."""
    report = simulate(pack, 120, list(range(1, 7)), 1, {}, check_replay=False)
    assert not [g for g in report.games if g.error]
    coverage = report.coverage()
    robots = [c.id for c in of_type(pack, "robot")]
    assert all(coverage[r]["drawn"] for r in robots)
    assembled = [r for r in robots if coverage[r]["played"]]
    assert len(assembled) >= 85, sorted(set(robots) - set(assembled))
    assert all(coverage[c.id]["played"] for c in of_type(pack, "inventor"))


def test_solo_play_prints_the_rank(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "raising-robots", "--players", "1", "--seed", "3", "-q"]) == 0
    out = capsys.readouterr().out
    line = next(x for x in out.splitlines() if x.strip().startswith("P1:"))
    assert "rank: " in line and line.split("rank: ")[1].strip() in SOLO_RANKS


def test_solo_challenge_adds_three_games(pack: Pack) -> None:
    from engine.play.agents import RandomAgent
    from engine.play.match import Match
    session = Match(pack, 1, 7, {"solo_challenge": True})
    session.run([RandomAgent(7, 0)])
    game = session.game
    assert game.state.counters["games_in_series"] == 3
    banked = game.state.players[0].counters["earlier_games"]
    assert banked > 0 and session.outcome().results[0].score > banked
    assert len(game.state.zones["robot_box"].items) > 0                        # used cards left the game


def test_cards_set_aside_unseen_are_not_drawn(pack: Pack) -> None:
    """At 4 players setup moves e02, e03, e08 and e10 from the energy deck to the (hidden) box: set aside,
    not drawn, so coverage must not list them as "drawn but never played"; the cards dealt are drawn."""
    report = simulate(pack, 3, [4], 1, {}, check_replay=False)
    coverage = report.coverage()
    assert [e for e in ("e02", "e03", "e08", "e10") if coverage[e]["drawn"]] == []
    assert all(coverage[e]["drawn"] for e in ("e01", "e04", "e05", "e12"))
