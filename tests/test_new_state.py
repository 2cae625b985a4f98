"""A match's starting state, made from its layout's rows (`new_state`): each zone holds exactly the items that
start in it, in uid order (taken as a slice of the items, or by a getter where their uids are not evenly
spaced), every state and player stores its attributes in one order (their fields'), and a copy (`copy_as`) is
the same state."""

from __future__ import annotations

import dataclasses
import pickle
from itertools import pairwise
from operator import itemgetter
from pathlib import Path

import pytest

import engine
from engine.play.agents import RandomAgent
from engine.play.match import Match
from engine.runtime.interpreter import Interpreter
from engine.runtime.state import Player, State, _fill, layout, new_state

CONTENT = sorted(path.name for path in (Path(__file__).resolve().parents[1] / "content").iterdir()
                 if (path / "pack.yaml").exists())


@pytest.mark.parametrize("uids", [[], [4], [2, 9], [0, 1, 2, 3], [13, 15, 17, 19], [1, 2, 4], [0, 5, 6, 20]])
def test_a_zone_takes_its_starting_items_by_slice_or_getter(uids: list[int]) -> None:
    items = list(range(100, 130))
    fill = _fill(uids)
    taken = fill(items)
    assert taken == [items[uid] for uid in uids] and taken.__class__ is list and taken is not fill(items)
    evenly = len(uids) < 3 or len({b - a for a, b in pairwise(uids)}) == 1
    assert isinstance(fill, itemgetter) == evenly    # (a slice of the items where their uids are evenly spaced)


@pytest.mark.parametrize("name", CONTENT)
def test_each_zone_starts_with_the_items_laid_out_for_it(name: str) -> None:
    pack = engine.load_pack(name)
    for players in range(pack.min_players, pack.max_players + 1):
        state = new_state(pack, players, 1)
        plan = layout(pack, players)
        zones = state.all_zones()
        assert [z.zdef.id for z in zones] == [row[0] for row in plan.zone_rows]
        for slot, zone in enumerate(zones):
            expected = [item for item in state.items if plan.item_rows[item.uid][5] == slot]
            assert zone.items == expected and all(item.zone is zone for item in zone.items)
            names = [item.comp.name for item in zone.items]
            assert zone.names_differ == (bool(names) and len(set(names)) == len(names))
            assert zone.hears is None and zone.capacity == zone.zdef.capacity
        assert [item.uid for item in state.items] == list(range(len(state.items)))
        assert all(item.attrs is item.comp.values for item in state.items)   # shared until a first write (`Item`)
        assert all(item.zone is None for item in state.items if plan.item_rows[item.uid][5] < 0)


@pytest.mark.parametrize("name", ["goofspiel", "robot-factory"])
def test_states_and_players_store_their_fields_in_one_order(name: str) -> None:
    """Every state (and player) keeps its attribute names in one shared table only while it stores them in the
    same order: the order of its fields, in a new match and in a copy alike."""
    pack = engine.load_pack(name)
    fields = [f.name for f in dataclasses.fields(State)]
    match = Match(pack, 2, 4, forkable=True)
    match.run([RandomAgent(4, seat) for seat in range(2)], stop_after=12)
    for state in (new_state(pack, 2, 1), match.game.state, match.fork().game.state):
        assert list(vars(state)) == fields
        assert all(list(vars(player)) == [f.name for f in dataclasses.fields(Player)] for player in state.players)


def test_a_copied_state_holds_the_same_data_and_pickles() -> None:
    pack = engine.load_pack("robot-factory")
    match = Match(pack, 2, 8, forkable=True)
    match.run([RandomAgent(8, seat) for seat in range(2)], stop_after=20)
    state = match.game.state
    copy = state.copy_as(state.to_data())
    assert copy.to_data() == state.to_data() and copy.digest() == state.digest()
    assert pickle.loads(pickle.dumps(copy.to_data())) == state.to_data()   # (its plain form pickles)


def test_a_pack_without_active_zones_shares_empty_ones() -> None:
    game = Interpreter(engine.load_pack("goofspiel"), 2, 1)
    assert all(zones == () for zones in game._active_zones)
