"""The names a match's dicts are keyed by are interned (build.py `_intern_names`): generated code looks them
up by constants, and a key that is an equal string but another object costs a byte comparison per lookup."""

from __future__ import annotations

import sys

import pytest

from engine.compile.loading import load_pack
from engine.play.match import Match
from engine.runtime.state import new_state

PACKS = ["robot-factory", "raising-robots", "goofspiel", "connect-four"]


def _interned(name: str) -> bool:
    return sys.intern(name) is name


@pytest.mark.parametrize("pack_id", PACKS)
def test_a_built_packs_names_are_interned(pack_id: str) -> None:
    pack = load_pack(pack_id)
    for table in (pack.counters, pack.zones, pack.components, pack.triggers_on):
        assert all(map(_interned, table))
    assert all(_interned(c.id) for c in pack.counters.values())
    assert all(_interned(z.id) for z in pack.zones.values())
    for comp in pack.components.values():
        assert _interned(comp.id)
        assert all(map(_interned, comp.values))
        assert all(map(_interned, comp.triggers_on))
    assert all(map(_interned, pack.listened | pack.item_listened | pack.early_events))


def test_a_new_matchs_state_is_keyed_by_interned_names() -> None:
    pack = load_pack("robot-factory")
    state = new_state(pack, 2, 1)
    for player in state.players:
        assert all(map(_interned, player.zones))
        assert all(map(_interned, player.counters))
    assert all(map(_interned, state.zones))
    assert all(_interned(key) for item in state.items for key in item.attrs)
    assert Match(pack, 2, 1).decision is not None   # and the pack still plays
