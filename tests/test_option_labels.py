"""Designer-written option labels (`choose { "LABEL": ... }`, `may { "LABEL": ... }`) on
tests/fixtures/packs/labels: the label is the option's name in decisions, logs and tables, the English
of its block is its rules text, logs written without labels still replay, bad labels are DSL016, and
other seats see a public answer's label but never a hidden card's."""

from __future__ import annotations

from pathlib import Path

import pytest

import engine
from engine.dsl.parse import DslText
from engine.dsl.render import Renderer
from engine.errors import MoveError
from engine.play.rules_text import load_with_rules
from engine.runtime.events import Event, EventKind

PACK = str(Path(__file__).resolve().parent / "fixtures" / "packs" / "labels")
FIRST_ROUND = ["Take two coins", "draw 1 from deck to hand"]


def test_labelled_alternatives_are_offered_by_their_labels_with_english_rules() -> None:
    pack, rules = load_with_rules(PACK)
    match = engine.Match(pack, 2, 1)
    decision = match.decision
    assert decision is not None and decision.prompt == "your turn"
    assert decision.labels == ["Take two coins", "Buy from the market", "draw 1 from deck to hand"]
    shown = [rules.short(decision, i) for i in range(3)]
    assert shown == ["Take two coins", "Buy from the market", "Draw 1 from Deck to Hand"]
    assert rules.option(decision, 0) == "Gain 2 Coins."
    assert rules.option(decision, 1) == "Choose c from Market: move c to Tableau."


def test_a_labelled_may_names_its_yes_option() -> None:
    pack, rules = load_with_rules(PACK)
    match = engine.Match(pack, 2, 1)
    match.replay([*FIRST_ROUND, "Take two coins", "Take two coins"])
    decision = match.decision
    assert decision is not None and decision.labels == ["Trade a coin for two stars", "no"]
    assert rules.short(decision, 0) == "Trade a coin for two stars"
    assert rules.option(decision, 0) == "Yes: Pay 1 Coin to gain 2 Stars."
    match.apply_label("trade a coin for two stars")       # case-insensitive, like every label
    assert match.log[-1]["label"] == "Trade a coin for two stars"


def test_a_log_written_before_the_labels_still_replays() -> None:
    pack = engine.load_pack(PACK)
    labelled, unlabelled = engine.Match(pack, 2, 3), engine.Match(pack, 2, 3)
    labelled.replay([*FIRST_ROUND, "Take two coins", "Buy from the market", "Trade a coin for two stars"])
    unlabelled.replay(["gain 2 coin", "draw 1 from deck to hand", "gain 2 coin",
                       "choose c in market { move c to tableau }", "yes: pay 1 coin gain 2 star"])
    assert labelled.state_hash() == unlabelled.state_hash()
    assert [e["label"] for e in unlabelled.log] == [e["label"] for e in labelled.log]  # logged by the new labels
    with pytest.raises(MoveError, match="not a legal option"):
        engine.Match(pack, 2, 3).apply_label("gain 3 coin")


def test_explain_reads_a_label_with_what_its_option_does() -> None:
    renderer = Renderer(engine.load_pack(PACK))
    text = renderer.text('choose { "Rest": gain 1 coin | draw 1 from deck to hand }', "effect")
    assert text == "Choose one: Rest (gain 1 Coin) or draw 1 from Deck to Hand."
    assert renderer.text('may { "Cash in": pay 1 coin; gain 2 star }', "effect") == \
        "You may Cash in (pay 1 Coin to gain 2 Stars)."


@pytest.mark.parametrize(("text", "message"), [
    ('choose { "Take": gain 1 coin | "take": gain 2 coin }', "two alternatives of one choose are labelled 'take'"),
    ('may { "no": gain 1 coin }', "'no' is the engine's own option here"),
    ('repeat choose { "Done": gain 1 coin | gain 2 coin }', "'Done' is the engine's own option here"),
    ('choose { " ": gain 1 coin | gain 2 coin }', "an option label cannot be empty"),
    ('choose { "gain {coin}": gain 1 coin | gain 2 coin }', "an option label is fixed text"),
])
def test_a_label_that_cannot_name_one_option_is_dsl016(text: str, message: str) -> None:
    from engine.compile.effect import EffectCompiler

    pack = engine.load_pack(PACK)
    dsl = DslText(text, None, ())
    tree = dsl.parse("effect")
    assert tree is not None
    EffectCompiler(pack, dsl, set()).effect_function(tree, text)
    assert [(d.code, message in d.message) for d in dsl.diagnostics] == [("DSL016", True)]


def test_other_seats_see_a_public_answer_but_not_a_hidden_card() -> None:
    pack, rules = load_with_rules(PACK)
    match = engine.Match(pack, 2, 1)
    feed: list[Event] = []
    match.subscribe(feed.append)
    match.replay(FIRST_ROUND)
    seen_by_2 = [rules.event(e.to_json(), 1) for e in feed if e.kind is EventKind.ANSWERED and e.seen_by(1)]
    assert seen_by_2 == ["P1 chose Take two coins", "you chose Draw 1 from Deck to Hand"]
    # a card chosen from a hidden hand stays private: only "answered" reaches the other seat
    topdeck = str(Path(__file__).resolve().parent / "fixtures" / "packs" / "topdeck")
    hidden = engine.Match(engine.load_pack(topdeck), 2, 1)
    told: list[Event] = []
    hidden.subscribe(told.append)
    hidden.apply(0)                        # P1 programs an order card from its hand (an `each_player` step)
    others = [e for e in told if e.kind is EventKind.ANSWERED and e.seen_by(1)]
    assert others and all("label" not in e.data for e in others)
    # behind a simultaneous step's divider not even that: how many answers a seat gives is part of its plan
    bid = engine.Match(engine.load_pack("goofspiel"), 2, 1)
    told = []
    bid.subscribe(told.append)
    bid.apply(0)
    assert [e for e in told if e.kind is EventKind.ANSWERED and e.seen_by(1)] == []
    assert [e for e in told if e.kind is EventKind.ANSWERED and e.seen_by(0)]
