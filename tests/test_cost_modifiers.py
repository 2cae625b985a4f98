"""Cost modifiers, alone: discounts, surcharges and paying from another pool, set by items in play,
applied at the one quote stage every cost passes.

The fixture pack tests/fixtures/packs/bazaar: wares bought with `pay w.price`; the Haggler perk takes 1
off cloth, the Patron pays jewels' gems from the treasury, the spice tax (a shared active zone) adds 1
coin to spice for everyone.
"""

from __future__ import annotations

from pathlib import Path

from engine.compile.loading import load_pack
from engine.play.match import Match
from engine.runtime.containers import held
from engine.runtime.context import Ctx
from engine.runtime.costs import reductions

PACK = Path(__file__).parent / "fixtures" / "packs" / "bazaar"


def _match(perks: list[str]) -> Match:
    match = Match(load_pack(str(PACK)), len(perks), 1, {})
    for perk in perks:
        if match.decision is not None and match.decision.prompt == "take a perk":
            match.apply_label(perk.capitalize())     # the last perk left is taken without asking
    return match


def test_a_discount_is_placed_by_the_payer_on_any_part_of_the_cost() -> None:
    match = _match(["haggler"])
    game = match.game
    linen = game.instance("linen", None)
    assert game.quote(Ctx(game, 0), {"coin": 1, "gem": 1}, linen)[0] == [{"gem": 1}, {"coin": 1}]
    match.apply_label("Linen")                       # 1 coin + 1 gem, 1 less: pay 1 coin, or 1 gem
    assert set(match.legal()) == {"pay 1 coin", "pay 1 gem"}
    match.apply_label("pay 1 gem")
    assert game.counter("gem", 0) == 0 and game.counter("coin", 0) == 5


def test_a_discount_makes_a_cost_payable_that_was_not() -> None:
    match = _match(["haggler"])
    game = match.game
    game.state.players[0].counters["coin"] = 2
    silk = game.instance("silk", None)
    assert game.can_pay_attr(Ctx(game, 0), silk, "price")          # 3 coin, 1 less
    assert "Silk" in match.legal()


def test_a_modifier_applies_only_where_its_condition_holds() -> None:
    match = _match(["haggler"])
    game = match.game
    pepper = game.instance("pepper", None)
    assert game.quote(Ctx(game, 0), {"coin": 2}, pepper)[0] == [{"coin": 3}]   # the tax, no discount
    assert game.quote(Ctx(game, 0), {"coin": 2}, None)[0] == [{"coin": 2}]     # a rule's own cost: no item


def test_a_surcharge_from_a_shared_active_zone_reaches_every_player() -> None:
    match = _match(["haggler", "patron"])
    match.apply_label("Pepper")                      # P1: 2 coin + 1 tax
    game = match.game
    assert game.counter("coin", 0) == 2
    assert game.instance("patron", None).zone is game.state.zone("tableau", 1)
    pepper = game.instance("pepper", None)
    assert game.quote(Ctx(game, 1), {"coin": 2}, pepper)[0] == [{"coin": 3}]   # the tax for P2 too
    match.apply_label("Silk")                        # P2 (patron, no discount): 3 coin
    assert game.counter("coin", 1) == 2


def test_paying_from_another_pool() -> None:
    match = _match(["patron"])
    game = match.game
    ruby = game.instance("ruby", None)
    assert game.counter("gem", 0) == 1               # 1 gem in the pouch: not enough for a ruby alone
    assert game.can_pay_attr(Ctx(game, 0), ruby, "price")
    match.apply_label("Ruby")
    assert held(game.instance("treasury", None), "gem") == 2 and game.counter("gem", 0) == 1


def test_reductions_list_each_way_to_place_a_discount() -> None:
    assert reductions({"a": 2, "b": 1}, 2) == [{"b": 1}, {"a": 1}]
    assert reductions({"a": 2}, 5) == [{}]
    assert reductions({"a": 2}, 0) == [{"a": 2}]


def test_packs_without_modifiers_skip_the_quote() -> None:
    assert load_pack(str(PACK)).modified
    assert not load_pack(str(PACK.parent / "tanks")).modified
