"""The work budget bounds the work between two decisions; a larger total bounds the whole game.

Why: a long game of many decisions (Robotopia with 5 players spends millions of units in all) is not a
runaway rule; a rule that works too long without asking anyone is.
"""

from __future__ import annotations

from pathlib import Path
from unittest import mock

import pytest
import yaml

from engine.compile.loading import load_pack
from engine.play.agents import RandomAgent
from engine.play.match import Match
from engine.runtime import interpreter
from engine.runtime.limits import LimitError

MANIFEST = {"id": "case", "name": "Case", "version": "0.1.0", "engine": ">=0.1,<1.0", "players": {"min": 1, "max": 1}}
BUDGET = 1_000


def _pack(tmp_path: Path, act: str) -> Path:
    """40 rounds; each asks a decision and then does `act`."""
    content = {
        "counters": {"coin": {"name": "Coin"}},
        "flow": [{"id": "rounds", "repeat": {"count": 40}, "steps": [{"id": "turns", "each_player": [
            {"id": "act", "do": f"choose {{ gain 1 coin | gain 2 coin }}; {act}"}]}]}],
        "scoring": {"score": "coin"},
    }
    (tmp_path / "pack.yaml").write_text(yaml.safe_dump(MANIFEST), encoding="utf-8")
    (tmp_path / "game.yaml").write_text(yaml.safe_dump(content, width=10**9), encoding="utf-8")
    return tmp_path


def _play(pack: Path, game_budget: int = 10**9) -> Match:
    with mock.patch.object(interpreter, "MAX_WORK", BUDGET), mock.patch.object(interpreter, "MAX_GAME_WORK",
                                                                               game_budget):
        session = Match(load_pack(str(pack)), 1, 3)
        session.run([RandomAgent(3, 0)])
    return session


def test_a_game_of_many_decisions_may_spend_more_than_one_stretch(tmp_path: Path) -> None:
    session = _play(_pack(tmp_path, "repeat 600 { gain 0 coin }"))
    assert session.game.state.work > 10 * BUDGET  # 40 stretches of about 600 units each


def test_a_rule_that_works_too_long_without_asking_is_stopped(tmp_path: Path) -> None:
    with pytest.raises(LimitError, match="without asking anyone"):
        _play(_pack(tmp_path, "repeat 1200 { gain 0 coin }"))


def test_the_whole_game_is_bounded_too(tmp_path: Path) -> None:
    with pytest.raises(LimitError, match="in all"):
        _play(_pack(tmp_path, "repeat 600 { gain 0 coin }"), game_budget=5 * BUDGET)
