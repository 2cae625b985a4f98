"""`Interpreter.ask` stores a decision's fields one by one, and `Match.played`'s answerer an answer's (no
`__init__` frame per decision): each slot set, and equal to what the class call makes from the same values.
A slot added to `Decision` or `Answer` and not to those fast paths fails here."""

from __future__ import annotations

from typing import Any

import pytest

import engine
from engine.play.agents import BySize, RandomAgent, by_size
from engine.play.log import Answer, UnmadeAnswer
from engine.play.match import Match
from engine.runtime.decision import Decision


class _Keeping(RandomAgent):
    def __init__(self, seed: int, seat: int, kept: list[Decision]) -> None:
        super().__init__(seed, seat)
        self.kept = kept

    def choose(self, view: Any, decision: Decision) -> int:
        self.kept.append(decision)
        return super().choose(view, decision)


def _slots(thing: Any, cls: type) -> dict[str, Any]:
    return {name: getattr(thing, name) for name in cls.__slots__}


@pytest.mark.parametrize("name", ["tic-tac-toe", "goofspiel", "robot-factory"])
def test_asked_decisions_and_logged_answers_are_made_whole(name: str) -> None:
    pack = engine.load_pack(name)
    kept: list[Decision] = []
    match = Match.played(pack, 2, 3, [_Keeping(3, seat, kept) for seat in range(2)])
    assert kept and len(match.log) == len(kept)
    for decision, answer in zip(kept, match.log, strict=True):
        made = Decision(decision.seat, decision.kind, decision._prompt, decision._labels, decision.payloads,
                        decision.step, decision.rules, decision.open_source)
        assert _slots(decision, Decision) == _slots(made, Decision)
        assert _slots(answer, Answer) == _slots(Answer(decision, answer.index), Answer)
        assert answer.decision is decision


def test_an_agent_answering_in_place_is_checked_and_its_errors_come_out_as_they_are() -> None:
    """Agents answer inside `Interpreter.ask` in a match played through: a bad index is refused, and an agent's
    own error leaves the flow as it was raised (not taken for a content mistake)."""
    pack = engine.load_pack("goofspiel")

    class Bad(RandomAgent):
        def choose(self, view: Any, decision: Decision) -> int:
            return decision.size

    class Failing(RandomAgent):
        def choose(self, view: Any, decision: Decision) -> int:
            raise KeyError("mine")

    with pytest.raises(engine.MoveError, match="is not one of"):
        Match.played(pack, 2, 1, [Bad(1, 0), Bad(1, 1)])
    with pytest.raises(KeyError, match="mine"):
        Match.played(pack, 2, 1, [Failing(1, 0), Failing(1, 1)])


@pytest.mark.parametrize("name", ["tic-tac-toe", "goofspiel", "robot-factory"])
def test_an_agent_answering_by_size_logs_answers_that_make_the_same_decisions(name: str) -> None:
    """A `BySize` agent (RandomAgent) in a match played through is asked the number of options and no `Decision`
    is made (`UnmadeAnswer`): read from the log, each answer makes the decision the class call makes, once, and
    the log is the one a game whose agents read every decision gives (the same draws: the same game)."""
    pack = engine.load_pack(name)
    kept: list[Decision] = []
    reading = Match.played(pack, 2, 3, [_Keeping(3, seat, kept) for seat in range(2)])
    sized = Match.played(pack, 2, 3, [RandomAgent(3, seat) for seat in range(2)])
    assert all(isinstance(answer, UnmadeAnswer) for answer in sized.log) and sized.log
    assert [(a.seat, a.step) for a in sized.log] == [(d.seat, d.step) for d in kept]
    assert [a.to_json() for a in sized.log] == [a.to_json() for a in reading.log]
    for answer, decision in zip(sized.log, kept, strict=True):
        made = answer.decision
        assert made is answer.decision and made.__class__ is Decision
        # (two matches: items and prompts with items in them compared by uid and by text)
        assert {k: v for k, v in _slots(made, Decision).items() if k not in ("payloads", "_prompt")} == \
            {k: v for k, v in _slots(decision, Decision).items() if k not in ("payloads", "_prompt")}
        assert made.prompt == decision.prompt
        assert [getattr(p, "uid", p) for p in made.payloads] == [getattr(p, "uid", p) for p in decision.payloads]
    assert sized.outcome().hash == reading.outcome().hash


def test_an_agent_answering_by_size_is_checked_and_its_errors_come_out_as_they_are() -> None:
    pack = engine.load_pack("goofspiel")

    class Bad(BySize):
        def choose_by_size(self, size: int) -> int:
            return size

    class Failing(BySize):
        def choose_by_size(self, size: int) -> int:
            raise KeyError("mine")

    assert by_size(Bad()) is not None and by_size(_Keeping(1, 0, [])) is None
    with pytest.raises(engine.MoveError, match="is not one of"):
        Match.played(pack, 2, 1, [Bad(), Bad()])
    with pytest.raises(KeyError, match="mine"):
        Match.played(pack, 2, 1, [Failing(), Failing()])


def test_a_game_played_through_logs_rows_that_become_answers_when_the_log_is_read() -> None:
    """`ask` logs a by-size answer as a row (a tuple of the decision's fields and the index): no object is made
    per decision in a game whose log is never read. `answered` counts them as they are; the first read of `log`
    makes each row an `UnmadeAnswer` in place, once; a log set whole (a resume, `_take`) is answers already."""
    pack = engine.load_pack("goofspiel")
    match = Match.played(pack, 2, 5, [RandomAgent(5, seat) for seat in range(2)])
    raw = match._log
    assert raw and all(row.__class__ is tuple for row in raw)
    assert match.answered == len(raw) == match.outcome(digest=False).decisions
    assert all(row.__class__ is tuple for row in raw)   # counting made nothing
    log = match.log
    assert log is raw and all(isinstance(answer, UnmadeAnswer) for answer in log)
    assert match.log[0] is log[0]   # made once
    again = Match.played(pack, 2, 5, [RandomAgent(5, seat) for seat in range(2)])
    assert [a.to_json() for a in again.log] == [a.to_json() for a in log]
    answers = [Answer(a.decision, a.index) for a in log]
    match.log = answers
    assert match.log is answers and match.answered == len(answers)
