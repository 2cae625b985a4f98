"""Stress Botics from content alone: every rulebook scenario passes, and seeded random games end and replay."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.compile.loading import load_pack
from engine.play.simulate import play_one

ROOT = Path(__file__).resolve().parent.parent
PACK = ROOT / "content" / "stress-botics"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_random_game_runs_to_the_freighter_and_replays(players: int) -> None:
    record = play_one(load_pack(str(PACK)), players, seed=5, options={}, check_replay=True)
    assert record.error is None and record.replayed
    assert len(record.scores) == players


@pytest.mark.parametrize("option", ["first_game", "random_order", "alt_shields", "orbit_b", "aggressive",
                                    "free_batteries"])
def test_each_variant_plays_a_game(option: str) -> None:
    record = play_one(load_pack(str(PACK)), 2, seed=7, options={option: True}, check_replay=False)
    assert record.error is None
