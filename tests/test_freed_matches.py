"""A played match is freed by reference counting as soon as it is dropped: no reference cycle through its grids
(the tables read a source that points at neither them nor the interpreter) or between items and their zones
(`State.__del__` gives each zone a new empty list). With cycles, the garbage collector freed each finished game
in batches, ~7% of a short game's time."""

from __future__ import annotations

import gc
import weakref

import pytest

import engine
from engine.play.agents import RandomAgent
from engine.play.match import Match

PACKS = ["tic-tac-toe", "connect-four", "goofspiel", "breakthrough", "robot-factory"]


@pytest.mark.parametrize("name", PACKS)
def test_a_played_match_is_freed_without_the_collector(name: str) -> None:
    pack = engine.load_pack(name)
    # the same game first: it generates the code of the texts it runs (which leaves garbage)
    Match.played(pack, 2, 5, [RandomAgent(5, seat) for seat in range(2)])
    gc.collect()
    gc.disable()
    try:
        match = Match.played(pack, 2, 5, [RandomAgent(5, seat) for seat in range(2)])
        game, state = weakref.ref(match.game), weakref.ref(match.game.state)
        kept = next(item for item in match.game.state.items if item.zone is not None)   # held past its match
        zone, items = kept.zone, kept.zone.items
        del match
        assert game() is None and state() is None
        assert kept.zone is zone and zone.items == [] and kept in items   # (its old list is left as it was)
        assert gc.collect() == 0
    finally:
        gc.enable()


def test_an_item_keeps_its_zone_while_its_state_lives() -> None:
    pack = engine.load_pack("connect-four")
    match = Match.played(pack, 2, 5, [RandomAgent(5, seat) for seat in range(2)])
    state = match.game.state
    del match
    assert all(item.zone is not None and item in item.zone.items for item in state.items)
