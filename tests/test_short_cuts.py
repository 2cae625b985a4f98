"""The short cuts a short game takes (issue 17: Connect Four and tic-tac-toe against hand-written Python) give
what the general paths give: `in_a_row_of` reads only the lines a run could lie on, `winners` skips the
results a score alone decides, `count(X where C) > 0` stops at the first element that passes, a choice of
uniquely named items skips `offer`, an attribute every item starts with is read without a default, and `at` on a
shared board reads the layout's map of uids against the match's items."""

from __future__ import annotations

import random
from pathlib import Path
from types import CodeType

import pytest

from engine.compile import codegen
from engine.compile.effect import EffectCompiler
from engine.compile.loading import load_pack
from engine.dsl.parse import DslText
from engine.errors import RuleError
from engine.play.agents import RandomAgent
from engine.play.match import Match
from engine.runtime.context import Ctx
from engine.runtime.defs import held_by_every_item
from engine.runtime.limits import LimitError
from engine.runtime.scoring import final_scores, team_lost, verdict, winners
from tests.test_engine_mechanisms import make_pack

LINES = Path(__file__).parent / "fixtures" / "packs" / "lines"


def _names(fn: object) -> tuple[str, ...]:
    """The global and attribute names a generated function's code reads (its code built now if pending)."""
    codegen.prepare(fn)
    return fn.__code__.co_names  # type: ignore[attr-defined]


@pytest.mark.parametrize("seed", range(40))
def test_in_a_row_of_agrees_with_in_a_row_on_random_boards(seed: int) -> None:
    """Every cell, every N from 0 to 6 (longer than the 5-by-4 board's lines), marks 0-2 at random."""
    rng = random.Random(seed)
    session = Match(load_pack(str(LINES)), 2, 1)
    grids = session.game.grids
    cells = session.game.state.zone("board", None).items
    for cell in cells:
        cell.own_attrs()["mark"] = rng.choice((0, 1, 1, 2))
    for cell in cells:
        for need in range(7):
            for value in (0, 1, 2):
                expected = grids.in_a_row(cell, need, lambda c, v=value: c.attrs["mark"] == v)
                assert grids.in_a_row_of(cell, need, "mark", value) == expected, (cell, need, value)


def test_in_a_row_of_an_attribute_some_cells_lack_reads_it_as_0() -> None:
    """`extra` is no starting attribute: the lines are read with a default, as `in_a_row` reads them."""
    session = Match(load_pack(str(LINES)), 2, 1)
    grids = session.game.grids
    cells = {(c.attrs["col"], c.attrs["row"]): c for c in session.game.state.zone("board", None).items}
    for xy in ((1, 1), (2, 1), (3, 1)):
        cells[xy].own_attrs()["extra"] = 5
    assert grids.in_a_row_of(cells[(2, 1)], 3, "extra", 5)
    assert not grids.in_a_row_of(cells[(2, 1)], 4, "extra", 5)
    assert grids.in_a_row_of(cells[(5, 4)], 3, "extra", 0)   # no cell of the top row has it: all read as 0
    with pytest.raises(RuleError, match="needs a cell of a grid"):
        grids.in_a_row_of(3, 3, "mark", 1)


@pytest.mark.parametrize("name", ["tic-tac-toe", "connect-four", "goofspiel", "breakthrough"])
def test_winners_by_score_alone_are_the_verdicts(name: str) -> None:
    pack = load_pack(name)
    for seed in range(1, 40 if name != "breakthrough" else 8):
        game = Match.played(pack, 2, seed, [RandomAgent(seed, s) for s in range(2)]).game
        assert winners(game) == verdict(final_scores(game), team_lost(game))[1]


_COUNTED = """
counters:
  seen: {name: Seen, scope: global}
  got: {name: Got, scope: global}
zones:
  box: {scope: global}
component_types:
  token: {zone: box, attrs: {v: {type: int, default: 0}}}
components:
  token:
    - {id: a, name: A, v: 1}
    - {id: b, name: B, v: 0}
    - {id: c, name: C, v: 2}
flow:
  - {id: go, do: "if TEST { set got = 1 }"}
"""


@pytest.mark.parametrize(("test", "holds"), [
    ("count(box where it.v == 0) > 0", True), ("count(box where it.v == 5) > 0", False),
    ("count(box where it.v >= 1) >= 1", True), ("count(box where it.v > 2) != 0", False),
    ("count(box where it.v == 5) == 0", True), ("count(box where it.v == 2) == 0", False),
    ("count(box where it.v > 7) <= 0", True), ("count(box where it.v < 7) < 1", False),
    ("count(box where it.v < 7) > 1", True),   # not a question of some: counted as before
])
def test_a_count_compared_with_none_gives_the_count_s_answer(tmp_path: Path, test: str, holds: bool) -> None:
    pack = make_pack(tmp_path, _COUNTED.replace("TEST", test))
    assert Match(pack, 1, 1).game.counter("got", None) == int(holds)


def test_a_count_asked_whether_some_pass_stops_at_the_first_and_a_failing_test_still_fails(tmp_path: Path) -> None:
    """The quiet test stops at A (the loop has a `break`); a test that can fail (a division) is counted whole,
    so B's division by zero fails the rule as it did."""
    pack = make_pack(tmp_path / "quiet", _COUNTED.replace("TEST", "count(box where it.v == 1) > 0"))
    assert Match(pack, 1, 1).game.counter("got", None) == 1
    assert "any" not in _names(pack.untraced_flow)   # written out as a loop that breaks at the first
    loud = make_pack(tmp_path / "loud", _COUNTED.replace("TEST", "count(box where it.v == 1 or 1 / it.v == 1) > 0"))
    with pytest.raises(RuleError, match="division by zero"):
        Match(loud, 1, 1)


def test_an_attribute_every_item_starts_with_is_read_without_a_default(tmp_path: Path) -> None:
    pack = load_pack("connect-four")
    assert held_by_every_item(pack, "mark") and held_by_every_item(pack, "col")
    assert not held_by_every_item(pack, "nothing")
    some = make_pack(tmp_path, _COUNTED.replace("TEST", "true").replace(
        "    - {id: c, name: C, v: 2}\n", "    - {id: c, name: C, v: 2}\n  other:\n    - {id: d, name: D}\n").replace(
        "  token: {zone: box, attrs: {v: {type: int, default: 0}}}\n",
        "  token: {zone: box, attrs: {v: {type: int, default: 0}}}\n  other: {zone: box}\n"))
    assert not held_by_every_item(some, "v")   # D has no `v`: a read of it gives 0, with the default


def test_a_choice_of_uniquely_named_items_is_offered_without_labels_and_labelled_alike() -> None:
    """Tic-tac-toe's cells each have a name of their own: no `offer()`, and the labels made when read are the
    cells' names, as `offer` made them."""
    pack = load_pack("tic-tac-toe")
    match = Match(pack, 2, 3)
    decision = match.decision
    assert decision is not None and decision._labels is None
    assert decision.labels == [c.comp.name for c in decision.payloads]
    match.apply_label("center")
    assert match.decision is not None and "center" not in match.decision.labels


def test_a_shared_board_s_map_holds_uids_and_at_reads_this_match_s_item(tmp_path: Path) -> None:
    session = Match(load_pack(str(LINES)), 2, 1)
    grids, items = session.game.grids, session.game.state.items
    board = grids.maps.boards["cell"]
    cell = items[board[2, 3]]
    assert (cell.attrs["col"], cell.attrs["row"]) == (2, 3) and len(board) == 20
    assert board[2.0, True] == board[2, 1] and len(board) == 20   # numbers that are not ints: converted, not kept
    with pytest.raises(RuleError, match="no cell at column 6, row 1"):
        board[6, 1]
    assert len(board) == 20
    session.run([RandomAgent(1, seat) for seat in range(2)])   # the whole game reads its cells so
    assert session.done


def test_at_with_a_row_or_column_written_as_a_number_reads_that_line_by_the_other_coordinate() -> None:
    """`at(cell, C, 4)` reads row 4's map by column (`at(cell, 2, R)` column 2's by row): the same cell as the
    board's map for every coordinate, numbers that are not ints included, and the same error off the board."""
    session = Match(load_pack(str(LINES)), 2, 1)
    grids = session.game.grids
    fn = session.game.pack.procedures["drop"].run
    # (its loop over columns reads row 4 through the row's span: engine/compile/grid_loops.py)
    assert "spans" in _names(fn) and "boards" not in _names(fn)
    for by, fixed in ((1, 4), (1, 1), (0, 2), (0, 5), (1, 9), (0, 0)):
        along = grids.maps.along["cell", by, fixed]
        assert len(along) == {1: 5, 0: 4}[by] * (0 < fixed <= {1: 4, 0: 5}[by])
        for other in (-1, 0, 1, 2, 3, 4, 5, 6, True, 2.0):
            col, row = (other, fixed) if by else (fixed, other)
            try:
                expected = grids.maps.boards["cell"][col, row]
            except RuleError as exc:
                with pytest.raises(RuleError, match=str(exc)):
                    along[other]
            else:
                assert along[other] == expected
                assert session.game.state.items[expected] is grids.at("cell", None, col, row)


def test_the_untraced_flow_starts_a_round_inline_and_pays_for_it() -> None:
    """The untraced flow counts the round and pays its unit of work without `round_started`: the same work
    and periods as a traced (forkable) match of the same game."""
    pack = load_pack("connect-four")
    plain = Match.played(pack, 2, 5, [RandomAgent(5, s) for s in range(2)])
    traced = Match(pack, 2, 5, forkable=True)
    traced.run([RandomAgent(5, s) for s in range(2)])
    assert plain.game.state.periods == traced.game.state.periods
    assert plain.game.state.work == traced.game.state.work
    Match(pack, 2, 5).run([RandomAgent(5, s) for s in range(2)])   # (a pausable match: the untraced flow built)
    assert "round_started" in _names(pack.flow)
    for flow in (pack.untraced_flow, pack.quiet_flow):
        assert "round_started" not in _names(flow) and "rounds" in _names(flow)   # (built: it reads `rounds`)


@pytest.mark.parametrize("name", ["goofspiel", "tic-tac-toe", "robot-factory"])
def test_the_untraced_flow_asks_in_the_steps_the_traced_flow_asks_in(name: str) -> None:
    """The untraced flow drops step-name stores nothing reads (a seat loop's pass puts its step's name back
    once, after the loop): every decision still names the step the traced flow names, and the games end the
    same."""
    pack = load_pack(name)
    plain = Match.played(pack, 2, 7, [RandomAgent(7, s) for s in range(2)])
    traced = Match(pack, 2, 7, forkable=True)
    traced.run([RandomAgent(7, s) for s in range(2)])
    assert [a.step for a in plain.log] == [a.step for a in traced.log] and plain.log
    assert plain.game.state.digest() == traced.game.state.digest()


_DERIVED = """
counters:
  total: {name: Total, scope: global}
zones:
  box: {scope: global}
component_types:
  token:
    zone: box
    attrs:
      v: {type: int, default: 0}
      lit: {type: bool, default: false}
      price: {type: expr, default: "max(0, self.v - count(box where it.lit))"}
components:
  token:
    - {id: a, name: A, v: 3, lit: true}
    - {id: b, name: B, v: 4}
    - {id: c, name: C, lit: true}
flow:
  - id: go
    do: |
      set total = 0
      for t in box { set total = total * 10 + t.price }
"""


def test_a_derived_attribute_reads_its_item_as_an_item(tmp_path: Path) -> None:
    """A derived attribute is read with its item as `self`: `self.v` is read from the item's dict as a read
    that cannot fail, so the count after it is a loop written out before the `return` (no comprehension
    made and called at every read), with the values it had."""
    pack = make_pack(tmp_path, _DERIVED)
    assert Match(pack, 1, 1).game.state.counters["total"] == 1 * 100 + 2 * 10 + 0
    price = next(iter(pack.components.values())).derived["price"]
    codegen.prepare(price)
    assert not any(isinstance(c, CodeType) for c in price.__code__.co_consts)   # no comprehension's code
    assert "get_attr" not in _names(price)
    # the flow's `t.price` (t: an item for sure) reads it through `item_attr`, `get_attr`'s item case
    assert "item_attr" in _names(pack.untraced_flow) and "get_attr" not in _names(pack.untraced_flow)


_SUMMED = """
counters:
  total: {name: Total, scope: global}
  pair: {name: Pair, scope: global}
  pass_no: {name: Pass, scope: global}
zones:
  box: {scope: global}
component_types:
  token: {zone: box, attrs: {v: {type: int, default: 0}, lit: {type: bool, default: false}}}
components:
  token:
    - {id: a, name: A, v: 3, lit: true}
    - {id: b, name: B, v: 4}
    - {id: c, name: C, lit: true}
flow:
  - id: go
    do: |
      set total = sum(box, it.v) + sum(box, it.lit)
      set pair = count(box where it.lit) + count(box where it.v > 3)
  - {id: again, repeat: {count: 2, counter: pass_no}, steps: [{id: step, do: "set total = total + 1"}]}
"""


def test_sums_counts_and_pass_numbers_are_ints_without_an_int_call(tmp_path: Path) -> None:
    """Arithmetic, sums of item numbers (bools among them: `sum` makes ints of them) and a repeat's pass number
    are ints already: the generated flow calls no `int()`, and the counters hold ints, not bools."""
    pack = make_pack(tmp_path, _SUMMED)
    counters = Match(pack, 1, 1).game.state.counters
    assert (counters["total"], counters["pair"], counters["pass_no"]) == (3 + 4 + 2 + 2, 2 + 1, 2)
    assert all(counters[name].__class__ is int for name in ("total", "pair", "pass_no"))
    assert "int" not in _names(pack.untraced_flow)



def test_a_repeat_pays_its_passes_when_it_starts_without_a_call(tmp_path: Path) -> None:
    """`repeat N` pays N units of work when it starts (`game.passes` written out), and past the budget fails as
    `passes` does, before the first pass."""
    pack = make_pack(tmp_path, _SUMMED)
    game = Match(pack, 1, 1).game
    dsl = DslText("repeat 3 { set total = total + 1 }", None, ())
    tree = dsl.parse("effect")
    assert tree is not None
    repeat = EffectCompiler(pack, dsl, set()).effect_function(tree, dsl.text)
    before, total = game.state.work, game.counter("total", None)
    repeat.run(Ctx(game, None))
    assert game.counter("total", None) == total + 3 and game.state.work - before >= 3
    codegen.prepare(repeat.run)
    assert "range" in _names(repeat.run)
    game.work_limit = game.state.work + 2
    with pytest.raises(LimitError, match="a repeat of 3 passes"):
        repeat.run(Ctx(game, None))
    assert game.counter("total", None) == total + 3   # no pass ran
