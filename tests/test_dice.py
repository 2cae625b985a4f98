"""Dice pools (`dice` section, `roll N DIE`, `reroll DIE [where COND] [up to N]`) on tests/fixtures/packs/dice:
faces from data, the pool in the match state (hashed, forked, replayed), the reroll decision with its
limit and filter, the pool read in expressions, every seat seeing it, explain and DICE001."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

import engine
from engine.dsl.parse import DslText
from engine.dsl.render import Renderer
from engine.errors import MoveError
from engine.play.rules_text import load_with_rules
from engine.runtime.decision import DecisionKind
from engine.runtime.events import Event

PACK = str(Path(__file__).resolve().parent / "fixtures" / "packs" / "dice")
FACES = (1, 2, 3, 3, 5, 6)


def test_a_roll_fills_the_pool_with_faces_of_the_die() -> None:
    seen: Counter[int] = Counter()
    for seed in range(60):
        match = engine.Match(engine.load_pack(PACK), 1, seed)
        pool = match.game.state.dice["d6"]
        assert len(pool) == 5 and set(pool) <= set(FACES)
        seen.update(pool)
    assert set(seen) == set(FACES) and seen[3] > seen[1]     # the 3 is on two faces


def test_reroll_offers_only_eligible_faces_up_to_the_limit_and_throws_the_picked_dice() -> None:
    match = engine.Match(engine.load_pack(PACK), 1, 1)
    before = list(match.game.state.dice["d6"])
    decision = match.decision
    assert decision is not None and decision.kind is DecisionKind.REROLL
    assert decision.prompt == "reroll up to two low dice"
    assert decision.labels == [f"die showing {f}" for f in sorted({f for f in before if f < 4})] + ["done"]
    low = min(before)
    match.apply_label(f"die showing {low}")
    second = match.decision
    assert second is not None and second.prompt == "reroll up to two low dice (1 picked)"
    match.apply_label(second.labels[0])
    assert match.done                                   # two picked: the limit, no third question
    after = match.game.state.dice["d6"]
    changed_or_thrown = [i for i, (a, b) in enumerate(zip(before, after, strict=True)) if a != b]
    assert len(changed_or_thrown) <= 2
    state = match.game.state
    assert state.players[0].counters["total"] == sum(after)
    assert state.players[0].counters["sixes"] == after.count(6)


def test_done_throws_nothing_and_a_label_not_offered_is_refused() -> None:
    match = engine.Match(engine.load_pack(PACK), 1, 1)
    before = list(match.game.state.dice["d6"])
    with pytest.raises(MoveError):
        match.apply_label("die showing 6")            # not below 4: not offered
    match.apply_label("done")
    assert match.game.state.dice["d6"] == before


def test_the_pool_is_match_state_hashed_forked_and_replayed() -> None:
    pack = engine.load_pack(PACK)
    match = engine.Match(pack, 2, 5)
    first = match.decision
    assert first is not None
    fork = match.fork()
    match.apply_label(first.labels[0])
    fork.apply_label(first.labels[0])
    assert match.state_hash() == fork.state_hash()
    assert match.game.state.dice == fork.game.state.dice
    replayed = engine.Match(pack, 2, 5)
    replayed.replay([e["label"] for e in match.log])
    assert replayed.state_hash() == match.state_hash()


def test_every_seat_sees_the_pool_and_the_answers() -> None:
    pack, rules = load_with_rules(PACK)
    match = engine.Match(pack, 2, 3)
    events: list[Event] = []
    match.subscribe(events.append)
    assert match.view(1)["dice"] == {"d6": match.game.state.dice["d6"]}
    match.apply_label("done")
    lines = [rules.event(e.to_json(), 1) for e in events if e.seen_by(1)]
    assert "P1 chose done" in lines
    rolled = [line for line in lines if line.startswith("you rolled Dice: ")]
    assert rolled, lines                              # seat 2's own throw, in its feed


def test_explain_and_dice001() -> None:
    pack = engine.load_pack(PACK)
    text = Renderer(pack).text('roll 5 d6; reroll d6 where it < 4 up to 2 "low"; reroll d6', "effect")
    assert text == ("Roll 5 Dice. You may reroll up to 2 of the Dice whose face is less than 4, each once."
                    " You may reroll any of the Dice, each once.")
    from engine.compile.effect import EffectCompiler

    for bad in ("roll 3 total", "reroll dd6"):
        dsl = DslText(bad, None, ())
        tree = dsl.parse("effect")
        assert tree is not None
        EffectCompiler(pack, dsl, set()).effect_function(tree, bad)
        assert [d.code for d in dsl.diagnostics] == ["DICE001"], bad


def test_the_fixture_scenario_reads_the_pool_by_path() -> None:
    from engine.play.scenario import run_scenario

    result = run_scenario(Path(PACK) / "scenarios" / "reroll-two-low-dice.yaml")
    assert result.passed, [f.message for f in result.failures]
