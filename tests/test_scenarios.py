"""The Raising Robots rulebook examples and rules, as scenario files, must pass.

One test per file in content/raising-robots/scenarios (format: docs/scenarios.md).
Scenarios that show an engine bug or a missing engine feature are listed in
KNOWN_ENGINE_GAPS and marked as strict expected failures: once the engine is
fixed they XPASS, which fails the run until the entry is removed.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.diagnostics import PackError
from engine.play.scenario import ScenarioResult, run_scenario
from engine.runtime.defs import Pack

ROOT = Path(__file__).resolve().parent.parent
SCENARIO_DIR = ROOT / "content" / "raising-robots" / "scenarios"
SCENARIOS = sorted(SCENARIO_DIR.glob("*.yaml"))

KNOWN_ENGINE_GAPS: dict[str, str] = {}

_PACKS: dict[str, Pack] = {}  # load each pack once for the whole module


def _report(result: ScenarioResult) -> str:
    return "\n".join(f"  {f.where}: {f.message}" for f in result.failures)


def _params() -> Iterator[object]:
    for path in SCENARIOS:
        marks = []
        if path.stem in KNOWN_ENGINE_GAPS:
            marks.append(pytest.mark.xfail(reason=KNOWN_ENGINE_GAPS[path.stem], strict=True, raises=AssertionError))
        yield pytest.param(path, id=path.stem, marks=marks)


@pytest.mark.parametrize("path", list(_params()))
def test_scenario(path: Path) -> None:
    result = run_scenario(path, _PACKS)
    report = _report(result)
    if report:
        print(f"FAIL {result.file}: {result.name}\n{report}")
    assert result.passed, f"{result.name}\n{report}"


def test_scenario_folder_is_not_empty() -> None:
    assert len(SCENARIOS) >= 20, f"expected the rulebook scenarios in {SCENARIO_DIR}"


def test_known_gaps_name_existing_scenarios() -> None:
    assert set(KNOWN_ENGINE_GAPS) <= {p.stem for p in SCENARIOS}


# ---------------------------------------------------------------- the runner must not pass silently
_PREFIX = """\
pack: raising-robots
name: deliberately wrong
players: 2
seed: 1
steps:
  - until: {seat: 1, prompt: "phase for energy card 1"}
  - set: {P1.battery: 2}
"""


def _run(tmp_path: Path, steps: str) -> ScenarioResult:
    path = tmp_path / "wrong.yaml"
    path.write_text(_PREFIX + steps)
    return run_scenario(path, _PACKS)


def test_wrong_expectation_fails(tmp_path: Path) -> None:
    result = _run(tmp_path, "  - expect: {P1.battery: 3}\n")
    assert not result.passed
    assert len(result.failures) == 1
    assert "P1.battery: expected 3, got 2" in result.failures[0].message
    assert result.failures[0].where.endswith("wrong.yaml:8:26")  # line and column of the wrong value


def test_right_expectation_passes(tmp_path: Path) -> None:
    result = _run(tmp_path, "  - expect: {P1.battery: 2, pending.seat: 1}\n")
    assert result.passed, _report(result)


@pytest.mark.parametrize("steps, message", [
    ("  - answer: \"No Such Card\"\n", "is not a legal option"),
    ("  - legal: [\"No Such Card\"]\n", "is not a legal option"),
    ("  - illegal: [\"Design card\"]\n", "is a legal option"),
    ("  - expect: {P1.no_such_thing: 1}\n", "names no counter, zone or component attribute"),
    ("  - set: {P1.robot_card: 4}\n", "set that zone instead"),
    ("  - until: {prompt: \"a prompt no decision has\"}\n", "the game ended before reaching"),
], ids=["answer", "legal", "illegal", "unknown-path", "zone-backed-counter", "until"])
def test_wrong_step_fails(tmp_path: Path, steps: str, message: str) -> None:
    result = _run(tmp_path, steps)
    assert not result.passed
    assert message in result.failures[0].message


def test_failed_answer_stops_the_script(tmp_path: Path) -> None:
    result = _run(tmp_path, "  - answer: \"No Such Card\"\n  - expect: {P1.battery: 99}\n")
    assert len(result.failures) == 1  # the expect after the failed answer is not run


def test_malformed_scenario_is_rejected(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text("pack: raising-robots\nsteps:\n  - expectt: {round: 1}\n")
    with pytest.raises(PackError):
        run_scenario(path, _PACKS)
