"""A board built during play, alone: `link A to B` / `unlink A from B` change this match's copy of a board.

The fixture pack tests/fixtures/packs/bridges: four islands, only Harbor-Lighthouse printed as linked.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.compile.loading import load_pack
from engine.errors import RuleError
from engine.play.match import Match
from engine.runtime.views import state_hash

PACK = Path(__file__).parent / "fixtures" / "packs" / "bridges"


def _session(seed: int = 1) -> Match:
    return Match(load_pack(str(PACK)), 1, seed, {})


def _neighbours(session: Match, cid: str) -> list[str]:
    game = session.game
    return [i.comp.id for i in game.neighbors(game.instance(cid, None))]


def test_link_and_unlink_change_neighbours_adjacency_and_distance() -> None:
    session = _session()
    game = session.game
    harbor, market = (game.instance(c, None) for c in ("harbor", "market"))
    assert game.graph_of(harbor).distance("harbor", "quarry") == -1
    session.apply_label("call build")
    session.apply_label("Lighthouse")
    session.apply_label("Quarry")                       # bridge Lighthouse - Quarry
    assert _neighbours(session, "quarry") == ["lighthouse"]
    assert game.graph_of(harbor).distance("harbor", "quarry") == 2
    assert not game.graph_of(market).adjacent("market", "quarry")
    session.apply_label("call burn")
    session.apply_label("Harbor")
    assert _neighbours(session, "harbor") == []          # the only bridge at the harbor: burnt without asking
    assert game.graph_of(harbor).distance("harbor", "quarry") == -1
    assert session.done
    assert game.state.counters["reached"] == 1


def test_each_match_has_its_own_board_and_the_printed_one_is_unchanged() -> None:
    first = _session()
    first.apply_label("call build")
    first.apply_label("Market")
    first.apply_label("Quarry")
    assert _neighbours(first, "market") == ["quarry"]
    second = _session()
    assert _neighbours(second, "market") == []
    assert first.game.pack.graphs["island"].links["market"] == []


def test_the_board_is_part_of_the_state_hash_and_replays() -> None:
    built, burnt = _session(), _session()
    built.apply_label("call build")
    built.apply_label("Market")
    built.apply_label("Quarry")
    burnt.apply_label("call burn")
    burnt.apply_label("Harbor")
    assert state_hash(built.game) != state_hash(burnt.game)
    again = _session()
    again.replay([entry["label"] for entry in built.log])
    assert state_hash(again.game) == state_hash(built.game)


def test_only_spaces_can_be_linked() -> None:
    game = _session().game
    with pytest.raises(RuleError, match="link needs an item"):
        game.relink(game.instance("harbor", None), game.instance("harbor", None).zone, True)
