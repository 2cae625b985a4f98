"""Outcomes beyond points (`scoring.team_loss`, `scoring.eliminated`, verdicts) on tests/fixtures/packs/outcomes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.cli import main
from engine.compile.loading import load_pack
from engine.play.match import Match
from engine.runtime.defs import Pack
from engine.runtime.scoring import PlayerResult, Verdict, verdict

PACK = Path(__file__).parent / "fixtures" / "packs" / "outcomes"
WORK, REST = "call work", "call rest"


@pytest.fixture(scope="module")
def pack() -> Pack:
    return load_pack(str(PACK))


def finish(pack: Pack, answers: list[str], players: int = 2) -> Match:
    """Answers go seat by seat, round by round (three rounds)."""
    session = Match(pack, players, seed=1)
    session.replay(answers)
    assert session.done
    return session


def test_the_team_loses_together_whatever_the_scores(pack: Pack) -> None:
    outcome = finish(pack, [REST] * 6).outcome()
    assert outcome.verdict is Verdict.TEAM_LOSS and outcome.winners == []
    assert [r.score for r in outcome.results] == [3, 3]
    assert [r.result for r in outcome.results] == ["loss", "loss"]


def test_an_eliminated_player_cannot_win_even_with_the_best_score(pack: Pack) -> None:
    # P1 works twice (hull 0: eliminated) then rests; P2 rests, works once, rests: project 3 >= 2 players
    outcome = finish(pack, [WORK, REST, WORK, WORK, REST, REST]).outcome()
    assert [r.eliminated for r in outcome.results] == [True, False]
    assert outcome.verdict is Verdict.WIN and outcome.winners == [1]
    assert [r.result for r in outcome.results] == ["loss", "win"]


def test_everyone_tied_is_a_draw_and_everyone_eliminated_has_no_winner(pack: Pack) -> None:
    draw = finish(pack, [WORK, WORK, REST, REST, REST, REST]).outcome()
    assert draw.verdict is Verdict.DRAW and draw.winners == [0, 1]
    assert [r.result for r in draw.results] == ["draw", "draw"]
    nobody = finish(pack, [WORK, WORK, WORK, WORK, REST, REST]).outcome()
    assert nobody.verdict is Verdict.NO_WINNER and nobody.winners == []


def test_a_shared_win_is_not_a_draw() -> None:
    results = [PlayerResult(0, 5), PlayerResult(1, 5), PlayerResult(2, 1)]
    assert verdict(results) == (Verdict.SHARED_WIN, [0, 1])
    assert [r.result for r in results] == ["win", "win", "loss"]
    solo = [PlayerResult(0, 0)]
    assert verdict(solo) == (Verdict.WIN, [0])


def test_play_prints_the_team_loss_and_simulate_reports_every_verdict(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", str(PACK), "--games", "60", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert set(report["verdicts"]) == {v.value for v in Verdict}
    assert abs(sum(report["verdicts"].values()) - 1) < 0.01
    assert report["verdicts"]["team_loss"] > 0 and report["verdicts"]["no_winner"] > 0
    assert report["team"] == {"win": round(1 - report["verdicts"]["team_loss"], 3),
                              "loss": report["verdicts"]["team_loss"]}
    assert {g["verdict"] for g in report["results"]} <= {v.value for v in Verdict}
    lost = next(g for g in report["results"] if g["verdict"] == "team_loss")
    assert main(["play", str(PACK), "--players", str(lost["players"]), "--seed", str(lost["seed"]), "-q"]) == 0
    assert "Team loss: every player loses" in capsys.readouterr().out


def test_explain_renders_the_outcome_rules(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", str(PACK), "scoring"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "== Scoring ==",
        "  Score: Victory points",
        "  A player is eliminated (cannot win) if Hull is at most 0",
        "  Everyone loses together if Progress is less than the number of players",
    ]
