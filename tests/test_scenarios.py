"""Every shipped pack's rulebook examples and rules, as scenario files, must pass.

One test per file in content/PACK/scenarios (format: docs/scenarios.md), for every pack: the one place
scenarios are run (the per-pack test files check the pack's other promises).
Scenarios that show an engine bug, a missing engine feature, or a rule a pack
still approximates (listed as such in its README) are listed in
KNOWN_ENGINE_GAPS and marked as strict expected failures: once the engine or
pack is fixed they XPASS, which fails the run until the entry is removed.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.diagnostics import PackError
from engine.play.scenario import ScenarioResult, run_scenario, run_scenario_files
from engine.runtime.defs import Pack

ROOT = Path(__file__).resolve().parent.parent
SCENARIO_DIR = ROOT / "content" / "raising-robots" / "scenarios"
SCENARIOS = sorted(SCENARIO_DIR.glob("*.yaml"))
EVERY_SCENARIO = sorted((ROOT / "content").glob("*/scenarios/*.yaml"))

KNOWN_ENGINE_GAPS: dict[str, str] = {}

_PACKS: dict[str, Pack] = {}  # load each pack once for the whole module


def _report(result: ScenarioResult) -> str:
    return "\n".join(f"  {f.where}: {f.message}" for f in result.failures)


def _params() -> Iterator[object]:
    for path in EVERY_SCENARIO:
        name = f"{path.parent.parent.name}/{path.stem}"
        marks = []
        if name in KNOWN_ENGINE_GAPS:
            marks.append(pytest.mark.xfail(reason=KNOWN_ENGINE_GAPS[name], strict=True, raises=AssertionError))
        yield pytest.param(path, id=name, marks=marks)


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
    assert set(KNOWN_ENGINE_GAPS) <= {f"{p.parent.parent.name}/{p.stem}" for p in EVERY_SCENARIO}


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
    ("  - expect: {P1.no_such_thing: 1}\n", "names no counter, dice pool, zone or component attribute"),
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


def _tiny_pack(folder: Path, initial: int) -> None:
    (folder / "scenarios").mkdir(parents=True)
    (folder / "pack.yaml").write_text('id: tiny\nname: Tiny\nversion: 0.1.0\nengine: ">=0.1,<1.0"\n'
                                      "players: {min: 1, max: 2}\n")
    (folder / "game.yaml").write_text(f"counters:\n  coin: {{name: Coin, initial: {initial}}}\n"
                                      "flow:\n  - id: turns\n    each_player:\n"
                                      '      - {id: earn, do: "gain 1 coin"}\nscoring:\n  score: "coin"\n')
    (folder / "scenarios" / "start.yaml").write_text(
        f"name: start\npack: ..\nplayers: 1\nsteps:\n  - expect: {{P1.coin: {initial + 1}}}\n")   # after one turn


def test_packs_are_found_from_the_scenario_file_and_not_shared_by_text(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 9: `pack: ..` was resolved from the working folder, and two folders saying `pack: ..`
    shared the first one's pack."""
    _tiny_pack(tmp_path / "a", 3)
    _tiny_pack(tmp_path / "b", 5)
    monkeypatch.chdir(tmp_path)
    assert run_scenario_files([tmp_path / "a" / "scenarios", tmp_path / "b" / "scenarios"]) == 0


def test_a_counter_set_from_text_is_broken_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _tiny_pack(tmp_path / "a", 3)
    bad = tmp_path / "a" / "scenarios" / "bad.yaml"
    for value in ("abc", ".inf", ".nan", "[1, 2]", "2.5", "true"):
        bad.write_text(f"name: bad\npack: ..\nplayers: 1\nsteps:\n  - set: {{P1.coin: {value}}}\n")
        assert run_scenario_files([bad]) == 2, value
        out = capsys.readouterr().out
        assert "bad.yaml:5:" in out and "[SCEN001]" in out and "Traceback" not in out, out
