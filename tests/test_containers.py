"""Containers, alone: counters held by items with weighted capacity, gains spread over them, costs paid
from a given one (`within`), moves only to a higher-numbered tank, a common pool on the table.

The fixture pack tests/fixtures/packs/tanks: three tanks (room 4, 4, 6) that take water (size 1) and
oil (size 2), a vat that takes only acid, and a common pool holding oil.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import engine
from engine.compile.loading import load_pack
from engine.errors import RuleError
from engine.play.match import Match
from engine.play.state_paths import PathError, read, write
from engine.runtime.containers import held, put
from engine.runtime.context import Ctx
from engine.runtime.interpreter import Interpreter
from engine.runtime.state import Item

PACK = Path(__file__).parent / "fixtures" / "packs" / "tanks"


def _match(players: int = 1, seed: int = 1) -> Match:
    return Match(load_pack(str(PACK)), players, seed, {})


def _tank(game: Interpreter, cid: str, seat: int | None = 0) -> Item:
    return game.instance(cid, seat)


def _contents(game: Interpreter, seat: int = 0) -> dict[str, dict[str, int]]:
    tanks = {cid: _tank(game, cid, seat) for cid in ("tank_1", "tank_2", "tank_3", "acid_vat")}
    return {cid: {c: held(t, c) for c in ("water", "oil", "acid") if held(t, c)} for cid, t in tanks.items()}


def test_the_counter_is_what_the_tanks_hold_and_setup_filled_one_tank() -> None:
    match = _match()
    game = match.game
    assert _contents(game) == {"tank_1": {"water": 2}, "tank_2": {}, "tank_3": {}, "acid_vat": {}}
    assert game.counter("water", 0) == 2
    assert held(_tank(game, "common_pool", None), "oil") == 4


def test_gains_are_spread_one_unit_at_a_time_over_containers_with_room() -> None:
    match = _match()
    match.apply_label("call pump")                 # gain 3 water: tank 1 has room for 2 more
    assert set(match.legal()) == {"Tank 1", "Tank 2", "Tank 3"}    # not the vat: it takes only acid
    match.apply_label("Tank 1")
    match.apply_label("Tank 1")                    # tank 1 full (4): only tanks 2 and 3 are offered now
    assert set(match.legal()) == {"Tank 2", "Tank 3"}
    match.apply_label("Tank 3")
    assert _contents(match.game) == {"tank_1": {"water": 4}, "tank_2": {}, "tank_3": {"water": 1}, "acid_vat": {}}


def test_capacity_is_weighted_and_what_fits_nowhere_is_lost() -> None:
    game = _match().game
    ctx = Ctx(game, 0)
    for cid, water in (("tank_1", 3), ("tank_2", 4), ("tank_3", 5)):
        put(_tank(game, cid), "water", water)
    assert [game.room_for(_tank(game, c), "oil") for c in ("tank_1", "tank_2", "tank_3")] == [0, 0, 0]
    assert game.room_for(_tank(game, "tank_1"), "water") == 1
    game.gain(ctx, "oil", 2)                       # oil takes 2 room: it fits nowhere
    assert game.counter("oil", 0) == 0
    game.gain(ctx, "acid", 5)                      # the vat takes acid, 3 at most
    assert game.counter("acid", 0) == 3 and held(_tank(game, "acid_vat"), "acid") == 3


def test_within_pays_only_from_that_container() -> None:
    game = _match().game
    ctx = Ctx(game, 0)
    put(_tank(game, "tank_2"), "oil", 1)
    put(_tank(game, "tank_3"), "oil", 2)
    ctx.pool = (_tank(game, "tank_2"),)
    assert game.held_total(ctx, "oil") == 1
    assert game.can_pay(ctx, {"oil": 1}) and not game.can_pay(ctx, {"oil": 2})   # 3 in all, 1 in tank 2
    with pytest.raises(RuleError, match="cannot pay"):
        game.pay(ctx, {"oil": 2}, "2 oil")
    game.pay(ctx, {"oil": 1}, "1 oil")
    assert held(_tank(game, "tank_2"), "oil") == 0 and held(_tank(game, "tank_3"), "oil") == 2


def test_paying_without_within_asks_which_container_only_when_there_is_a_choice() -> None:
    match = _match()
    game = match.game
    put(_tank(game, "tank_2"), "water", 1)         # 3 water: 2 in tank 1, 1 in tank 2
    match.apply_label("call refine")               # pay 2 water from 3: where from?
    assert set(match.legal()) == {"Tank 1", "Tank 2"}
    match.apply_label("Tank 2")                    # the second unit can only come from tank 1: not asked
    assert match.decision is not None and match.decision.prompt == "put 1 Oil in"
    assert _contents(game)["tank_1"] == {"water": 1} and _contents(game)["tank_2"] == {}


def test_water_moves_only_to_a_higher_numbered_tank_with_room() -> None:
    match = _match()
    game = match.game
    put(_tank(game, "tank_2"), "water", 4)          # tank 2 full
    match.apply_label("call shift")
    assert set(match.legal()) == {"Tank 1", "Tank 2"}
    match.apply_label("Tank 2")                      # from tank 2: only tank 3 is higher, so not asked
    assert _contents(game)["tank_3"] == {"water": 1} and _contents(game)["tank_2"] == {"water": 3}
    match.apply_label("call shift")
    match.apply_label("Tank 1")                      # from tank 1: tanks 2 (room again) and 3
    assert set(match.legal()) == {"Tank 2", "Tank 3"}
    match.apply_label("Tank 2")
    assert _contents(game)["tank_2"] == {"water": 4} and _contents(game)["tank_1"] == {"water": 1}


def test_a_shared_pool_pays_for_anyone() -> None:
    match = _match()
    match.apply_label("call borrow")                 # the common pool pays 1 oil, the player gains 1
    match.apply_label("Tank 3")
    game = match.game
    assert held(_tank(game, "common_pool", None), "oil") == 3
    assert game.counter("oil", 0) == 1


def test_within_several_containers_pays_from_any_of_them() -> None:
    """`within items(tanks, [common_pool])`: the cost is payable from the player's tanks and the pool together,
    each unit taken from the one the player picks; what the block reads is their total."""
    match = _match()
    game = match.game
    put(_tank(game, "tank_2"), "oil", 1)
    assert "call splurge" in match.legal()           # 1 oil of their own + 4 in the pool
    match.apply_label("call splurge")
    assert set(match.legal()) == {"Tank 2", "Common pool"}
    match.apply_label("Tank 2")                      # the first unit from the player's tank, the other two
    assert match.decision.prompt == "choose one"     # only from the pool: not asked (the next turn is)
    assert held(_tank(game, "tank_2"), "oil") == 0 and held(_tank(game, "common_pool", None), "oil") == 2
    assert game.counter("coin", 0) == 7
    ctx = Ctx(game, 0)
    ctx.pool = (_tank(game, "tank_1"), _tank(game, "common_pool", None))
    assert game.held_total(ctx, "water") == 2 and game.held_total(ctx, "oil") == 2


def test_held_counters_cannot_be_set() -> None:
    game = _match().game
    with pytest.raises(RuleError, match="held in containers"):
        game.set_counter(Ctx(game, 0), "water", 3)
    with pytest.raises(RuleError, match="held in containers"):
        game.change(Ctx(game, 0), "water", 3)          # `set p.water = 3` for a player p


def test_contents_are_match_state_forks_and_replays_agree() -> None:
    pack = load_pack(str(PACK))
    rng = random.Random(3)
    match = engine.new_match(pack, 2, 3)
    answers, hashes = [], []
    while not match.done:
        hashes.append(match.state_hash())
        answers.append(rng.randrange(len(match.legal())))
        match.apply(answers[-1])
    again = engine.new_match(pack, 2, 3)
    for at, answer in enumerate(answers):
        assert again.state_hash() == hashes[at]
        if at % 5 == 2:
            fork = again.fork()
            assert fork.state_hash() == hashes[at]
            fork.apply(answer)
        again.apply(answer)
    assert again.state_hash() == match.state_hash()
    data = match.game.state.to_data()
    assert all(isinstance(attrs.get("_held", ()), tuple) for attrs in data["attrs"])


def test_scenarios_read_and_set_a_containers_contents() -> None:
    match = _match()
    write(match, "P1.tank_3.oil", 2)
    write(match, "common_pool.oil", 1)
    assert read(match, "P1.tank_3.oil") == 2 and read(match, "P1.oil") == 2 and read(match, "common_pool.oil") == 1
    with pytest.raises(PathError, match="what containers hold"):
        write(match, "P1.water", 3)
