"""Turn order from an expression, alone: `reorder by EXPR` sorts the seats by EXPR (read for each seat),
lowest first, keeping the previous order among equals; each_player, everyone and p.position follow it.

The fixture pack tests/fixtures/packs/standings: each round every player works (+1 fatigue) or rests;
then `reorder by -fatigue` (most tired first).
"""

from __future__ import annotations

from pathlib import Path

import engine
from engine.compile.effect import EffectCompiler
from engine.compile.loading import load_pack
from engine.dsl.parse import DslText
from engine.play.match import Match
from engine.runtime.context import Ctx

PACK = Path(__file__).parent / "fixtures" / "packs" / "standings"
WORK, REST = "gain 1 fatigue; gain 2 point", "gain 1 point"


def _round(match: Match, answers: dict[int, str]) -> list[int]:
    """Play one round; the seats in the order they were asked."""
    asked = []
    for _ in answers:
        asked.append(match.decision.seat)
        match.apply_label(answers[match.decision.seat])
    return asked


def test_the_most_tired_go_first_and_ties_keep_the_previous_order() -> None:
    match = Match(load_pack(str(PACK)), 4, 1, {})
    assert _round(match, {0: REST, 1: WORK, 2: REST, 3: WORK}) == [0, 1, 2, 3]
    assert match.game.turn_order() == [1, 3, 0, 2]             # tired 1 and 3 first, each pair as it was
    assert _round(match, {0: WORK, 1: REST, 2: REST, 3: WORK}) == [1, 3, 0, 2]
    assert match.game.turn_order() == [3, 1, 0, 2]             # 3 has 2; 1 and 0 have 1 (1 was first); 2 has 0
    game = match.game
    assert [game.position(s) for s in range(4)] == [3, 2, 4, 1]
    assert [p.seat for p in game.everyone()] == [3, 1, 0, 2]


def test_the_order_is_state_and_only_there_once_set() -> None:
    pack = load_pack(str(PACK))
    match = engine.new_match(pack, 3, 2)
    assert "order" not in match.game.state.to_data()           # other packs' states are as they were
    for _ in range(3):
        match.apply(0)
    assert match.game.state.to_data()["order"] == (0, 1, 2)
    fork = match.fork()
    assert fork.state_hash() == match.state_hash() and fork.game.turn_order() == [0, 1, 2]


def test_reorder_reads_the_expression_for_each_seat() -> None:
    game = Match(load_pack(str(PACK)), 3, 1, {}).game
    for seat, fatigue in enumerate([2, 5, 2]):
        game.state.players[seat].counters["fatigue"] = fatigue
    game.reorder(Ctx(game, None), lambda ctx: -game.counter("fatigue", ctx.seat))
    assert game.turn_order() == [1, 0, 2]


def test_scenarios_read_and_set_the_turn_order() -> None:
    """The `turn_order` state path: the seats in turn order, settable like a `reorder by` result."""
    import pytest

    from engine.play.state_paths import ValueTypeError, read, write
    match = Match(load_pack(str(PACK)), 3, 1, {})
    assert read(match, "turn_order") == [1, 2, 3]
    write(match, "turn_order", [3, 1, 2])
    assert read(match, "turn_order") == [3, 1, 2] and match.game.turn_order() == [2, 0, 1]
    assert _round(match, {0: REST, 1: REST, 2: REST}) == [0, 1, 2]   # the round under way keeps its seats
    assert _round(match, {2: REST, 0: REST, 1: REST}) == [2, 0, 1]   # all rested: the set order stays
    for bad in ([1, 2], [1, 1, 2], "1,2,3", [1, 2, 4]):
        with pytest.raises(ValueTypeError, match="every seat once"):
            write(match, "turn_order", bad)


def test_generated_everyone_reads_the_players_from_seat_0_until_a_rule_sets_the_order() -> None:
    """In a pack with no `first_player` counter, generated code reads `everyone` without calling
    `Interpreter.everyone` while no rule set the order, and calls it once one has: the same players, in the
    same order, either way."""
    pack = load_pack(str(PACK))
    assert "first_player" not in pack.counters
    dsl = DslText("everyone", None, ())
    tree = dsl.parse("expr")
    everyone = EffectCompiler(pack, dsl, set()).expr_function(tree)
    game = Match(pack, 3, 1, {}).game
    assert game.state.order is None and everyone(Ctx(game, 0)) == game.everyone() == game.players_from(0)
    for seat, fatigue in enumerate([2, 5, 2]):
        game.state.players[seat].counters["fatigue"] = fatigue
    game.reorder(Ctx(game, None), lambda ctx: -game.counter("fatigue", ctx.seat))
    assert [p.seat for p in everyone(Ctx(game, 2))] == [p.seat for p in game.everyone()] == [1, 0, 2]
