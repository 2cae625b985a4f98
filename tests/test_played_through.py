"""`Match.played`: a whole game played in the caller's stack (no paused flow) is the game `Match(...)` then
`run(agents)` plays: the same answers, events, hash and log; it forks and undoes like any finished match; a
game that fails raises as `run` would; a searching bot plays through `run`."""

from __future__ import annotations

from pathlib import Path

import pytest

import engine
from engine.errors import RuleError
from engine.play.agents import RandomAgent, ScriptedAgent, ScriptError
from engine.play.greedy import GreedyAgent
from engine.play.match import Match
from engine.play.simulate import play_one

PACKS = ["tic-tac-toe", "goofspiel", "robot-factory", "raising-robots"]


def _bots(seed: int, players: int) -> list[RandomAgent]:
    return [RandomAgent(seed, seat) for seat in range(players)]


@pytest.mark.parametrize("name", PACKS)
def test_the_same_game_as_run(name: str) -> None:
    pack = engine.load_pack(name)
    players = min(pack.max_players, 3)
    for seed in (1, 2, 3):
        paused_feed: list[engine.Event] = []
        through_feed: list[engine.Event] = []
        paused = Match(pack, players, seed, observers=[paused_feed.append])
        paused.run(_bots(seed, players))
        through = Match.played(pack, players, seed, _bots(seed, players), observers=[through_feed.append])
        assert through.done and through.decision is None and through._flow is None
        assert through.state_hash() == paused.state_hash()
        assert through.to_log().to_json() == paused.to_log().to_json()
        assert through_feed == paused_feed and through_feed[-1].kind is engine.EventKind.GAME_ENDED


def test_a_played_match_forks_undoes_and_closes_like_any_other() -> None:
    pack = engine.load_pack("tic-tac-toe")
    through = Match.played(pack, 2, 7, _bots(7, 2))
    paused = Match(pack, 2, 7)
    paused.run(_bots(7, 2))
    assert through.fork().state_hash() == paused.state_hash()
    through.close()                  # nothing paused to end
    through.run(_bots(7, 2))         # nothing left to answer
    through.undo(2)
    paused.undo(2)
    assert not through.done and through.legal() == paused.legal() and through.state_hash() == paused.state_hash()
    through.apply(0)
    paused.apply(0)
    assert through.state_hash() == paused.state_hash()


def test_an_agents_error_is_raised_as_run_raises_it() -> None:
    pack = engine.load_pack("tic-tac-toe")
    with pytest.raises(ScriptError, match="no answer left"):
        Match.played(pack, 2, 1, [ScriptedAgent(["center"]), ScriptedAgent([])])


def test_a_rules_error_is_raised_and_simulate_keeps_the_failed_game(tmp_path: Path) -> None:
    (tmp_path / "pack.yaml").write_text('id: stops\nname: Stops\nversion: 0.1.0\nengine: ">=0.1,<1.0"\n'
                                        "players: {min: 1, max: 2}\n")
    (tmp_path / "game.yaml").write_text(
        "counters:\n  coin: {name: Coin, resource: true, initial: 3}\n"
        "flow:\n  - id: turns\n    each_player:\n"
        "      - id: pick\n        do: 'choose n from 1 to 3 { gain n coin }; set coin = coin / 0'\n"
        "scoring:\n  score: coin\n")
    pack = engine.load_pack(str(tmp_path))
    with pytest.raises(RuleError) as raised:
        Match.played(pack, 2, 1, _bots(1, 2))
    paused = Match(pack, 2, 1)
    with pytest.raises(RuleError) as ran:
        paused.run(_bots(1, 2))
    assert str(raised.value) == str(ran.value)
    record = play_one(pack, 2, 1, {}, check_replay=False)
    assert record.error == str(ran.value) and record.decisions == 1 and record.log is not None
    assert [d["label"] for d in record.log["decisions"]] == [paused.log[0].label]


def test_a_searching_bot_plays_through_run() -> None:
    pack = engine.load_pack("tic-tac-toe")
    match = Match.played(pack, 2, 3, [GreedyAgent(3, 0), RandomAgent(3, 1)])
    assert match.done and match._flow is not None     # a match it could fork, played by `run`
