"""Robotopia from content alone: every rulebook scenario passes, and seeded random games end and replay."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.compile.loading import load_pack
from engine.play.simulate import play_one

ROOT = Path(__file__).resolve().parent.parent
PACK = ROOT / "content" / "robotopia"


@pytest.mark.parametrize("players", [2, 5])
def test_a_random_game_ends_with_a_winner_and_replays(players: int) -> None:
    record = play_one(load_pack(str(PACK)), players, seed=3, options={}, check_replay=True)
    assert record.error is None and record.replayed
    assert max(record.scores) == 1   # somebody influenced all 4 guilds
