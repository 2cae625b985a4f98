"""The bots' position estimate (`scoring.estimate`) on tests/fixtures/packs/estimate: cash in a point now or
build an engine that pays two at the end. The same bots, with and without the estimate."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from engine.cli import main
from engine.compile.loading import load_pack
from engine.play.bots import BotSpec
from engine.play.greedy import position_value
from engine.play.match import Match
from engine.play.mcts import cut_value, seat_results
from engine.runtime.defs import Pack

PACK = Path(__file__).parent / "fixtures" / "packs" / "estimate"
CASH, BUILD = "call cash_in", "call build"


@pytest.fixture(scope="module")
def pack() -> Pack:
    return load_pack(str(PACK))


@pytest.fixture(scope="module")
def plain(tmp_path_factory: pytest.TempPathFactory) -> Pack:
    """The same pack with its estimate taken out."""
    folder = tmp_path_factory.mktemp("plain") / "estimate"
    shutil.copytree(PACK, folder)
    game = folder / "game.yaml"
    text = game.read_text()
    assert '  estimate: "vp + 2 * engines"\n' in text
    game.write_text(text.replace('  estimate: "vp + 2 * engines"\n', ""))
    return load_pack(str(folder))


def _play(pack: Pack, spec: str, players: int = 2, seed: int = 3) -> Match:
    match = Match(pack, players, seed, forkable=True)
    match.run([BotSpec.parse(spec).make(seed, seat) for seat in range(players)])
    assert match.done
    return match


def test_estimates_read_the_estimate_for_each_seat_and_the_score_without_one(pack: Pack, plain: Pack) -> None:
    for which in (pack, plain):
        match = Match(which, 2, seed=1)
        match.replay([BUILD, CASH, BUILD, BUILD])      # P1 two engines, P2 one point and one engine
        assert [r.score for r in match.outcome().results] == [0, 1]
        assert match.estimates() == ([4, 3] if which is pack else [0, 1])


def test_greedy_builds_engines_with_the_estimate_and_cashes_in_on_the_score_alone(pack: Pack, plain: Pack) -> None:
    with_estimate = _play(pack, "greedy")
    assert {entry.decision.labels[entry.index] for entry in with_estimate.log} == {BUILD}
    assert [r.score for r in with_estimate.outcome().results] == [8, 8]
    # on the score alone one step ahead, a point now beats an engine, except where the game ends next
    alone = _play(plain, "greedy")
    assert [r.score for r in alone.outcome().results] == [4, 5]


def test_greedy_judges_an_unfinished_position_by_the_estimate_and_a_finished_one_by_its_result(pack: Pack) -> None:
    match = Match(pack, 2, seed=1)
    match.replay([BUILD, CASH])
    assert position_value(match, 0) == (0.5, 2 - 1, 2)
    assert position_value(match, 1) == (0.5, 1 - 2, 1)
    match.replay([CASH, CASH] * 3)          # P1 3 points + 2 for its engine, P2 4 points
    assert match.done and position_value(match, 0) == (1.0, 1, 5) and position_value(match, 1) == (0.0, -1, 4)


def test_a_rollout_cut_short_is_valued_by_the_estimate(pack: Pack, plain: Pack) -> None:
    for which, values in ((pack, [4, 3]), (plain, [0, 1])):
        match = Match(which, 2, seed=1)
        match.replay([BUILD, CASH, BUILD, BUILD])
        assert seat_results(match) == [cut_value(values, 0), cut_value(values, 1)]
    assert cut_value([4, 3], 0) > 0.5 > cut_value([0, 1], 0)


@pytest.mark.parametrize("spec", ["mcts:iterations=40,depth=1", "mcts:iterations=12,depth=0,rescale=1",
                                  "mcts:iterations=40,depth=2,epsilon=0.3,rescale=1"])
def test_mcts_with_short_rollouts_builds_with_the_estimate_and_cashes_in_without(pack: Pack, plain: Pack,
                                                                                 spec: str) -> None:
    """`depth=0` judges each new node by the estimate at once: the option the estimate prefers wins."""
    def first_answer(which: Pack) -> str:
        match = Match(which, 2, seed=5, forkable=True)
        agent = BotSpec.parse(spec).make(5, 0)
        agent.bind(match)   # type: ignore[attr-defined]
        decision = match.decision
        assert decision is not None
        return decision.labels[agent.choose(match.view(0), decision)]

    assert first_answer(pack) == BUILD
    assert first_answer(plain) == CASH


def test_explain_renders_the_estimate(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", str(PACK), "scoring"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "== Scoring ==",
        "  Score: Victory points",
        "  Bots judge a game not yet over by: Victory points + 2 × Engines (higher is better; it decides no winner)",
    ]


def test_an_estimate_that_reads_another_players_hidden_zone_is_reported(tmp_path: Path,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "estimate"
    shutil.copytree(PACK, folder)
    game = folder / "game.yaml"
    hand = ("zones:\n  hand: {name: Hand, visibility: owner}\n"
            "component_types:\n  chip: {name: Chip, zone: hand, per_player: true, attrs: {worth: {type: int}}}\n"
            "components:\n  chip: [{id: chip1, worth: 1}]\n")
    text = game.read_text().replace("counters:\n", hand + "counters:\n", 1)
    game.write_text(text.replace('estimate: "vp + 2 * engines"',
                                 'estimate: "vp + 2 * engines - sum(next_player.hand, it.worth)"'))
    assert main(["lint", str(folder), "--format", "json"]) == 0     # a warning
    out = capsys.readouterr().out
    assert '"code": "HIDDEN001"' in out and "'hand'" in out
