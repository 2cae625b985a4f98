"""A played match's interpreter and state are freed by reference counting as soon as it is dropped: no reference
cycle through its grids (the tables read a source that points at neither them nor the interpreter). Its zones and
items are still one cycle (a zone holds its items, each item points at its zone), left to the garbage collector:
a zone or an item held past its match keeps what it holds."""

from __future__ import annotations

import gc
import weakref

import pytest

import engine
from engine.play.agents import RandomAgent
from engine.play.match import Match
from engine.runtime.interpreter import Interpreter

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
        del match
        assert game() is None and state() is None
    finally:
        gc.enable()


def test_a_zone_held_past_its_match_keeps_its_items() -> None:
    zone = Interpreter(engine.load_pack("connect-four"), 2, 1).state.zone("board", None)
    gc.collect()
    assert len(zone.items) == 42 and all(item.zone is zone for item in zone.items)
