"""Option labels made only when read, and a match log that stores (decision, index) answers: a bot that
answers by index never makes a label, yet every label is there when asked for, equal to the one made at
once, and the written log names each answer by the label its decision showed."""

from __future__ import annotations

import random
from pathlib import Path

import engine
from engine.play.log import Answer
from engine.runtime.decision import Decision, DecisionKind, derived_labels
from engine.runtime.defs import item_names_unique
from engine.runtime.dsl_values import distinct, offer, offer_combinations, option_labels

HOPS = Path(__file__).parent / "fixtures" / "packs" / "hops"


def _played_by_index(pack_name: str, seed: int) -> tuple[engine.Match, list[str]]:
    """A match answered by index (`apply`), and the label of each answer as the decision showed it then."""
    match = engine.Match(engine.load_pack(pack_name), 2, seed)
    rng, shown = random.Random(seed), []
    while not match.done:
        decision = match.decision
        assert decision is not None
        index = int(rng.random() * decision.size)
        shown.append(match.legal()[index])
        match.apply(index)
    return match, shown


def test_items_and_numbers_are_offered_without_labels_and_labelled_when_read() -> None:
    goofspiel = engine.Match(engine.load_pack("goofspiel"), 2, 1)
    hand = goofspiel.decision
    assert hand is not None and hand._labels is None and hand.size == 13     # nothing made yet
    assert hand.labels == [str(n) for n in range(1, 14)] == [o.label for o in hand.options]
    connect_four = engine.Match(engine.load_pack("connect-four"), 2, 1)
    columns = connect_four.decision
    assert columns is not None and columns._labels is None
    assert connect_four.legal() == ["1", "2", "3", "4", "5", "6", "7"]


def test_labels_made_later_are_the_ones_offer_would_have_made() -> None:
    """`offer` leaves the labels out only where they cannot change: derived ones equal eager ones."""
    pack = engine.load_pack("goofspiel")
    match = engine.Match(pack, 2, 3)
    hand = list(match.game.state.players[0].zones["hand"].items)
    for things in ([3, 1, 2], hand, hand[2:5], ["keep", "keep", "sell"], [1, 1, 2], [True, 1]):
        options, labels = offer(things)
        expected = option_labels(distinct(things))
        assert options == distinct(things)
        assert (labels if labels is not None else derived_labels(options)) == expected
    done = Decision(0, DecisionKind.CHOOSE, "take", None, [*hand[:2], None])
    assert done.labels == [hand[0].comp.name, hand[1].comp.name, "done"] and done.size == 3


def test_the_written_log_names_each_answer_by_the_label_it_was_offered_with() -> None:
    for pack_name in ("goofspiel", "connect-four", "tic-tac-toe"):
        match, shown = _played_by_index(pack_name, 5)
        assert [entry["label"] for entry in match.to_log().decisions] == shown
        assert all(isinstance(answer, Answer) for answer in match.log)
        assert [answer.label for answer in match.log] == shown
        again = engine.Match.from_log(match.pack, match.to_log())
        assert again.done and again.state_hash() == match.state_hash()


def test_an_answer_reads_like_the_entry_the_log_file_holds() -> None:
    match, shown = _played_by_index("tic-tac-toe", 2)
    answer, entry = match.log[0], match.to_log().decisions[0]
    assert answer == entry and answer.to_json() == entry == {"seat": 0, "step": answer.step, "label": shown[0]}
    assert answer["label"] == shown[0] and answer.get("forced") is None and answer.seat == 0
    assert match.log[0] != match.log[1]


def test_a_choice_of_several_items_with_names_of_their_own_is_labelled_when_read() -> None:
    """Breakthrough's cells each have a name no other item has: its moves (two cells) are offered without
    labels, and the labels made later are the ones `offer_combinations` would have made at once."""
    pack = engine.load_pack("breakthrough")
    assert item_names_unique(pack)
    match = engine.Match(pack, 2, 4)
    move = match.decision
    assert move is not None and move._labels is None
    eager_options, eager = offer_combinations(list(move.payloads))
    assert eager_options == move.payloads and move.labels == eager and eager[0] == "a7, a6"
    for name in ("goofspiel", "tic-tac-toe"):    # copies per player; names with ", " in them (a test pack)
        assert item_names_unique(engine.load_pack(name)) is (name == "tic-tac-toe")


def test_a_choice_of_several_parts_keeps_eager_labels_where_names_may_clash() -> None:
    hops = engine.load_pack(str(HOPS))
    match = engine.Match(hops, 2, 1)
    hop = match.decision
    assert hop is not None and hop._labels is not None       # an item and a number: labelled at once
    assert hop.labels == ["a1, 1", "a1, 2", "c1, 1", "c1, 2", "done"]
