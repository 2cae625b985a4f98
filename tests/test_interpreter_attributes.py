"""The interpreter keeps at most 29 attributes.

Generated code reads `game.state`, `game.work_limit`, `game.observers`, ... at every statement. CPython 3.11
keeps an object's attributes in a table shared by all objects of its class only while there are fewer
than 30 of them; from the 30th on every object gets a dict of its own, and each attribute read takes a
slower path: measured with callgrind, a 30th attribute made every classic game 1.3-6% more instructions
(Goofspiel 1.90M -> 2.03M). Add an attribute only in place of another (or hold it in an object that is
one).
"""

from __future__ import annotations

import engine
from engine.play.agents import RandomAgent
from engine.play.match import Match


def test_a_played_forked_watched_game_keeps_fewer_than_30_attributes() -> None:
    pack = engine.load_pack("robot-factory")
    match = Match(pack, 2, 1, forkable=True, log_forced=True, observers=[lambda event: None])
    match.run([RandomAgent(1, seat) for seat in range(2)], stop_after=40)
    copy = match.fork()
    copy.run([RandomAgent(1, seat) for seat in range(2)])
    for game in (match.game, copy.game):
        assert len(vars(game)) <= 29, sorted(vars(game))
