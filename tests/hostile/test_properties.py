"""Property tests of hostile input (issue 9): generated game logs never crash `replay` or
`play --resume`, and mutated scenario files never end in a traceback. Each example must end
in an exit status (0, 1 or 2); any exception escaping the CLI fails the test."""

from __future__ import annotations

import copy
import json
from typing import Any

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.cli import main
from engine.diagnostics import PackError
from engine.play.log import GameLog
from engine.resources import data_dir
from tests.test_limits_properties import data_paths

SETTINGS = settings(max_examples=40, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
SCENARIO = data_dir("content") / "robot-factory" / "scenarios" / "repair-bay-stops-at-15.yaml"
LOG_KEYS = ["format", "pack", "pack_path", "version", "players", "seed", "options", "decisions", "finished",
            "hash", "scores", "winners", "extra"]

scalars = st.one_of(st.none(), st.booleans(), st.integers(min_value=-2**70, max_value=2**70),
                    st.floats(allow_nan=False), st.text(max_size=12),
                    st.sampled_from(["robot-factory", "Store", "keep", "P1.shields", "..", "2", "-1", "1e999"]))
values = st.recursive(scalars, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                       st.dictionaries(st.text(max_size=8), inner, max_size=4)),
                      max_leaves=12)


def _log() -> dict[str, Any]:
    return {"format": 1, "pack": "robot-factory", "players": 2, "seed": 7,
            "decisions": [{"seat": 0, "step": "x", "label": "Store"}]}


@st.composite
def logs(draw: st.DrawFn) -> Any:
    """A valid-looking log with some keys replaced, removed or added; sometimes not a mapping at all."""
    if draw(st.integers(0, 9)) == 0:
        return draw(values)
    log = _log()
    for key in draw(st.lists(st.sampled_from(LOG_KEYS), max_size=3)):
        if draw(st.booleans()) and key in log:
            del log[key]
        else:
            log[key] = draw(values)
    if draw(st.booleans()) and isinstance(log.get("decisions"), list):
        log["decisions"].append(draw(values))
    return log


@SETTINGS
@given(log=logs(), command=st.sampled_from([["replay"], ["play", "--quiet", "--resume"]]))
def test_generated_logs_never_crash_replay(log: Any, command: list[str], tmp_path_factory: Any) -> None:
    path = tmp_path_factory.mktemp("log") / "game.json"
    path.write_text(json.dumps(log))
    try:
        GameLog.read(path)
    except PackError as exc:
        assert exc.diagnostics and all(d.line >= 1 and d.col >= 1 for d in exc.diagnostics)
    assert main([*command, str(path)]) in (0, 1, 2)


@st.composite
def scenarios(draw: st.DrawFn) -> Any:
    data = yaml.safe_load(SCENARIO.read_text(encoding="utf-8"))
    for _ in range(draw(st.integers(1, 3))):
        spots = [p for p in data_paths(data, leaves_only=False) if p]
        spot = draw(st.sampled_from(spots))
        parent = data
        for step in spot[:-1]:
            parent = parent[step]
        new = draw(values)
        if draw(st.booleans()) or not isinstance(parent, dict):
            parent[spot[-1]] = copy.deepcopy(new)
        else:
            parent[draw(st.text(max_size=10))] = new
    return data


@SETTINGS
@given(data=scenarios())
def test_mutated_scenarios_never_traceback(data: Any, tmp_path_factory: Any) -> None:
    path = tmp_path_factory.mktemp("scenario") / "mutated.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True))
    assert main(["scenario", str(path)]) in (0, 1, 2)
