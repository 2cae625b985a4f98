"""A released match's state is made the next match's (`Layout.spares`, engine/runtime/state.py `_renewed`): the
renewed state must be the state `new_state` makes, field for field, and a state still in play must never be
handed out."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

import engine
from engine.play.agents import RandomAgent
from engine.play.match import Match
from engine.runtime.state import Item, Spares, State, Zone, layout, new_state

CONTENT = Path(__file__).resolve().parents[1] / "content"
PACKS = sorted(p.name for p in CONTENT.iterdir() if (p / "pack.yaml").is_file())   # every shipped pack


def every_field(state: State) -> Any:
    """The state as plain data, every field of every object it holds: the state's and the players' attributes,
    every slot of every zone and item (a field a renewed state forgot to set differs here, whatever it is)."""

    def plain(value: Any) -> Any:
        if isinstance(value, Item):
            return ("item", value.uid)
        if isinstance(value, Zone):
            return ("zone", value.zdef.id, value.owner)
        if isinstance(value, dict):
            return {key: plain(v) for key, v in value.items()}
        if isinstance(value, list | tuple):
            return [plain(v) for v in value]
        if hasattr(value, "getstate"):    # the match's generator
            return value.getstate()
        return value

    def slots(obj: Any) -> dict[str, Any]:
        return {name: plain(getattr(obj, name)) for name in type(obj).__slots__}

    return {
        "state": {key: plain(value) for key, value in vars(state).items() if key not in ("players", "items")},
        "players": [{key: plain(value) for key, value in vars(p).items() if key != "zones"} for p in state.players],
        "zones": [slots(zone) for zone in state.all_zones()],
        "items": [slots(item) for item in state.items],
    }


def players_of(name: str) -> list[int]:
    pack = engine.load_pack(name)
    return sorted({pack.min_players, pack.max_players})


def finished(pack: Any, players: int, seed: int) -> Match:
    return Match.played(pack, players, seed, [RandomAgent(seed, seat) for seat in range(players)])


@pytest.mark.parametrize("name", PACKS)
def test_a_renewed_state_is_a_new_one(name: str) -> None:
    pack = engine.load_pack(name)
    for players in players_of(name):
        plan = layout(pack, players)
        plan.spares.clear()
        fresh = every_field(new_state(pack, players, 11, plan))
        match = finished(pack, players, 3)
        used = match.game.state
        assert every_field(used) != fresh    # (a game changed it: the renewal below has work to do)
        match.release()
        assert len(plan.spares) == 1
        renewed = new_state(pack, players, 11, plan)
        assert renewed is used and not plan.spares
        assert every_field(renewed) == fresh


@pytest.mark.parametrize("name", ["goofspiel", "robot-factory", "raising-robots"])
def test_games_after_a_release_play_as_games_without(name: str) -> None:
    pack = engine.load_pack(name)
    players = pack.min_players
    plan = layout(pack, players)
    plan.spares.clear()
    alone = [finished(pack, players, seed).outcome() for seed in range(4)]
    plan.spares.clear()
    after = []
    for seed in range(4):
        match = finished(pack, players, seed)
        after.append(match.outcome())
        match.release()
    assert after == alone


def test_a_match_is_released_once() -> None:
    """A second `release` must not put the state in again: by then a new match may be playing on it."""
    pack = engine.load_pack("goofspiel")
    plan = layout(pack, 2)
    plan.spares.clear()
    first = finished(pack, 2, 1)
    first.release()
    second = Match(pack, 2, 2)     # paused at its first decision, on the first match's objects
    assert second.game.state is first.game.state and not plan.spares
    first.release()
    assert not plan.spares
    second.release()
    assert len(plan.spares) == 1


def test_spares_are_few() -> None:
    pack = engine.load_pack("tic-tac-toe")
    plan = layout(pack, 2)
    plan.spares.clear()
    matches = [finished(pack, 2, seed) for seed in range(Spares.LIMIT + 3)]
    for match in matches:
        match.release()
    assert len(plan.spares) == Spares.LIMIT


def test_a_copied_pack_holds_no_spares() -> None:
    pack = engine.load_pack("connect-four")
    finished(pack, 2, 1).release()
    assert layout(pack, 2).spares
    other = copy.deepcopy(pack).layouts[2]
    assert other.spares == [] and isinstance(other.spares, Spares)
