"""Counters read from items and paid by exhausting them (`counters: X: {items: ...}`), alone.

The fixture pack tests/fixtures/packs/exhaust: Forest 1, Mountain 2, Crystal Cave 3 (brittle: discarded
when paid with), Cursed Bog -1 (counts, never pays); a Lamp costs 2 mana, a Crown 4.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.compile.build import Builder
from engine.compile.loading import load_pack
from engine.diagnostics import PackError
from engine.packs.files import load_pack_files
from engine.play.session import Session

PACK = Path(__file__).parent / "fixtures" / "packs" / "exhaust"


def _session() -> Session:
    return Session(load_pack(str(PACK)), 1, 1, {})


def _ids(session: Session, zone: str) -> list[str]:
    return [i.comp.id for i in session.game.state.players[0].zones[zone].items]


def test_the_value_is_the_sum_over_unexhausted_items_negative_ones_included() -> None:
    session = _session()
    assert session.game.counter("mana", 0) == 1 + 2 + 3 - 1
    assert session.game.spendable("mana", 0) == 6      # the Cursed Bog lowers the value but cannot pay


def test_paying_exhausts_chosen_items_until_covered_and_they_stop_counting() -> None:
    session = _session()
    assert session.pending is not None and session.pending.labels == ["Lamp", "Crown", "done"]
    session.answer_label("Crown")
    assert session.pending.prompt == "exhaust for 4 Mana"
    assert session.pending.labels == ["Forest", "Mountain", "Crystal Cave"]   # not the Cursed Bog
    session.answer_label("Mountain")
    assert session.pending.prompt == "exhaust for 2 Mana"
    session.answer_label("Forest")     # 1 left: the Crystal Cave is the only payer, taken without asking;
    # it is brittle, so it is discarded instead, and 2 of its 3 mana are lost
    assert _ids(session, "lands") == ["forest", "mountain", "cursed_bog"]
    assert _ids(session, "graveyard") == ["crystal_cave"]
    lands = {i.comp.id: i for i in session.game.state.players[0].zones["lands"].items}
    assert lands["forest"].attrs["tapped"] and lands["mountain"].attrs["tapped"]
    assert session.game.counter("mana", 0) == -1          # only the Cursed Bog still counts
    assert session.done                                    # nothing affordable is left: the shop closes


def test_a_cost_the_items_cannot_cover_is_not_offered() -> None:
    session = _session()
    session.answer_label("Lamp")
    session.answer_label("Crystal Cave")                   # 3 covers 2 at once (and is discarded)
    assert session.game.spendable("mana", 0) == 3          # Forest + Mountain: short of the Crown's 4
    assert session.done                                     # so the shop offers nothing more
    assert [i.comp.id for i in session.game.state.zones["shop"].items] == ["crown"]


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
