"""The quiet flow (engine/compile/flow.py `_quiet`, engine/compile/step_stores.py): a game played through with
no trace and nobody watching runs the untraced flow without observer tests and with only the step-name stores a
reader needs. It plays the game the traced flow plays, each decision naming the same step; it runs only when
nobody watches; subscribing while it runs is an error, not an observer that would hear nothing."""

from __future__ import annotations

import ast
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import engine
from engine.compile.step_stores import StepStores
from engine.errors import MoveError
from engine.play.agents import RandomAgent
from engine.play.match import Match
from engine.runtime.decision import Decision
from engine.runtime.defs import Pack
from engine.runtime.events import Event, EventKind

PACKS = ["tic-tac-toe", "connect-four", "goofspiel", "breakthrough", "robot-factory", "raising-robots",
         "raising-robots-expansion", "roboston", "robotopia", "stress-botics"]


def _bots(seed: int, players: int) -> list[RandomAgent]:
    return [RandomAgent(seed, seat) for seat in range(players)]


def _played_and_traced(pack: Pack, players: int, seed: int) -> tuple[Match, Match]:
    quiet = Match.played(pack, players, seed, _bots(seed, players))
    traced = Match(pack, players, seed, forkable=True)   # the traced flow: every step stored
    traced.run(_bots(seed, players))
    return quiet, traced


@pytest.mark.parametrize("name", PACKS)
def test_the_quiet_and_untraced_flows_play_the_traced_game_naming_the_same_steps(name: str) -> None:
    # the traced flow (a forkable match) stores every step's name; the untraced one (a pausable match, a watched
    # played one) and the quiet one store only those a reader needs: the same answers at the same steps, the same
    # events (a step's start names it) and final state
    pack = engine.load_pack(name)
    players = min(pack.max_players, 3)
    for seed in (1, 2):
        quiet, traced = _played_and_traced(pack, players, seed)
        feeds: list[list[Event]] = [[], [], []]
        watched = Match.played(pack, players, seed, _bots(seed, players), observers=[feeds[0].append])
        paused = Match(pack, players, seed, observers=[feeds[1].append])
        paused.run(_bots(seed, players))
        told = Match(pack, players, seed, forkable=True, observers=[feeds[2].append])
        told.run(_bots(seed, players))
        steps = [answer.step for answer in traced.log]
        for match in (quiet, watched, paused, told):
            assert [answer.step for answer in match.log] == steps
            assert match.to_log().to_json() == traced.to_log().to_json()
            assert match.state_hash() == traced.state_hash()   # (the hash covers the final step name too)
        assert feeds[0] == feeds[1] == feeds[2]
        assert any(event.kind is EventKind.STEP_STARTED for event in feeds[0])


def _toy(tmp_path: Path, flow: str) -> Pack:
    (tmp_path / "pack.yaml").write_text('id: toy\nname: Toy\nversion: 0.1.0\nengine: ">=0.1,<1.0"\n'
                                        "players: {min: 1, max: 2}\n")
    (tmp_path / "game.yaml").write_text(textwrap.dedent("""\
        counters:
          coin: {name: Coin, resource: true}
          ore: {name: Ore, resource: true}
        triggers:
          - {id: ask, on: gained, when: 'event.counter == "coin"', effect: "choose n from 1 to 2 { gain n ore }"}
        """) + textwrap.dedent(flow) + "scoring:\n  score: ore\n")
    return engine.load_pack(str(tmp_path))


def test_a_decision_a_trigger_asks_names_the_step_after_steps_with_no_ask(tmp_path: Path) -> None:
    # `tally` and `plain` ask nothing (the quiet flow stores neither name); `earn` asks only inside a runtime
    # call (its gain fires the trigger), `pick` in its own code
    pack = _toy(tmp_path, """\
        flow:
          - id: rounds
            repeat: {count: 2}
            steps:
              - id: tally
                each_player:
                  - {id: count, do: "set ore = ore + 1"}
              - id: turn
                each_player:
                  - {id: earn, do: "gain 1 coin"}
                  - {id: plain, do: "set ore = ore + 1"}
                  - {id: pick, do: "choose n from 1 to 2 { gain n ore }"}
        """)
    quiet, traced = _played_and_traced(pack, 2, 5)
    steps = [answer.step for answer in quiet.log]
    assert steps == ["rounds/turn/earn", "rounds/turn/pick"] * 4
    assert steps == [answer.step for answer in traced.log]
    assert quiet.state_hash() == traced.state_hash()


def test_a_game_that_ends_in_a_step_keeps_that_steps_name(tmp_path: Path) -> None:
    # `end_game` leaves the flow in the middle: the final state (hashed) names the step it ended in
    pack = _toy(tmp_path, """\
        flow:
          - id: rounds
            repeat: {count: 3}
            steps:
              - id: quiet_step
                each_player:
                  - {id: count, do: "set ore = ore + 1"}
              - id: stopper
                each_player:
                  - {id: check, do: "if ore >= 2 { end_game }"}
        """)
    quiet, traced = _played_and_traced(pack, 2, 1)
    assert quiet.game.state.step == traced.game.state.step == "rounds/stopper/check"
    assert quiet.state_hash() == traced.state_hash()


def test_the_quiet_flow_runs_only_when_nobody_watches(monkeypatch: pytest.MonkeyPatch) -> None:
    pack = engine.load_pack("goofspiel")
    calls: list[str] = []
    for name in ("flow", "untraced_flow", "quiet_flow"):
        monkeypatch.setattr(pack, name, _recorded(getattr(pack, name), name, calls))
    heard: list[Event] = []
    Match.played(pack, 2, 1, _bots(1, 2))
    Match.played(pack, 2, 1, _bots(1, 2), observers=[heard.append])
    assert calls == ["quiet_flow", "untraced_flow"]
    assert any(event.kind is EventKind.STEP_STARTED for event in heard)   # the watched game told its steps


def _recorded(flow: Callable[[Any], Any], name: str, calls: list[str]) -> Callable[[Any], Any]:
    def recorded(ctx: Any) -> Any:
        calls.append(name)
        return flow(ctx)
    return recorded


class _Subscriber:
    """Answers 0 after trying to subscribe to the game it plays, from inside its own decision."""

    def __init__(self, observer: Callable[[Event], None]) -> None:
        self.observer = observer
        self.refused: list[str] = []

    def choose(self, view: Any, decision: Decision) -> int:
        try:
            view._game.watch(self.observer)
        except MoveError as error:
            self.refused.append(str(error))
        return 0

    def observe(self, decision: Decision, index: int) -> None:
        return None


def test_subscribing_while_the_quiet_flow_runs_is_refused_and_the_game_goes_on() -> None:
    pack = engine.load_pack("tic-tac-toe")
    heard: list[Event] = []
    agents = [_Subscriber(heard.append), _Subscriber(heard.append)]
    match = Match.played(pack, 2, 1, agents)   # type: ignore[arg-type]
    assert match.done and heard == [] and not match.game.observers
    assert agents[0].refused and "plays through unwatched" in agents[0].refused[0]
    match.subscribe(heard.append)   # once played through, a match takes observers again
    assert match.game.observers == [heard.append]


def test_a_watched_played_game_still_takes_observers_while_it_runs() -> None:
    pack = engine.load_pack("tic-tac-toe")
    first: list[Event] = []
    later: list[Event] = []
    agents = [_Subscriber(later.append), _Subscriber(later.append)]
    Match.played(pack, 2, 1, agents, observers=[first.append])   # type: ignore[arg-type]
    assert not agents[0].refused and later   # the untraced flow tells whoever joined


def _rewritten(source: str) -> str:
    return ast.unparse(ast.Module(StepStores("S").rewrite(ast.parse(textwrap.dedent(source)).body), []))


def test_a_store_no_reader_needs_goes_and_one_a_fallback_needs_moves_into_its_branch() -> None:
    assert _rewritten("""\
        S.step = 'a'
        x = 1
        S.step = 'b'
        if not deck:
            game.draw(ctx, deck, hand, 1)
        else:
            hand.append(deck.pop(0))
        S.step = 'c'
        for seat in seats:
            S.step = 'c/d'
            game.ask(ctx)
        S.step = F
        """) == textwrap.dedent("""\
        x = 1
        if not deck:
            S.step = 'b'
            game.draw(ctx, deck, hand, 1)
        else:
            hand.append(deck.pop(0))
        for seat in seats:
            S.step = 'c/d'
            game.ask(ctx)
        S.step = F""")


def test_a_raise_a_stop_and_a_loop_whose_head_reads_keep_their_stores() -> None:
    # `raise GameOver` / `raise StopLoop`: the match or the flow reads the name after; a runaway's limit error
    # names its place by line
    assert _rewritten("""\
        S.step = 'a'
        if over:
            raise GameOver
        if work > limit:
            raise game.out_of_work('x')
        S.step = 'b'
        while more:
            n += 1
            K1.run(ctx)
        S.step = F
        """) == textwrap.dedent("""\
        if over:
            S.step = 'a'
            raise GameOver
        if work > limit:
            raise game.out_of_work('x')
        S.step = 'b'
        while more:
            n += 1
            K1.run(ctx)
        S.step = F""")


def test_a_try_the_flow_does_not_own_keeps_every_store() -> None:
    source = """\
        S.step = 'a'
        x = 1
        try:
            S.step = 'b'
            y = 2
        except ValueError:
            game.ask(ctx)
        S.step = F
        """
    assert _rewritten(source) == textwrap.dedent("""\
        x = 1
        S.step = 'a'
        try:
            S.step = 'b'
            y = 2
        except ValueError:
            game.ask(ctx)
        S.step = F""")


# ---------------------------------------------------------------- a flow step's `call` run in the quiet flow
def _procedures(tmp_path: Path, procedures: str, steps: str) -> Pack:
    (tmp_path / "pack.yaml").write_text('id: calls\nname: Calls\nversion: 0.1.0\nengine: ">=0.1,<1.0"\n'
                                        "players: {min: 1, max: 2}\n")
    (tmp_path / "game.yaml").write_text(textwrap.dedent("""\
        counters:
          coin: {name: Coin, resource: true}
        procedures:
        """) + textwrap.indent(textwrap.dedent(procedures), "  ") + "flow:\n" + textwrap.indent(
        textwrap.dedent(steps), "  ") + "scoring:\n  score: coin\n")
    return engine.load_pack(str(tmp_path))


def _errors(pack: Pack) -> tuple[str, str, str]:
    """The error each flow raises: quiet (played through), untraced (a pausable match), traced (forkable)."""
    raised = []
    for play in (lambda: Match.played(pack, 2, 1, _bots(1, 2)),
                 lambda: Match(pack, 2, 1).run(_bots(1, 2)),
                 lambda: Match(pack, 2, 1, forkable=True).run(_bots(1, 2))):
        with pytest.raises(engine.RuleError) as caught:
            play()
        raised.append(str(caught.value))
    return raised[0], raised[1], raised[2]


def test_a_content_error_inside_a_called_procedure_names_the_same_place(tmp_path: Path) -> None:
    pack = _procedures(tmp_path, """\
        pick: "choose n from 1 to 2 { gain n coin }"
        boom: "gain 1 coin; set coin = coin / (coin - coin)"
        """, """\
        - id: rounds
          repeat: {count: 2}
          steps:
            - id: turn
              each_player:
                - {id: first, do: "call pick"}
                - {id: second, do: "call boom"}
        """)
    quiet, untraced, traced = _errors(pack)
    assert quiet == untraced == traced and "game.yaml:5:23: error: division by zero" in quiet   # (`boom`'s text)


def test_a_runaway_recursion_from_a_flow_step_is_named_at_the_inner_call(tmp_path: Path) -> None:
    pack = _procedures(tmp_path, 'again: "gain 1 coin; call again"\n', """\
        - id: turn
          each_player:
            - {id: go, do: "call again"}
        """)
    quiet, untraced, traced = _errors(pack)
    assert quiet == untraced == traced and "nested deeper than 64 (at 'again')" in quiet


def test_a_stop_inside_a_called_procedure_ends_the_repeat_and_the_depth_count(tmp_path: Path) -> None:
    pack = _procedures(tmp_path, """\
        leave: "gain 1 coin; if coin >= 3 { stop }"
        pick: "choose n from 1 to 2 { gain n coin }"
        """, """\
        - id: rounds
          repeat: {count: 5}
          steps:
            - id: turn
              each_player:
                - {id: go, do: "call leave"}
        - id: after
          each_player:
            - {id: more, do: "call pick"}
        """)
    quiet, traced = _played_and_traced(pack, 2, 3)
    assert quiet.state_hash() == traced.state_hash() and quiet.game.call_depth == traced.game.call_depth == 0
    assert [a.step for a in quiet.log] == [a.step for a in traced.log] == ["after/more"] * 2


def test_the_quiet_flow_runs_a_called_procedure_in_place() -> None:
    # Connect Four's turn is `do: "call drop"`: the quiet flow has drop's body in its own code and calls no
    # procedure; the untraced flow calls it at each turn
    pack = engine.load_pack("connect-four")
    Match.played(pack, 2, 1, _bots(1, 2))   # (the quiet flow built and run once)
    drop = pack.procedures["drop"]
    run, called = drop.run, []

    def counted(ctx: Any) -> Any:
        called.append(ctx.game.state.step)
        return run(ctx)
    drop.run = counted
    try:
        quiet = Match.played(pack, 2, 2, _bots(2, 2))
        assert called == []
        untraced = Match(pack, 2, 2)
        untraced.run(_bots(2, 2))
    finally:
        drop.run = run
    assert called == ["rounds/turns/drop"] * len(untraced.log) and quiet.state_hash() == untraced.state_hash()
