"""A choose of several parts (`choose p in A, t in B { }`): one decision over the combinations.

The fixture pack tests/fixtures/packs/hops: on a 4-by-4 grid a turn hops a token north by one or two
cells (an item and a number in one option, "a1, 2"); each player's last turn steps a token to an empty
neighbouring cell (two items, "a1, b1"). content/breakthrough moves its pieces the same way.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.compile.loading import load_pack
from engine.diagnostics import PackError
from engine.dsl.render import Renderer
from engine.lint.run import lint
from engine.play.agents import RandomAgent
from engine.play.match import Match
from engine.runtime.dsl_values import offer_combinations
from engine.runtime.events import Event, EventKind

PACK = Path(__file__).parent / "fixtures" / "packs" / "hops"


def _pack_with(tmp_path: Path, game: str) -> Path:
    (tmp_path / "pack.yaml").write_text((PACK / "pack.yaml").read_text())
    (tmp_path / "game.yaml").write_text(game)
    return tmp_path


def _marks(session: Match) -> dict[str, int]:
    return {c.comp.id: c.attrs["mark"] for c in session.game.state.zone("board", None).items if c.attrs["mark"]}


def _with_flow(tmp_path: Path, flow: str) -> Match:
    """The hops rules with this flow instead of the pack's."""
    game = (PACK / "game.yaml").read_text()
    game = game[:game.index("flow:\n")] + "flow:\n" + flow + "\nscoring:\n  score: \"home\"\n"
    return Match(load_pack(str(_pack_with(tmp_path, game))), 2, 1)


def test_one_decision_offers_every_combination_labelled_by_its_parts() -> None:
    session = Match(load_pack(str(PACK)), 2, 1)
    assert session.decision is not None and session.decision.prompt == "hop"
    assert session.legal() == ["a1, 1", "a1, 2", "c1, 1", "c1, 2", "done"]
    session.apply_label("a1, 2")
    assert _marks(session) == {"a3": 1, "c1": 1, "b1": 2, "d1": 2}
    assert session.legal() == ["b1, 1", "b1, 2", "d1, 1", "d1, 2", "done"]


def test_a_later_part_reads_the_earlier_one() -> None:
    """From a3 only one cell lies north: `n in range(1, 2) where count(line(p, "n")) >= it` offers 1 alone."""
    session = Match(load_pack(str(PACK)), 2, 1)
    session.replay(["a1, 2", "b1, 1"])
    assert session.legal() == ["c1, 1", "c1, 2", "a3, 1", "done"]
    session.replay(["a3, 1"])
    assert _marks(session)["a4"] == 1 and session.game.state.players[0].counters["home"] == 1


def test_a_piece_with_nowhere_to_go_is_not_offered(tmp_path: Path) -> None:
    """b1 is hemmed in (a1, c1, b2 full): no option starts with it; d2 has empty neighbours."""
    session = _with_flow(tmp_path, '  - {id: setup, do: "set a1.mark = 2; set c1.mark = 2; set b2.mark = 2; '
                                   'set b1.mark = 1; set d2.mark = 1"}\n'
                                   '  - {id: turns, each_player: [{id: move, do: "call step"}]}')
    assert session.decision is not None and session.decision.seat == 0
    assert session.legal() == ["d2, d1", "d2, c2", "d2, d3"]


def test_a_combination_whose_block_cannot_start_is_not_offered(tmp_path: Path) -> None:
    """The block pays `n home` first: with 1 home, only the combinations with n = 1 are offered."""
    session = _with_flow(tmp_path, '  - {id: turns, each_player: [{id: move, do: "set home = 1; choose p in board '
                                   'where it.mark == 0 and it.row == 4, n in range(1, 3) { pay n home } "}]}')
    assert session.legal() == ["a4, 1", "b4, 1", "c4, 1", "d4, 1"]


def test_no_combination_asks_nothing(tmp_path: Path) -> None:
    """Seat 1's only token (a1) is hemmed in: the step is skipped and seat 2 is asked next."""
    session = _with_flow(tmp_path, '  - {id: setup, do: "set a1.mark = 1; set a2.mark = 2; set b1.mark = 2"}\n'
                                   '  - {id: turns, each_player: [{id: move, do: "call step"}]}')
    assert session.decision is not None and session.decision.seat == 1
    assert _marks(session) == {"a1": 1, "a2": 2, "b1": 2}


def test_other_seats_see_a_move_of_public_items_but_not_a_number() -> None:
    """Two cells of a public board are a public answer; a combination with a number part stays private."""
    session = Match(load_pack(str(PACK)), 2, 1)
    told: list[Event] = []
    session.subscribe(told.append)
    session.replay(["a1, 2", "b1, 1", "done", "done", "done", "done", "a3, b3"])
    seen_by_2 = [e.data.get("label") for e in told if e.kind is EventKind.ANSWERED and e.seen_by(1) and e.seat == 0]
    assert seen_by_2 == [None, None, None, "a3, b3"]


@pytest.mark.parametrize("seed", range(1, 21))
def test_random_games_replay_from_their_labels(seed: int) -> None:
    pack = load_pack(str(PACK))
    session = Match(pack, 2, seed)
    session.run([RandomAgent(seed, seat) for seat in range(2)])
    again = Match(pack, 2, seed)
    again.replay([entry["label"] for entry in session.log])
    assert again.done and again.state_hash() == session.state_hash()


def test_equal_combinations_are_one_option_and_labels_stay_unique() -> None:
    options, labels = offer_combinations([(1, "x"), (1, "x"), (2, "x")])
    assert options == [(1, "x"), (2, "x")] and labels == ["1, x", "2, x"]
    _, labels = offer_combinations([("a, b", "c"), ("a", "b, c")])     # both read "a, b, c"
    assert labels == ["a, b, c #1", "a, b, c #2"]
    assert offer_combinations([]) == ([], [])


def test_explain_names_the_parts_chosen_together() -> None:
    pack = load_pack(str(PACK))
    text = Renderer(pack).text(pack.procedures["step"].text, "effect")
    assert text.startswith("Choose p and t together, p from Board where the mark of it is the seat of you; "
                           "t from the neighbours of p where the mark of it is 0: set the mark of p to 0")


def test_two_parts_with_one_name_is_dsl018(tmp_path: Path) -> None:
    game = (PACK / "game.yaml").read_text().replace("t in neighbors(p) where it.mark == 0",
                                                    "p in neighbors(p) where it.mark == 0")
    with pytest.raises(PackError) as found:
        load_pack(str(_pack_with(tmp_path, game)))
    (same,) = [d for d in found.value.diagnostics if d.code == "DSL018"]   # (and `t` is now unknown: REF001)
    assert same.message == "two parts of one choose are named 'p': each part needs its own name"


@pytest.mark.parametrize(("old", "new", "column"), [
    ("choose p in board where it.mark == me.seat, t", "choose p in home, t", 17),
    ("t in neighbors(p) where it.mark == 0", "t in home", 54),
])
def test_each_part_must_be_a_collection(tmp_path: Path, old: str, new: str, column: int) -> None:
    """The type rule of a `choose` holds for every part; later parts see the earlier names (`neighbors(p)`)."""
    game = (PACK / "game.yaml").read_text().replace(old, new)
    found = [(d.code, d.line, d.col) for d in lint(_pack_with(tmp_path, game), games=0)]
    assert found == [("TYPE013", 31, column)]
