"""A played match's interpreter and state are freed by reference counting as soon as it is dropped: no reference
cycle through its grids (the tables read a source that points at neither them nor the interpreter). Its zones and
items are still one cycle (a zone holds its items, each item points at its zone), left to the garbage collector:
a zone or an item held past its match keeps what it holds. A match `release`d (what `simulate` does with each game
it has recorded) has that cycle broken too: nothing of it is left for the collector."""

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


@pytest.mark.parametrize("forkable", [False, True])
@pytest.mark.parametrize("name", PACKS)
def test_a_released_match_leaves_nothing_for_the_collector(name: str, forkable: bool) -> None:
    pack = engine.load_pack(name)

    def played() -> Match:
        agents = [RandomAgent(5, seat) for seat in range(2)]
        if not forkable:
            return Match.played(pack, 2, 5, agents)
        match = Match(pack, 2, 5, forkable=True, log_forced=True)
        match.run(agents)
        return match

    played()   # (generates the code of the texts the game runs, which leaves garbage)
    gc.collect()
    gc.disable()
    try:
        match = played()
        match.release()
        del match
        assert gc.collect() == 0
    finally:
        gc.enable()


def test_an_unreleased_match_is_left_to_the_collector() -> None:
    """The cycle `release` breaks is there without it (else the test above could not fail)."""
    pack = engine.load_pack("goofspiel")
    Match.played(pack, 2, 5, [RandomAgent(5, seat) for seat in range(2)])
    gc.collect()
    gc.disable()
    try:
        Match.played(pack, 2, 5, [RandomAgent(5, seat) for seat in range(2)])
        assert gc.collect() > 0
    finally:
        gc.enable()


def test_release_leaves_lists_read_before_as_they_were() -> None:
    match = Match.played(engine.load_pack("connect-four"), 2, 3, [RandomAgent(3, seat) for seat in range(2)])
    board = match.game.state.zone("board", None)
    cells = board.items
    match.release()
    assert board.items == [] and len(cells) == 42 and all(cell.zone is board for cell in cells)


def test_release_ends_a_paused_match() -> None:
    match = Match(engine.load_pack("goofspiel"), 2, 3)
    assert not match.done
    match.release()
    assert match.done and all(not zone.items for zone in match.game.state.all_zones())
