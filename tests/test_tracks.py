"""Tracks, alone: markers that push each other, laps, and marked spaces that emit `passed`.

The fixture pack tests/fixtures/packs/racetrack: a 10-space track (0 and 10 shared), a second lap up
to 20, marks at 3 and 6 whose crossing costs a fuel (a trigger on `passed`).
"""

from __future__ import annotations

from pathlib import Path

from engine.compile.loading import load_pack
from engine.play.match import Match
from engine.runtime.context import Ctx
from engine.runtime.defs import Track
from engine.runtime.interpreter import Interpreter
from engine.runtime.views import state_hash

PACK = Path(__file__).parent / "fixtures" / "packs" / "racetrack"


def _game(players: int, places: list[int]) -> Interpreter:
    game = Match(load_pack(str(PACK)), players, 1, {}).game
    for player, place in zip(game.state.players, places, strict=True):
        player.counters["place"] = place
    return game


def _places(game: Interpreter) -> list[int]:
    return [p.counters["place"] for p in game.state.players]


def _fuel(game: Interpreter) -> list[int]:
    return [p.counters["fuel"] for p in game.state.players]


def test_a_marker_landing_on_another_pushes_it_on_and_pushes_cascade() -> None:
    # the rulebook's example, downwards: P1 from 4 to 2 pushes P2 (2) to 1, which pushes P3 (1) to 0
    game = _game(4, [4, 2, 1, 7])
    game.lose(Ctx(game, 0), "place", 2)
    assert _places(game) == [2, 1, 0, 7]
    # upwards: P3 from 0 to 2 pushes P1 (2) to 3
    game.gain(Ctx(game, 2), "place", 2)
    assert _places(game) == [3, 1, 2, 7]


def test_shared_spaces_hold_several_markers() -> None:
    game = _game(3, [0, 0, 9])
    game.gain(Ctx(game, 2), "place", 1)      # onto the finish
    game.gain(Ctx(game, 0), "place", 10)     # onto the finish too
    assert _places(game) == [10, 0, 10]
    game.gain(Ctx(game, 1), "place", 9)      # to 9; then P1 at 10 (shared) is not pushed back
    game.lose(Ctx(game, 2), "place", 1)      # P3 from 10 to 9 pushes P2 down to 8
    assert _places(game) == [10, 8, 9]


def test_markers_on_different_laps_stand_on_top_of_each_other() -> None:
    game = _game(2, [10, 2])
    game.gain(Ctx(game, 0), "place", 2)      # 12: space 2 of the second lap, where P2 stands on lap 1
    assert _places(game) == [12, 2]
    game.gain(Ctx(game, 1), "place", 10)     # P2 to 12 too: the same lap and space, so P1 is pushed to 13
    assert _places(game) == [13, 12]


def test_landing_on_or_passing_a_marked_space_emits_passed_for_each_in_order() -> None:
    game = _game(2, [2, 0])
    game.gain(Ctx(game, 0), "place", 5)      # 2 -> 7 passes 3 and 6
    assert _fuel(game) == [2, 4]
    game.lose(Ctx(game, 0), "place", 1)      # 7 -> 6 lands on 6
    assert _fuel(game) == [1, 4]
    assert Track(marks=(3, 6)).crossed(2, 7) == [3, 6]
    assert Track(marks=(3, 6)).crossed(7, 2) == [6, 3]


def test_a_pushed_marker_passing_a_marked_space_costs_its_owner() -> None:
    game = _game(2, [1, 3])
    game.gain(Ctx(game, 0), "place", 2)      # P1 1 -> 3 lands on 3; pushes P2 from 3 to 4 (passes nothing)
    assert _places(game) == [3, 4] and _fuel(game) == [3, 4]
    game = _game(2, [4, 6])
    game.lose(Ctx(game, 1), "place", 2)      # P2 6 -> 4 (passes none below 6: 6 is where it started)
    assert _places(game) == [3, 4] and _fuel(game) == [3, 4]   # P1 pushed 4 -> 3 lands on 3


def test_the_track_is_state_a_replay_reaches_the_same_hash() -> None:
    pack = load_pack(str(PACK))
    played = Match(pack, 3, 7, {})
    while not played.done:
        played.apply_label(played.decision.labels[len(played.log) % len(played.decision.labels)])
    again = Match(pack, 3, 7, {})
    again.replay([entry["label"] for entry in played.log])
    assert state_hash(again.game) == state_hash(played.game)
    spaces = [Track(lap=10).place(p) for p in _places(played.game)]
    apart = [s for s in spaces if s[1] not in (0, 10)]
    assert len(apart) == len(set(apart))   # never two markers on one space of one lap but 0 and 10
