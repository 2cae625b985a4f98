"""simulate's replay check: the answers' labels played through (no paused flow) show the same game; when they do
not, the written log is replayed as before, so every record is what it was."""

from __future__ import annotations

import pytest

import engine
from engine.play.agents import RandomAgent
from engine.play.match import Match


def _bots(seed: int, players: int) -> list[RandomAgent]:
    return [RandomAgent(seed, seat) for seat in range(players)]


def test_simulate_replay_check_played_through_agrees_with_the_written_log(monkeypatch: pytest.MonkeyPatch) -> None:
    """simulate's replay check plays the answers' labels through (no paused flow); when that does not show the
    same game it replays the written log as before: both give the same record."""
    from engine.play import simulate
    from engine.play.log import Answer

    pack = engine.load_pack("goofspiel")
    quick = [simulate.play_one(pack, 2, seed, {}, True) for seed in (1, 2, 3)]
    monkeypatch.setattr(simulate, "_replays_through", lambda *args: False)
    written = [simulate.play_one(pack, 2, seed, {}, True) for seed in (1, 2, 3)]
    assert [vars(r) for r in quick] == [vars(r) for r in written] and all(r.replayed for r in quick)
    monkeypatch.undo()
    session = Match.played(pack, 2, 4, _bots(4, 2))
    expected = session.outcome().hash
    assert simulate._replays_through(pack, session, expected, {})
    assert not simulate._replays_through(pack, session, "another hash", {})
    monkeypatch.setattr(Answer, "label", property(lambda answer: answer.decision.labels[0]))   # other answers
    assert not simulate._replays_through(pack, session, expected, {})
