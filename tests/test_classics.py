"""The classic games (tic-tac-toe, connect four, goofspiel, breakthrough) pass their scenarios.

One test per scenario file in content/GAME/scenarios (format: docs/scenarios.md). That the packs play
exactly as OpenSpiel's games is tests/test_openspiel_crosscheck.py; that they lint clean is
tests/test_expansions.py (`lint --strict content`).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.pack import Pack
from engine.scenario import run_scenario

ROOT = Path(__file__).resolve().parent.parent
CLASSICS = ["tic-tac-toe", "connect-four", "goofspiel", "breakthrough"]
SCENARIOS = [path for game in CLASSICS for path in sorted((ROOT / "content" / game / "scenarios").glob("*.yaml"))]

_PACKS: dict[str, Pack] = {}  # each pack loaded once for the module


@pytest.mark.parametrize("path", SCENARIOS, ids=[f"{p.parent.parent.name}/{p.stem}" for p in SCENARIOS])
def test_scenario(path: Path) -> None:
    result = run_scenario(path, _PACKS)
    assert result.passed, f"{result.name}\n" + "\n".join(f"  {f.where}: {f.message}" for f in result.failures)


@pytest.mark.parametrize("game", CLASSICS)
def test_every_classic_has_scenarios(game: str) -> None:
    assert len(list((ROOT / "content" / game / "scenarios").glob("*.yaml"))) >= 4
