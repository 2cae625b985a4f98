"""tools/show_generated.py: the generated Python of a pack, as source, for whoever reads what a game runs."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))

import show_generated  # noqa: E402


def test_the_flow_and_procedures_of_a_game_are_shown_as_python() -> None:
    sources = show_generated.generated_sources("tic-tac-toe", 2, 1)
    assert "flow.quiet" in sources
    for name, text in sources.items():   # each is one function, the DSL's name on it (not an identifier)
        tree = ast.parse(text.replace(name, "generated", 1))
        assert isinstance(tree.body[0], ast.FunctionDef)
    assert "game.ask(" in sources["flow.quiet"]   # (the flow step's `call mark`, run in the quiet flow)


def test_the_builder_is_put_back_after_showing(capsys: pytest.CaptureFixture[str]) -> None:
    build = show_generated.codegen._Pending.build
    assert show_generated.main(["tic-tac-toe", "flow.quiet"]) == 0
    assert show_generated.codegen._Pending.build is build
    out = capsys.readouterr().out
    assert out.startswith("# flow.quiet\ndef flow.quiet(ctx):")


def test_unknown_names_and_packs_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert show_generated.main(["tic-tac-toe", "no.such.function"]) == 2
    assert "not built in this game: no.such.function" in capsys.readouterr().err
    assert show_generated.main(["no-such-pack"]) == 2
    assert "[PACK001]" in capsys.readouterr().err
