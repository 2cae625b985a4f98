"""Observers that say which kinds of event they read (`event_kinds`) are told only those, in the same order and
with the same contents an observer of every kind gets; kinds nobody reads are never made; the game is the
same game (hash, log) whoever watches."""

from __future__ import annotations

from typing import Any

import pytest

import engine
from engine.play.agents import RandomAgent
from engine.play.match import Match
from engine.runtime import interpreter
from engine.runtime.events import Event, EventKind

PACKS = ["goofspiel", "robot-factory", "raising-robots"]


class Reader:
    """Keeps the events of the kinds it reads."""

    def __init__(self, kinds: set[EventKind]) -> None:
        self.event_kinds = frozenset(kinds)
        self.seen: list[Event] = []

    def __call__(self, event: Event) -> None:
        self.seen.append(event)


def _bots(seed: int, players: int) -> list[RandomAgent]:
    return [RandomAgent(seed, seat) for seat in range(players)]


@pytest.mark.parametrize("name", PACKS)
def test_a_reader_gets_its_kinds_as_an_observer_of_all_does(name: str) -> None:
    pack = engine.load_pack(name)
    for seed in (1, 2):
        every: list[Event] = []
        moves = Reader({EventKind.MOVED, EventKind.ANSWERED})
        both = Match.played(pack, 2, seed, _bots(seed, 2), observers=[every.append, moves])
        assert moves.seen == [e for e in every if e.kind in moves.event_kinds] and moves.seen
        alone = Reader({EventKind.MOVED, EventKind.ANSWERED})
        only = Match.played(pack, 2, seed, _bots(seed, 2), observers=[alone])
        assert alone.seen == moves.seen
        unwatched = Match.played(pack, 2, seed, _bots(seed, 2))
        assert only.state_hash() == both.state_hash() == unwatched.state_hash()
        assert only.to_log().to_json() == both.to_log().to_json()


def test_kinds_nobody_reads_are_not_made(monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[EventKind] = []

    class Counted(Event):
        __slots__ = ()

        def __init__(self, kind: EventKind, *args: Any) -> None:
            made.append(kind)
            super().__init__(kind, *args)

    monkeypatch.setattr(interpreter, "Event", Counted)
    pack = engine.load_pack("goofspiel")
    reader = Reader({EventKind.ACTIVATED})    # Goofspiel's cards have no actions
    Match.played(pack, 2, 1, _bots(1, 2), observers=[reader])
    assert made == [] and reader.seen == []
    watched = Reader({EventKind.STEP_STARTED})
    match = Match.played(pack, 2, 1, _bots(1, 2), observers=[watched])
    assert set(made) == {EventKind.STEP_STARTED} and len(made) == len(watched.seen) > 0
    match.subscribe(every := Reader(set(EventKind)))   # a later subscriber of every kind widens what is made
    assert EventKind.MOVED in match.game.heard and every.seen == []



class WholeReader(Reader):
    """Reads the events about items only whole (`reads_audience = False`), as simulate's coverage count does."""

    reads_audience = False


def _whole(events: list[Event]) -> list[tuple[Any, ...]]:
    """The whole events (those naming their item, or about no item), without who may see them."""
    return [(e.kind, e.seat, e.data) for e in events
            if "item" in e.data or e.kind not in (EventKind.MOVED, EventKind.ACTIVATED)]


@pytest.mark.parametrize("name", PACKS)
def test_a_reader_of_whole_events_gets_them_without_twins_or_sight(name: str) -> None:
    """Goofspiel's bids and hands, Robot Factory's programs, Raising Robots' hands: moves some seat cannot see."""
    pack = engine.load_pack(name)
    kinds = {EventKind.MOVED, EventKind.ACTIVATED}
    for seed in (1, 2):
        sighted = Reader(kinds)
        Match.played(pack, 2, seed, _bots(seed, 2), observers=[sighted])
        assert any(e.visible_to is not None for e in sighted.seen)     # (there are twins to leave out)
        whole = WholeReader(kinds)
        Match.played(pack, 2, seed, _bots(seed, 2), observers=[whole])
        assert _whole(whole.seen) == _whole(sighted.seen)
        assert all("item" in e.data and e.visible_to is None for e in whole.seen)
        # beside an observer that reads who sees them (before or after it), both get every event as that one
        # alone does
        for first_whole in (True, False):
            beside, told = WholeReader(kinds), Reader(kinds)
            Match.played(pack, 2, seed, _bots(seed, 2), observers=[beside, told] if first_whole else [told, beside])
            assert beside.seen == told.seen == sighted.seen


def test_simulate_coverage_counts_as_a_reader_of_who_sees_would() -> None:
    from engine.play.simulate import CoverageCount

    pack = engine.load_pack("robot-factory")

    class Sighted(CoverageCount):
        reads_audience = True

    for seed in range(3):
        whole, sighted = CoverageCount(pack), Sighted(pack)
        Match.played(pack, 2, seed, _bots(seed, 2), observers=[whole])
        Match.played(pack, 2, seed, _bots(seed, 2), observers=[sighted])
        assert whole.counts == sighted.counts and whole.counts
