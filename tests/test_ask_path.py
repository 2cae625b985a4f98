"""The per-decision path of a match played through (`Interpreter.ask`, `InPlace`, engine/play/agents.py): a
`RandomAgent` is answered by its own draw inside `ask` (no agent frame), with the answer and the generator's
stream its `choose_by_size` gives; `ask` counts the options by the values (the labels, when given, are one per
value); a choice tests for REASK only in a pack with anytime actions; a seat's view is made only for a seat
whose agent reads decisions."""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any

import pytest

import engine
from engine.play.agents import BySize, RandomAgent, by_size, uniform_draw
from engine.play.match import Match
from engine.runtime.decision import Decision
from engine.runtime.interpreter import Interpreter
from engine.runtime.views import SeatView

PACKS = Path(__file__).parent / "fixtures" / "packs"


class _Framed(RandomAgent):
    """RandomAgent's answer through its own `choose_by_size` frame (`by_size`, not `uniform_draw`)."""

    def choose_by_size(self, size: int) -> int:
        return super().choose_by_size(size)


class _Reading(RandomAgent):
    """RandomAgent's answer from the whole `Decision` (the decision path), keeping every view it is shown."""

    def __init__(self, seed: int, seat: int, views: list[Any]) -> None:
        super().__init__(seed, seat)
        self.views = views

    def choose(self, view: Any, decision: Decision) -> int:
        self.views.append(view)
        return super().choose(view, decision)


def test_only_random_agent_s_own_answers_are_drawn_inside_ask() -> None:
    plain, framed, reading = RandomAgent(1, 0), _Framed(1, 0), _Reading(1, 0, [])
    assert uniform_draw(plain) == plain.rng.random and by_size(plain) is not None
    assert uniform_draw(framed) is None and by_size(framed) is not None
    assert uniform_draw(reading) is None and by_size(reading) is None

    class Other(BySize):
        rng = plain.rng

        def choose_by_size(self, size: int) -> int:
            return 0

    assert uniform_draw(Other()) is None and by_size(Other()) is not None


@pytest.mark.parametrize("name", ["tic-tac-toe", "connect-four", "goofspiel", "breakthrough", "robot-factory"])
def test_a_random_agent_drawn_inside_ask_plays_the_game_its_own_answers_play(name: str) -> None:
    """Same log, same state, and each generator left where its own `choose_by_size` leaves it: one draw a
    decision, the same number (the hand-written baselines and every recorded seed read this stream)."""
    pack = engine.load_pack(name)
    for seed in (1, 2, 3):
        drawn = [RandomAgent(seed, seat) for seat in range(2)]
        framed = [_Framed(seed, seat) for seat in range(2)]
        read = [_Reading(seed, seat, []) for seat in range(2)]
        games = [Match.played(pack, 2, seed, agents) for agents in (drawn, framed, read)]
        logs = [[answer.to_json() for answer in game.log] for game in games]
        assert logs[0] and logs[0] == logs[1] == logs[2]
        assert games[0].outcome().hash == games[1].outcome().hash == games[2].outcome().hash
        for seat in range(2):
            assert drawn[seat].rng.getstate() == framed[seat].rng.getstate() == read[seat].rng.getstate()


def test_a_seat_s_view_is_made_once_and_only_for_an_agent_that_reads_decisions() -> None:
    pack = engine.load_pack("goofspiel")
    views: list[Any] = []
    made: list[int] = []
    real = SeatView.__init__

    def counted(self: SeatView, game: Any, seat: int) -> None:
        made.append(seat)
        real(self, game, seat)

    SeatView.__init__ = counted  # type: ignore[method-assign]
    try:
        Match.played(pack, 2, 4, [RandomAgent(4, 0), _Reading(4, 1, views)])
    finally:
        SeatView.__init__ = real  # type: ignore[method-assign]
    assert made == [1]
    assert len(views) == 12 and all(view is views[0] for view in views)


PLAYED = ["tic-tac-toe", "connect-four", "goofspiel", "breakthrough", "robot-factory", "raising-robots",
          "stress-botics", "roboston", *(str(PACKS / name) for name in ("cooldown", "bazaar", "tanks", "hops",
                                                            "exhaust", "labels", "sockets"))]


@pytest.mark.parametrize("name", PLAYED)
def test_every_ask_gets_one_label_per_value(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """`ask` counts the options by the values (`size`): every caller, generated or not, gives labels (when it
    gives any) one per value, with anytime actions offered beside too."""
    pack = engine.load_pack(name)
    real = Interpreter.ask
    asked: list[int] = []

    def checked(self: Interpreter, ctx: Any, kind: str, prompt: Any, labels: list[str] | None, values: list[Any],
                *rest: Any) -> Any:
        assert labels is None or len(labels) == len(values), (kind, labels, values)
        asked.append(len(values))
        return real(self, ctx, kind, prompt, labels, values, *rest)

    monkeypatch.setattr(Interpreter, "ask", checked)
    for seed in (1, 2):
        players = max(pack.min_players, min(2, pack.max_players))
        with contextlib.suppress(engine.RuleError):   # (a fixture may end in a rule error; its asks were checked)
            Match.played(pack, players, seed, [RandomAgent(seed, seat) for seat in range(players)])
    assert asked


def test_a_choice_tests_for_reask_only_in_a_pack_with_anytime_actions() -> None:
    """REASK comes back from `ask` only when an anytime action was taken beside a choice: a pack with none has
    no test for it in its generated choices (`choose x in ...` and `choose { ... | ... }`)."""
    without = engine.load_pack("goofspiel")
    Match.played(without, 2, 1, [RandomAgent(1, seat) for seat in range(2)])
    assert not without.anytime and "reask" not in _names(without.quiet_flow)
    with_anytime = engine.load_pack(str(PACKS / "cooldown"))
    Match.played(with_anytime, 2, 1, [RandomAgent(1, seat) for seat in range(2)])
    assert with_anytime.anytime and "reask" in _names(with_anytime.quiet_flow)


def _names(fn: Any) -> set[str]:
    """The global names a generated function's code reads (its nested code objects too)."""
    names: set[str] = set()
    codes = [fn.__code__]
    while codes:
        code = codes.pop()
        names.update(code.co_names)
        codes.extend(c for c in code.co_consts if hasattr(c, "co_names"))
    return names
