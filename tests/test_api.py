"""The public API: `engine.__all__` is the documented surface, and every example in docs/api.md runs."""

from __future__ import annotations

import json
import re
import threading
from pathlib import Path

import pytest

import engine

DOC = Path(__file__).resolve().parents[1] / "docs" / "api.md"


def examples() -> list[str]:
    return re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)


@pytest.mark.parametrize("index", range(len(examples())))
def test_every_example_in_the_api_doc_runs(index: int) -> None:
    exec(compile(examples()[index], f"{DOC}#example{index + 1}", "exec"), {})


def test_all_is_the_documented_surface() -> None:
    text = DOC.read_text(encoding="utf-8")
    for name in engine.__all__:
        assert name == "__version__" or getattr(engine, name) is not None
    missing = [n for n in engine.__all__ if n not in text and n not in ("__version__", "Event", "EventKind",
                                                                        "PlayerResult", "Pack", "Diagnostic",
                                                                        "GameLog", "Outcome")]
    assert not missing
    assert set(dir(engine)) == set(engine.__all__) == {"__version__", *engine._EXPORTS}


def test_errors_share_one_base() -> None:
    for name in ("PackError", "RuleError", "MoveError"):
        assert issubclass(getattr(engine, name), engine.CogworkError)


def test_decision_and_view_are_json_safe() -> None:
    match = engine.new_match(engine.load_pack("raising-robots"), players=3, seed=2)
    for _ in range(30):
        json.dumps(match.decision.to_json())
        json.dumps([o.label for o in match.decision.options])
        json.dumps(match.view(match.to_move))
        assert isinstance(match.decision.kind, engine.DecisionKind)
        match.apply(len(match.legal()) - 1)


def test_a_wrong_answer_raises_move_error_and_changes_nothing() -> None:
    match = engine.new_match(engine.load_pack("robot-factory"), players=2, seed=1)
    before = match.state_hash()
    for bad in (-1, 99, True, "0"):
        with pytest.raises(engine.MoveError):
            match.apply(bad)
    with pytest.raises(engine.MoveError):
        match.apply_label("no such option")
    assert match.state_hash() == before and match.to_log().decisions == []


def test_unknown_option_is_an_error() -> None:
    with pytest.raises(engine.RuleError, match="not an option"):
        engine.new_match(engine.load_pack("robot-factory"), players=2, options={"turbo": True})


def test_a_match_can_be_handed_to_another_thread() -> None:
    pack = engine.load_pack("robot-factory")
    here, there = engine.new_match(pack, 2, seed=5), engine.new_match(pack, 2, seed=5)
    for _ in range(10):
        here.apply(0)
    hashes: list[str] = []

    def worker() -> None:
        for _ in range(10):
            there.apply(0)
        hashes.append(there.state_hash())

    thread = threading.Thread(target=worker)
    thread.start()
    thread.join()
    assert hashes == [here.state_hash()]
    there.apply(0)                               # and back on this thread
    here.apply(0)
    assert there.state_hash() == here.state_hash()
