"""`Zone.hears` (the events some item in a zone has a trigger on, kept by `Interpreter.emit`) is never less than
what the zone's items hear: every way an item comes into a zone (a move, written out or not, onto the end or the
top, a draw, a refill, a state loaded) forgets it, so an event finds every trigger of the items in the seat's
active zones, whatever moved where."""

from __future__ import annotations

import contextlib
import random
from typing import Any

from engine.compile.effect import EffectCompiler
from engine.compile.loading import load_pack
from engine.dsl.parse import DslText
from engine.errors import RuleError
from engine.play.agents import RandomAgent
from engine.play.match import Match
from engine.runtime.context import Ctx
from engine.runtime.interpreter import Interpreter


def _effect(pack: Any, text: str) -> Any:
    dsl = DslText(text, None, ())
    tree = dsl.parse("effect")
    assert tree is not None
    return EffectCompiler(pack, dsl, set()).effect_function(tree, text)


def _heard(items: list[Any]) -> set[str]:
    return {event for item in items for event, on in item.comp.triggers_on.items() if on}


def test_a_zone_forgets_what_its_items_hear_whenever_an_item_comes_in() -> None:
    pack = load_pack("robot-factory")
    game = Interpreter(pack, 2, 3)
    rng = random.Random(11)
    moves = [_effect(pack, "move hand[1] to modules"), _effect(pack, "draw 1 from module_deck to modules"),
             _effect(pack, "move modules[1] to discard"), _effect(pack, "move software[1] to next_player.software"),
             _effect(pack, "draw 2 from module_deck to software")]
    zones = game.state.all_zones()
    fired: list[tuple[str, int]] = []
    game._fire = lambda trigger, item, seat, payload: fired.append(
        (trigger.id, None if item is None else item.uid)) or False  # type: ignore[method-assign]
    events = sorted(pack.item_listened)
    kept = 0
    saved = game.state.to_data()
    for _ in range(3000):
        roll = rng.random()
        if roll < 0.4:
            with contextlib.suppress(RuleError):   # an empty zone's [1]
                moves[rng.randrange(len(moves))].run(Ctx(game, rng.randrange(2)))
        elif roll < 0.8:
            with contextlib.suppress(RuleError):   # a full zone
                game.move(Ctx(game, 0), rng.choice(game.state.items), rng.choice(zones), top=rng.random() < 0.3)
        elif roll < 0.85:
            game.state.load(saved)   # the zones as they were earlier
        elif roll < 0.9:
            saved = game.state.to_data()
        seat, name = rng.randrange(2), rng.choice(events)
        fired.clear()
        game.emit(name, seat, {})
        expected = [(t.id, item.uid) for zone in game._active_zones[seat] for item in zone.items
                    for t in item.comp.triggers_on.get(name, ())]
        assert [f for f in fired if f[1] is not None] == [e for e in expected if e[1] is not None]
        for zone in zones:
            if zone.hears is not None:
                kept += 1
                assert zone.hears >= _heard(zone.items)
    assert kept > 1000


def test_a_played_game_leaves_no_zone_hearing_less_than_its_items() -> None:
    pack = load_pack("robot-factory")
    for seed in range(1, 4):
        match = Match.played(pack, 2, seed, [RandomAgent(seed, s) for s in range(2)])
        for zone in match.game.state.all_zones():
            assert zone.hears is None or zone.hears >= _heard(zone.items)
