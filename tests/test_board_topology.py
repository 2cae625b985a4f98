"""A board that changes in play, alone: tiles that turn (`turns`, `rotate`), links blocked and unblocked
(`block`, `unblock`, `blocked()`), and locations that hold only so many (an `admits` rule).

The fixture pack tests/fixtures/packs/caverns: a core with one tunnel (facing north unturned) ringed by
four chambers; the north-east tunnel starts blocked; a chamber holds 2 miners, the core 1.
"""

from __future__ import annotations

from pathlib import Path

from engine.compile.loading import load_pack
from engine.play.match import Match
from engine.runtime.boards import faces_open, turned_links
from engine.runtime.interpreter import Interpreter

PACK = Path(__file__).parent / "fixtures" / "packs" / "caverns"
ROTATE, WALK, UNBLOCK = "rotate core by 1", "call walk", "if blocked(north, east) { unblock north from east }"


def _near(game: Interpreter, cid: str) -> list[str]:
    return sorted(i.comp.id for i in game.neighbors(game.instance(cid, None)))


def test_turned_links_need_exits_facing_each_other() -> None:
    tiles = {"a": (["b", "c"], [0], 0), "b": (["a"], [0], 0), "c": (["a"], [0], 0)}
    assert turned_links(tiles) == {"a": ["b"], "b": ["a"], "c": []}
    assert faces_open(["b", "c"], [0], 1, "c") and not faces_open(["b", "c"], [0], 1, "b")


def test_turning_the_core_moves_its_tunnel() -> None:
    match = Match(load_pack(str(PACK)), 1, 1, {})
    game = match.game
    assert _near(game, "core") == ["north"]
    match.apply_label(ROTATE)
    assert _near(game, "core") == ["east"] and "core" not in _near(game, "north")
    assert game.instance("core", None).attrs["rotation"] == 1
    assert game.pack.graphs["cave"].links["core"] == ["north"]       # the printed board is unchanged


def test_a_blocked_link_is_no_link_until_unblocked() -> None:
    match = Match(load_pack(str(PACK)), 1, 1, {})
    game = match.game
    assert _near(game, "north") == ["core", "west"]
    assert game.is_blocked(game.instance("north", None), game.instance("east", None))
    match.apply_label(UNBLOCK)
    assert _near(game, "north") == ["core", "east", "west"]
    assert not game.is_blocked(game.instance("east", None), game.instance("north", None))


def test_a_blocked_link_stays_blocked_when_a_tile_turns() -> None:
    game = Match(load_pack(str(PACK)), 1, 1, {}).game
    core, north = game.instance("core", None), game.instance("north", None)
    game.block(core, north, True)
    game.rotate(core, 4)                                               # all the way round: faces north again
    assert _near(game, "core") == [] and game.is_blocked(core, north)
    game.block(core, north, False)
    assert _near(game, "core") == ["north"]


def test_a_location_holds_only_so_many() -> None:
    match = Match(load_pack(str(PACK)), 3, 1, {})
    match.apply_label(WALK)                                            # P1 from west: to North or South
    assert set(match.legal()) == {"North", "South"}
    match.apply_label("North")
    match.apply_label(WALK)
    match.apply_label("North")                                         # North holds 2 now
    match.apply_label(WALK)                                            # P3: North is full, so South
    assert match.game.instance("miner", 2).attrs["at"].uid == match.game.instance("south", None).uid


def test_turns_and_blocks_are_match_state() -> None:
    pack = load_pack(str(PACK))
    turned, opened = Match(pack, 1, 1, {}), Match(pack, 1, 1, {})
    turned.apply_label(ROTATE)
    opened.apply_label(UNBLOCK)
    assert turned.state_hash() != opened.state_hash()
    data = turned.game.state.to_data()
    assert data["boards"][("cave", None)][3] == (("east", "north"),)   # the padlock, with the turned core
    again = Match(pack, 1, 1, {})
    again.replay([entry["label"] for entry in turned.log])
    assert again.state_hash() == turned.state_hash()
    assert turned.fork().state_hash() == turned.state_hash()
