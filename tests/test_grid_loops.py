"""Loops through a grid's cells by uid (engine/compile/grid_loops.py): a loop over written numbers that reads a
written row at each goes through the row's (number, uid) span; a loop through `column`/`row` that nothing else
reads goes through the run's uids. What must hold: the same games, the same values and the same errors as the
plain loops, and the plain loops kept wherever the rewrite could differ (a number off the board, the list read
elsewhere, the local given another value).
"""

from __future__ import annotations

import ast
import itertools
from pathlib import Path
from typing import Any, ClassVar

import pytest

from engine.compile import codegen
from engine.compile import expr as expr_module
from engine.compile.grid_loops import grid_loops
from engine.compile.loading import load_pack
from engine.errors import RuleError
from engine.play.agents import RandomAgent
from engine.play.match import Match
from engine.runtime.boards import Grid
from tests.test_grids import _probe
from tests.test_short_cuts import _names

LINES = Path(__file__).parent / "fixtures" / "packs" / "lines"


def test_connect_four_s_drop_goes_through_a_span_and_a_column_s_uids() -> None:
    """`choose k in range(1, 7) where at(cell, it, 6).mark == 0` reads row 6 through its span (no row map, no
    range made: its length is written), and `first(column(cell, k) where ...)` goes through the column's uids
    (no getter call making a list of cells)."""
    pack = load_pack("connect-four")
    names = _names(pack.procedures["drop"].run)
    assert {"spans", "column_uids"} <= set(names)
    assert not {"along", "columns"} & set(names)


def _played(pack: Any, seed: int) -> tuple[str, list[Any]]:
    match = Match.played(pack, 2, seed, [RandomAgent(seed, seat) for seat in range(2)])
    return match.state_hash(), [(entry.seat, entry.step, entry.label) for entry in match.log]


@pytest.mark.parametrize("name", ["connect-four", str(LINES)])
def test_the_rewritten_loops_play_the_same_games(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Whole games with the loops rewritten and with them left as they are: the same decisions and states."""
    rewritten = load_pack(name)
    fast = [_played(rewritten, seed) for seed in range(1, 13)]
    monkeypatch.setattr(expr_module, "grid_loops", lambda body, temp, pack: body)
    plain = load_pack(name)
    assert "along" in _names(plain.procedures["drop"].run)   # (the plain loops, really)
    assert fast == [_played(plain, seed) for seed in range(1, 13)]


@pytest.mark.parametrize("condition", [
    "count(range(1, 5) where at(cell, it, 2).mark == 0) == 5",              # the span of a whole row
    "count(range(2, 3) where at(cell, 3, it).mark == 0 and it > 2) == 1",   # of part of a column
    "first(column(cell, 2) where it.mark == 0) == at(cell, 2, 1)",          # a column's uids
    "first(row(cell, 3) where it.col > 3) == at(cell, 4, 3)",               # a row's
    "count(column(cell, 4 - 2) where it.mark == 0) == 4 and count(row(cell, 9) where it.mark == 0) == 0",
])
def test_the_rewritten_loops_give_the_plain_loops_values(tmp_path: Path, condition: str) -> None:
    assert _probe(tmp_path, condition) == 7


def test_a_number_off_the_board_keeps_the_plain_loop_and_its_error(tmp_path: Path) -> None:
    with pytest.raises(RuleError, match="no cell at column 0, row 2"):
        _probe(tmp_path, "count(range(0, 5) where at(cell, it, 2).mark == 0) == 5")


class _Pack:
    """What the pass reads of a pack: the grids (a 3 by 2 board of `cell`)."""

    grids: ClassVar[dict[str, Grid]] = {
        "cell": Grid.of("square", {f"c{c}{r}": (c, r) for c in range(1, 4) for r in range(1, 3)})}


def _rewritten(source: str, marks: dict[str, Any]) -> str:
    """The pass run on `source` (a generated body), its nodes marked as the compiler marks them: `run` for the
    value of `t = R[N](I)`, `span` for each `L[v]`."""
    body = ast.parse(source).body
    for node in (n for stmt in body for n in ast.walk(stmt)):
        if isinstance(node, ast.Call) and ast.unparse(node).startswith("R["):
            node.cog_run = marks["run"]  # type: ignore[attr-defined]
        if isinstance(node, ast.Subscript) and ast.unparse(node) == "L[v]":
            node.cog_span = marks["span"]  # type: ignore[attr-defined]
    names = (f"t_{n}" for n in itertools.count(1))
    token = codegen._GENERATING.set(True)
    try:
        return ast.unparse(ast.Module(grid_loops(body, lambda: next(names), _Pack()), []))
    finally:
        codegen._GENERATING.reset(token)


_RUN = "r = R[k](I)\nn = len(r)\nfor x in r:\n    use(x)"
_SPAN = "r = range(1, 4)\nL = game.grids.maps.along['cell', 1, 2]\nn = len(r)\nfor v in r:\n    if I[L[v]]:\n" \
        "        use(v)"


def test_a_run_nothing_else_reads_is_gone_through_by_uid() -> None:
    """Its uids read from the plain table; a miss (the table not made yet, a key converted, off the board) is
    `run_read`'s. A number worked out is worked out once, before."""
    assert _rewritten(_RUN, {"run": ("cell", "column")}) == (
        "try:\n    r = game.grids.maps.column_uids['cell'][k]\nexcept KeyError:\n"
        "    r = game.grids.maps.run_read('cell', 0, k)\nn = len(r)\nt_1 = I\nfor t_2 in r:\n    x = t_1[t_2]\n"
        "    use(x)")
    assert _rewritten(_RUN.replace("R[k]", "R[k + 1]"), {"run": ("cell", "row")}).startswith(
        "t_1 = k + 1\ntry:\n    r = game.grids.maps.row_uids['cell'][t_1]\nexcept KeyError:\n"
        "    r = game.grids.maps.run_read('cell', 1, t_1)\n")


def _nested(source: str, loops: int) -> str:
    for level in range(loops):
        source = f"for z{level} in zs:\n" + "\n".join("    " + line for line in source.splitlines())
    return source


def test_deep_inside_python_s_blocks_the_read_is_the_call_alone() -> None:
    """Where a `try` would nest Python's blocks past the room left (loops.py BLOCK_ROOM: 16 with the function's
    own `try` and a handler counted as two), no `try`: the call alone, which gives the same."""
    assert "try:" in _rewritten(_nested(_RUN, 13), {"run": ("cell", "column")})
    deep = _rewritten(_nested(_RUN, 14), {"run": ("cell", "column")})
    assert "try:" not in deep and "r = game.grids.maps.run_read('cell', 0, k)" in deep


@pytest.mark.parametrize("source", [
    _RUN + "\nkeep(r)",                                                   # the list read after the loop
    _RUN.replace("for x", "if c:\n    r = other\nfor x"),                 # given another value before it
    _RUN.replace("    use(x)", "    r = other"),                         # ... or in it
])
def test_a_run_read_otherwise_stays_a_list_of_cells(source: str) -> None:
    assert _rewritten(source, {"run": ("cell", "column")}) == ast.unparse(ast.parse(source))


def test_a_range_that_reads_a_row_at_each_number_goes_through_its_span() -> None:
    assert _rewritten(_SPAN, {"span": ("cell", 1, 2)}) == (
        "n = 3\ntry:\n    t_2 = game.grids.maps.spans['cell\\n1\\n2\\n1\\n4']\nexcept KeyError:\n"
        "    t_2 = game.grids.maps.span('cell', 1, 2, 1, 4)\nfor v, t_1 in t_2:\n    if I[t_1]:\n        use(v)")


@pytest.mark.parametrize(("source", "span"), [
    (_SPAN.replace("range(1, 4)", "range(0, 4)"), ("cell", 1, 2)),    # column 0 is off the board
    (_SPAN, ("cell", 1, 3)),                                           # so is row 3
    (_SPAN.replace("use(v)", "v = 2"), ("cell", 1, 2)),                # the number changed inside
    (_SPAN.replace("for v in r", "for v in other"), ("cell", 1, 2)),   # not a written range
])
def test_a_range_the_span_could_differ_from_stays_as_it_is(source: str, span: tuple[str, int, int]) -> None:
    assert _rewritten(source, {"span": span}) == ast.unparse(ast.parse(source))
