"""Counters read from items and paid by exhausting them (`counters: X: {items: ...}`), alone.

The fixture pack tests/fixtures/packs/exhaust: Forest 1 (two copies), Mountain 2, Crystal Cave 3 (brittle:
discarded when paid with), Cursed Bog -1 (counts, never pays); a Lamp costs 2 mana, a Crown 4.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.compile.build import Builder
from engine.compile.loading import load_pack
from engine.diagnostics import PackError
from engine.packs.files import load_pack_files
from engine.play.match import Match
from engine.runtime.views import state_hash

PACK = Path(__file__).parent / "fixtures" / "packs" / "exhaust"


def _session() -> Match:
    return Match(load_pack(str(PACK)), 1, 1, {})


def _lands(session: Match) -> list:
    return session.game.state.players[0].zones["lands"].items


def test_the_value_is_the_sum_over_unexhausted_items_negative_ones_included() -> None:
    session = _session()
    assert session.game.counter("mana", 0) == 1 + 1 + 2 + 3 - 1
    assert session.game.spendable("mana", 0) == 7      # the Cursed Bog lowers the value but cannot pay


def test_paying_exhausts_chosen_items_until_covered_and_they_stop_counting() -> None:
    session = _session()
    assert session.decision is not None and session.decision.labels == ["Lamp", "Crown", "done"]
    session.apply_label("Crown")
    assert session.decision.prompt == "exhaust for 4 Mana"
    assert session.decision.labels == ["Forest", "Mountain", "Crystal Cave"]   # equal Forests once; no Bog
    session.apply_label("Mountain")
    assert session.decision.prompt == "exhaust for 2 Mana"
    session.apply_label("Forest")
    assert session.decision.prompt == "exhaust for 1 Mana"
    session.apply_label("Forest")
    assert [i.comp.id for i in _lands(session) if i.attrs["tapped"]] == ["forest", "forest", "mountain"]
    assert session.game.counter("mana", 0) == 3 - 1       # the Crystal Cave and the Cursed Bog still count
    assert session.decision.labels == ["Lamp", "done"]     # the Crystal Cave alone covers the Lamp


def test_an_item_where_discard_holds_is_discarded_instead_and_the_excess_is_lost() -> None:
    session = _session()
    session.apply_label("Lamp")
    session.apply_label("Crystal Cave")                   # 3 covers 2; the third mana is lost
    assert [i.comp.id for i in session.game.state.players[0].zones["graveyard"].items] == ["crystal_cave"]
    assert not any(i.attrs["tapped"] for i in _lands(session))
    assert session.game.spendable("mana", 0) == 4
    assert session.decision.labels == ["Crown", "done"]


def test_a_cost_the_items_cannot_cover_is_not_offered() -> None:
    session = _session()
    session.apply_label("Crown")
    session.apply_label("Crystal Cave")
    session.apply_label("Forest")                         # 3 + 1 = 4: paid
    assert session.game.spendable("mana", 0) == 3          # Forest + Mountain
    assert session.decision.labels == ["Lamp", "done"]
    session.apply_label("Lamp")
    session.apply_label("Mountain")
    assert session.done                                     # the shop is empty
    assert session.game.spendable("mana", 0) == 1


def test_copies_that_differ_get_unique_labels_and_replay_identically() -> None:
    session = _session()
    forests = [i for i in _lands(session) if i.comp.id == "forest"]
    forests[1].own_attrs()["brittle"] = True
    session.apply_label("Crown")
    labels = session.decision.labels
    assert len(labels) == len(set(labels)) == 4            # two Forests, told apart by what differs
    brittle = next(label for label in labels if "Forest" in label and "True" in label)
    session.apply_label(brittle)
    assert forests[1].zone is not None and forests[1].zone.id == "graveyard"
    again = _session()
    [i for i in _lands(again) if i.comp.id == "forest"][1].own_attrs()["brittle"] = True
    again.replay([entry["label"] for entry in session.log])    # the logged labels pick the same items
    assert state_hash(again.game) == state_hash(session.game)


@pytest.mark.parametrize("statement", ["gain 1 mana", "lose 1 mana", "set mana = 3"])
def test_an_item_backed_counter_cannot_be_changed_directly(tmp_path: Path, statement: str) -> None:
    pack = tmp_path / "exhaust"
    pack.mkdir()
    for f in PACK.iterdir():
        (pack / f.name).write_text(f.read_text(encoding="utf-8"), encoding="utf-8")
    game = pack / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8").replace(
        'do: "for l in land_deck { move l to lands }"', f'do: "for l in land_deck {{ move l to lands }}; {statement}"'),
        encoding="utf-8")
    with pytest.raises(PackError) as info:
        Builder(load_pack_files(pack)).build()
    assert [d.code for d in info.value.diagnostics] == ["ITEMS003"]
