"""The grid maps of a layout (engine/runtime/grids.py `GridMaps`): where each grid cell is among a match's items,
as uids, made once per pack and player count and read by every match of them against its own items.

What must hold: the maps hold uids and getters of uids, never a match's items, and a read that converts a key or
fails writes nothing into them; every match (a fork, a match gone back by `undo`) reads its own items through
them; a run's getter gives the run's cells in order whatever the spacing of their uids; `in_a_row_of`'s lines
give `in_a_row`'s answer on any grid shape.
"""

from __future__ import annotations

import operator
import random
from pathlib import Path
from typing import Any

import pytest

from engine.compile.loading import load_pack
from engine.errors import RuleError
from engine.play.agents import RandomAgent
from engine.play.match import Match
from engine.runtime.grids import GridMaps, _Picked, getter
from engine.runtime.state import Item, layout
from tests.test_engine_mechanisms import make_pack
from tests.test_grids import _probe
from tests.test_leaf_procedures import _leaf_has_no_count

LINES = Path(__file__).parent / "fixtures" / "packs" / "lines"
GRID_PACKS = [str(LINES), "connect-four", "tic-tac-toe", "breakthrough"]


def _contents(value: Any, seen: set[int] | None = None) -> Any:
    """The plain data a grid map holds (dicts, lists, tuples, numbers, a getter's slice or uids); an `Item`
    anywhere in it fails the test."""
    assert value.__class__ is not Item, "a layout's grid map holds a match's item"
    if isinstance(value, dict):
        return {key: _contents(v) for key, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_contents(v) for v in value]
    if isinstance(value, operator.itemgetter):
        return ("slice", repr(value))
    if isinstance(value, _Picked):
        return ("uids", list(value.uids))
    assert value.__class__ in (int, str, bool) or value is None, value
    return value


def _within(held: Any, now: Any) -> bool:
    """Every entry of `held` is in `now`, the same (maps only grow)."""
    if isinstance(held, dict):
        return isinstance(now, dict) and all(key in now and _within(value, now[key]) for key, value in held.items())
    return bool(held == now)


def _maps(maps: GridMaps) -> dict[str, Any]:
    return {name: _contents(getattr(maps, name)) for name in
            ("_cells", "_run_uids", "_runs", "_steps", "along", "boards", "column_uids", "columns", "lines", "rays",
             "row_uids", "rows", "spans")}


@pytest.mark.parametrize("name", GRID_PACKS)
def test_matches_share_the_layout_s_maps_which_hold_no_item_and_only_grow(name: str) -> None:
    """Two matches of a layout read one `GridMaps`; after whole games it holds uids only, and what a game found
    in it is still there, unchanged, after more games."""
    pack = load_pack(name)
    first = Match.played(pack, 2, 1, [RandomAgent(1, s) for s in range(2)])
    second = Match(pack, 2, 2)
    assert first.game.grids.maps is second.game.grids.maps is layout(pack, 2).grid_maps
    before = _maps(first.game.grids.maps)
    for seed in range(2, 12 if name != "breakthrough" else 4):
        Match.played(pack, 2, seed, [RandomAgent(seed, s) for s in range(2)])
    after = _maps(first.game.grids.maps)
    assert _within(before, after) and (before != after or name != str(LINES))


def test_a_read_that_converts_a_key_or_fails_writes_nothing() -> None:
    game = Match(load_pack(str(LINES)), 2, 1).game
    maps = game.grids.maps
    board, along, runs = maps.boards["cell"], maps.along["cell", 1, 2], maps.columns["cell"]
    sizes = (len(board), len(along), len(runs))
    assert board[2.5, True] == board[2, 1] and along[3.5] == board[3, 2] and runs[2.5] is runs[2]
    with pytest.raises(RuleError, match="no cell at column 6, row 2"):
        along[6]
    assert runs[9]([]) == []   # off the board: an empty column
    assert (len(board), len(along), len(runs)) == sizes and 2.5 not in runs and 9 not in runs
    assert (2.5, 1) not in board and 3.5 not in along
    # what a loop through a column reads on a miss of its plain table (engine/compile/grid_loops.py)
    assert maps.run_read("cell", 0, 2.5) == maps.run_read("cell", 0, 2) == tuple(
        cell.uid for cell in runs[2](game.state.items))
    assert maps.run_read("cell", 0, 9) == () and maps.run_read("cell", 1, 0) == ()
    uids = maps.column_uids["cell"]
    assert uids[2] == maps.run_read("cell", 0, True + 1) and 2.5 not in uids and 9 not in uids
    with pytest.raises(ValueError, match="invalid literal"):
        maps.run_read("cell", 0, "x")   # as `column(cell, "x")` fails


def _options(match: Match) -> list[str]:
    assert match.decision is not None
    return list(match.decision.labels)


def test_a_fork_reads_its_own_items_through_the_shared_maps() -> None:
    """Connect Four's `drop` reads `at(cell, it, 6)` and the column through the maps: a column filled in the
    fork only is closed in the fork only."""
    pack = load_pack("connect-four")
    match = Match(pack, 2, 3, forkable=True)
    for label in ("1", "2", "1"):
        match.apply_label(label)
    fork = match.fork()
    for cell in fork.game.state.zone("board", None).items:
        if cell.attrs["col"] == 4:
            cell.own_attrs()["mark"] = 2
    assert "4" in _options(match)
    fork.apply_label("5")   # (the fork's options were made before: its next decision reads its column 4)
    assert "4" not in _options(fork) and "4" in _options(match)
    match.apply_label("4")   # the original's disc lands in its own column 4, on its own lowest cell
    marks = {(c.attrs["col"], c.attrs["row"]): c.attrs["mark"] for c in match.game.state.zone("board", None).items}
    assert marks[(4, 1)] != 0 and marks[(4, 2)] == 0


def test_undo_reads_the_items_as_they_were_then() -> None:
    """`undo` rewrites the items' attributes in place: the maps then read the board as it was."""
    pack = load_pack("connect-four")
    match = Match(pack, 2, 5, forkable=True)
    seen = []
    for label in ("3", "3", "3", "3", "3"):
        seen.append(_options(match))
        match.apply_label(label)
    assert "3" in _options(match)
    match.apply_label("3")   # column 3 is full now
    assert "3" not in _options(match)
    match.undo(3)
    assert _options(match) == seen[3] and "3" in _options(match)
    grids, items = match.game.grids, match.game.state.items
    column = [items[uid] for uid in sorted(grids.maps.cells("cell", None).values())
              if items[uid].attrs["col"] == 3]
    assert [c.attrs["mark"] for c in column] == [1, 2, 1, 0, 0, 0]
    assert not grids.in_a_row_of(column[2], 3, "mark", 1) and grids.in_a_row_of(column[2], 1, "mark", 1)


@pytest.mark.parametrize("uids", [
    [], [0], [5], [2, 3], [3, 2], [0, 7, 14, 21], [21, 14, 7, 0], [20, 13, 6], [6, 3, 0], [8, 5, 2],
    [4, 1, 9], [0, 2, 3], [9, 9], [1, 2, 3, 5],
])
def test_a_run_s_getter_gives_its_cells_in_order(uids: list[int]) -> None:
    """Evenly spaced uids (either way, down to uid 0) are one slice; others are picked one by one."""
    items = [object() for _ in range(25)]
    assert list(getter(uids)(items)) == [items[uid] for uid in uids]   # type: ignore[arg-type]


def test_tic_tac_toe_s_columns_run_against_its_uid_order() -> None:
    """Its cells are listed top row first, so a column's uids go down: `column(cell, N)` still lists the lowest
    row first."""
    game = Match(load_pack("tic-tac-toe"), 2, 1).game
    for col in (1, 2, 3):
        cells = game.grids.column("cell", None, col)
        assert [c.attrs["at"] for c in cells] == [[col, 1], [col, 2], [col, 3]]
        assert list(game.grids.maps.columns["cell"][col](game.state.items)) == cells
    assert [c.attrs["at"] for c in game.grids.row("cell", None, 2)] == [[1, 2], [2, 2], [3, 2]]


_HEX = """
zones:
  board: {scope: global}
component_types:
  cell:
    zone: board
    attrs: {mark: {type: int, default: 0}}
    grid: {shape: hex, size: [5, 4]}
flow:
  - {id: nothing, do: "shuffle board"}
"""


@pytest.mark.parametrize("seed", range(6))
def test_in_a_row_of_agrees_with_in_a_row_on_a_hex_grid(tmp_path: Path, seed: int) -> None:
    rng = random.Random(seed)
    game = Match(make_pack(tmp_path, _HEX), 2, 1).game
    cells = game.state.zone("board", None).items
    for cell in cells:
        cell.own_attrs()["mark"] = rng.choice((0, 1, 1, 2))
    for cell in cells:
        for need in range(7):
            for value in (0, 1, 2):
                expected = game.grids.in_a_row(cell, need, lambda c, v=value: c.attrs["mark"] == v)
                assert game.grids.in_a_row_of(cell, need, "mark", value) == expected, (cell, need, value)


_YARDS = """
counters:
  seen: {name: Seen}
zones:
  yard: {scope: player}
component_types:
  plot:
    zone: yard
    per_player: true
    attrs: {mark: {type: int, default: 0}}
    grid: {shape: square, size: [3, 2]}
flow:
  - id: turns
    each_player:
      - id: mark
        do: |
          let c = at(plot, 2, 1)
          set c.mark = me.seat
          for d in column(plot, 3) { set d.mark = 10 + me.seat }
          set seen = count(row(plot, 1) where it.mark != 0)
"""


def test_each_player_s_own_board_is_read_through_its_own_map(tmp_path: Path) -> None:
    game = Match(make_pack(tmp_path, _YARDS), 2, 1).game
    for seat in (0, 1):
        marks = {(c.attrs["col"], c.attrs["row"]): c.attrs["mark"] for c in game.state.zone("yard", seat).items}
        assert marks == {(1, 1): 0, (2, 1): seat + 1, (3, 1): 11 + seat, (1, 2): 0, (2, 2): 0, (3, 2): 11 + seat}
        assert game.state.players[seat].counters["seen"] == 2


@pytest.mark.parametrize("condition", [
    "count(row(cell, 2)) == 5 and first(row(cell, 2)) == at(cell, 1, 2) and row(cell, 2)[5] == at(cell, 5, 2)",
    "column(cell, 3) == [at(cell, 3, 1), at(cell, 3, 2), at(cell, 3, 3), at(cell, 3, 4)]",
    "count(column(cell, 9)) == 0 and count(row(cell, 0)) == 0 and column(cell, 1 + 1) == column(cell, 2)",
    "count(column(cell, 1) where it.row > 2) == 2 and at(cell, 1 + 1, 4 - 3) == at(cell, 2, 1)",
])
def test_rows_and_columns_of_a_shared_board_read_the_match_s_cells(tmp_path: Path, condition: str) -> None:
    assert _probe(tmp_path, condition) == 7


def test_reading_a_shared_row_or_column_runs_no_rules(tmp_path: Path) -> None:
    """The getter call a row or column compiles to is a read (engine/compile/leaf.py): a procedure that reads
    them, in a filter's test too, is still a leaf; any other call is not."""
    game = (LINES / "game.yaml").read_text().replace("procedures:\n", """procedures:
  look: |
    set open = count(range(1, 5) where count(column(cell, it) where it.mark == 0) > 0) + count(row(cell, 2))
  poke: "set open = count(column(cell, 2)) + count(line(at(cell, 1, 1), \\"n\\"))"
""", 1)
    (tmp_path / "pack.yaml").write_text((LINES / "pack.yaml").read_text())
    (tmp_path / "game.yaml").write_text(game)
    pack = load_pack(str(tmp_path))
    assert _leaf_has_no_count(pack, "look") and not _leaf_has_no_count(pack, "poke")


def test_in_a_row_of_reads_a_cell_without_the_attribute_as_0() -> None:
    """A cell whose item lacks the attribute (its dict read fails) gives the general search's answer, the
    attribute read as 0 (`_in_a_row_by_default`)."""
    game = Match(load_pack(str(LINES)), 2, 1).game
    cells = {(c.attrs["col"], c.attrs["row"]): c for c in game.state.zone("board", None).items}
    for cell in cells.values():
        cell.attrs = dict(cell.attrs)   # its own values (an item shares its component's until written)
    for xy in ((2, 1), (3, 1)):
        del cells[xy].attrs["mark"]
    cells[4, 1].attrs["mark"] = 1
    for xy, need, value in (((1, 1), 3, 0), ((1, 1), 4, 0), ((2, 1), 3, 0), ((4, 1), 2, 1), ((1, 2), 3, 0)):
        general = game.grids.in_a_row(cells[xy], need, lambda it, v=value: it.attrs.get("mark", 0) == v)
        assert game.grids.in_a_row_of(cells[xy], need, "mark", value) == general
    assert not game.grids.in_a_row_of(cells[4, 1], 2, "mark", 1)   # its neighbours: one without, one 0
