"""The balance report: its statistics on games with known answers, its page and plots against its JSON,
and --compare flagging a change that matters."""

from __future__ import annotations

import json
import re
import shutil
from collections import Counter
from pathlib import Path

import pytest

from engine.cli import main
from engine.play.simulate import GameRecord
from engine.report import balance, stats

pytest.importorskip("matplotlib")
from engine.report import html

ROOT = Path(__file__).resolve().parent.parent
MINIMAL = ROOT / "tests/fixtures/packs/minimal"


def test_wilson_interval_matches_the_textbook() -> None:
    lo, hi = stats.wilson(50, 100)
    assert (round(lo, 4), round(hi, 4)) == (0.4038, 0.5962)
    assert stats.wilson(0, 10)[0] == 0.0 and 0.27 < stats.wilson(0, 10)[1] < 0.28


def _game(seed: int, winner: int, played_by_winner: bool) -> GameRecord:
    coverage: Counter = Counter({("ace", "drawn", winner): 1})
    if played_by_winner:
        coverage[("ace", "played", winner)] = 1
    coverage[("dud", "played", 1 - winner)] = 1
    return GameRecord(seed, 2, [10, 5] if winner == 0 else [5, 10], [winner], 20, "h", coverage=coverage,
                      rounds=3, bots=["random", "random"])


def test_statistics_on_games_with_known_answers() -> None:
    # seat 1 wins 30 of 40; whoever plays "ace" wins; "dud" is only ever played by the loser
    games = [_game(i, 0 if i < 30 else 1, played_by_winner=i % 2 == 0) for i in range(40)]
    info = balance.PackInfo("p", "P", "1", {"ace": ("Ace", "card"), "dud": ("Dud", "card"), "idle": ("Idle", "card")})
    report = balance.build(games, info, {"seeds": [0, 39], "players": [2], "options": [], "bots": "test"})
    two = report["by_players"][0]
    assert [s["win"]["rate"] for s in two["seats"]] == [0.75, 0.25]
    assert two["first_player_advantage"]["difference"] == 0.25 and two["first_player_advantage"]["significant"]
    assert two["seats"][0]["score"]["mean"] == 8.75
    comps = {c["id"]: c for c in report["components"]}
    assert comps["ace"]["played"] == 20 and comps["ace"]["games_played"] == 0.5
    # played: 20 seat-games, each a win (+0.5 over the fair share); not played: 20 wins and 40 losses (-1/6)
    assert comps["ace"]["lift"]["value"] == pytest.approx(0.5 + 1 / 6, abs=1e-4) and comps["ace"]["significant"]
    assert comps["dud"]["lift"]["value"] < 0 and comps["dud"]["significant"]
    assert comps["idle"]["lift"] is None and not comps["idle"]["significant"]
    assert [c["id"] for c in report["components"]][-1] == "idle"     # nothing to say sorts last
    assert report["bots"][0]["kind"] == "random" and report["bots"][0]["seat_games"] == 80
    assert report["verdicts"]["win"]["rate"] == 1.0 and report["verdicts"]["shared_win"]["rate"] == 0.0


def test_team_losses_and_draws_are_counted_apart() -> None:
    lost = GameRecord(1, 2, [0, 0], [], 10, "h", verdict="team_loss", bots=["random"] * 2)
    drawn = GameRecord(2, 2, [3, 3], [0, 1], 10, "h", verdict="draw", bots=["random"] * 2)
    won = GameRecord(3, 2, [4, 3], [0], 10, "h", verdict="win", bots=["random"] * 2)
    info = balance.PackInfo("p", "P", "1", {})
    report = balance.build([lost, drawn, won, won], info, {"seeds": [1, 4], "players": [2], "options": [], "bots": ""})
    assert {k: v["rate"] for k, v in report["verdicts"].items()} == {
        "win": 0.5, "shared_win": 0.0, "draw": 0.25, "team_loss": 0.25, "no_winner": 0.0}
    assert [s["win"]["rate"] for s in report["by_players"][0]["seats"]] == [0.625, 0.125]


@pytest.fixture(scope="module")
def rendered(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("report")
    assert main(["simulate", "robot-factory", "--games", "24", "--workers", "1", "--no-replay",
                 "--report", str(folder)]) == 0
    return folder


def test_plots_show_the_numbers_in_the_json(rendered: Path) -> None:
    report = json.loads((rendered / "report.json").read_text())
    figs = html.figures(report)
    seats = [s for g in report["by_players"] if g["players"] > 1 for s in g["seats"]]
    bars = figs["win_rates"].axes[0].patches
    assert [round(b.get_height(), 4) for b in bars] == [s["win"]["rate"] for s in seats]
    from matplotlib.container import ErrorbarContainer

    errorbars = [c for c in figs["win_rates"].axes[0].containers if isinstance(c, ErrorbarContainer)]
    caps = [[round(float(cap.get_ydata()[0]), 4) for cap in bar.lines[1]] for bar in errorbars]
    assert caps == [s["win"]["ci"] for s in seats]
    hist = report["length"]["histogram"]
    assert [b.get_height() for b in figs["length"].axes[0].patches] == hist["counts"]
    assert sum(hist["counts"]) == report["run"]["games"] == 24
    shown = [c for c in report["components"] if c["lift"]][: html.TOP_COMPONENTS][::-1]
    points = [line for line in figs["components"].axes[0].lines if line.get_marker() == "o"]
    assert [round(float(p.get_xdata()[0]), 4) for p in points] == [c["lift"]["value"] for c in shown]
    labels = [t.get_text() for t in figs["components"].axes[0].get_yticklabels()]
    assert labels == [c["name"] for c in shown]


def test_page_is_self_contained_and_its_tables_match_the_json(rendered: Path) -> None:
    page = (rendered / "index.html").read_text(encoding="utf-8")
    report = json.loads((rendered / "report.json").read_text())
    sources = re.findall(r'src="([^"]*)"', page)
    assert len(sources) == len(html.figures(report)) and all(s.startswith("data:image/png;base64,") for s in sources)
    assert not re.search(r'(href|src)="(https?:)?//', page)
    for g in report["by_players"]:
        for s in g["seats"]:
            assert f"<td>{100 * s['win']['rate']:.1f}%</td>" in page
    for c in report["components"]:
        assert f'title="{c["id"]}"' in page
    assert (rendered / "win_rates.png").read_bytes()[:4] == b"\x89PNG"


def test_compare_flags_a_change_that_matters(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    modded = tmp_path / "modded"
    shutil.copytree(MINIMAL, modded)
    game = modded / "game.yaml"
    game.write_text(game.read_text().replace("gain 2 star", "gain 9 star"))
    folder = tmp_path / "report"
    assert main(["simulate", "--compare", str(MINIMAL), str(modded), "--games", "60", "--workers", "1",
                 "--json", "--report", str(folder)]) == 0
    result = json.loads(capsys.readouterr().out)
    assert json.loads((folder / "compare.json").read_text()) == result
    page = (folder / "index.html").read_text(encoding="utf-8")
    assert page.count('<tr class="sig">') >= result["significant"] > 0
    score_shifts = [s for s in result["shifts"] if s["what"] == "mean score"]
    assert score_shifts and all(s["significant"] and s["change"] > 0 for s in score_shifts)
    lengths = [s for s in result["shifts"] if s["what"] == "mean decisions"]
    assert lengths and lengths[0]["change"] == 0 and not lengths[0]["significant"]   # same seeds, same choices


def test_an_interrupted_run_says_so_and_names_the_seeds_played(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                                                ) -> None:
    from engine.play import parallel

    real_run = parallel.run

    def stopped_early(plan: parallel.Plan, *args: object, **kwargs: object) -> parallel.Run:
        kwargs["progress"] = lambda done: (_ for _ in ()).throw(KeyboardInterrupt)   # Ctrl-C after one chunk
        return real_run(plan, *args, **kwargs)

    monkeypatch.setattr(parallel, "run", stopped_early)
    folder = tmp_path / "report"
    assert main(["simulate", str(MINIMAL), "--games", "100", "--seed", "7", "--workers", "1", "--no-replay",
                 "--report", str(folder)]) == 1
    run = json.loads((folder / "report.json").read_text())["run"]
    assert run["interrupted"] is True and run["games"] == 20
    assert run["seeds"] == [7, 26] and run["planned"] == [7, 106] and run["seeds_skipped"] == []
    page = (folder / "index.html").read_text(encoding="utf-8")
    assert "<b>Interrupted</b>: the run was stopped (Ctrl-C) after 20 of 100 planned games (seeds 7–106)" in page
    assert "20 games, seeds 7–26," in page


def test_a_finished_run_is_not_marked_and_skipped_seeds_are_listed() -> None:
    info = balance.PackInfo("p", "P", "1", {})
    games = [GameRecord(seed, 2, [1, 0], [0], 10, "h", bots=["random"] * 2) for seed in (1, 2, 3, 6, 9, 10)]
    planned = {"seeds": [1, 12], "players": [2], "options": [], "bots": ""}
    assert balance.build(games, info, planned)["run"] == planned | {
        "interrupted": False, "games": 6, "errors": 0, "replay_mismatches": 0}
    run = balance.build(games, info, planned, interrupted=True)["run"]
    assert run["seeds"] == [1, 10] and run["seeds_skipped"] == [[4, 5], [7, 8]] and run["planned"] == [1, 12]
    assert "seeds 1–10 (not 4–5, 7–8)" in html.render(balance.build(games, info, planned, interrupted=True), {})
    assert balance.build([], info, planned, interrupted=True)["run"]["seeds"] == []
