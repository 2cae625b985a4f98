"""The classic games (tic-tac-toe, connect four, goofspiel, breakthrough) pass their scenarios, and the
hand-written versions the bench races against (tools/baselines) play the very same games.

One test per scenario file in content/GAME/scenarios (format: docs/scenarios.md). That the packs play
exactly as OpenSpiel's games is tests/test_openspiel_crosscheck.py; that they lint clean is
tests/test_expansions.py (`lint --strict content`).
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import pytest

from engine.compile.loading import load_pack

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

from baselines.random_bots import random_chooser  # noqa: E402
from bench.classics import GAMES, engine_final, play_engine  # noqa: E402

CLASSICS = ["tic-tac-toe", "connect-four", "goofspiel", "breakthrough"]


@pytest.mark.parametrize("game", CLASSICS)
def test_every_classic_has_scenarios(game: str) -> None:
    assert len(list((ROOT / "content" / game / "scenarios").glob("*.yaml"))) >= 4


@pytest.mark.parametrize("game", CLASSICS)
def test_the_hand_written_version_plays_the_same_games(game: str) -> None:
    """Same options in the same order, same random draws: same winners and final boards, seed for seed."""
    _, baseline_name, attribute = GAMES[game]
    baseline = importlib.import_module(f"baselines.{baseline_name}")
    pack = load_pack(game)
    differ = [seed for seed in range(1, 101)
              if engine_final(play_engine(pack, seed), attribute) != baseline.play(seed, random_chooser(seed))]
    assert not differ, f"seeds whose games differ: {differ[:10]}"
