"""Loops that go through a grid's cells by uid, where the plain loop would make lists or look cells up.

Grid reads compile to reads of the layout's uid maps (engine/runtime/grids.py, engine/compile/expr.py). Two
loops the written-out comprehensions (engine/compile/loops.py) and inline charges (charges.py) leave behind
are rewritten once those passes are done:

- a loop over written numbers whose body reads `at` on a written row (column) at the loop's number, as a
  choice of a column by its top cell does (`choose k in range(1, 7) where at(cell, k, 6).mark == 0`):

      t = range(1, 8) / (its charge) / L = maps.along['cell', 1, 6]
      for v in t: if I[L[v]].attrs['mark'] == 0: ...

  goes through the (number, uid) pairs of those numbers along the row, made once a layout (`maps.spans`):
  `for v, u in PAIRS: if I[u].attrs['mark'] == 0: ...`, and the row's map is not read when nothing else reads
  it. Only where every number of the range is on the board, so no read of the map could fail: the same uids,
  in the same order, the same charge (the range's length; written as a number when nothing else reads the
  range, which is made only for the overrun error).
- a loop through `column(TYPE, N)` or `row(TYPE, N)` of a board no player owns that nothing else reads (its
  list only charged for and gone through; the local given no other value) goes through the run's uids
  (`maps.column_uids[TYPE][N]`, a tuple of the same length, made once a layout) and reads each cell from the
  match's items: no list of the cells is made. `N` is converted, or gives an empty run, as `column` does. The
  items are read as the loop reaches them instead of all at the start: the same items, since a match's item
  at a uid never changes.

The tables are plain dicts (a dict subclass's read costs ~200 instructions more: CPython 3.11 specializes a
subscript for an exact dict only), read in a `try` whose `except KeyError` calls the method that makes them
or converts the key (`GridMaps.span`, `run_read`); a `try` costs nothing while the read hits. Where a `try`
would nest Python's blocks too deep (loops.py `BLOCK_ROOM`), the call alone is made.
"""

from __future__ import annotations

import ast
import copy
from collections.abc import Callable
from typing import Any

from engine.compile.codegen import expr
from engine.compile.loops import BLOCK_ROOM, body_depth
from engine.compile.order import with_nested
from engine.runtime.grids import span_key


def grid_loops(body: list[ast.stmt], temp: Callable[[], str], pack: Any, depth: int = 1) -> list[ast.stmt]:
    """`body` with the grid loops above rewritten (nested bodies too); `temp` names a new local; `depth`: the
    Python blocks around `body` (1: a generated function's `try`). Statements that change are copies (nodes may
    be shared: engine/compile/order.py)."""
    out = [_with_nested(stmt, temp, pack, depth) for stmt in body]
    index = 0
    while index < len(out):
        found = _loop_over_local(out, index)
        if found is not None:
            loop, name, made_at = found
            made = out[made_at].value  # type: ignore[attr-defined]
            if getattr(made, "cog_run", None) is not None and _only_gone_through(out, loop):
                uids, walk = _through_uids(out[made_at], loop, temp, depth)   # type: ignore[arg-type]
                out[index:index + 1] = walk
                out[made_at:made_at + 1] = uids
                index += len(walk) + len(uids) - 2
            elif _written_range(made) is not None:
                spanned = _through_span(loop, made, temp, pack, depth)
                out[index:index + 1] = spanned
                index += len(spanned) - 1
                if spanned[-1] is not loop and _only_sized(out, name):
                    out = _range_sized(out, made_at)
                    index -= 1
        index += 1
    return _unread_rows_dropped(out)


def _with_nested(stmt: ast.stmt, temp: Callable[[], str], pack: Any, depth: int) -> ast.stmt:
    """The statement with its nested bodies rewritten, each at its block depth (`body_depth`)."""
    return with_nested(stmt, lambda nested, field: grid_loops(nested, temp, pack, body_depth(stmt, field, depth)))


def _guarded(local: str, fast: ast.expr, slow: ast.expr, depth: int) -> ast.stmt:
    """`local = fast` (plain dict reads), in a `try` whose `except KeyError` gives it `slow` (the call that makes
    the table or converts the key); only `slow` where a `try` here would nest Python's blocks too deep."""
    slow.cog_reads = True  # type: ignore[attr-defined]   # a read of the grid maps: runs no rules (leaf.py)
    if depth + 2 > BLOCK_ROOM:
        return ast.Assign([ast.Name(local, ast.Store())], slow)
    return ast.Try([ast.Assign([ast.Name(local, ast.Store())], fast)],
                   [ast.ExceptHandler(ast.Name("KeyError", ast.Load()), None,
                                      [ast.Assign([ast.Name(local, ast.Store())], slow)])], [], [])


def _loop_over_local(body: list[ast.stmt], index: int) -> tuple[ast.For, str, int] | None:
    """When `body[index]` is a `for NAME in LOCAL` and LOCAL was given its value by a plain `LOCAL = X` before it
    in `body`, with no other store of it up to the loop's end: the loop, LOCAL and where X is."""
    loop = body[index]
    if not (isinstance(loop, ast.For) and isinstance(loop.target, ast.Name) and isinstance(loop.iter, ast.Name)):
        return None
    name = loop.iter.id
    for at in reversed(range(index)):
        stmt = body[at]
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name) \
                and stmt.targets[0].id == name:
            return None if _stored(body[at + 1:index + 1], name) else (loop, name, at)
    return None


def _stored(body: list[ast.stmt], name: str) -> bool:
    """Some statement of `body` (or one nested in it) gives the local `name` a value."""
    return any(isinstance(node, ast.Name) and node.id == name and not isinstance(node.ctx, ast.Load)
               for stmt in body for node in ast.walk(stmt))


def _written_range(node: ast.expr) -> tuple[int, int] | None:
    """(LOW, HIGH) of `range(LOW, HIGH)` with both written as ints."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "range" \
            and len(node.args) == 2 and not node.keywords \
            and all(isinstance(a, ast.Constant) and a.value.__class__ is int for a in node.args):
        return node.args[0].value, node.args[1].value  # type: ignore[attr-defined]
    return None


def _through_span(loop: ast.For, made: ast.expr, temp: Callable[[], str], pack: Any,
                  depth: int) -> list[ast.stmt]:
    """The loop over a written range through the pairs of the row (column) its body reads at the loop's number
    (their read, then the loop), or the loop as it is."""
    assert isinstance(loop.target, ast.Name)
    number = loop.target.id
    low, high = _written_range(made)  # type: ignore[misc]
    body = copy.deepcopy(loop.body)   # (marks are kept)
    reads = [node for stmt in body for node in ast.walk(stmt) if isinstance(node, ast.Subscript)
             and getattr(node, "cog_span", None) is not None and isinstance(node.slice, ast.Name)
             and node.slice.id == number]
    spans = {node.cog_span for node in reads}  # type: ignore[attr-defined]
    if len(spans) != 1 or any(isinstance(node, ast.Name) and node.id == number and not isinstance(node.ctx, ast.Load)
                              for stmt in body for node in ast.walk(stmt)):
        return [loop]   # no row read, or more than one (or the number set inside): left as it is
    tname, by, fixed = next(iter(spans))
    grid = pack.grids.get(tname)
    if grid is None or any(((n, fixed) if by else (fixed, n)) not in grid.cell for n in range(low, high)):
        return [loop]   # a number off the board: the read reports it where the loop reaches it
    uid = temp()

    class Spanned(ast.NodeTransformer):
        def visit_Subscript(self, node: ast.Subscript) -> ast.AST:
            if any(node is read for read in reads):
                return ast.copy_location(ast.Name(uid, ast.Load()), node)
            return self.generic_visit(node)

    body = [Spanned().visit(stmt) for stmt in body]
    pairs = temp()
    read = _guarded(pairs, expr("game.grids.maps.spans[K]", K=ast.Constant(span_key(tname, by, fixed, low, high))),
                    expr("game.grids.maps.span(T, B, N, L, H)", T=ast.Constant(tname), B=ast.Constant(by),
                         N=ast.Constant(fixed), L=ast.Constant(low), H=ast.Constant(high)), depth)
    target = ast.Tuple([ast.Name(number, ast.Store()), ast.Name(uid, ast.Store())], ast.Store())
    return [_located(read, loop), ast.copy_location(ast.For(target, ast.Name(pairs, ast.Load()), body, loop.orelse),
                                                    loop)]


def _located(stmt: ast.stmt, where: ast.stmt) -> ast.stmt:
    """`stmt` and the statements inside it carry `where`'s line (its DSL statement, for errors)."""
    for inner in ast.walk(stmt):
        if isinstance(inner, ast.stmt):
            ast.copy_location(inner, where)
    return stmt


def _only_gone_through(body: list[ast.stmt], loop: ast.For) -> bool:
    """Nothing in `body` reads the list `loop` goes through but the loop and its charge (its length)."""
    assert isinstance(loop.iter, ast.Name)
    return len(_loads(body, loop.iter.id)) == len(_sized(body, loop.iter.id)) + 1


def _only_sized(body: list[ast.stmt], name: str) -> bool:
    """Nothing in `body` reads the local `name` but its charge (its length)."""
    return len(_loads(body, name)) == len(_sized(body, name))


def _loads(body: list[ast.stmt], name: str) -> list[ast.Name]:
    return [node for stmt in body for node in ast.walk(stmt) if isinstance(node, ast.Name) and node.id == name
            and isinstance(node.ctx, ast.Load)]


def _sized(body: list[ast.stmt], name: str) -> list[ast.Call]:
    """The calls in `body` that read the local `name`'s length: `len(name)`, `game.overrun(name)`."""
    return [node for stmt in body for node in ast.walk(stmt) if isinstance(node, ast.Call) and len(node.args) == 1
            and isinstance(node.args[0], ast.Name) and node.args[0].id == name and _reads_size(node.func)]


def _range_sized(body: list[ast.stmt], made_at: int) -> list[ast.stmt]:
    """`body` without the written range made at `made_at` that is only charged for now (the loop goes through
    a span): `len` of it is its length written, and the overrun error, reached only past the budget, makes it."""
    made = body[made_at]
    assert isinstance(made, ast.Assign) and isinstance(made.targets[0], ast.Name)
    name: str = made.targets[0].id
    made_range: ast.expr = made.value
    low, high = _written_range(made_range) or (0, 0)

    class Sized(ast.NodeTransformer):
        def visit_Call(self, node: ast.Call) -> ast.AST:
            if len(node.args) == 1 and isinstance(node.args[0], ast.Name) and node.args[0].id == name \
                    and _reads_size(node.func):
                if isinstance(node.func, ast.Name):   # len(range(LOW, HIGH))
                    return ast.copy_location(ast.Constant(len(range(low, high))), node)
                return ast.copy_location(ast.Call(node.func, [made_range], []), node)
            return self.generic_visit(node)

    return [*body[:made_at], *(Sized().visit(copy.deepcopy(stmt)) for stmt in body[made_at + 1:])]


def _reads_size(func: ast.expr) -> bool:
    """`len` or `game.overrun`: what a charge reads of a collection (its length)."""
    return (isinstance(func, ast.Name) and func.id == "len") or (
        isinstance(func, ast.Attribute) and func.attr == "overrun" and isinstance(func.value, ast.Name)
        and func.value.id == "game")


def _through_uids(made: ast.Assign, loop: ast.For, temp: Callable[[], str],
                  depth: int) -> tuple[list[ast.stmt], list[ast.stmt]]:
    """The run's list made as its uids instead (what replaces `made`), and the loop through it reading each cell
    from the items (what replaces `loop`)."""
    run = made.value
    assert isinstance(run, ast.Call) and isinstance(run.func, ast.Subscript) and isinstance(loop.target, ast.Name)
    assert len(made.targets) == 1 and isinstance(made.targets[0], ast.Name)
    tname, fn = run.cog_run  # type: ignore[attr-defined]
    number, before = run.func.slice, []
    if not isinstance(number, (ast.Name, ast.Constant)):   # worked out once, before the read that may be redone
        before = [_located(ast.Assign([ast.Name(name := temp(), ast.Store())], number), made)]
        number = ast.Name(name, ast.Load())
    uids = _guarded(made.targets[0].id, expr(f"game.grids.maps.{fn}_uids[T][N]", T=ast.Constant(tname), N=number),
                    expr("game.grids.maps.run_read(T, B, N)", T=ast.Constant(tname),
                         B=ast.Constant(0 if fn == "column" else 1), N=number), depth)
    of, uid = temp(), temp()
    cell = ast.Assign([ast.Name(loop.target.id, ast.Store())],
                      ast.Subscript(ast.Name(of, ast.Load()), ast.Name(uid, ast.Load()), ast.Load()))
    walk = ast.For(ast.Name(uid, ast.Store()), loop.iter, [ast.copy_location(cell, loop), *loop.body], loop.orelse)
    items = ast.Assign([ast.Name(of, ast.Store())], run.args[0])
    return ([*before, _located(uids, made)], [ast.copy_location(items, loop), ast.copy_location(walk, loop)])


def _unread_rows_dropped(body: list[ast.stmt]) -> list[ast.stmt]:
    """`body` without the reads of a grid map into a local nothing reads any more (the loop that read it goes
    through a span or uids now): such a read (`steady`, read once before a loop) cannot fail and has no effect."""
    loaded = {node.id for stmt in body for node in ast.walk(stmt) if isinstance(node, ast.Name)
              and isinstance(node.ctx, ast.Load)}
    return [stmt for stmt in body if not (
        isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)
        and stmt.targets[0].id not in loaded and _grid_map_read(stmt.value))]


_GRID_MAPS = frozenset({"game.grids.maps.along", "game.grids.maps.columns", "game.grids.maps.rows"})


def _grid_map_read(node: ast.expr) -> bool:
    """`game.grids.maps.along[...]` (a row's or column's map), `...columns[T]`, `...rows[T]` (expr.py)."""
    return isinstance(node, ast.Subscript) and ast.unparse(node.value) in _GRID_MAPS
