"""Samples inside a `simultaneous` step: a searching bot never sees another seat's secret answers.

The kernel asks the seats of a simultaneous step one after the other and hides their answers until the
reveal. A sample for a later seat (`Match.determinize`) therefore goes back to where the step began
(`State.secret_since`) and answers for the earlier seats again, at random: two real matches that differ
only in an earlier seat's secret answer give the later seat the same samples and its bots the same
choices. The fixture pack tests/fixtures/packs/dials shows it alone (each player turns a dial behind a
screen, P1 first); Robot Factory's programming step is the real case (P1's robot assignments set the
`job` of robots P2 cannot see).
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

import engine
from engine.errors import MoveError
from engine.play.agents import RandomAgent
from engine.play.greedy import GreedyAgent
from engine.play.match import SEARCHED_CHECKPOINT_EVERY, Match
from engine.play.mcts import MctsAgent
from tests.test_bots import _Peeking

ROOT = Path(__file__).resolve().parents[1]
DIALS = engine.load_pack(str(ROOT / "tests/fixtures/packs/dials"))
RF = engine.load_pack("robot-factory")


def _dials(*answers: str) -> Match:
    match = Match(DIALS, 2, 1, forkable=True, checkpoint_every=SEARCHED_CHECKPOINT_EVERY)
    for label in answers:
        match.apply_label(label)
    return match


def _dial(match: Match, seat: int) -> str:
    return str(match.game.state.players[seat].zones["panel"].items[0].attrs["setting"])


def _choice(bot: GreedyAgent | MctsAgent, match: Any) -> int:
    bot.bind(match)
    decision = match.decision if isinstance(match, Match) else match.match.decision
    return bot.choose({}, decision)


# ---------------------------------------------------------------- the state
def test_the_state_says_since_when_answers_are_secret() -> None:
    match = _dials()
    assert match.game.state.secret_since == 0 and match.to_move == 0
    match.apply_label("left")
    assert match.game.state.to_data()["secret_since"] == 0 and match.to_move == 1
    fork = match.fork()
    assert fork.game.state.secret_since == 0 and fork.state_hash() == match.state_hash()
    match.apply_label("right")                      # the step ends (reveal, score), the next one begins
    assert match.game.state.secret_since == 2 and match.fork().game.state.secret_since == 2
    while not match.done:
        match.apply(0)
    assert match.game.state.secret_since is None and "secret_since" not in match.game.state.to_data()
    plain = engine.new_match(engine.load_pack("tic-tac-toe"), 2, seed=1)   # no simultaneous step: as it was
    plain.apply(0)
    assert "secret_since" not in plain.game.state.to_data()


def test_every_fork_knows_where_the_running_step_began() -> None:
    match = Match(RF, 2, 3, forkable=True, checkpoint_every=SEARCHED_CHECKPOINT_EVERY)
    rng, starts = random.Random(3), set()
    while not match.done and len(match.log) < 60:
        since = match.game.state.secret_since
        starts.add(since)
        assert since is not None and since <= len(match.log)     # every RF decision is in programming
        assert match.fork().game.state.secret_since == since
        assert match.fork(history=False).game.state.secret_since == since
        match.apply(int(rng.random() * match.decision.size))      # type: ignore[union-attr]
    assert len(starts) > 3                                         # one start a turn


# ---------------------------------------------------------------- the dials
def test_a_sample_for_the_second_seat_answers_for_the_first_again() -> None:
    left, right = _dials("left"), _dials("right")
    assert left.view(1) == right.view(1) and left.state_hash() != right.state_hash()
    dealt = set()
    for k in range(16):
        a, b = left.determinize(1, random.Random(k)), right.determinize(1, random.Random(k))
        assert a.state_hash() == b.state_hash()                   # the same samples: P1's dial is not in them
        assert a.view(1) == left.view(1) and a.legal() == left.legal() and a.to_move == 1
        assert [answer.seat for answer in a.log] == [0]           # P1 answered again, once
        dealt.add(_dial(a, 0))
    assert dealt == {"left", "right"}


def test_the_first_seat_keeps_its_own_answer_in_its_samples() -> None:
    match = _dials("left", "right", "right")                       # round 2: P1 turned right, P2 to move
    mine = match.determinize(0, random.Random(4))                  # P1's own sample: nobody else answered since
    assert _dial(mine, 0) == "right" and mine.log[-1].label == "right"
    theirs = match.determinize(1, random.Random(4))
    assert theirs.view(1) == match.view(1) and _dial(theirs, 1) == "right"   # P2's own dial (its last answer)


def test_a_sample_made_at_the_steps_start_forks_undoes_and_has_no_log() -> None:
    match = _dials("left", "right", "right")                       # the step began after 2 answers
    sample = match.determinize(1, random.Random(9))
    assert sample.is_sample and sample.fork().state_hash() == sample.state_hash()
    sample.apply_label("left")
    assert sample.fork().state_hash() == sample.state_hash()      # a fork deals again at the step's start
    before = sample.state_hash()
    sample.apply(0)
    sample.undo()
    assert sample.state_hash() == before
    with pytest.raises(MoveError, match="before its hidden items"):
        sample.undo(len(sample.log) - 1)                          # back to before the step's start
    with pytest.raises(MoveError, match="no log"):
        sample.to_log()
    again = sample.determinize(1, random.Random(9))                # a sample of a sample: fine too
    assert again.is_sample and again.view(1) == sample.view(1)


@pytest.mark.parametrize("make", [lambda: GreedyAgent(11, 1), lambda: MctsAgent(11, 1, iterations=24)],
                         ids=["greedy", "mcts"])
def test_the_second_seats_bot_cannot_read_the_first_seats_dial(make: Any) -> None:
    honest = {_choice(make(), _dials(first)) for first in ("left", "right")}
    peeking = {_choice(make(), _Peeking(_dials(first))) for first in ("left", "right")}
    assert len(honest) == 1
    assert len(peeking) == 2               # a bot that sees the dial turns the other way: the test can tell


# ---------------------------------------------------------------- Robot Factory's programming
def _programming(seed: int, turn: int, flip: bool) -> Match:
    """A Robot Factory match (random answers from `seed`) at P2's first programming decision of `turn`;
    `flip`: P1's first robot assignment that turn is the next option instead (its other answers the same)."""
    match = Match(RF, 2, seed, forkable=True, checkpoint_every=SEARCHED_CHECKPOINT_EVERY)
    rng, flipped = random.Random(seed), False
    while True:
        decision = match.decision
        assert decision is not None
        now = match.game.state.counters["turn"]
        if decision.seat == 1 and now == turn:
            return match
        index = int(rng.random() * decision.size)
        if flip and not flipped and now == turn and decision.seat == 0 and "assign" in decision.prompt \
                and decision.size > 1:
            index, flipped = (index + 1) % decision.size, True
        match.apply(index)


def _jobs(match: Match, seat: int) -> list[str]:
    return [robot.attrs["job"] for robot in match.game.state.players[seat].zones["robots"].items]


# positions where, before samples went back to the step's start, P2's MCTS chose differently in the two matches
@pytest.mark.parametrize(("seed", "turn"), [(6, 3), (11, 3), (16, 2), (24, 2)])
def test_p2s_samples_and_bots_do_not_depend_on_p1s_secret_program(seed: int, turn: int) -> None:
    real, other = _programming(seed, turn, False), _programming(seed, turn, True)
    assert real.view(1) == other.view(1) and real.legal() == other.legal()   # P2 cannot tell them apart
    assert _jobs(real, 0) != _jobs(other, 0)                                  # P1's programs differ
    for k in range(4):
        a, b = real.determinize(1, random.Random(k)), other.determinize(1, random.Random(k))
        assert a.state_hash() == b.state_hash(), k
        assert a.legal() == real.legal() and a.to_move == 1
    assert _choice(GreedyAgent(11, 1), real) == _choice(GreedyAgent(11, 1), other)
    assert _choice(MctsAgent(11, 1, iterations=24, depth=12), real) == \
        _choice(MctsAgent(11, 1, iterations=24, depth=12), other)


def test_a_step_inside_a_step_keeps_the_outer_start(tmp_path: Path) -> None:
    (tmp_path / "pack.yaml").write_text((ROOT / "tests/fixtures/packs/dials/pack.yaml").read_text())
    game = (ROOT / "tests/fixtures/packs/dials/game.yaml").read_text()
    nested = """      - id: turn_dials
        simultaneous:
          - id: inner
            simultaneous:
              - {id: peek, do: 'choose x in ["a", "b"] "inner choice" { }'}
          - id: turn
            do: 'choose x in ["left", "right"] "turn your dial" { for d in panel { set d.setting = x } }'
"""
    start = game.index("      - id: turn_dials\n")
    game = game[:start] + nested + game[game.index("        reveal: [panel]"):]
    (tmp_path / "game.yaml").write_text(game)
    match = Match(engine.load_pack(str(tmp_path)), 2, 1, forkable=True, checkpoint_every=SEARCHED_CHECKPOINT_EVERY)
    starts = []
    while not match.done:
        starts.append((len(match.log), match.game.state.secret_since, match.decision.prompt))  # type: ignore[union-attr]
        assert match.fork().game.state.secret_since == match.game.state.secret_since
        match.apply(0)
    # per round: each seat answers the inner step for both seats, then turns its dial: 6 answers, one start
    assert [since for _, since, _ in starts] == [0] * 6 + [6] * 6 + [12] * 6
    assert match.game.state.secret_since is None


class _Watching:
    """A searching agent that records, at every choice, whether its match shows the decision it is asked
    and whether a sample stands at that decision too."""

    kind = "watching"

    def __init__(self, seat: int) -> None:
        self.seat, self.match, self.seen = seat, None, []   # type: ignore[var-annotated]

    def bind(self, match: Match) -> None:
        self.match = match

    def choose(self, view: Any, decision: Any) -> int:
        match = self.match
        assert match is not None
        sample = match.determinize(self.seat, random.Random(len(match.log)))
        self.seen.append((match.decision is decision, sample.legal() == list(decision.labels)))
        sample.close()
        return len(match.log) % decision.size

    def observe(self, decision: Any, index: int) -> None:
        return None


def test_a_bot_answering_inside_run_sees_its_own_decision_in_the_match() -> None:
    """`run` has the agents answer inside the flow; the match must still show the decision being answered,
    or a sample (made from the pending decision) stands somewhere else: in Robot Factory the second
    assignment's samples stood at the first's."""
    agents = [_Watching(0), _Watching(1)]
    match = Match(RF, 2, 5, forkable=True, checkpoint_every=SEARCHED_CHECKPOINT_EVERY)
    match.run(agents, stop_after=60)   # type: ignore[list-item]
    seen = agents[0].seen + agents[1].seen
    assert len(seen) == 60 and all(mine and same for mine, same in seen), seen


def test_the_second_seat_knows_no_count_of_the_first_seats_secret_answers() -> None:
    """Inside a simultaneous step a seat is not told that another seat answered privately, so the count
    a bot seeds from (`answers_known`) must not grow with them; outside one it is the log's length."""
    def until_p2(*answers: str) -> Match:
        match = Match(RF, 2, 1)
        for label in answers:
            match.apply_label(label)
        while match.decision is not None and match.decision.seat == 0:   # P1 ends its program
            match.apply_label("done" if "done" in match.legal() else match.legal()[0])
        return match

    short, long = until_p2("Store", "done"), until_p2("Store", "Auto-Miner")
    assert len(short.log) != len(long.log)
    assert short.answers_known(1) == long.answers_known(1) == 0
    assert short.answers_known(0) == len(short.log) and long.answers_known(0) == len(long.log)
    for make in (lambda: GreedyAgent(7, 1), lambda: MctsAgent(7, 1, iterations=12, depth=4)):
        assert _choice(make(), short) == _choice(make(), long)   # P2's bots seed from what P2 knows
    plain = Match(engine.load_pack("tic-tac-toe"), 2, 1)   # no simultaneous step: every answer is known
    for _ in range(3):
        plain.apply(0)
    assert plain.answers_known(0) == plain.answers_known(1) == len(plain.log) == 3


# ---------------------------------------------------------------- answers every seat is told
RR = engine.load_pack("raising-robots")


def _rr_setup() -> Match:
    """Raising Robots, 4 players, seed 7, 40 random answers into the simultaneous setup (tools/bench/bots.py's
    position): seat 4 keeps a class card after the others set up, P2 paying for an assembly and gaining 2 Wild."""
    match = Match(RR, 4, 7, forkable=True, checkpoint_every=SEARCHED_CHECKPOINT_EVERY)
    match.run([RandomAgent(7, seat) for seat in range(4)], stop_after=40)
    return match


def test_what_a_wildcard_gain_becomes_and_what_pays_are_told_to_every_seat() -> None:
    """Every seat is told what a seat gains and pays (`gained`/`paid` events; views show the counters), so those
    answers are public: another seat's samples give them again instead of guessing (`Decision.public`)."""
    match = _rr_setup()
    told = [(answer.decision.kind.value, answer.label) for answer in match.log
            if answer.decision.kind.value in ("gain", "pay")]
    assert told == [("pay", "pay 1 duct_tape"), ("gain", "microchip"), ("gain", "gear")]
    assert all(answer.decision.public(answer.index) for answer in match.log
               if answer.decision.kind.value in ("gain", "pay"))
    given = [[answer.seat, answer.label] for answer in match.log
            if answer.decision.kind.value in ("gain", "pay")]
    heard: list[Any] = []
    watched = Match(RR, 4, 7, forkable=True, observers=[heard.append])
    watched.replay([answer.label for answer in match.log])
    told_p4 = [[event.seat, event.data.get("label")] for event in heard
               if event.kind.value == "answered" and event.seat != 3 and event.data.get("kind") in ("gain", "pay")
               and event.seen_by(3) and "label" in event.data]
    assert told_p4 == given
    # what the labels say, P4 was told already: P2 paid 1 duct tape, gained Wild, then a microchip and a gear
    counters = [(event.kind.value, event.data["counter"]) for event in heard
                if event.kind.value in ("gained", "paid") and event.seat == 1 and event.seen_by(3)]
    assert [c for c in counters if c[1] != "battery"][:4] == \
        [("paid", "duct_tape"), ("gained", "wild"), ("gained", "microchip"), ("gained", "gear")]


def test_p4s_samples_keep_what_the_others_gained_and_paid() -> None:
    """P4's view shows P2's counters after P2 paid 1 duct tape and took 2 Wild as a microchip and a gear; its
    samples inside the setup step keep those answers, so every one shows the counters P4 sees (before the gain
    and pay answers were public, 22 of 30 samples guessed other ones and showed other counters)."""
    match = _rr_setup()
    real = match.view(3)
    for k in range(12):
        sample = match.determinize(3, random.Random(k))
        assert sample.view(3)["players"][1]["counters"] == real["players"][1]["counters"]
        sample.close()


def test_a_deal_plan_deals_a_copy_as_redeal_hidden_deals_the_state() -> None:
    """The tries of one decision deal fresh copies of the state at the step's start with one `DealPlan`: each
    copy ends up as `redeal_hidden` leaves the state itself, for the same generator state (RR setup: hands, decks,
    class cards; RF programming: robots with a `job` set, whose places keep it)."""
    from engine.runtime.determinize import deal_plan, redeal_hidden
    rf = Match(RF, 2, 6, forkable=True, checkpoint_every=SEARCHED_CHECKPOINT_EVERY)
    rf.run([RandomAgent(6, seat) for seat in range(2)], stop_after=45)
    for match, seat in ((_rr_setup(), 3), (_rr_setup(), 1), (rf, 1), (rf, 0)):
        state = match.game.state
        pinned = [item for item in state.items if item.zone is not None and item.zone.visible_to(seat)][:3]
        plan = deal_plan(state, seat, pinned)
        for k in range(3):
            copy, alone = state.copy_as(state.to_data()), state.copy_as(state.to_data())
            one, other = random.Random(k), random.Random(k)
            dealt = plan.deal(copy, one)
            assert dealt == redeal_hidden(alone, seat, other, [alone.items[item.uid] for item in pinned]) > 0
            assert copy.to_data() == alone.to_data() != state.to_data()
            assert one.getstate() == other.getstate()


def test_a_deal_at_another_seats_decision_offers_what_it_dealt_there() -> None:
    """A sample for P2 made at the start of Raising Robots' simultaneous setup (3 players, bidding: P1 has kept
    5 of its 8 drafted robot cards) deals again there, where P1's "keep a robot card" is pending: P1's draft is
    hidden from P2, so it is dealt too, and the pending decision must offer the cards dealt into the draft.
    Offering the cards it held before took them from wherever the deal put them (the deck): P1's draft kept
    8 cards, the deck lost one, and no try showed P2 its real view (seed 0: the discard held 4 cards, not 3)."""
    match = Match(RR, 3, 0, {"bidding": True}, forkable=True, checkpoint_every=SEARCHED_CHECKPOINT_EVERY)
    match.run([RandomAgent(0, seat) for seat in range(3)], stop_after=6)
    assert match.decision is not None and match.decision.seat == 1
    real = match.view(1)["zones"]
    for k in range(8):
        sample = match.determinize(1, random.Random(k))
        zones = sample.view(1)["zones"]
        assert (zones["robot_deck"], zones["robot_discard"]) == (real["robot_deck"], real["robot_discard"])
        assert sample.seen_key(1) == match.seen_key(1)
        sample.close()
