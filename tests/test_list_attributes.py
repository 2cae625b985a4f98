"""A list attribute that holds items or zones reads them back as those very things; a plain list
(numbers, ids: the usual case) is stored and read as it is, without a scan per read."""

from pathlib import Path

from engine.api import load_pack, new_match
from engine.runtime.context import Ctx
from engine.runtime.dsl_values import get_attr, set_item_attr
from engine.runtime.state import ItemRef, RefList, ZoneRef

PACK = Path(__file__).parent / "fixtures" / "packs" / "minimal"


def _game():
    return new_match(load_pack(PACK), 2, seed=1).game


def test_items_and_zones_in_a_list_read_back_as_themselves():
    game = _game()
    holder, other = game.state.items[0], game.state.items[-1]
    zone = game.state.all_zones()[0]
    set_item_attr(holder, "picked", [other, zone, 3])
    stored = holder.attrs["picked"]
    assert isinstance(stored, RefList)
    assert stored == [ItemRef(other.uid), ZoneRef(zone.id, zone.owner), 3]
    assert get_attr(Ctx(game, 0), holder, "picked") == [other, zone, 3]


def test_a_plain_list_is_stored_and_read_as_it_is():
    game = _game()
    holder = game.state.items[0]
    set_item_attr(holder, "numbers", [1, 2, "x"])
    stored = holder.attrs["numbers"]
    assert type(stored) is list
    assert get_attr(Ctx(game, 0), holder, "numbers") is stored


def test_a_list_of_refs_set_again_without_refs_becomes_plain():
    game = _game()
    holder, other = game.state.items[0], game.state.items[-1]
    set_item_attr(holder, "picked", [other])
    set_item_attr(holder, "picked", [5])
    assert type(holder.attrs["picked"]) is list
    assert get_attr(Ctx(game, 0), holder, "picked") == [5]


def test_the_state_digest_does_not_tell_the_two_kinds_of_list_apart():
    """The RefList is a reading aid: its plain data (and so every state hash) is that of a list."""
    game = _game()
    holder, other = game.state.items[0], game.state.items[-1]
    set_item_attr(holder, "picked", [other])
    with_reflist = game.state.digest()
    holder.own_attrs()["picked"] = [ItemRef(other.uid)]
    assert game.state.digest() == with_reflist
