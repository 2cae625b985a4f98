"""tools/bench/bytecodes.py: the bytecodes a classic game runs, by function or by instruction."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools" / "bench"))

import bytecodes  # noqa: E402


def test_a_game_by_function(capsys: pytest.CaptureFixture[str]) -> None:
    assert bytecodes.main(["tic-tac-toe", "--games", "2", "--top", "3"]) == 0
    lines = capsys.readouterr().out.splitlines()
    head = re.match(r"tic-tac-toe: ([\d,]+) bytecodes a game \(2 games\)", lines[0])
    assert head is not None
    total = int(head[1].replace(",", ""))
    assert len(lines) == 4 and "<dsl>:flow.quiet" in lines[1]
    shares = [int(line.split()[0].replace(",", "")) for line in lines[1:]]
    assert shares == sorted(shares, reverse=True) and sum(shares) <= total


def test_one_function_by_instruction(capsys: pytest.CaptureFixture[str]) -> None:
    assert bytecodes.main(["connect-four", "--games", "1", "--function", "flow.quiet"]) == 0
    out = capsys.readouterr().out.splitlines()
    counted = sum(float(line.split()[0]) for line in out[1:])
    assert out[0].startswith("flow.quiet: ") and counted == float(out[0].split()[1].replace(",", ""))
    assert any("CALL" in line and float(line.split()[0]) > 0 for line in out[1:])   # (`game.ask`, each move)


def test_what_never_ran_or_cannot_be_played_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert bytecodes.main(["tic-tac-toe", "--games", "1", "--function", "no.such"]) == 2
    assert "no.such never ran" in capsys.readouterr().err
    assert bytecodes.main(["roboston", "--games", "1"]) == 2
    assert "not 2" in capsys.readouterr().err
    assert bytecodes.main(["no-such-pack"]) == 2
    assert "[PACK001]" in capsys.readouterr().err
