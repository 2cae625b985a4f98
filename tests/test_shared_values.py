"""An item's attributes are its component's `values` dict itself until the item's first attribute write
(`Item.own_attrs`, engine/runtime/state.py): every write must make them the item's own first. One that does not
changes the component for every later match: the games below would find the pack's values changed, or the
second of two identical games played differently from the first."""

from __future__ import annotations

import copy
import random
from pathlib import Path
from typing import Any

import pytest

import engine
from engine.errors import RuleError
from engine.play.agents import RandomAgent
from engine.play.match import Match
from engine.play.mcts import MctsAgent
from engine.runtime import containers
from engine.runtime.determinize import redeal_hidden
from engine.runtime.dsl_values import set_item_attr
from engine.runtime.interpreter import Interpreter
from engine.runtime.state import Item, ItemRef, layout

CONTENT = Path(__file__).resolve().parents[1] / "content"
PACKS = sorted(p.name for p in CONTENT.iterdir() if (p / "pack.yaml").is_file())   # every shipped pack
FIXTURES = Path(__file__).parent / "fixtures" / "packs"
WRITES = FIXTURES / "attr-writes"     # every way generated code stores an attribute


def printed(pack: Any) -> dict[str, Any]:
    """Every component's values, deep-copied (a value changed inside a list shows too)."""
    return {cid: copy.deepcopy(comp.values) for cid, comp in pack.components.items()}


def played(pack: Any, players: int, seed: int, options: dict[str, bool] | None = None) -> tuple[str, Any]:
    """A random game's final hash and outcome; its state is released for the next match (`Layout.spares`)."""
    match = Match.played(pack, players, seed, [RandomAgent(seed, seat) for seat in range(players)], options)
    result = match.game.state.digest(), match.outcome()
    match.release()
    return result


def sharing(items: list[Item]) -> list[int]:
    """The uids of the items that share their component's values."""
    return [item.uid for item in items if item.attrs is item.comp.values]


@pytest.mark.parametrize("name", PACKS)
def test_games_of_every_pack_leave_its_values_as_they_were(name: str) -> None:
    pack = engine.load_pack(name)
    before = printed(pack)
    runs: list[tuple[int, dict[str, bool] | None]] = [(n, None) for n in range(pack.min_players, pack.max_players + 1)]
    for option in pack.options:     # each option alone, at the fewest players it allows
        for players in range(pack.min_players, pack.max_players + 1):
            try:
                Match(pack, players, 0, {option: True}).release()
            except RuleError:
                continue
            runs.append((players, {option: True}))
            break
    for players, options in runs:
        first = played(pack, players, 7, options)
        assert played(pack, players, 7, options) == first, (players, options)
    assert printed(pack) == before


@pytest.mark.parametrize("name", ["goofspiel", "connect-four", "breakthrough"])
def test_searching_bots_forks_and_deals_leave_the_values_as_they_were(name: str) -> None:
    """MCTS forks the match (`to_data`, `copy_as`, `load`) and deals hidden cards again (Goofspiel's hands)."""
    pack = engine.load_pack(name)
    before = printed(pack)
    results = []
    for _ in range(2):
        match = Match(pack, 2, 3)
        match.run([MctsAgent(3, seat, iterations=8, depth=6) for seat in range(2)])
        results.append((match.game.state.digest(), match.outcome()))
    assert results[0] == results[1]
    assert printed(pack) == before


def test_a_new_match_shares_every_components_values() -> None:
    pack = engine.load_pack("connect-four")
    layout(pack, 2).spares.clear()
    fresh = Match(pack, 2, 1)
    assert len(sharing(fresh.game.state.items)) == len(fresh.game.state.items)
    fresh.release()
    finished = Match.played(pack, 2, 1, [RandomAgent(1, seat) for seat in range(2)])
    items = finished.game.state.items
    marked = {item.uid for item in items if item.attrs["mark"]}
    assert marked and set(sharing(items)) == {item.uid for item in items} - marked
    finished.release()
    renewed = Match(pack, 2, 2)     # on the released match's objects
    assert renewed.game.state is finished.game.state
    assert len(sharing(renewed.game.state.items)) == len(items)


def test_every_generated_store_makes_the_attributes_the_items_own() -> None:
    """The fixture stores through a loop's item, a local of unknown kind, an item expression, an expression of
    unknown kind, a choice's item, and an item reference (`set_item_attr`)."""
    pack = engine.load_pack(WRITES)
    before = printed(pack)
    results = []
    for seed in (1, 1, 2):
        match = Match.played(pack, 2, seed, [RandomAgent(seed, seat) for seat in range(2)])
        items = match.game.state.items
        written = [item for item in items if item.attrs != item.comp.values]
        assert len(written) >= 4 and not set(sharing(written))
        assert {item.attrs["points"] for item in items} >= {5, 9}
        assert {item.attrs["tag"] for item in items} >= {"first", "chosen"}
        assert "picked" in {item.attrs["friend"] for item in items}
        assert any(isinstance(item.attrs["friend"], ItemRef) for item in items)
        results.append(match.game.state.digest())
        match.release()
    assert results[0] == results[1]
    assert printed(pack) == before


def test_a_forkable_match_and_its_fork_store_into_their_own_attributes() -> None:
    """The traced flow, checkpoints (`to_data(like)`), a fork (`copy_as`) and its catch-up (`load`)."""
    pack = engine.load_pack(WRITES)
    before = printed(pack)
    match = Match(pack, 2, 4, forkable=True)
    assert len(sharing(match.game.state.items)) < len(match.game.state.items)   # the first turn wrote
    fork = match.fork()
    assert sharing(fork.game.state.items) == sharing(match.game.state.items)
    fork.run([RandomAgent(4, seat) for seat in range(2)])
    match.run([RandomAgent(4, seat) for seat in range(2)])
    assert fork.game.state.digest() == match.game.state.digest()
    assert printed(pack) == before


def test_to_data_holds_the_shared_values_and_load_and_copy_as_share_them_again() -> None:
    pack = engine.load_pack("goofspiel")
    state = Match(pack, 2, 5).game.state
    data = state.to_data()
    assert all(attrs is item.comp.values for attrs, item in zip(data["attrs"], state.items, strict=True))
    item = state.items[0]
    item.own_attrs()["value"] = 99
    later = state.to_data(like=data)
    assert later["attrs"][0] == {**item.comp.values, "value": 99} and later["attrs"][0] is not item.attrs
    assert later["attrs"][1] is state.items[1].comp.values
    state.load(data)
    assert item.attrs is item.comp.values and item.attrs["value"] != 99
    state.load(later)
    assert item.attrs["value"] == 99 and item.attrs is not later["attrs"][0]
    copied = state.copy_as(data)
    assert all(i.attrs is i.comp.values for i in copied.items)
    copied.items[1].own_attrs()["value"] = 42
    assert pack.components[copied.items[1].comp.id].values["value"] != 42


def _game(pack_dir: Path | str, players: int = 2) -> Interpreter:
    return Match(engine.load_pack(pack_dir), players, 1).game


def test_set_item_attr_and_set_attr_copy_before_the_first_write() -> None:
    game = _game(FIXTURES / "minimal")
    first, second = game.state.items[0], game.state.items[1]
    assert first.comp is second.comp and first.attrs is second.attrs is first.comp.values
    set_item_attr(first, "points", 8)
    game.set_attr(second, "points", 6)
    assert (first.attrs["points"], second.attrs["points"], first.comp.values["points"]) == (8, 6, 1)
    own = first.attrs
    set_item_attr(first, "points", 9)      # a second write goes into the dict the first made
    assert first.attrs is own and own["points"] == 9


def test_rotate_copies_before_the_first_write() -> None:
    game = _game(FIXTURES / "caverns")
    tile = next(item for item in game.state.items if item.comp.ctype.turns is not None and item.attrs.get("sides"))
    rotation = tile.comp.ctype.turns[2]
    start = tile.comp.values.get(rotation)
    game.rotate(tile, 1)
    assert tile.attrs is not tile.comp.values and tile.attrs[rotation] != start
    assert tile.comp.values.get(rotation) == start


def test_a_containers_put_copies_before_the_first_write() -> None:
    game = _game(FIXTURES / "tanks")
    tank = next(item for item in game.state.items if item.comp.ctype.container is not None)
    values = copy.deepcopy(tank.comp.values)
    containers.put(tank, "water", 2)
    assert containers.held(tank, "water") == 2 and tank.attrs is not tank.comp.values
    assert tank.comp.values == values and containers.HELD not in tank.comp.values


def test_a_deal_hands_the_shared_values_back_and_the_next_write_copies() -> None:
    """A dealt item takes the state its place was given (a new dict) or, given none, its printed values (shared)."""
    pack = engine.load_pack("goofspiel")
    before = printed(pack)
    state = Match(pack, 2, 6).game.state
    hidden = [item for item in state.items if item.zone is not None and not item.zone.visible_to(0)]
    changed = hidden[0]
    changed.own_attrs()["value"] = 50    # its place keeps that; the card itself takes its printed values again
    random_deal = random.Random(1)
    while True:
        assert redeal_hidden(state, 0, random_deal) > 0
        if changed.attrs["value"] != 50:
            break
    assert changed.attrs is changed.comp.values
    assert [item.attrs["value"] for item in hidden].count(50) == 1
    for item in state.items:
        item.own_attrs()["value"] = -1
    assert printed(pack) == before
