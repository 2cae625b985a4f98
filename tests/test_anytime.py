"""Anytime actions, alone: actions a player starts at any choice they are asked within a window.

The fixture pack tests/fixtures/packs/cooldown: each player's vent ("during your turn, once a turn: 1
coolant for -2 heat") and a shared alarm ("anyone at 5+ heat, once a game: -3 heat"). Each turn has two
choices: work (gain heat and points, gain coolant, or pay a coolant for a point), then rest.
"""

from __future__ import annotations

import random
from pathlib import Path

import engine
from engine.compile.loading import load_pack
from engine.play.match import Match

PACK = Path(__file__).parent / "fixtures" / "packs" / "cooldown"
VENT = "anytime: vent: 1 coolant for -2 heat"
ALARM = "anytime: ring the alarm"


def _match(players: int = 2) -> Match:
    return Match(load_pack(str(PACK)), players, 1, {})


def _counters(match: Match, seat: int) -> dict[str, int]:
    return match.game.state.players[seat].counters


def test_offered_at_the_choices_of_the_player_whose_window_is_open() -> None:
    match = _match()
    assert match.decision is not None and match.decision.seat == 0
    assert VENT in match.legal() and ALARM not in match.legal()     # P1's turn; 3 heat: no alarm
    match.apply_label("gain 1 coolant")
    assert VENT in match.legal()                                     # the rest choice, still P1's turn
    match.apply_label("gain 1 point")
    assert match.decision.seat == 1 and VENT in match.legal()        # P2's own vent, in P2's turn


def test_taking_one_runs_it_and_the_choice_is_worked_out_afresh() -> None:
    match = _match()
    assert "pay 1 coolant; gain 1 point" in match.legal()
    match.apply_label(VENT)                                          # 1 coolant for -2 heat
    assert _counters(match, 0)["coolant"] == 0 and _counters(match, 0)["heat"] == 1
    assert match.decision.prompt == "choose one"
    assert "pay 1 coolant; gain 1 point" not in match.legal()       # no coolant left: not offered now
    assert VENT not in match.legal()                                 # once a turn (and unaffordable)


def test_a_limit_per_turn_and_per_game() -> None:
    match = _match(1)
    match.apply_label("gain 1 coolant")                              # 2 coolant
    match.apply_label(VENT)
    assert VENT not in match.legal()                                 # once this turn
    match.apply_label("gain 1 heat")
    match.apply_label("gain 2 heat; gain 2 point")                   # next turn: heat 1 + 1 + 2 = 4
    assert VENT in match.legal()                                     # a new turn
    match.apply_label("gain 1 heat")                                 # heat 5
    assert match.decision.seat == 0 and ALARM in match.legal()
    match.apply_label(ALARM)
    assert _counters(match, 0)["heat"] == 2 and ALARM not in match.legal()


def test_not_offered_inside_a_chosen_option_or_a_forced_choice_without_offers() -> None:
    match = _match(1)
    match.apply_label("pay 1 coolant; gain 1 point")                 # the payment inside it is not a point
    assert match.decision.prompt == "choose one" and VENT not in match.legal()   # no coolant: no vent
    assert match.legal() == ["gain 1 heat", "gain 1 point"]


def test_replays_and_forks_agree() -> None:
    pack = load_pack(str(PACK))
    rng = random.Random(5)
    match = engine.new_match(pack, 3, 5)
    answers, hashes = [], []
    while not match.done:
        hashes.append(match.state_hash())
        answers.append(rng.randrange(len(match.legal())))
        match.apply(answers[-1])
    assert any(label.startswith("anytime: ") for label in (e["label"] for e in match.log))
    again = engine.new_match(pack, 3, 5)
    for at, answer in enumerate(answers):
        if at % 4 == 1:
            assert again.fork().state_hash() == hashes[at]
        again.apply(answer)
    assert again.state_hash() == match.state_hash()
