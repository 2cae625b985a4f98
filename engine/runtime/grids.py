"""The cells of one match's grid boards by coordinates: what the DSL's grid functions read.

`at(TYPE, COL, ROW)`, `column(TYPE, COL)`, `row(TYPE, ROW)`, `line(CELL, DIR)`, `step(CELL, DIRS)` and
`in_a_row(CELL, N, COND)` compile to calls here. The pack knows where each cell
is (`Pack.grids`, engine/runtime/boards.py); this maps coordinates to the items
of the match's items by uid, kept once per pack and player count, so a lookup is two reads.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from engine.errors import RuleError
from engine.runtime.boards import GRID_AXES, GRID_DIRECTIONS, Grid
from engine.runtime.dsl_values import describe
from engine.runtime.state import Item

if TYPE_CHECKING:
    from engine.runtime.defs import Pack
    from engine.runtime.state import Layout, State


class _Source:
    """What a grid's cells are worked out from: the pack, the layout (per pack and player count) and this match's
    state. The per-match tables read it on a miss; it points at neither them nor the interpreter, so no reference
    cycle runs through a match's grids: a dropped match's interpreter and state are freed at once, not left to
    the garbage collector (its zones and items still are: each item points at its zone)."""

    __slots__ = ("layout", "pack", "state")

    def __init__(self, pack: Pack, plan: Layout, state: State) -> None:
        self.pack, self.layout, self.state = pack, plan, state

    def _grid(self, type_id: str) -> Grid:
        grid = self.pack.grids.get(type_id)
        if grid is None:
            raise RuleError(f"'{type_id}' is not a grid board (its type declares no `grid`)")
        return grid

    def cells(self, type_id: str, owner: int | None) -> dict[tuple[int, int], int]:
        """(column, row) -> the uid of the cell's item, for the board of `owner` (None: the shared one)."""
        known = self.layout.grid_cells
        found = known.get((type_id, owner))
        if found is None:
            first, whose = self.layout.first, owner if self.pack.types[type_id].per_player else None
            cells = {}
            for cid, xy in self._grid(type_id).at.items():   # (`Interpreter.instance`'s uid of each cell)
                uid = first.get((cid, whose))
                if uid is None:
                    raise RuleError(f"component '{cid}' has no item for player {whose}")
                cells[xy] = uid
            found = known.setdefault((type_id, owner), cells)
        return found

    def along(self, type_id: str, by: int, fixed: int) -> dict[int, int]:
        """The uids of one row (by 1; keyed by column) or column (by 0; keyed by row) of the board no player
        owns, number `fixed` (none off the board); made once per pack and player count."""
        known = self.layout.grid_along
        found = known.get((type_id, by, fixed))
        if found is None:
            cells = {xy[1 - by]: uid for xy, uid in self.cells(type_id, None).items() if xy[by] == fixed}
            found = known.setdefault((type_id, by, fixed), cells)
        return found

    def _owner(self, type_id: str, seat: int | None) -> int | None:
        return seat if self.pack.types[type_id].per_player else None

    def _runs(self, type_id: str, owner: int | None, by: int) -> dict[int, list[int]]:
        """The board's columns (by 0) or rows (by 1) as uids, each in order along it; made once."""
        known = self.layout.grid_runs
        found = known.get((type_id, owner, by))
        if found is None:
            runs: dict[int, list[int]] = {}
            for xy, uid in sorted(self.cells(type_id, owner).items(), key=lambda e: (e[0][by], e[0][1 - by])):
                runs.setdefault(xy[by], []).append(uid)
            found = known.setdefault((type_id, owner, by), runs)
        return found

    def _place(self, cell: Any, what: str) -> tuple[Grid, tuple[int, int], dict[tuple[int, int], int]]:
        if cell.__class__ is not Item:
            raise RuleError(f"{what} needs a cell of a grid, got {describe(cell)}")
        grid = self._grid(cell.comp.ctype.id)
        return grid, grid.at[cell.comp.id], self.cells(cell.comp.ctype.id, cell.owner)

    def _step_cells(self, cell: Any, directions: tuple[str, ...]) -> list[Item]:
        """What `step` gives, worked out from the grid: the cells that exist, in the order of the directions."""
        grid, (col, row), cells = self._place(cell, "step()")
        shape = GRID_DIRECTIONS[grid.shape]
        items = self.state.items
        found: list[Item] = []
        for word in directions:
            delta = shape.get(word)
            if delta is None:
                raise RuleError(f"'{word}' is not a direction of a {grid.shape} grid (its directions: "
                                f"{', '.join(shape)})")
            uid = cells.get((col + delta[0], row + delta[1]))
            if uid is not None:
                found.append(items[uid])
        return found


class GridCells(_Source):
    """One match's view of its grid boards: coordinates -> uid maps made once per pack and player count
    (`Layout.grid_cells`), read against this match's items."""

    __slots__ = ("lines", "shared", "shared_along", "shared_runs", "steps")

    def __init__(self, pack: Pack, plan: Layout, state: State) -> None:
        self.pack, self.layout, self.state = pack, plan, state
        # `in_a_row_of`'s lines, by N and cell uid, kept with the layout (per pack and player count)
        self.lines = plan.grid_lines
        # `at(TYPE, COL, ROW)` on a board no player owns compiles to `game.grids.shared[TYPE][(COL, ROW)]`:
        # two dict reads, no call (each board's map is made at its first use in the match, and holds the cells
        # read so far); (made without an `__init__` of their own: this runs for every match)
        self.shared = shared = _SharedBoards()
        # and, with ROW (or COL) written as a number, to `game.grids.shared_along[TYPE, 1, ROW][COL]` (or
        # `[TYPE, 0, COL][ROW]`): the row's (column's) map is read once before a loop over the other coordinate,
        # and an int key costs less than a (column, row) tuple
        self.shared_along = along = _SharedAlong()
        along.boards = shared
        # and `column(TYPE, N)` / `row(TYPE, N)` to `list(game.grids.shared_runs[TYPE, 0 or 1][N])`
        self.shared_runs = runs = _SharedRuns()
        # and `step(CELL, DIRS)` to `list(game.grids.steps[direction_key(DIRS)][CELL])` ("D1\nD2" when written out)
        self.steps = steps = _StepTables()
        # (the tables read a source of their own: pointing back at this object would make a reference cycle)
        shared.grids = runs.grids = steps.grids = along.grids = _Source(pack, plan, state)

    def at(self, type_id: str, seat: int | None, col: Any, row: Any) -> Item:
        """`at(TYPE, COL, ROW)`: the cell there; a rule error off the board."""
        cells = self.layout.grid_cells.get((type_id, None))   # a shared board (the usual case), else the seat's
        if cells is None or self.pack.types[type_id].per_player:
            cells = self.cells(type_id, self._owner(type_id, seat))
        uid = cells.get((int(col), int(row)))
        if uid is None:
            raise RuleError(f"there is no cell at column {col}, row {row} of the '{type_id}' grid")
        return self.state.items[uid]

    def column(self, type_id: str, seat: int | None, col: Any) -> list[Item]:
        """`column(TYPE, COL)`: the column's cells, lowest row first (empty off the board)."""
        items = self.state.items
        return [items[uid] for uid in self._runs(type_id, self._owner(type_id, seat), 0).get(int(col), ())]

    def row(self, type_id: str, seat: int | None, row: Any) -> list[Item]:
        """`row(TYPE, ROW)`: the row's cells, lowest column first (empty off the board)."""
        items = self.state.items
        return [items[uid] for uid in self._runs(type_id, self._owner(type_id, seat), 1).get(int(row), ())]

    def line(self, cell: Any, direction: Any) -> list[Item]:
        """`line(CELL, DIR)`: the cells from CELL's neighbour in direction DIR on to the board's edge."""
        grid, (col, row), cells = self._place(cell, "line()")
        step = GRID_DIRECTIONS[grid.shape].get(str(direction))
        if step is None:
            raise RuleError(f"'{direction}' is not a direction of a {grid.shape} grid (its directions: "
                            f"{', '.join(GRID_DIRECTIONS[grid.shape])})")
        items = self.state.items
        found: list[Item] = []
        while True:
            col, row = col + step[0], row + step[1]
            uid = cells.get((col, row))
            if uid is None:
                return found
            found.append(items[uid])

    def step(self, cell: Any, key: str) -> list[Item]:
        """`step(CELL, DIRS)` for a CELL not known to be an item: the cell one step from CELL in each direction
        of DIRS (`direction_key`), in that order; a direction that leaves the board gives none."""
        if cell.__class__ is not Item:    # (a list is no dict key: report it before the table is read)
            self._place(cell, "step()")
        return list(self.steps[key][cell])

    def in_a_row(self, cell: Any, n: Any, holds: Callable[[Item], Any]) -> bool:
        """`in_a_row(CELL, N, COND)`: CELL and at least N - 1 more cells in one straight line through it
        (across, up or diagonal on squares; along one of the 3 axes on hexes), next to each other and all
        meeting COND."""
        rays = self._rays(cell)
        need = int(n)
        if not holds(cell):
            return need <= 0
        if need <= 1:
            return True
        items = self.state.items
        for ahead, behind in rays:     # each cell tested at most once, nearest first, none past the N needed
            run = 1
            for uid in ahead:
                if not holds(items[uid]):
                    break
                run += 1
                if run >= need:
                    return True
            for uid in behind:
                if not holds(items[uid]):
                    break
                run += 1
                if run >= need:
                    return True
        return False

    def in_a_row_of(self, cell: Any, n: Any, attr: str, value: Any) -> bool:
        """`in_a_row(CELL, N, it.ATTR == VALUE)` for a plain attribute and a VALUE that does not depend on `it`:
        the same answer, each cell's attribute compared without a call per cell. Reading an attribute has no
        effect and cannot fail, so unlike `in_a_row` it may skip cells: it reads the lines a run of N could
        lie on (`_lines`: each ray cut at N - 1 cells, axes too short for N left out). Each cell's attribute is
        read without a default (the usual case: every item starts with it); a cell without it reads as 0, so
        then the general search gives the answer."""
        if cell.__class__ is not Item:
            self._rays(cell)    # a rule error: no cell
        need = n if n.__class__ is int else int(n)
        found = self.lines.get(need, _NO_LINES).get(cell.uid) or self._lines(cell, need)   # (made once: [] is rare)
        items = self.state.items   # (the search written out here: a call less per move of most grid games)
        try:
            if cell.attrs[attr] != value:
                return need <= 0
            if need <= 1:
                return True
            for ahead, behind in found:
                run = 1
                for uid in ahead:
                    if items[uid].attrs[attr] != value:
                        break
                    run += 1
                else:
                    if run >= need:
                        return True
                for uid in behind:
                    if items[uid].attrs[attr] != value:
                        break
                    run += 1
                    if run >= need:
                        return True
            return False
        except KeyError:   # a cell without the attribute: it reads as 0, as `it.ATTR` does
            return self.in_a_row(cell, need, lambda it: it.attrs.get(attr, 0) == value)

    def _lines(self, cell: Any, need: int) -> list[tuple[list[int], list[int]]]:
        """The rays through `cell` (`_rays`) a run of `need` could lie on, each cut at `need - 1` cells: made
        once per cell and length (per pack and player count)."""
        rays = self._rays(cell)
        keep = max(need - 1, 0)
        lines = [(ahead[:keep], behind[:keep]) for ahead, behind in rays if len(ahead) + len(behind) >= keep]
        return self.lines.setdefault(need, {}).setdefault(cell.uid, lines)

    def _rays(self, cell: Any) -> list[tuple[list[int], list[int]]]:
        """The straight lines through a cell, one per axis: the uids going one way and going the other, each
        from the nearest; made once per cell (per pack and player count)."""
        if cell.__class__ is not Item:
            raise RuleError(f"in_a_row() needs a cell of a grid, got {describe(cell)}")
        known = self.layout.grid_rays
        found = known.get(cell.uid)
        if found is None:
            grid, (col, row), cells = self._place(cell, "in_a_row()")
            found = []
            for dc, dr in GRID_AXES[grid.shape]:
                ahead: list[int] = []
                behind: list[int] = []
                for ray, sc, sr in ((ahead, dc, dr), (behind, -dc, -dr)):
                    c, r = col + sc, row + sr
                    while (c, r) in cells:
                        ray.append(cells[(c, r)])
                        c, r = c + sc, r + sr
                found.append((ahead, behind))
            found = known.setdefault(cell.uid, found)
        return found


_NO_LINES: dict[int, list[tuple[list[int], list[int]]]] = {}   # (never filled: read when no cell has lines for N)


def direction_key(value: Any) -> str:
    """The key of `step`'s table for the directions it was given (one as text, or a list of them): the
    directions one a line. Never fails: a value that is no direction (a number) makes a key whose table reports
    it when a cell is looked up, where the rule reads it."""
    if value.__class__ is str:
        return value
    if isinstance(value, (list, tuple)):   # (not `list | tuple`: a new union at every call)
        try:
            return "\n".join(value)
        except TypeError:
            return "\n".join(map(str, value))
    return str(value)


class _Steps(dict[Any, list[Item]]):
    """Cell -> the cells one step from it in the given directions, for one list of directions in this match
    (callers copy the list they read). A miss reads the cell's steps as uids, worked out once per pack and
    player count (`Layout.grid_steps`, as `in_a_row`'s lines), or is a rule error when the key is no cell of
    a grid or a direction is not the grid's."""

    __slots__ = ("directions", "grids", "uids")

    def __init__(self, grids: _Source, directions: tuple[str, ...], uids: dict[int, list[int]]) -> None:
        super().__init__()
        self.grids = grids
        self.directions = directions
        self.uids = uids

    def __missing__(self, cell: Any) -> list[Item]:
        uids = self.uids.get(cell.uid) if cell.__class__ is Item else None
        if uids is None:
            found = self.grids._step_cells(cell, self.directions)
            self.uids.setdefault(cell.uid, [item.uid for item in found])
        else:
            items = self.grids.state.items
            found = [items[uid] for uid in uids]
        self[cell] = found
        return found


class _StepTables(dict[str, _Steps]):
    """Directions (one a line: compiled code holds no tuple constant) -> their `_Steps` in this match, made
    when first read."""

    __slots__ = ("grids",)
    grids: _Source

    def __missing__(self, directions: str) -> _Steps:
        known = self.grids.layout.grid_steps
        steps = _Steps(self.grids, tuple(directions.split("\n")) if directions else (),
                       known.get(directions) or known.setdefault(directions, {}))
        self[directions] = steps
        return steps


class _Board(dict[tuple[Any, Any], Item]):
    """(column, row) -> this match's cell there, for one board no player owns: filled as cells are read (a game
    reads few of its cells with `at`: making the whole map each match cost more than the reads). A miss does
    what `at` does: coordinates that are not plain numbers are converted (a dict read already equates True and
    1), and off the board is a rule error."""

    __slots__ = ("state", "type_id", "uids")

    def __init__(self, state: State, type_id: str, uids: dict[tuple[int, int], int]) -> None:
        super().__init__()
        self.state, self.type_id, self.uids = state, type_id, uids

    def __missing__(self, key: tuple[Any, Any]) -> Item:
        uid = self.uids.get(key)
        if uid is not None:
            found = self[key] = self.state.items[uid]
            return found
        col, row = key
        uid = self.uids.get((int(col), int(row)))
        if uid is None:
            raise RuleError(f"there is no cell at column {col}, row {row} of the '{self.type_id}' grid")
        return self.state.items[uid]


class _SharedBoards(dict[str, _Board]):
    """Grid type -> its `_Board` in this match, made when first read."""

    __slots__ = ("grids",)
    grids: _Source

    def __missing__(self, type_id: str) -> _Board:
        board = self[type_id] = _Board(self.grids.state, type_id, self.grids.cells(type_id, None))
        return board


class _Along(dict[Any, Item]):
    """One row's cells by column (or one column's by row) of a board no player owns, in this match: what `at`
    reads when its row (or column) is written as a number. Filled when made; a miss is the board's miss (a
    number that is not an int: the same cell; off the board: the same error)."""

    __slots__ = ("boards", "by", "fixed", "type_id")
    boards: _SharedBoards
    type_id: str
    by: int
    fixed: int

    def __missing__(self, key: Any) -> Item:
        return self.boards[self.type_id][(key, self.fixed) if self.by else (self.fixed, key)]


class _SharedAlong(dict[tuple[str, int, int], _Along]):
    """(grid type, 1 for a row or 0 for a column, its number) -> its `_Along` in this match, made when first
    read (made without an `__init__` frame: the dict's own from the cells)."""

    __slots__ = ("boards", "grids")
    boards: _SharedBoards
    grids: _Source

    def __missing__(self, key: tuple[str, int, int]) -> _Along:
        type_id, by, fixed = key
        uids = self.grids.along(type_id, by, fixed)
        along = _Along(zip(uids, map(self.grids.state.items.__getitem__, uids.values()), strict=True))
        along.boards, along.type_id, along.by, along.fixed = self.boards, type_id, by, fixed
        self[key] = along
        return along


class _Runs(dict[Any, list[Item]]):
    """Column (or row) number -> this match's cells along it, for one board no player owns (callers copy the
    list they read). A miss does what `column`/`row` do: a number that is not a plain int is converted, and
    off the board is empty."""

    __slots__ = ()

    def __missing__(self, key: Any) -> list[Item]:
        return self.get(int(key), [])


class _SharedRuns(dict[tuple[str, int], _Runs]):
    """(grid type, 0 for columns or 1 for rows) -> its `_Runs` in this match, made when first read."""

    __slots__ = ("grids",)
    grids: _Source

    def __missing__(self, key: tuple[str, int]) -> _Runs:
        type_id, by = key
        items = self.grids.state.items
        runs = _Runs({n: list(map(items.__getitem__, uids)) for n, uids in self.grids._runs(type_id, None, by).items()})
        self[key] = runs
        return runs
