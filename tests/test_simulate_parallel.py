"""Simulation on several processes and on Ray: same games whatever runs them; failures saved and replayable;
Ctrl-C keeps the finished games."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from engine.cli import main
from engine.play import parallel
from engine.play.simulate import GameRecord

ROOT = Path(__file__).resolve().parent.parent
MINIMAL = str(ROOT / "tests/fixtures/packs/minimal")
FLAKY = str(ROOT / "tests/fixtures/packs/flaky")


def _essence(records: list[GameRecord]) -> list[tuple]:
    return [(g.seed, g.players, g.scores, g.winners, g.decisions, g.hash, g.error, sorted(g.coverage.items()))
            for g in records]


def _summary_json(capsys: pytest.CaptureFixture[str], argv: list[str]) -> dict:
    capsys.readouterr()
    main(argv)
    summary = json.loads(capsys.readouterr().out)
    for timing in ("seconds", "games_per_second"):
        summary.pop(timing)
    return summary


def test_report_is_the_same_whatever_the_number_of_workers(capsys: pytest.CaptureFixture[str], tmp_path: Path
                                                           ) -> None:
    base = ["simulate", "robot-factory", "--games", "9", "--seed", "40", "--json"]
    balance = importlib.util.find_spec("matplotlib") is not None     # the balance report too, if it can be drawn
    one = _summary_json(capsys, [*base, "--workers", "1", *(["--report", str(tmp_path / "1")] if balance else [])])
    two = _summary_json(capsys, [*base, "--workers", "2", *(["--report", str(tmp_path / "2")] if balance else [])])
    if balance:
        assert (tmp_path / "1/report.json").read_text() == (tmp_path / "2/report.json").read_text()
    three = _summary_json(capsys, [*base, "--workers", "3", "--option", "advanced"])
    assert one["games"] == 9 and one["errors"] == 0 and one["replays_checked"] == 9
    assert one == two
    assert [r["seed"] for r in two["results"]] == list(range(40, 49))
    assert three["results"] != two["results"]         # the comparison can fail: other games, other summary


def test_chunks_cover_every_game_once() -> None:
    for games, workers in ((1, 8), (7, 2), (2000, 2), (103, 5)):
        chunks = parallel.Plan("x", games, [2]).chunks(workers)
        assert [i for a, b in chunks for i in range(a, b)] == list(range(games))
        assert max(b - a for a, b in chunks) <= parallel.MAX_CHUNK


@pytest.mark.skipif(importlib.util.find_spec("ray") is None, reason="ray is not installed (pip install 'cogwork[ray]')")
def test_ray_backend_plays_the_same_games() -> None:
    plan = parallel.Plan(MINIMAL, 30, [2], seed=5)
    local = parallel.run(plan, workers=1)
    on_ray = parallel.run(plan, workers=2, backend="ray")
    assert not on_ray.interrupted and len(on_ray.records) == 30
    assert _essence(on_ray.records) == _essence(local.records)


@pytest.mark.parametrize("workers", [1, 2])
def test_ctrl_c_stops_and_keeps_finished_games(workers: int) -> None:
    plan = parallel.Plan(MINIMAL, 200, [2], check_replay=False)

    def interrupt_after_first(done: int) -> None:
        raise KeyboardInterrupt

    run = parallel.run(plan, workers=workers, progress=interrupt_after_first)
    assert run.interrupted
    assert 0 < len(run.records) < 200
    complete = parallel.run(plan, workers=1)
    by_seed = {g.seed: g for g in complete.records}
    assert _essence(run.records) == _essence([by_seed[g.seed] for g in run.records])


def test_interrupted_cli_run_reports_the_games_finished(monkeypatch: pytest.MonkeyPatch,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    real_run = parallel.run

    def stopped_early(plan: parallel.Plan, *args: object, **kwargs: object) -> parallel.Run:
        kwargs["progress"] = lambda done: (_ for _ in ()).throw(KeyboardInterrupt)
        return real_run(plan, *args, **kwargs)

    monkeypatch.setattr(parallel, "run", stopped_early)
    assert main(["simulate", MINIMAL, "--games", "100", "--workers", "1"]) == 1
    out = capsys.readouterr().out
    assert "interrupted: 20 of 100 games finished" in out


def test_failed_games_are_saved_and_replay_reproduces_each(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                                           ) -> None:
    folder = tmp_path / "failures"
    assert main(["simulate", FLAKY, "--games", "12", "--workers", "2", "--failures", str(folder)]) == 1
    out = capsys.readouterr().out
    logs = sorted(folder.glob("*.json"))
    failed_seeds = {int(line.split()[2]) for line in out.splitlines() if line.strip().startswith("FAILED seed")}
    assert logs and {int(p.name.split("-")[1]) for p in logs} == failed_seeds
    assert len(failed_seeds) < 12                      # the pack fails on some seeds only
    for log in logs:
        error = (log.with_suffix(".txt").read_text().splitlines()[1]).removeprefix("error: ")
        assert main(["replay", str(log)]) == 1
        assert error in capsys.readouterr().out, log.name


def test_progress_bar_only_on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    from contextlib import nullcontext

    from engine.commands import simulate

    class Terminal:
        def isatty(self) -> bool:
            return True

        def write(self, text: str) -> int:
            return len(text)

        def flush(self) -> None:
            return None

    assert isinstance(simulate._progress_bar(10, enabled=True), nullcontext)      # pytest captures: not a terminal
    monkeypatch.setattr("sys.stdout", Terminal())
    monkeypatch.setattr("sys.stderr", Terminal())
    assert isinstance(simulate._progress_bar(10, enabled=False), nullcontext)     # --json
    with simulate._progress_bar(10, enabled=True) as bar:
        assert bar is not None and bar.total == 10


def test_format_json_is_the_json_flag(capsys: pytest.CaptureFixture[str]) -> None:
    """`--format json` (the flag lint and other tools use) prints what `--json` prints."""
    base = ["simulate", "tic-tac-toe", "--games", "3", "--workers", "1"]
    assert _summary_json(capsys, [*base, "--format", "json"]) == _summary_json(capsys, [*base, "--json"])
