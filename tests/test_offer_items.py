"""`offer` of items whose names clash (`_distinct_items`: copies merged in one pass) gives what `distinct` then
`option_labels` give: the same options, in the same order, with the same labels (or None where those labels
are the options' names, made by the `Decision` when read: `derived_labels`)."""

from __future__ import annotations

import contextlib
import random
from typing import Any

from engine.compile.effect import EffectCompiler
from engine.compile.loading import load_pack
from engine.dsl.parse import DslText
from engine.errors import RuleError
from engine.runtime.context import Ctx
from engine.runtime.decision import derived_labels
from engine.runtime.dsl_values import distinct, offer, option_labels
from engine.runtime.interpreter import Interpreter
from engine.runtime.state import new_state


def test_offer_of_items_with_clashing_names_is_distinct_then_labelled() -> None:
    state = new_state(load_pack("robot-factory"), 2, 1)
    rng = random.Random(7)
    labelled = merged = 0
    for _ in range(2000):
        things = rng.choices(state.items, k=rng.randint(1, 9))
        for item in rng.sample(things, k=rng.randint(0, len(things))):   # copies that differ, and some that do not
            item.attrs = {**item.attrs, "used": rng.randint(0, 1)}
        before = list(things)
        options, labels = offer(things, rng.random() < 0.5)
        expected = distinct(before)
        assert options == expected and things == before
        assert (labels if labels is not None else derived_labels(options)) == option_labels(expected)
        if labels is None:
            assert len({t.comp.name for t in options}) == len(options)
            merged += len(options) < len(things)
        else:
            labelled += 1
    # many draws have copies of one component (merged, names then differ), or robots (one name, five
    # components) or copies that differ (labelled here)
    assert labelled > 300 and merged > 300


def test_offer_of_one_item_or_of_a_list_made_for_it_copies_only_what_it_must() -> None:
    """A list made for the choice (`fresh`) is offered as it is; a zone's own list, or one item, as a copy."""
    state = new_state(load_pack("robot-factory"), 2, 1)
    zone = next(z for z in state.all_zones() if len({i.comp.name for i in z.items}) == len(z.items) > 1)
    made = list(zone.items)
    assert offer(made, True)[0] is made and offer(made)[0] is not made
    assert offer(zone.items, True)[0] is not zone.items   # a zone's own list is never handed out
    one = [zone.items[0]]
    assert offer(one) == ([zone.items[0]], None) and offer(one)[0] is not one
    assert derived_labels(offer(one)[0]) == option_labels(one)


def _effect(pack: Any, text: str) -> Any:
    dsl = DslText(text, None, ())
    tree = dsl.parse("effect")
    assert tree is not None
    return EffectCompiler(pack, dsl, set()).effect_function(tree, text)


def test_a_zone_remembers_names_that_differ_only_until_an_item_comes_in() -> None:
    """`offer` skips its pass over a zone's names while `Zone.names_differ` holds: every way an item comes in
    (a move, written out or not, onto the end or the top, a draw, a state loaded) clears it, so the options
    are always what `distinct` gives, whatever moved where (Goofspiel: each seat has a card of each name)."""
    pack = load_pack("goofspiel")
    game = Interpreter(pack, 2, 3)
    rng = random.Random(5)
    moves = [_effect(pack, "move hand[1] to next_player.hand"), _effect(pack, "draw 1 from hand to next_player.bid"),
             _effect(pack, "move bid[1] to spent"), _effect(pack, "move spent[1] to hand")]
    zones = game.state.all_zones()
    choose = _effect(pack, "choose c in hand { set turn = 1 }")   # generated code tests the quick case itself
    asked: list[Any] = []
    game.pause = lambda decision: asked.append(decision) or 0
    skipped = merged = 0
    saved = game.state.to_data()
    for _ in range(3000):
        roll = rng.random()
        if roll < 0.4:
            with contextlib.suppress(RuleError):   # an empty zone's [1]
                moves[rng.randrange(len(moves))].run(Ctx(game, rng.randrange(2)))
        elif roll < 0.8:
            game.move(Ctx(game, 0), rng.choice(game.state.items), rng.choice(zones), top=rng.random() < 0.3)
        elif roll < 0.85:
            game.state.load(saved)   # the zones as they were earlier
        elif roll < 0.9:
            saved = game.state.to_data()
        seat = rng.randrange(2)
        hand = game.state.players[seat].zones["hand"].items
        choose.run(Ctx(game, seat))
        if len(distinct(hand)) > 1:
            assert asked[-1].payloads == distinct(hand) and asked[-1].labels == option_labels(distinct(hand))
        for zone in zones:
            things = zone.items
            skipped += zone.names_differ and len(things) > 1
            options, labels = offer(things)
            assert options == distinct(things)
            assert (labels if labels is not None else derived_labels(options)) == option_labels(options)
            merged += len(options) < len(things)
            if labels is None and len(options) == len(things) > 1:
                assert zone.names_differ and len({t.comp.name for t in things}) == len(things)
    assert skipped > 1000 and merged > 1000


def test_a_new_match_knows_which_starting_zones_hold_items_whose_names_differ() -> None:
    """`new_state` marks a zone whose starting items' names all differ (`Layout.zone_rows`), so the first
    choice over it skips `offer`'s pass; a zone of items with clashing names starts unmarked. A single item is
    offered with no labels (its name, made if read), as `distinct` then `option_labels` would label it."""
    for name in ("goofspiel", "robot-factory", "tic-tac-toe"):
        state = new_state(load_pack(name), 2, 1)
        for zone in state.all_zones():
            if zone.items:
                assert zone.names_differ == (len({i.comp.name for i in zone.items}) == len(zone.items))
        item = state.items[0]
        options, labels = offer([item])
        assert options == [item] and labels is None and option_labels(distinct([item])) == [item.comp.name]
