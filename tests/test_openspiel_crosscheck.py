"""The classic packs play exactly as OpenSpiel's games: 1,000 seeded random games each, decision for decision.

The driver and the label/state <-> OpenSpiel mapping are tools/crosscheck_openspiel.py (also runnable on
its own). `open_spiel` is in the `test` extra, so this runs in CI; it is skipped only where it cannot be
imported (no wheel for the platform).
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from engine.compile.loading import load_pack

pyspiel = pytest.importorskip("pyspiel")

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

import crosscheck_openspiel as crosscheck  # noqa: E402

GAMES = 1000


@pytest.mark.parametrize("game", sorted(crosscheck.CLASSICS))
def test_same_games_as_openspiel(game: str) -> None:
    asked, failures = crosscheck.crosscheck(game, range(1, GAMES + 1))
    assert not failures, f"{len(failures)} of {GAMES} games differ; first:\n{failures[0]}"
    assert asked >= 5 * GAMES       # real choices were compared, not only forced moves


def test_a_rule_mistake_is_caught(tmp_path: Path) -> None:
    """Tic-tac-toe asking four in a row (no game can be won): some game must end differently from OpenSpiel's."""
    pack_dir = tmp_path / "tic-tac-toe"
    shutil.copytree(ROOT / "content" / "tic-tac-toe", pack_dir, ignore=shutil.ignore_patterns("scenarios"))
    game_file = pack_dir / "game.yaml"
    text = game_file.read_text()
    assert "in_a_row(c, 3," in text
    game_file.write_text(text.replace("in_a_row(c, 3,", "in_a_row(c, 4,"))
    classic, pack = crosscheck.CLASSICS["tic-tac-toe"], load_pack(str(pack_dir))
    openspiel_game = pyspiel.load_game(classic.openspiel)
    with pytest.raises(crosscheck.MismatchError, match="differ"):
        for seed in range(1, 201):
            crosscheck.crosscheck_game(classic, pack, openspiel_game, seed)
