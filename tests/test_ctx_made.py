"""`Interpreter._fire` and a derived attribute's read (`dsl_values.item_attr`) store a context's slots one by
one (no `__init__` frame for every trigger fired and derived value read): each slot set, and equal to what
`Ctx(...)` makes from the same values. A slot added to `Ctx` and not to those fast paths fails here."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import engine
from engine.runtime.context import Ctx
from engine.runtime.dsl_values import get_attr
from engine.runtime.interpreter import Interpreter


def _slots(ctx: Any) -> dict[str, Any]:
    return {name: getattr(ctx, name) for name in Ctx.__slots__}


def test_a_fired_trigger_and_a_derived_read_get_a_whole_context() -> None:
    pack = engine.load_pack("robot-factory")
    game = Interpreter(pack, 2, 1)
    seen: list[Any] = []
    trigger = next(t for t in pack.triggers if t.when is None)
    watched = replace(trigger, when=lambda ctx: seen.append(ctx) and False)
    item, payload = game.state.items[0], {"amount": 1}
    assert game._fire(watched, item, 1, payload) is False
    assert _slots(seen[-1]) == _slots(Ctx(game, 1, item, payload))
    assert game._fire(watched, None, None, payload) is False
    assert _slots(seen[-1]) == _slots(Ctx(game, None, None, payload))

    card = next(i for i in game.state.items if "build_price" in i.comp.derived)
    card.comp.derived["build_price"], kept = (lambda ctx: seen.append(ctx) or 7), card.comp.derived["build_price"]
    try:
        for owner, seat in ((card.owner, 0), (None, 1)):
            card.owner = owner
            assert get_attr(Ctx(game, seat), card, "build_price") == 7
            assert _slots(seen[-1]) == _slots(Ctx(game, owner if owner is not None else seat, card))
    finally:
        card.comp.derived["build_price"] = kept
