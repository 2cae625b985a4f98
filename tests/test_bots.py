"""The bots (`--bot SEAT=KIND[:PARAMS]`): greedy and information-set MCTS on the public match API.

The no-cheating test: a searching bot answers the same in two matches that differ only in what its seat
cannot see (another hand, the deck order, the random generator), and a bot that peeks (searches on
forks of the real match) does not, so the test can tell."""

from __future__ import annotations

import gc
import json
import random
from pathlib import Path
from typing import Any

import pytest

import engine
from engine.cli import main
from engine.errors import MoveError
from engine.play.bots import BotSpec, BotSpecError, describe_seats, parse_seats
from engine.play.greedy import GreedyAgent
from engine.play.match import Match
from engine.play.mcts import MctsAgent
from engine.runtime.interpreter import Interpreter

RR = engine.load_pack("raising-robots")
TTT = engine.load_pack("tic-tac-toe")


def _position(pack: engine.Pack, players: int, seed: int, answers: int) -> Match:
    """A match after `answers` random answers, at a decision with at least two options."""
    match = engine.new_match(pack, players, seed=seed)
    rng = random.Random(seed)
    while not match.done and (len(match.log) < answers or len(match.legal()) < 2):
        match.apply(int(rng.random() * len(match.legal())))
    assert not match.done
    return match


def _hidden(match: Match, seat: int) -> Any:
    """Everything but what `seat` sees: the full view with the seat's own view's parts taken out."""
    full, mine = match.view(), match.view(seat)
    return [(zid, z) for zid, z in full["zones"].items() if mine["zones"][zid] != z] + \
        [(p["seat"], zid, z) for p, m in zip(full["players"], mine["players"], strict=True)
         for zid, z in p["zones"].items() if m["zones"][zid] != z]


# ---------------------------------------------------------------- Match.determinize
def test_a_sample_keeps_the_seats_view_and_deals_the_rest_again() -> None:
    match = _position(RR, 3, seed=4, answers=60)
    seat = match.to_move
    sample = match.determinize(seat, random.Random(77))
    assert sample.view(seat) == match.view(seat)
    assert sample.legal() == match.legal() and sample.to_move == seat
    assert _hidden(sample, seat) != _hidden(match, seat)          # another hand, another deck order
    assert sample.state_hash() != match.state_hash()
    assert match.state_hash() == match.fork().state_hash()       # the real match is untouched


def test_seen_key_tells_views_apart_and_nothing_else() -> None:
    match = _position(RR, 3, seed=4, answers=60)
    seat = match.to_move
    sample = match.determinize(seat, random.Random(77))
    assert sample.seen_key(seat) == match.seen_key(seat)         # hidden items differ, the view does not
    others = [s for s in range(3) if s != seat]
    assert any(sample.seen_key(s) != match.seen_key(s) for s in others)   # other seats see their new hands
    views, keys = {}, set()
    for _ in range(12):
        views[repr(sorted(match.view(seat).items()))] = match.seen_key(seat)
        keys.add(match.seen_key(seat))
        match.apply(0)
    assert len(set(views.values())) == len(views) == len(keys)    # one key per distinct view


def test_a_sample_depends_only_on_the_seats_view_and_the_generator() -> None:
    match = _position(RR, 2, seed=9, answers=45)
    seat = match.to_move
    other = match.determinize(seat, random.Random(1))            # the same view, other hidden items
    assert other.state_hash() != match.state_hash()
    assert match.determinize(seat, random.Random(5)).state_hash() == other.determinize(seat, random.Random(5)
                                                                                       ).state_hash()
    assert match.determinize(seat, random.Random(5)).state_hash() != match.determinize(seat, random.Random(6)
                                                                                       ).state_hash()


def test_a_sample_plays_forks_and_undoes_but_has_no_log_and_no_past() -> None:
    match = _position(RR, 2, seed=2, answers=30)
    sample = match.determinize(match.to_move, random.Random(3))
    dealt = len(sample.log)
    assert sample.fork().state_hash() == sample.state_hash()
    sample.apply(0)
    sample.apply(0)
    assert sample.fork().state_hash() == sample.state_hash()    # forks deal again where the sample was dealt
    before = sample.state_hash()
    sample.apply(0)
    sample.undo()
    assert sample.state_hash() == before and sample.is_sample and not match.is_sample
    with pytest.raises(MoveError, match="before its hidden items"):
        sample.undo(len(sample.log) - dealt + 1)
    with pytest.raises(MoveError, match="no log"):
        sample.to_log()
    with pytest.raises(MoveError, match="no seat 5"):
        match.determinize(5, random.Random(0))


# ---------------------------------------------------------------- no cheating
class _Peeking:
    """The real match with `determinize` replaced by a fork: a bot bound to it sees every hidden item
    (the generator is still reseeded, so only the hidden items can make a difference)."""

    def __init__(self, match: Match) -> None:
        self.match, self.log = match, match.log

    def determinize(self, seat: int, rng: random.Random) -> Match:
        copy = self.match.fork(history=False)
        copy.game.state.rng.seed(rng.getrandbits(64))
        return copy

    def seen_key(self, seat: int) -> int:
        return self.match.seen_key(seat)

    def answers_known(self, seat: int) -> int:
        return self.match.answers_known(seat)


def _same_view(real: Match, seat: int, seed: int) -> Match:
    """A sample of `real` for `seat` that `seat` cannot tell from it (inside a simultaneous step a sample may
    differ in what the seat sees: `Match.determinize`), with as many answers (the bots seed each decision's
    generator with the number of answers given: inside a simultaneous step that counts the others' secret
    ones, which a sample gives again at random)."""
    for k in range(100):
        changed = real.determinize(seat, random.Random(seed + 100 + k))
        if changed.view(seat) == real.view(seat) and len(changed.log) == len(real.log):
            return changed
    raise AssertionError("no sample with the same view")


def _choice(bot: GreedyAgent | MctsAgent, match: Any) -> int:
    bot.bind(match)
    decision = match.decision if isinstance(match, Match) else match.match.decision
    return bot.choose({}, decision)


def _mcts(seat: int) -> MctsAgent:
    return MctsAgent(11, seat, iterations=24, depth=12)


def _mcts_informed(seat: int) -> MctsAgent:
    """Rescaled values and rollouts that follow the search's averages (MAST): still only on samples."""
    return MctsAgent(11, seat, iterations=24, depth=12, rescale=True, epsilon=0.3)


def _mcts_prior(seat: int) -> MctsAgent:
    """As `_mcts_informed`, with the root's options judged one step ahead first (`prior`): on a sample too."""
    return MctsAgent(11, seat, iterations=24, depth=12, rescale=True, epsilon=0.3, prior=5)


def _mcts_paired(seat: int) -> MctsAgent:
    """Every root option on the same samples and rollout luck (`paired`): the shared deals are samples too."""
    return MctsAgent(11, seat, iterations=24, depth=12, epsilon=0.3, paired=True)


def _mcts_settled(seat: int) -> MctsAgent:
    """As `_mcts_prior`, with each cut rollout played on to the bot's own next decision (`settle`): the extra
    answers are rollout answers on the sample."""
    return MctsAgent(11, seat, iterations=24, depth=6, rescale=True, epsilon=0.3, prior=5, settle=True)


def _greedy(seat: int) -> GreedyAgent:
    return GreedyAgent(11, seat)


@pytest.mark.parametrize(("pack", "make"), [("raising-robots", _mcts), ("goofspiel", _mcts), ("goofspiel", _greedy),
                                            ("robot-factory", _mcts), ("robot-factory", _greedy),
                                            ("goofspiel", _mcts_informed), ("robot-factory", _mcts_informed),
                                            ("goofspiel", _mcts_prior), ("robot-factory", _mcts_prior),
                                            ("goofspiel", _mcts_paired), ("robot-factory", _mcts_paired),
                                            ("goofspiel", _mcts_settled), ("robot-factory", _mcts_settled)],
                         ids=["mcts-raising-robots", "mcts-goofspiel", "greedy-goofspiel", "mcts-robot-factory",
                              "greedy-robot-factory", "mcts-informed-goofspiel", "mcts-informed-robot-factory",
                              "mcts-prior-goofspiel", "mcts-prior-robot-factory", "mcts-paired-goofspiel",
                              "mcts-paired-robot-factory", "mcts-settled-goofspiel", "mcts-settled-robot-factory"])
def test_a_bot_decides_the_same_when_only_what_it_cannot_see_changes(pack: str, make: Any) -> None:
    honest, peeking = [], []
    for seed in range(1, 9):
        real = _position(engine.load_pack(pack), 2, seed=seed, answers=2 * seed + 1)   # goofspiel: the second bid
        seat = real.to_move
        changed = _same_view(real, seat, seed)           # same view, other hidden items and RNG
        assert _hidden(changed, seat) != _hidden(real, seat)
        honest.append((_choice(make(seat), real), _choice(make(seat), changed)))
        peeking.append((_choice(make(seat), _Peeking(real)), _choice(make(seat), _Peeking(changed))))
    assert all(a == b for a, b in honest), honest
    assert any(a != b for a, b in peeking), peeking        # the test can tell a bot that peeks


# ---------------------------------------------------------------- playing strength (seeded: no flakiness)
def _wins(pack: engine.Pack, a: str, b: str, games: int) -> tuple[int, int]:
    """Wins of bot a and of bot b over `games` two-player games, seats swapped every game."""
    won = [0, 0]
    for seed in range(1, games + 1):
        specs = [BotSpec.parse(a), BotSpec.parse(b)]
        order = [0, 1] if seed % 2 else [1, 0]
        match = engine.new_match(pack, 2, seed=seed)
        outcome = engine.play_match(match, [specs[order[s]].make(seed, s) for s in range(2)])
        if len(outcome.winners) == 1:
            won[order[outcome.winners[0]]] += 1
    return won[0], won[1]


def test_greedy_takes_a_win_in_one_and_beats_random_at_tic_tac_toe() -> None:
    match = engine.new_match(TTT, 2, seed=1)
    for label in ("top left", "left", "top", "center"):     # X to move, and "top right" wins at once
        match.apply_label(label)
    assert match.legal()[_choice(GreedyAgent(1, 0), match)] == "top right"
    greedy, random_bot = _wins(TTT, "greedy", "random", 30)
    assert greedy >= 2 * random_bot + 5, (greedy, random_bot)


def test_mcts_beats_random_and_holds_greedy_at_tic_tac_toe() -> None:
    mcts, random_bot = _wins(TTT, "mcts:iterations=150", "random", 12)
    assert random_bot == 0 and mcts >= 8, (mcts, random_bot)
    mcts, greedy = _wins(TTT, "mcts:iterations=150", "greedy", 12)
    assert mcts >= greedy, (mcts, greedy)


@pytest.mark.parametrize("spec", ["mcts:iterations=30,depth=0,rescale=1",
                                  "mcts:iterations=30,depth=2,epsilon=0.3,rescale=1",
                                  "mcts:iterations=30,depth=2,epsilon=0.3,paired=1"])
def test_mcts_takes_a_win_in_one_over_any_cut_rollout(spec: str) -> None:
    """A finished win (1) is worth more than any position a rollout is cut at (< 0.95), rescaled or not."""
    match = engine.new_match(TTT, 2, seed=1)
    for label in ("top left", "left", "top", "center"):     # X to move, and "top right" wins at once
        match.apply_label(label)
    bot = BotSpec.parse(spec).make(1, 0)
    assert match.legal()[_choice(bot, match)] == "top right"   # type: ignore[arg-type]


@pytest.mark.parametrize("spec", ["greedy", "mcts:iterations=20,depth=2,epsilon=0.3,rescale=1",
                                  "mcts:iterations=20,depth=2,epsilon=0.3,paired=1"])
def test_a_sample_at_another_decision_is_put_aside(spec: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A sample should stand at the bot's own decision; one that does not is set aside (not a failure),
    and if every sample is like that the bot still answers."""
    match = engine.new_match(TTT, 2, seed=1)
    for label in ("top left", "left", "top", "center"):     # X to move, and "top right" wins at once
        match.apply_label(label)
    real = Match.determinize
    calls = {"n": 0}

    def off_by_one(self: Match, seat: int, rng: random.Random) -> Match:
        sample = real(self, seat, rng)
        calls["n"] += 1
        if calls["n"] <= calls.get("bad", 3):
            sample.apply(0)          # a sample one answer further on: O's decision, not X's
        return sample

    monkeypatch.setattr(Match, "determinize", off_by_one)
    assert match.legal()[_choice(BotSpec.parse(spec).make(1, 0), match)] == "top right"   # type: ignore[arg-type]
    calls.update(n=0, bad=10_000)
    assert 0 <= _choice(BotSpec.parse(spec).make(1, 0), match) < len(match.legal())   # type: ignore[arg-type]


def _one_step_has_one_best(match: Match, seat: int) -> bool:
    """Whether one step ahead (greedy's sample of `match`) a single option is best, both by greedy's value
    and by the search's (`seat_results`: the lead relative to the two estimates, without greedy's second key,
    its own estimate)."""
    from engine.play.agents import decision_rng
    from engine.play.greedy import one_step, position_value
    from engine.play.mcts import seat_results
    assert match.decision is not None
    trials = one_step(match, seat, match.decision, decision_rng(11, seat, match.answers_known(seat)))
    assert trials is not None
    greedy = [position_value(trial, seat) for trial in trials]
    search = [seat_results(trial)[seat] for trial in trials]
    for trial in trials:
        trial.close()
    best = greedy.index(max(greedy))
    return greedy.count(greedy[best]) == 1 and search.count(max(search)) == 1 and search[best] == max(search)


def test_a_prior_makes_a_short_search_answer_as_greedy_does() -> None:
    """With `prior`, the root's options start at greedy's values: one iteration answers greedy's option
    wherever greedy has a single best one; without it, one iteration answers the option it expanded."""
    pack = engine.load_pack("robot-factory")
    with_prior, without, positions = [], [], 0
    for seed in range(1, 40):
        match = _position(pack, 2, seed=seed, answers=seed % 30 + 1)
        seat = match.to_move
        if not _one_step_has_one_best(match, seat):
            continue
        positions += 1
        greedy = _choice(GreedyAgent(11, seat), match)
        with_prior.append((greedy, _choice(MctsAgent(11, seat, iterations=1, rescale=True, prior=3), match)))
        without.append((greedy, _choice(MctsAgent(11, seat, iterations=1, rescale=True), match)))
    assert positions >= 8, positions
    assert all(g == m for g, m in with_prior), with_prior
    assert any(g != m for g, m in without), without


def test_a_prior_gives_way_to_what_the_search_finds() -> None:
    """At tic-tac-toe one step ahead sees no difference between blocking O and not (the score is 0 until
    somebody wins); the search with a prior still finds the block."""
    match = engine.new_match(TTT, 2, seed=1)
    for label in ("top left", "center", "bottom right", "top"):     # O threatens "bottom"
        match.apply_label(label)
    assert not _one_step_has_one_best(match, 0)
    bot = BotSpec.parse("mcts:iterations=150,prior=10").make(1, 0)
    assert match.legal()[_choice(bot, match)] == "bottom"   # type: ignore[arg-type]


def _alike_options(match: Match, seat: int) -> tuple[int, int] | None:
    """Two options of the pending decision whose results agree when they meet the same luck: on each of
    three samples, a uniform rollout of 12 answers from the same generator seed ends at the same values for
    both (say, a robot sent to Produce when the minerals do not pay for one, and one kept in the store)."""
    from engine.play.mcts import _Rollout, seat_results
    assert match.decision is not None
    rows = []
    for deal in range(3):
        row = []
        for index in range(match.decision.size):
            sample = match.determinize(seat, random.Random(deal))
            sample.apply(index)
            rollout = _Rollout(random.Random(deal + 100), 1.0, None, [])
            sample.run([rollout, rollout], stop_after=len(sample.log) + 12)
            row.append(seat_results(sample))
            sample.close()
        rows.append(row)
    size = match.decision.size
    return next(((a, b) for a in range(size) for b in range(a + 1, size)
                 if all(row[a] == row[b] for row in rows)), None)


def _root_means(agent: MctsAgent, match: Match) -> list[tuple[int, float]]:
    """(visits, mean result) of each root option after one search by `agent` at `match`'s decision."""
    from engine.play.agents import decision_rng
    from engine.play.mcts import _Search
    decision = match.decision
    assert decision is not None
    search = _Search(agent, decision_rng(agent.seed, agent.seat, match.answers_known(agent.seat)))
    labels, done = list(decision.labels), 0
    while done < (agent.iterations or 0):
        done += search.paired_round(match, labels) if agent.paired else search.sampled(match, labels)
    nodes = [search.root.children[(decision.seat, label)] for label in labels]
    return [(node.visits, node.reward / node.visits) for node in nodes]


def test_paired_options_meet_the_same_luck() -> None:
    """With `paired`, every root option is tried equally often, on the same samples and rollout luck: two
    options that lead to the same state come out with the same mean, to the last digit. Without it their
    samples differ and so do their means (what makes 80 unpaired iterations answer almost at random when
    the options' true differences are a hundredth of the rollouts' spread)."""
    pack = engine.load_pack("robot-factory")
    for seed in range(1, 40):
        match = _position(pack, 2, seed=seed, answers=seed % 20 + 4)
        seat = match.to_move
        assert seat is not None
        if (alike := _alike_options(match, seat)) is not None:
            break
    else:
        pytest.fail("no Robot Factory position with two options that lead alike")
    a, b = alike
    paired = _root_means(MctsAgent(11, seat, iterations=60, depth=12, paired=True), match)
    assert len({visits for visits, _ in paired}) == 1, paired
    assert paired[a][1] == paired[b][1], (alike, paired)
    unpaired = _root_means(MctsAgent(11, seat, iterations=60, depth=12, rescale=True), match)
    assert unpaired[a][1] != unpaired[b][1], (alike, unpaired)


def _rolled_out(agent: MctsAgent, match: Match) -> tuple[int, Match]:
    """A sample of `match` for the agent's seat after one rollout of the agent's search, and the answers the
    sample had before it."""
    from engine.play.mcts import _Search
    sample = match.determinize(agent.seat, random.Random(5))
    start = len(sample.log)
    _Search(agent, random.Random(6)).roll_out(sample, random.Random(7), [])
    return start, sample


def _labels(match: Match) -> list[str]:
    return [answer.decision.labels[answer.index] for answer in match.log]


def test_a_settled_rollout_is_cut_at_the_bots_own_decision() -> None:
    """`settle`: a rollout cut at `depth` plays on to the bot's own next decision (or the end); without it,
    the cut falls after `depth` answers, at whoever is to answer then (in Robot Factory often the other
    seat, in the middle of its program)."""
    pack = engine.load_pack("robot-factory")
    other_seat = 0
    for seed in range(1, 13):
        match = _position(pack, 2, seed=seed, answers=3 * seed)
        seat = match.to_move
        assert seat is not None
        start, cut = _rolled_out(MctsAgent(11, seat, depth=5, epsilon=0.3), match)
        assert len(cut.log) >= start + 5
        other_seat += cut.to_move != seat
        cut.close()
        start, settled = _rolled_out(MctsAgent(11, seat, depth=5, epsilon=0.3, settle=True), match)
        assert settled.done or settled.to_move == seat, (seed, settled.to_move, seat)
        assert _labels(settled)[:len(cut.log)] == _labels(cut)    # the same rollout, played on
        settled.close()
    assert other_seat > 0      # the plain cut does stop at the other seat, so the test can tell


def test_mast_rollouts_follow_the_best_mean_label_and_try_untried_ones_first() -> None:
    from engine.play.mcts import _Rollout
    match = engine.new_match(TTT, 2, seed=1)
    decision = match.decision
    assert decision is not None
    first, second, *rest = decision.labels
    table = {(0, first): [0.2 * 5, 5], (0, second): [0.9 * 5, 5]} | {(0, label): [0.1, 1] for label in rest}
    said: list[tuple[int, str]] = []
    rollout = _Rollout(random.Random(3), 1e-9, table, said)
    assert {decision.labels[rollout.choose({}, decision)] for _ in range(20)} == {second}
    assert said == [(0, second)] * 20
    del table[(0, rest[-1])]                                   # an untried label comes first
    assert decision.labels[rollout.choose({}, decision)] == rest[-1]
    uniform = _Rollout(random.Random(3), 1.0, None, said)       # epsilon 1: uniform, nothing recorded
    assert len({uniform.choose({}, decision) for _ in range(200)}) == len(decision.labels)
    assert len(said) == 21


def test_an_informed_mcts_game_replays_from_its_seed() -> None:
    """The table and the range live for one decision: the same seed gives the same game."""
    def game() -> list[int]:
        match = engine.new_match(TTT, 2, seed=4)
        engine.play_match(match, [BotSpec.parse("mcts:iterations=40,depth=3,epsilon=0.3,rescale=1").make(4, 0),
                                  BotSpec.parse("random").make(4, 1)])
        return [entry.index for entry in match.log]
    assert game() == game()


# ---------------------------------------------------------------- specs and the commands
def test_bot_specs_parse_and_refuse_mistakes() -> None:
    assert str(BotSpec.parse("MCTS: depth=9, iterations=50")) == "mcts:depth=9,iterations=50"
    seats = parse_seats(["2=greedy", "1=mcts:seconds=0.5"], 4)
    assert {s: str(b) for s, b in seats.items()} == {1: "greedy", 0: "mcts:seconds=0.5"}
    assert describe_seats(seats) == "P1 mcts:seconds=0.5, P2 greedy; random elsewhere"
    assert str(BotSpec.parse("mcts:depth=0,rescale=1,epsilon=0.3")) == "mcts:depth=0,epsilon=0.3,rescale=1"
    assert str(BotSpec.parse("mcts:prior=8,depth=0")) == "mcts:depth=0,prior=8"
    assert str(BotSpec.parse("mcts:paired=1,depth=30")) == "mcts:depth=30,paired=1"
    assert str(BotSpec.parse("mcts:settle=1,depth=12")) == "mcts:depth=12,settle=1"
    for bad, message in [("1=alpha", "unknown bot kind"), ("1=greedy:depth=3", "not a parameter"),
                         ("1=mcts:iterations=x", "must be a int"), ("1=mcts:iterations=0", "above 0"),
                         ("1=mcts:depth=-1", "0 or more"), ("1=mcts:epsilon=0", "above 0 and at most 1"),
                         ("1=mcts:epsilon=1.5", "at most 1"), ("1=mcts:rescale=2", "0 or 1"),
                         ("1=mcts:prior=-1", "0 or more"), ("1=mcts:prior=0.5", "must be a int"),
                         ("1=mcts:paired=2", "0 or 1"), ("1=mcts:paired=yes", "must be a int"),
                         ("1=mcts:settle=2", "0 or 1"), ("1=mcts:settle=-1", "0 or 1"),
                         ("5=greedy", "does not exist"), ("greedy", "SEAT=KIND"), ("1=mcts:iterations", "not a")]:
        with pytest.raises(BotSpecError, match=message):
            parse_seats([bad], 4)
    with pytest.raises(BotSpecError, match="twice"):
        parse_seats(["1=greedy", "1=mcts"], 2)


def test_simulate_reports_each_seats_bot(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code = main(["simulate", "tic-tac-toe", "--games", "6", "--workers", "1", "--bot", "1=greedy",
                 "--bot", "2=mcts:iterations=20", "--json", "--report", str(tmp_path)])
    assert code == 0
    capsys.readouterr()
    report = json.loads((tmp_path / "report.json").read_text())
    assert report["run"]["bots"] == "P1 greedy, P2 mcts:iterations=20; random elsewhere"
    assert [(b["kind"], b["seats"], b["seat_games"]) for b in report["bots"]] == \
        [("greedy", ["P1"], 6), ("mcts:iterations=20", ["P2"], 6)]
    assert "mcts:iterations=20" in (tmp_path / "index.html").read_text()
    assert main(["simulate", "tic-tac-toe", "--games", "2", "--workers", "1", "--no-replay", "--bot", "1=greedy"]) == 0
    assert "bot greedy: win rate" in capsys.readouterr().out
    assert main(["simulate", "tic-tac-toe", "--bot", "3=greedy"]) == 2
    assert "seat 3 does not exist" in capsys.readouterr().err


def test_play_with_bots_resumes_to_the_same_game(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    argv = ["play", "tic-tac-toe", "--seed", "5", "--bot", "1=mcts:iterations=30", "--bot", "2=greedy", "-q"]
    assert main(argv) == 0
    whole = capsys.readouterr().out
    log = tmp_path / "game.json"
    assert main([*argv, "--stop-after", "3", "--log", str(log)]) == 0
    capsys.readouterr()
    assert main(["play", "--resume", str(log), "--bot", "1=mcts:iterations=30", "--bot", "2=greedy", "-q"]) == 0
    resumed = capsys.readouterr().out
    assert whole.splitlines()[-1] == resumed.splitlines()[-1]     # the same final state hash
    assert main(["play", "tic-tac-toe", "--human", "1", "--bot", "1=greedy"]) == 2
    assert "--human and to --bot" in capsys.readouterr().err


def test_serve_seats_greedy_and_mcts_bots(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from engine.play.rules_text import load_with_rules
    from engine.serve.app import Server, create_app
    from engine.serve.table import Table

    pack, rules = load_with_rules("tic-tac-toe")
    bots = Table.new("1", pack, rules, ["bot", "bot"], 4, {}, None,
                     {0: BotSpec.parse("mcts:iterations=40"), 1: BotSpec.parse("greedy")})
    while not bots.match.done:
        bots.bot_step()
    assert [s.get("bot") for s in bots.payload(0)["seats"]] == ["mcts:iterations=40", "greedy"]
    assert bots.match.outcome().winners == [0]        # X, searching, beats a greedy O
    table = Table.new("2", pack, rules, ["human", "bot"], 4, {}, None, {1: BotSpec.parse("mcts:iterations=20")})
    token = next(iter(table.tokens))
    with TestClient(create_app(Server([table], bot_delay=0))) as client, \
            client.websocket_connect(f"/ws/2/{token}") as ws:
        state = ws.receive_json()
        while state["result"] is None:
            if state["decision"] is not None:
                ws.send_json({"type": "answer", "index": 0, "version": state["version"]})
            state = ws.receive_json()
    assert table.match.done and len(table.match.log) >= 5
    code = main(["serve", "tic-tac-toe", "--seats", "human,bot", "--bot", "1=greedy"])
    assert code == 2 and "seat 1 is a human seat" in capsys.readouterr().err


def _games() -> int:
    """How many games (Interpreters) are alive: a paused flow that is never ended keeps its game."""
    gc.collect()
    return sum(1 for o in gc.get_objects() if isinstance(o, Interpreter))


def test_close_frees_a_fork_paused_at_a_decision() -> None:
    match = _position(RR, 2, seed=3, answers=20)
    before = _games()
    for i in range(5):
        trial = match.determinize(match.to_move, random.Random(i)) if i % 2 else match.fork(history=False)
        trial.apply(0)
        trial.close()
    del trial
    assert _games() == before
    closed = match.fork()
    closed.close()
    assert closed.done
    with pytest.raises(MoveError):
        closed.apply(0)
    match.close()
    match.close()       # twice is harmless


def test_undo_frees_the_flow_it_goes_back_from() -> None:
    match = _position(RR, 2, seed=3, answers=20)
    before = _games()
    for _ in range(4):
        match.apply(0)
        match.undo()
    assert _games() == before      # each undo left a paused game behind before it ended that flow


# ---------------------------------------------------------------- the ladder (tools/bots_ladder.py)
def _ladder() -> Any:
    import importlib.util
    import sys
    path = Path(__file__).resolve().parents[1] / "tools" / "bots_ladder.py"
    spec = importlib.util.spec_from_file_location("bots_ladder", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bots_ladder"] = module      # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def test_the_ladder_counts_wins_seat_by_seat_with_intervals(capsys: pytest.CaptureFixture[str]) -> None:
    ladder = _ladder()
    assert ladder.main(["--pack", "tic-tac-toe:2", "--pairing", "greedy/random", "--games", "8", "--json"]) == 0
    row = json.loads(capsys.readouterr().out)
    wins = 0.0
    for game in range(8):     # the same games by hand: greedy in seat game % 2, seed 1 + game
        seat = game % 2
        agents = [BotSpec.parse("greedy" if s == seat else "random").make(1 + game, s) for s in range(2)]
        match = Match(engine.load_pack("tic-tac-toe"), 2, 1 + game, forkable=True)
        match.run(agents)
        won = match.outcome().winners
        wins += 1 / len(won) if seat in won else 0.0
    assert row["games"] == 8 and row["a_win_rate"] == round(wins / 8, 3)
    low, high = row["a_win_ci"]
    assert low <= row["a_win_rate"] <= high and row["fair_share"] == 0.5
    assert row["a_decisions"] > 0 and row["b_decision_ms"] >= 0


def test_a_ladder_in_the_background_stops_on_a_signal_with_its_summary() -> None:
    """`kill` (or Ctrl-C) ends a long ladder cleanly: the games played so far, marked interrupted, exit 1."""
    import os
    import signal
    import subprocess
    import sys
    root = Path(__file__).resolve().parents[1]
    command = [sys.executable, str(root / "tools" / "bots_ladder.py"), "--pack", "tic-tac-toe:2",
               "--pairing", "random/random", "--games", "1000000", "--progress"]
    env = {**os.environ, "PYTHONPATH": str(root)}
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                          preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN)) as ladder:
        assert ladder.stderr is not None
        assert ladder.stderr.readline().startswith("game 0 seed 1:")
        ladder.send_signal(signal.SIGTERM)
        out, _ = ladder.communicate(timeout=60)
    assert ladder.returncode == 1
    assert "[interrupted]" in out and "games of this pairing finished" in out


def test_the_ladder_refuses_a_bad_pairing_or_pack(capsys: pytest.CaptureFixture[str]) -> None:
    ladder = _ladder()
    assert ladder.main(["--pack", "tic-tac-toe:2", "--pairing", "greedy"]) == 2
    assert ladder.main(["--pack", "tic-tac-toe", "--pairing", "greedy/random"]) == 2
    assert ladder.main(["--pack", "tic-tac-toe:2", "--pairing", "greedy/random", "--games", "8",
                        "--from-game", "8"]) == 2
    assert ladder.main(["--pack", "tic-tac-toe:2", "--pairing", "wise/random"]) == 2
    assert "unknown bot kind 'wise'" in capsys.readouterr().err


def test_a_cut_rollout_is_worth_its_relative_score_margin() -> None:
    from engine.play.mcts import cut_value
    assert cut_value([3, 3], 0) == 0.5
    assert 0.5 < cut_value([10, 8], 0) < cut_value([2, 0], 0) < 0.95       # 2 ahead counts more at 2 to 0
    assert cut_value([8, 10], 0) == pytest.approx(1 - cut_value([10, 8], 0))
    assert cut_value([5, 9, 1], 2) < cut_value([5, 9, 1], 0) < 0.5 < cut_value([5, 9, 1], 1)
