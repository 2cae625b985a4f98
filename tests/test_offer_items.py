"""`offer` of items whose names clash (`_distinct_items`: merged and labelled in one pass) gives what
`distinct` then `option_labels` give: the same options, in the same order, with the same labels."""

from __future__ import annotations

import random

from engine.compile.loading import load_pack
from engine.runtime.dsl_values import distinct, offer, option_labels
from engine.runtime.state import new_state


def test_offer_of_items_with_clashing_names_is_distinct_then_labelled() -> None:
    state = new_state(load_pack("robot-factory"), 2, 1)
    rng = random.Random(7)
    clashed = 0
    for _ in range(2000):
        things = rng.choices(state.items, k=rng.randint(2, 9))
        for item in rng.sample(things, k=rng.randint(0, len(things))):   # copies that differ, and some that do not
            item.attrs = {**item.attrs, "used": rng.randint(0, 1)}
        options, labels = offer(things)
        expected = distinct(things)
        assert options == expected
        if labels is not None:
            clashed += 1
            assert labels == option_labels(expected)
        else:
            assert len({t.comp.name for t in things}) == len(things)
    assert clashed > 500   # many draws have copies of one component, or robots (one name, five components)
