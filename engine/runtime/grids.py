"""The cells of grid boards by coordinates: what the DSL's grid functions read.

`at(TYPE, COL, ROW)`, `column(TYPE, COL)`, `row(TYPE, ROW)`, `line(CELL, DIR)`, `step(CELL, DIRS)` and
`in_a_row(CELL, N, COND)` compile to reads here. The pack knows where each cell is (`Pack.grids`,
engine/runtime/boards.py); which item of a match is that cell is its uid, the same in every match of a pack and
player count (`Layout`). So the maps from coordinates to cells are maps to uids, made once per layout as they are
first read (`GridMaps`), and a match reads them against its own items (`State.items`, by uid): a game pays
nothing to set them up. Generated code indexes the match's items itself (`at` on a board no player owns is
`t_state.items[MAP[(COL, ROW)]]`, `column` a getter of the column's items called on them, or, in a loop
that only goes through it, the column's uids); the rest goes through the match's `GridCells`.

A layout's maps are filled only with what the pack and layout decide (a miss that converts a key, or fails,
writes nothing): every match of the layout reads them, and none may see another's items in them.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import pairwise
from operator import itemgetter
from typing import TYPE_CHECKING, Any

from engine.errors import RuleError
from engine.runtime.boards import GRID_AXES, GRID_DIRECTIONS, Grid
from engine.runtime.dsl_values import describe
from engine.runtime.state import Item

if TYPE_CHECKING:
    from engine.runtime.defs import Pack
    from engine.runtime.state import Layout, State

# cells from a match's items (`items` by uid -> a new list of the cells, in order along a run or as `step` lists
# them): the values of `_Runs` and of `step`'s tables
Getter = Callable[[list[Item]], list[Item]]
# the halves of a line through a cell: uids going one way and going the other, each from the nearest
Ray = tuple[list[int], list[int]]
# what `in_a_row_of` reads for a cell and a length N: the lines with cells on both sides, each half cut at N - 1
# cells (the longer half first), as (the nearest uid one way, the uids after it, the nearest the other way, the uids
# after it); then the lines with cells on one side only (exactly N - 1), as (the nearest uid, the uids after it).
# The nearest cells are read without a loop: most lines end there.
Lines = tuple[tuple[tuple[int, tuple[int, ...], int, tuple[int, ...]], ...], tuple[tuple[int, tuple[int, ...]], ...]]


class GridMaps:
    """Where the cells of a pack's grid boards are among the items of its matches of one player count (by uid),
    made as first read and kept with that `Layout` (`grid_maps`). Generated code reads the tables of the boards
    no player owns: `boards`, `along`, `columns`, `rows`, and in the loops engine/compile/grid_loops.py writes
    `column_uids`, `row_uids`, `spans` (plain dicts: a miss calls `run_read` or `span`)."""

    __slots__ = ("_cells", "_run_uids", "_runs", "_steps", "along", "boards", "column_uids", "columns", "lines", "pack",
                 "plan", "rays", "row_uids", "rows", "spans")

    def __init__(self, pack: Pack, plan: Layout) -> None:
        self.pack, self.plan = pack, plan
        self._cells: dict[tuple[str, int | None], dict[tuple[int, int], int]] = {}
        self._runs: dict[tuple[str, int | None, int], dict[int, Getter]] = {}
        self._steps: dict[str, dict[int, Getter]] = {}   # `step`'s directions -> cell uid -> its steps' getter
        self.rays: dict[int, list[Ray]] = {}
        # `at(TYPE, COL, ROW)` on a board no player owns: `t_state.items[maps.boards[TYPE][(COL, ROW)]]`
        self.boards = _Boards()
        # and with ROW (COL) written as a number: `...[maps.along[TYPE, 1, ROW][COL]]` (`[TYPE, 0, COL][ROW]`), the
        # row's (column's) map read once before a loop over the other coordinate (an int key is cheaper)
        self.along = _AlongTables()
        # `column(TYPE, N)`: `maps.columns[TYPE][N](t_state.items)`; `row(TYPE, N)` the same with `rows`
        self.columns, self.rows = _RunTables(), _RunTables()
        # `in_a_row_of`: N -> cell uid -> its `Lines` (plain dicts: a subclass's read costs more; `lines_at` fills them)
        self.lines: dict[int, dict[int, Lines]] = {}
        # for the loops engine/compile/grid_loops.py writes, plain dicts read in a `try` whose `except KeyError`
        # calls `run_read` / `span`: the runs as uids, `column_uids[TYPE][N]` (a loop through it reads each cell
        # from the items: no list of the cells), and the (number, uid) pairs of the numbers LOW..HIGH - 1 along a
        # written row (column), `spans[span_key(TYPE, 1, ROW, LOW, HIGH)]`
        self.column_uids: dict[str, dict[int, tuple[int, ...]]] = {}
        self.row_uids: dict[str, dict[int, tuple[int, ...]]] = {}
        self.spans: dict[str, tuple[tuple[int, int], ...]] = {}
        self.columns.by, self.rows.by = 0, 1
        self.boards.maps = self.along.maps = self.columns.maps = self.rows.maps = self
        self._run_uids: dict[tuple[str, int | None, int], dict[int, tuple[int, ...]]] = {}

    def grid(self, type_id: str) -> Grid:
        grid = self.pack.grids.get(type_id)
        if grid is None:
            raise RuleError(f"'{type_id}' is not a grid board (its type declares no `grid`)")
        return grid

    def owner(self, type_id: str, seat: int | None) -> int | None:
        """Whose board `at`/`column`/`row` read for the acting seat: its own when each player has one."""
        return seat if self.pack.types[type_id].per_player else None

    def cells(self, type_id: str, owner: int | None) -> dict[tuple[int, int], int]:
        """(column, row) -> the uid of the cell's item, for the board of `owner` (None: the shared one)."""
        found = self._cells.get((type_id, owner))
        if found is None:
            first, whose = self.plan.first, owner if self.pack.types[type_id].per_player else None
            cells = {}
            for cid, xy in self.grid(type_id).at.items():   # (`Interpreter.instance`'s uid of each cell)
                uid = first.get((cid, whose))
                if uid is None:
                    raise RuleError(f"component '{cid}' has no item for player {whose}")
                cells[xy] = uid
            found = self._cells.setdefault((type_id, owner), cells)
        return found

    def runs_of(self, type_id: str, owner: int | None, by: int) -> dict[int, Getter]:
        """The board's columns (by 0) or rows (by 1), each as the getter of its cells in order along it."""
        found = self._runs.get((type_id, owner, by))
        if found is None:
            runs = self.run_uids(type_id, owner, by)
            found = self._runs.setdefault((type_id, owner, by), {n: getter(list(uids)) for n, uids in runs.items()})
        return found

    def run_uids(self, type_id: str, owner: int | None, by: int) -> dict[int, tuple[int, ...]]:
        """The board's columns (by 0) or rows (by 1), each as the uids of its cells in order along it."""
        found = self._run_uids.get((type_id, owner, by))
        if found is None:
            runs: dict[int, list[int]] = {}
            for xy, uid in sorted(self.cells(type_id, owner).items(), key=lambda e: (e[0][by], e[0][1 - by])):
                runs.setdefault(xy[by], []).append(uid)
            found = self._run_uids.setdefault((type_id, owner, by), {n: tuple(uids) for n, uids in runs.items()})
        return found

    def run_read(self, type_id: str, by: int, number: Any) -> tuple[int, ...]:
        """`column_uids[TYPE][N]` (`row_uids` for by 1) where the plain read missed: the type's table made (whole,
        ints only), and N converted as `column` converts it (off the board: empty). A converted key is not kept."""
        tables = self.row_uids if by else self.column_uids
        table = tables.get(type_id)
        if table is None:
            table = tables.setdefault(type_id, dict(self.run_uids(type_id, None, by)))
        found = table.get(number)
        return found if found is not None else table.get(int(number), ())

    def span(self, type_id: str, by: int, fixed: int, low: int, high: int) -> tuple[tuple[int, int], ...]:
        """(N, the uid at N along row `fixed` (by 1) or column `fixed` (by 0)) for N in LOW..HIGH - 1, kept in
        `spans`: the compiler reads it only for numbers all on the board (else `along`'s miss is the error)."""
        along = self.along[type_id, by, fixed]
        found = tuple((number, along[number]) for number in range(low, high))
        return self.spans.setdefault(span_key(type_id, by, fixed, low, high), found)

    def place(self, cell: Any, what: str) -> tuple[Grid, tuple[int, int], dict[tuple[int, int], int]]:
        """A cell's grid, its (column, row) and its board's map; a rule error for anything but a grid's cell."""
        if cell.__class__ is not Item:
            raise RuleError(f"{what} needs a cell of a grid, got {describe(cell)}")
        grid = self.grid(cell.comp.ctype.id)
        return grid, grid.at[cell.comp.id], self.cells(cell.comp.ctype.id, cell.owner)

    def rays_of(self, cell: Any) -> list[Ray]:
        """The straight lines through a cell, one per axis: the uids going one way and going the other, each
        from the nearest; made once per cell."""
        if cell.__class__ is not Item:
            raise RuleError(f"in_a_row() needs a cell of a grid, got {describe(cell)}")
        return self.rays_at(cell.uid)

    def rays_at(self, uid: int) -> list[Ray]:
        """The rays of the cell whose item has this uid."""
        found = self.rays.get(uid)
        if found is not None:
            return found
        comp, owner = self.plan.item_rows[uid][1:3]   # (the item's component and owner: the layout made it so)
        grid = self.grid(comp.ctype.id)
        (col, row), cells = grid.at[comp.id], self.cells(comp.ctype.id, owner)
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
        return self.rays.setdefault(uid, found)

    def lines_at(self, need: int, uid: int) -> Lines:
        """The `Lines` of the cell whose item has this uid, for runs of `need`: made once, kept in `lines`."""
        keep = max(need - 1, 0)
        both: list[tuple[int, tuple[int, ...], int, tuple[int, ...]]] = []
        one: list[tuple[int, tuple[int, ...]]] = []
        for ahead, behind in self.rays_at(uid):
            first, second = sorted((tuple(ahead[:keep]), tuple(behind[:keep])), key=len, reverse=True)
            if not first or len(first) + len(second) < keep:
                continue   # too short for a run of N (N 1 or less needs no line: it is never read then)
            if second:
                both.append((first[0], first[1:], second[0], second[1:]))
            else:
                one.append((first[0], first[1:]))
        return self.lines.setdefault(need, {}).setdefault(uid, (tuple(both), tuple(one)))

    def step_cells(self, items: list[Item], cell: Any, directions: tuple[str, ...]) -> list[Item]:
        """What `step` gives, worked out from the grid: the cells that exist, in the order of the directions."""
        grid, (col, row), cells = self.place(cell, "step()")
        shape = GRID_DIRECTIONS[grid.shape]
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


def span_key(type_id: str, by: int, fixed: int, low: int, high: int) -> str:
    """The key of `GridMaps.spans` (a text: its hash is kept, a tuple's is worked out at every read)."""
    return f"{type_id}\n{by}\n{fixed}\n{low}\n{high}"


def grid_maps(pack: Pack, plan: Layout) -> GridMaps:
    """The layout's grid maps, made at the first match that asks."""
    found: GridMaps | None = plan.grid_maps
    if found is None:
        found = plan.grid_maps = GridMaps(pack, plan)
    return found


def getter(uids: list[int]) -> Getter:
    """What gives these cells, in this order, from a match's items: one slice of them (a C call) when the uids
    are evenly spaced, as a sized grid's rows and columns are; else a list made uid by uid."""
    if len(uids) <= 1:
        return itemgetter(slice(uids[0], uids[0] + 1) if uids else slice(0, 0))
    gap = uids[1] - uids[0]
    if gap and all(b - a == gap for a, b in pairwise(uids)):
        stop = uids[-1] + gap
        return itemgetter(slice(uids[0], stop if stop >= 0 else None, gap))
    return _Picked(uids)


class _Picked:
    """A run's cells whose uids are not evenly spaced (a grid whose cells are listed in another order)."""

    __slots__ = ("uids",)

    def __init__(self, uids: list[int]) -> None:
        self.uids = uids

    def __call__(self, items: list[Item]) -> list[Item]:
        return [items[uid] for uid in self.uids]


_NOTHING = getter([])


class _BoardUids(dict[tuple[Any, Any], int]):
    """(column, row) -> the uid of the cell there, for one board no player owns (made whole). A miss does what
    `at` does: coordinates that are not plain numbers are converted (a dict read already equates True and 1,
    2.0 and 2), and off the board is a rule error. A miss writes nothing."""

    __slots__ = ("type_id",)
    type_id: str

    def __missing__(self, key: tuple[Any, Any]) -> int:
        col, row = key
        uid = self.get((int(col), int(row)))
        if uid is None:
            raise RuleError(f"there is no cell at column {col}, row {row} of the '{self.type_id}' grid")
        return uid


class _Boards(dict[str, _BoardUids]):
    """Grid type -> its `_BoardUids`, made when first read."""

    __slots__ = ("maps",)
    maps: GridMaps

    def __missing__(self, type_id: str) -> _BoardUids:
        board = _BoardUids(self.maps.cells(type_id, None))
        board.type_id = type_id
        return self.setdefault(type_id, board)


class _LineUids(dict[Any, int]):
    """One row's cells by column (or one column's by row) of a board no player owns, as uids: what `at` reads
    when its row (or column) is written as a number. A miss is the board's miss (a number that is not an int:
    the same cell; off the board: the same error)."""

    __slots__ = ("board", "by", "fixed")
    board: _BoardUids
    by: int
    fixed: int

    def __missing__(self, key: Any) -> int:
        return self.board[(key, self.fixed) if self.by else (self.fixed, key)]


class _AlongTables(dict[tuple[str, int, int], _LineUids]):
    """(grid type, 1 for a row or 0 for a column, its number) -> its `_LineUids`, made when first read."""

    __slots__ = ("maps",)
    maps: GridMaps

    def __missing__(self, key: tuple[str, int, int]) -> _LineUids:
        type_id, by, fixed = key
        board = self.maps.boards[type_id]
        along = _LineUids({xy[1 - by]: uid for xy, uid in board.items() if xy[by] == fixed})
        along.board, along.by, along.fixed = board, by, fixed
        return self.setdefault(key, along)


class _Runs(dict[Any, Getter]):
    """Column (or row) number -> the getter of its cells, for one board no player owns. A miss does what
    `column`/`row` do: a number that is not a plain int is converted, and off the board is empty."""

    __slots__ = ()

    def __missing__(self, key: Any) -> Getter:
        return self.get(int(key), _NOTHING)


class _RunTables(dict[str, _Runs]):
    """Grid type -> its columns' (or rows') `_Runs`, made when first read."""

    __slots__ = ("by", "maps")
    maps: GridMaps
    by: int   # 0: columns, 1: rows

    def __missing__(self, type_id: str) -> _Runs:
        return self.setdefault(type_id, _Runs(self.maps.runs_of(type_id, None, self.by)))


class GridCells:
    """One match's grid functions: the layout's maps (`GridMaps`) read against this match's items, and the match's
    `step` tables (`steps`)."""

    __slots__ = ("maps", "state", "steps")

    def __init__(self, pack: Pack, plan: Layout, state: State) -> None:
        self.maps = plan.grid_maps or grid_maps(pack, plan)
        self.state = state
        # `step(CELL, DIRS)` compiles to `list(game.grids.steps[direction_key(DIRS)][CELL])` ("D1\nD2" when written
        # out): this match's cells, kept as read (a game reads a cell's steps many times); the tables read the maps
        # and the items, not this object (no reference cycle: a dropped match is freed at once)
        self.steps = steps = _StepTables()
        steps.maps, steps.of = self.maps, state.items

    def at(self, type_id: str, seat: int | None, col: Any, row: Any) -> Item:
        """`at(TYPE, COL, ROW)`: the cell there; a rule error off the board."""
        uid = self.maps.cells(type_id, self.maps.owner(type_id, seat)).get((int(col), int(row)))
        if uid is None:
            raise RuleError(f"there is no cell at column {col}, row {row} of the '{type_id}' grid")
        return self.state.items[uid]

    def column(self, type_id: str, seat: int | None, col: Any) -> list[Item]:
        """`column(TYPE, COL)`: the column's cells, lowest row first (empty off the board)."""
        runs = self.maps.runs_of(type_id, self.maps.owner(type_id, seat), 0)
        return runs.get(int(col), _NOTHING)(self.state.items)

    def row(self, type_id: str, seat: int | None, row: Any) -> list[Item]:
        """`row(TYPE, ROW)`: the row's cells, lowest column first (empty off the board)."""
        runs = self.maps.runs_of(type_id, self.maps.owner(type_id, seat), 1)
        return runs.get(int(row), _NOTHING)(self.state.items)

    def line(self, cell: Any, direction: Any) -> list[Item]:
        """`line(CELL, DIR)`: the cells from CELL's neighbour in direction DIR on to the board's edge."""
        grid, (col, row), cells = self.maps.place(cell, "line()")
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
            self.maps.place(cell, "step()")
        return list(self.steps[key][cell])

    def in_a_row(self, cell: Any, n: Any, holds: Callable[[Item], Any]) -> bool:
        """`in_a_row(CELL, N, COND)`: CELL and at least N - 1 more cells in one straight line through it
        (across, up or diagonal on squares; along one of the 3 axes on hexes), next to each other and all
        meeting COND."""
        rays = self.maps.rays_of(cell)
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

    def in_a_row_of(self, cell: Any, n: Any, attr: str, value: Any) -> bool:  # noqa: C901 - one frame: see below
        """`in_a_row(CELL, N, it.ATTR == VALUE)` for a plain attribute and a VALUE that does not depend on `it`:
        the same answer, each cell's attribute compared without a call per cell. Reading an attribute has no
        effect and cannot fail, so unlike `in_a_row` it may skip cells and read them in any order: it reads the
        lines a run of N could lie on (`Lines`). Each cell's attribute is read without a default (the usual
        case: every item starts with it); a cell without it reads as 0, so then the general search gives the
        answer. The search is written out in this one function: a call more per move (of most grid games) costs
        more than it reads."""
        if cell.__class__ is not Item:
            raise RuleError(f"in_a_row() needs a cell of a grid, got {describe(cell)}")
        need = n if n.__class__ is int else int(n)
        try:
            both, one = self.maps.lines[need][cell.uid]
        except KeyError:
            both, one = self.maps.lines_at(need, cell.uid)
        items = self.state.items
        try:
            if cell.attrs[attr] != value:
                return need <= 0
            if need <= 1:
                return True
            for near, ahead, near_behind, behind in both:   # the nearest cells without a loop: most lines end there
                if items[near].attrs[attr] == value:
                    run = 2
                    for uid in ahead:
                        if items[uid].attrs[attr] != value:
                            break
                        run += 1
                    else:
                        if run >= need:
                            return True
                else:
                    run = 1
                if items[near_behind].attrs[attr] == value:
                    run += 1
                    if run >= need:
                        return True
                    for uid in behind:
                        if items[uid].attrs[attr] != value:
                            break
                        run += 1
                        if run >= need:
                            return True
            for near, ahead in one:   # N - 1 cells on one side: a run only if all of them
                if items[near].attrs[attr] == value:
                    for uid in ahead:
                        if items[uid].attrs[attr] != value:
                            break
                    else:
                        return True
            return False
        except KeyError:   # a cell without the attribute: it reads as 0, as `it.ATTR` does
            return self._in_a_row_by_default(cell, need, attr, value)

    def _in_a_row_by_default(self, cell: Item, need: int, attr: str, value: Any) -> bool:
        """`in_a_row_of` where some cell lacks the attribute: the general search, a missing attribute read as 0.
        (Its own function: a lambda in `in_a_row_of` would make `attr` and `value` cells at every call.)"""
        return self.in_a_row(cell, need, lambda it: it.attrs.get(attr, 0) == value)


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
    (callers copy the list they read). A miss reads the getter of the cell's steps, worked out once per pack and
    player count (`GridMaps`, as `in_a_row`'s lines), or is a rule error when the key is no cell of a grid or a
    direction is not the grid's."""

    __slots__ = ("directions", "getters", "maps", "of")

    def __init__(self, maps: GridMaps, items: list[Item], directions: tuple[str, ...],
                 getters: dict[int, Getter]) -> None:
        super().__init__()
        self.maps, self.of, self.directions, self.getters = maps, items, directions, getters

    def __missing__(self, cell: Any) -> list[Item]:
        got = self.getters.get(cell.uid) if cell.__class__ is Item else None
        if got is None:
            found = self.maps.step_cells(self.of, cell, self.directions)
            self.getters.setdefault(cell.uid, getter([item.uid for item in found]))
        else:
            found = got(self.of)
        self[cell] = found
        return found


class _StepTables(dict[str, _Steps]):
    """Directions (one a line: compiled code holds no tuple constant) -> their `_Steps` in this match, made
    when first read."""

    __slots__ = ("maps", "of")
    maps: GridMaps
    of: list[Item]   # the match's items (`State.items`)

    def __missing__(self, directions: str) -> _Steps:
        known = self.maps._steps
        steps = _Steps(self.maps, self.of, tuple(directions.split("\n")) if directions else (),
                       known.get(directions) or known.setdefault(directions, {}))
        self[directions] = steps
        return steps
