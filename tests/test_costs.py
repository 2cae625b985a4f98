"""The cost solver (engine/runtime/costs.py) on a tiny hand-built pack.

Counters: `ore`, `glue` (may be paid instead of one `ore`), `card`; wildcard `wild` pays with ore,
card or glue. The main example: cost {ore: 1, wild: 2} with ore 1, glue 2, card 1 has exactly
three distinct ways.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable

import pytest

from engine.runtime.costs import MAX_WAYS, can_pay, explain, payers, payment_ways, way_label
from engine.runtime.defs import CounterDef, Pack, WildcardDef
from engine.runtime.limits import LimitError


def make_pack(wild_pay: list[str] | None = None) -> Pack:
    pack = Pack(id="costs", name="Costs", version="0.1.0", min_players=1, max_players=2, options={})
    for counter in (CounterDef("ore", "Ore", resource=True),
                    CounterDef("glue", "Glue", resource=True, substitutes=["ore"]),
                    CounterDef("card", "Card", resource=True),
                    CounterDef("point", "Point")):
        pack.counters[counter.id] = counter
    pack.wildcards["wild"] = WildcardDef("wild", "Wild", gain=["ore", "card"],
                                         pay=wild_pay if wild_pay is not None else ["ore", "card", "glue"])
    return pack


PACK = make_pack()


def have(**amounts: int) -> Callable[[str], int]:
    return lambda name: amounts.get(name, 0)


def as_set(ways: list[dict[str, int]]) -> set[frozenset[tuple[str, int]]]:
    return {frozenset(w.items()) for w in ways}


# --- payers -----------------------------------------------------------------------------------------------------------

def test_payers() -> None:
    assert payers(PACK, "ore") == ["ore", "glue"]
    assert payers(PACK, "glue") == ["glue"]                  # nothing substitutes for glue
    assert payers(PACK, "card") == ["card"]
    assert payers(PACK, "wild") == ["ore", "glue", "card"]   # a substitute right after its member, once


def test_payers_without_duplicates_when_a_substitute_is_also_listed() -> None:
    pack = make_pack(["glue", "ore", "card", "ore"])
    assert payers(pack, "wild") == ["glue", "ore", "card"]


# --- payment_ways -----------------------------------------------------------------------------------------------------

def test_the_example_has_exactly_three_distinct_ways() -> None:
    ways = payment_ways(PACK, {"ore": 1, "wild": 2}, have(ore=1, glue=2, card=1))
    assert ways == [{"ore": 1, "glue": 2}, {"ore": 1, "glue": 1, "card": 1}, {"glue": 2, "card": 1}]
    assert [way_label(w) for w in ways] == ["pay 2 glue + 1 ore", "pay 1 card + 1 glue + 1 ore",
                                            "pay 1 card + 2 glue"]


def test_the_example_ways_are_de_duplicated() -> None:
    """Paying the ore unit with glue and a wild unit with ore spends what the reverse spends: one way."""
    ways = payment_ways(PACK, {"ore": 1, "wild": 2}, have(ore=1, glue=2, card=1))
    assert len(as_set(ways)) == len(ways) == 3


def test_limit() -> None:
    need, available = {"ore": 1, "wild": 2}, have(ore=1, glue=2, card=1)
    every = payment_ways(PACK, need, available)
    assert payment_ways(PACK, need, available, limit=1) == every[:1]
    assert payment_ways(PACK, need, available, limit=2) == every[:2]
    assert payment_ways(PACK, need, available, limit=10) == every


def test_default_limit_caps_the_ways() -> None:
    ways = payment_ways(PACK, {"wild": 40}, have(ore=40, glue=40, card=40))
    assert len(ways) == MAX_WAYS
    assert len(as_set(ways)) == MAX_WAYS


@pytest.mark.parametrize(("available", "expected"), [
    (have(ore=2), [{"ore": 2}]),
    (have(ore=1, glue=1), [{"ore": 1, "glue": 1}]),
    (have(ore=2, glue=2), [{"ore": 2}, {"ore": 1, "glue": 1}, {"glue": 2}]),   # the counter itself preferred
    (have(glue=5), [{"glue": 2}]),
    (have(ore=1, card=9), []),
])
def test_plain_cost_with_a_substitute(available: Callable[[str], int], expected: list[dict[str, int]]) -> None:
    assert payment_ways(PACK, {"ore": 2}, available) == expected


def test_substitutes_are_not_symmetric() -> None:
    """Glue pays for ore; ore does not pay for glue."""
    assert payment_ways(PACK, {"glue": 1}, have(ore=3)) == []
    assert payment_ways(PACK, {"glue": 1, "ore": 1}, have(glue=1, ore=1)) == [{"glue": 1, "ore": 1}]
    assert payment_ways(PACK, {"glue": 1, "ore": 1}, have(glue=2)) == [{"glue": 2}]
    assert payment_ways(PACK, {"glue": 1, "ore": 1}, have(glue=1)) == []


def test_nothing_to_pay() -> None:
    assert payment_ways(PACK, {}, have()) == [{}]
    assert payment_ways(PACK, {"ore": 0, "wild": 0}, have()) == [{}]
    assert can_pay(PACK, {"ore": 0}, have())
    assert way_label({}) == "pay nothing"


def test_wildcard_with_nothing_left() -> None:
    """The plain part is taken first, so the wildcard sees only what is left."""
    assert payment_ways(PACK, {"ore": 1, "wild": 1}, have(ore=1)) == []
    assert payment_ways(PACK, {"ore": 1, "wild": 1}, have(ore=1, point=5)) == []     # point is not a payer
    assert payment_ways(PACK, {"ore": 1, "wild": 1}, have(ore=1, card=1)) == [{"ore": 1, "card": 1}]


def brute_force(pack: Pack, need: dict[str, int], available: Callable[[str], int]) -> set[frozenset[tuple[str, int]]]:
    """Every distinct multiset of counters that pays `need`, by trying every unit assignment."""
    def options(name: str) -> list[str]:
        members = pack.wildcards[name].pay if name in pack.wildcards else [name]
        return sorted({m for member in members
                       for m in [member, *(c.id for c in pack.counters.values() if member in c.substitutes)]})

    found: set[frozenset[tuple[str, int]]] = set()
    parts = [(options(n), a) for n, a in need.items() if a > 0]
    for choice in itertools.product(*(itertools.combinations_with_replacement(o, a) for o, a in parts)):
        spent = Counter(itertools.chain.from_iterable(choice))
        if all(spent[k] <= available(k) for k in spent):
            found.add(frozenset(spent.items()))
    return found


NEEDS = [{"ore": 1, "wild": 2}, {"ore": 2, "card": 1, "wild": 1}, {"wild": 3}, {"ore": 1, "glue": 1, "wild": 1}]


@pytest.mark.parametrize("need", NEEDS, ids=lambda n: "+".join(f"{v}{k}" for k, v in n.items()))
def test_ways_match_brute_force(need: dict[str, int]) -> None:
    for ore, glue, card in itertools.product(range(4), repeat=3):
        available = have(ore=ore, glue=glue, card=card)
        ways = payment_ways(PACK, need, available)
        assert len(as_set(ways)) == len(ways), (need, ore, glue, card)
        assert as_set(ways) == brute_force(PACK, need, available), (need, ore, glue, card)
        assert can_pay(PACK, need, available) == bool(ways)
        for way in ways:
            assert all(0 < n <= available(k) for k, n in way.items())
            assert sum(way.values()) == sum(need.values())


# --- explain ----------------------------------------------------------------------------------------------------------

def test_explain_a_short_plain_counter() -> None:
    assert explain(PACK, {"ore": 3}, have(ore=1, glue=1)) == "needs 3 ore (payable with ore, glue), has 2"
    assert explain(PACK, {"card": 2}, have(card=1)) == "needs 2 card, has 1"


def test_explain_a_short_wildcard() -> None:
    assert explain(PACK, {"wild": 5}, have(ore=1, glue=2, card=1)) == \
        "needs 5 wild (payable with ore, glue, card), has 4"


def test_explain_names_every_short_part() -> None:
    assert explain(PACK, {"card": 2, "ore": 1}, have()) == \
        "needs 2 card, has 0; needs 1 ore (payable with ore, glue), has 0"


def test_explain_parts_that_compete() -> None:
    need, available = {"ore": 1, "wild": 2}, have(ore=1, card=1)
    assert payment_ways(PACK, need, available) == []
    assert explain(PACK, need, available) == \
        "the parts can each be paid but not all together (they compete for the same counters)"


def test_can_pay_quick_path_sees_parts_competing_for_one_payer() -> None:
    """A wildcard paid only by `ore` competes with a plain `ore` part: 1 ore cannot pay both."""
    from engine.runtime.costs import can_pay
    from engine.runtime.defs import CounterDef, Pack, WildcardDef

    pack = Pack(id="t", name="t", version="0", min_players=1, max_players=1, options={})
    pack.counters["ore"] = CounterDef("ore", "Ore", resource=True)
    pack.wildcards["only_ore"] = WildcardDef("only_ore", "Only ore", gain=["ore"], pay=["ore"])
    have = {"ore": 1}
    assert not can_pay(pack, {"ore": 1, "only_ore": 1}, lambda c: have.get(c, 0))
    have["ore"] = 2
    assert can_pay(pack, {"ore": 1, "only_ore": 1}, lambda c: have.get(c, 0))


# --- competing wildcards: bounded search ------------------------------------------------------------------------------

def competing_pack(wildcards: int, counters: int) -> Pack:
    """`wildcards` wildcards that all pay with the same `counters` counters (c0, c1, ...)."""
    pack = Pack(id="competing", name="Competing", version="0.1.0", min_players=1, max_players=2, options={})
    members = [f"c{i}" for i in range(counters)]
    for name in members:
        pack.counters[name] = CounterDef(name, name.upper(), resource=True)
    for i in range(wildcards):
        pack.wildcards[f"w{i}"] = WildcardDef(f"w{i}", f"W{i}", gain=members, pay=members)
    return pack


def test_competing_wildcards_short_by_one_cannot_pay_without_trying_every_order() -> None:
    pack = competing_pack(12, 6)           # 6^12 orders of handing out the counters: the search must not try them
    need = {f"w{i}": 1 for i in range(12)}
    amounts = {f"c{i}": 2 for i in range(6)} | {"c0": 1}          # 11 counters for 12 parts
    assert payment_ways(pack, need, have(**amounts)) == []
    assert not can_pay(pack, need, have(**amounts))


def test_competing_wildcards_with_exactly_enough_have_one_way() -> None:
    pack = competing_pack(12, 6)
    need = {f"w{i}": 1 for i in range(12)}
    amounts = {f"c{i}": 2 for i in range(6)}
    assert payment_ways(pack, need, have(**amounts)) == [amounts]


def test_a_search_past_its_step_limit_offers_what_it_found_or_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    pack = competing_pack(4, 4)
    need = {f"w{i}": 2 for i in range(4)}
    amounts = have(**{f"c{i}": 2 for i in range(4)})
    everything = payment_ways(pack, need, amounts)
    monkeypatch.setattr("engine.runtime.costs.MAX_PAYMENT_STEPS", 12)
    found = payment_ways(pack, need, amounts)
    assert found and len(found) <= len(everything) and all(w in everything for w in found)
    monkeypatch.setattr("engine.runtime.costs.MAX_PAYMENT_STEPS", 3)
    with pytest.raises(LimitError, match="took more than 3 steps"):
        payment_ways(pack, need, amounts)
