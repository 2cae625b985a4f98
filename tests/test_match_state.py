"""A match is a value: its state is plain data with a complete hash, items keep their identity, and
`fork`/`undo` give the same match back (also in the middle of an effect inside a trigger)."""

from __future__ import annotations

import copy
import json
import pickle
import random
from pathlib import Path

import pytest
from test_engine_mechanisms import BOARD, make_pack

import engine
from engine.play.match import Match
from engine.runtime.state import json_safe

PACKS = ["raising-robots", "robot-factory", "raising-robots-expansion"]


@pytest.fixture(scope="module", params=PACKS)
def pack(request: pytest.FixtureRequest) -> engine.Pack:
    return engine.load_pack(request.param)


def random_game(pack: engine.Pack, players: int, seed: int) -> tuple[Match, list[int], list[str]]:
    """A finished forkable match, the answers given, and the hash at each decision (and at the end)."""
    rng = random.Random(seed)
    match = engine.new_match(pack, players, seed)
    answers, hashes = [], []
    while not match.done:
        hashes.append(match.state_hash())
        answers.append(rng.randrange(len(match.legal())))
        match.apply(answers[-1])
    hashes.append(match.state_hash())
    return match, answers, hashes


@pytest.mark.parametrize("seed", [1, 2])
def test_fork_and_undo_give_the_same_match_back(pack: engine.Pack, seed: int) -> None:
    players = min(pack.max_players, 2 + seed)
    whole, answers, hashes = random_game(pack, players, seed)
    rng = random.Random(seed)
    match = engine.new_match(pack, players, seed)
    inside_a_trigger = 0
    for at, answer in enumerate(answers):
        if rng.random() < 0.08:
            inside_a_trigger += match.game._trigger_depth > 0
            fork = match.fork()
            assert fork.state_hash() == hashes[at] and fork.legal() == match.legal()
            for later, again in enumerate(answers[at:at + 12], at):   # it goes on exactly as the original
                assert fork.state_hash() == hashes[later]
                fork.apply(again)
            assert match.state_hash() == hashes[at]                  # and never touched the original
            back = rng.randrange(0, at + 1)
            fork.undo(min(12, len(answers) - at) + back)
            assert fork.state_hash() == hashes[at - back]
        match.apply(answer)
    assert match.done and match.state_hash() == hashes[-1] == whole.state_hash()
    assert match.fork().state_hash() == hashes[-1] and match.fork().done


def test_the_untraced_flow_plays_the_same_match(pack: engine.Pack) -> None:
    """A match that is not forkable runs the flow without its trace bookkeeping (`Pack.untraced_flow`): same
    decisions, same hash at each, same events (an observer watching from the start, another from the middle)."""
    players = min(pack.max_players, 3)
    for seed in (1, 2):
        _, answers, hashes = random_game(pack, players, seed)
        traced_feed: list[engine.Event] = []
        untraced_feed: list[engine.Event] = []
        traced = Match(pack, players, seed, forkable=True, observers=[traced_feed.append])
        untraced = Match(pack, players, seed, forkable=False, observers=[untraced_feed.append])
        assert traced.game.trace is not None and untraced.game.trace is None
        late: list[list[engine.Event]] = [[], []]
        for at, answer in enumerate(answers):
            assert traced.state_hash() == untraced.state_hash() == hashes[at]
            assert traced.legal() == untraced.legal()
            if at == len(answers) // 2:
                traced.subscribe(late[0].append)
                untraced.subscribe(late[1].append)
            traced.apply(answer)
            untraced.apply(answer)
        assert untraced.done and untraced.state_hash() == hashes[-1]
        assert traced_feed == untraced_feed and late[0] == late[1]
        assert any(e.kind is engine.EventKind.STEP_STARTED for e in late[1])


def test_a_fork_inside_a_trigger_inside_an_effect() -> None:
    """Raising Robots asks `may` questions from triggers run by card effects: fork right there."""
    pack = engine.load_pack("raising-robots")
    for seed in range(1, 30):
        _, answers, hashes = random_game(pack, 3, seed)
        replay = engine.new_match(pack, 3, seed)
        for at, answer in enumerate(answers):
            if replay.game._trigger_depth > 0 and replay.decision.kind is engine.DecisionKind.MAY:
                fork = replay.fork()
                for later, again in enumerate(answers[at:], at):
                    assert fork.state_hash() == hashes[later]
                    fork.apply(again)
                assert fork.done and fork.state_hash() == hashes[-1]
                return
            replay.apply(answer)
    pytest.fail("no decision inside a trigger in 30 games")


def test_equal_hashes_continue_identically_for_every_answer(pack: engine.Pack) -> None:
    _, answers, _ = random_game(pack, 2, 5)
    for at in (len(answers) // 3, 2 * len(answers) // 3):
        forked = engine.new_match(pack, 2, 5)
        for answer in answers[:at]:
            forked.apply(answer)
        replayed = Match.from_log(pack, forked.to_log())          # the same decision reached the slow way
        assert replayed.state_hash() == forked.state_hash()
        for option in range(len(forked.legal())):
            one, two = forked.fork(), Match.from_log(pack, forked.to_log())
            rng, pick = random.Random(option), option
            for _ in range(25):
                if one.done:
                    break
                assert one.state_hash() == two.state_hash() and one.legal() == two.legal()
                one.apply(pick)
                two.apply(pick)
                pick = rng.randrange(len(one.legal())) if not one.done else 0
            assert one.state_hash() == two.state_hash() and one.done == two.done


def test_forks_and_undo_carry_the_work_budget() -> None:
    """The work spent is match state: a fork goes on spending from where the original was, undo gives it back."""
    match = engine.new_match(engine.load_pack("raising-robots"), 2, 4)
    spent = []
    for _ in range(40):
        spent.append(match.game.state.work)
        match.apply(0)
    assert spent[-1] > spent[0] > 0
    fork = match.fork()
    assert fork.game.state.work == match.game.state.work
    fork.apply(0)
    match.apply(0)
    assert fork.game.state.work == match.game.state.work
    fork.undo(11)
    assert fork.game.state.work == spent[-10]
    assert fork.game.state.to_data()["work"] == spent[-10]


def test_looking_at_the_scores_leaves_the_match_as_it_was() -> None:
    """Scoring runs DSL that pays from the work budget; asking for the outcome must not change the hash."""
    match = engine.new_match(engine.load_pack("raising-robots"), 2, 4)
    for _ in range(30):
        match.apply(0)
    before = match.state_hash()
    assert match.outcome().hash == before and match.outcome().hash == before
    assert match.state_hash() == before


def test_every_state_field_is_in_the_hash() -> None:
    match = engine.new_match(engine.load_pack("raising-robots"), 2, 3)
    for _ in range(60):
        match.apply(0)
    state = match.game.state
    base = state.digest()
    mutations = {
        "step": lambda s: setattr(s, "step", s.step + "x"),
        "periods": lambda s: setattr(s, "turns", s.turns + 1),
        "decisions": lambda s: setattr(s, "decisions", s.decisions + 1),
        "firings": lambda s: setattr(s, "firings", s.firings + 1),
        "work": lambda s: setattr(s, "work", s.work + 1),
        "global counter": lambda s: s.counters.__setitem__(next(iter(s.counters)), 99),
        "player counter": lambda s: s.players[1].counters.__setitem__("vp", 99),
        "visibility": lambda s: setattr(s.zones["robot_deck"], "visibility", "public"),
        "zone order": lambda s: s.zones["robot_deck"].items.reverse(),
        "item attribute": lambda s: s.items[5].own_attrs().__setitem__("extra", 1),
        "trigger uses": lambda s: s.trigger_uses.__setitem__(("t", 0, "round:1"), 1),
        "rng": lambda s: s.rng.random(),
        "secret since": lambda s: setattr(s, "secret_since", (s.secret_since or 0) + 1),
    }
    for name, mutate in mutations.items():
        data = state.to_data()
        mutate(state)
        assert state.digest() != base, name
        state.load(data)
        assert state.digest() == base, name


def test_state_is_plain_data() -> None:
    match = engine.new_match(engine.load_pack("robot-factory"), 2, 4)
    for _ in range(30):
        match.apply(len(match.legal()) - 1)
    data = match.game.state.to_data()
    assert pickle.loads(pickle.dumps(data)) == data
    assert copy.deepcopy(data) == data
    json.dumps(json_safe(data))
    twin = match.fork()
    twin.game.state.load(data)            # loading it elsewhere gives the same state
    assert twin.state_hash() == match.state_hash()


def test_the_pack_is_not_written_during_play() -> None:
    pack = engine.load_pack("raising-robots")
    before = (dict(pack.payers), set(pack.attr_names))
    engine.play_match(engine.new_match(pack, 3, 2), [engine.RandomAgent(2, s) for s in range(3)])
    assert (pack.payers, pack.attr_names) == before


IDENTITY = """\
counters:
  vp: {}
zones:
  pool: {scope: global}
  desk: {scope: global}
component_types:
  token: {zone: pool, attrs: {power: {type: int, default: 0}}}
  holder: {zone: desk, attrs: {target: {type: token}}}
components:
  token: [{id: t, name: T, copies: 3}]
  holder: [{id: h, name: H}]
flow:
  - id: go
    each_player:
      - id: x
        do: |
          set items(pool)[3].power = 7
          set h.target = items(pool)[3]
          gain h.target.power vp
"""


def test_an_item_attribute_holds_that_very_item(tmp_path: Path) -> None:
    match = Match(make_pack(tmp_path, IDENTITY), 1, 1)
    assert match.game.counter("vp", 0) == 7        # copy 3's power, not copy 1's


def test_neighbours_of_a_copy_of_a_board_come_from_that_copy(tmp_path: Path) -> None:
    board = BOARD.replace("{id: a, name: A, next_to: [b, c]}", "{id: a, name: A, next_to: [b, c], copies: 2}") \
                 .replace("{id: b, name: B, next_to: [c]}", "{id: b, name: B, next_to: [c], copies: 2}")
    game = Match(make_pack(tmp_path, board), 1, 1).game
    second_a = [i for i in game.state.items if i.comp.id == "a"][1]
    near = game.neighbors(second_a)
    assert [(i.comp.id, i.copy) for i in near] == [("b", 1), ("c", 0)]


def test_a_match_deep_copies_and_pickles() -> None:
    match = engine.new_match(engine.load_pack("robot-factory"), 2, 6)
    for _ in range(20):
        match.apply(0)
    for twin in (copy.deepcopy(match), pickle.loads(pickle.dumps(match))):
        assert twin.state_hash() == match.state_hash() and twin.legal() == match.legal()
        twin.apply(0)
        assert twin.state_hash() != match.state_hash()


def test_forks_carry_a_board_changed_in_play() -> None:
    """`link`/`unlink` give a match its own board (State.boards): forks and undo carry it."""
    pack = engine.load_pack(str(Path(__file__).parent / "fixtures" / "packs" / "bridges"))
    players = pack.min_players
    for seed in range(1, 6):
        _, answers, hashes = random_game(pack, players, seed)
        match = engine.new_match(pack, players, seed)
        for at, answer in enumerate(answers):
            fork = match.fork()
            assert fork.state_hash() == hashes[at]
            match.apply(answer)
        assert match.fork().state_hash() == hashes[-1]
        if match.game.state.boards:
            return
    pytest.fail("no game of the bridges pack changed its board")
