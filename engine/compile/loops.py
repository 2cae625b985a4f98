"""Comprehensions written out as loops before the statement that uses them.

A DSL `where`, `count(... where ...)`, `sum(...)` or a choice's legality test compiles to a Python
comprehension (engine/compile/expr.py, effect.py). In CPython 3.11 each run of a comprehension makes
a function object and a frame, and every local it reads from the enclosing function becomes a cell:
for the few items a rule usually goes through, that costs more than the loop. Where a statement
evaluates a comprehension first and on every path (engine/compile/order.py), it is written out as
statements before it instead, and the statement reads the result from a local:

    len([IT for IT in E if C])     t = 0 / for IT in E: if C: t += 1
    sum([V for IT in E if C])      t = 0 / for IT in E: if C: t += V
    any(V for IT in E if C)        t = False / for IT in E: if C: if V: t = True; break
    first([IT for IT in E if C])   t = None / for IT in E: if C: t = IT; break / else: t = first(())
    [V for IT in E if C]           t = [] / for IT in E: if C: t.append(V)

(`first` stops at the first element that passes only where C is `quiet`: it cannot fail and has no effect,
so the elements after it need no test; `first(())` fails as `first` of nothing did.)

A `for` that goes through a filter, `for T in [IT for IT in E if C]`, is one loop with it where that
cannot be told apart (`_fusable`): `for IT in E: if C: T = IT; ...`. Reads marked `steady` are read once
before the loop whose tests (or, for a later `for`, whose iterable) they are in.

The same values, the same work, the same errors at the same DSL line, in the same order (a count or a
sum goes through every item, as the list did). Only comprehensions whose `for`s go over plain names
are written out (a generator with one `for`); others, and those after a call or on some paths only,
stay as they are. Several `for`s become nested loops. The loops' own statements are rewritten again,
so a comprehension in a condition or an inner iterable is written out there.
"""

from __future__ import annotations

import ast
import copy
from collections.abc import Callable

from engine.compile.order import first_in_statement, node_at, replaced, with_nested

# CPython refuses a function with more than 20 statically nested blocks, and the compilers keep DSL
# nesting within MAX_BLOCK_DEPTH = 19 (effect.py) of them: a comprehension is written out only where its
# loops stay within this many blocks as counted here (generously: a `try` handler or `finally` as two)
BLOCK_ROOM = 16


def inline_comprehensions(body: list[ast.stmt], temp: Callable[[], str], depth: int = 1) -> list[ast.stmt]:
    """`body` with every leading comprehension of a statement written out as a loop (nested bodies too);
    `temp` names a new local; `depth`: the Python blocks around `body` (1: a generated function's `try`)."""
    out: list[ast.stmt] = []
    for stmt in body:
        stmt = _with_nested(stmt, temp, depth)
        while (path := first_in_statement(stmt, _is_loop)) is not None:
            path = _outward(path)
            comp = node_at(path)
            assert isinstance(comp, (ast.ListComp, ast.GeneratorExp))
            if depth + len(comp.generators) > BLOCK_ROOM:
                break   # too deep for more loops: it stays a comprehension (its own code object)
            reducer = _reducer(path)
            if reducer is not None:
                path = path[:-1]   # the `len(...)`/`sum(...)`/`any(...)` call is replaced, not its argument
            elif isinstance(comp, ast.GeneratorExp):
                break   # a generator passed to anything else stays one (it is consumed lazily)
            local = temp()
            loop = _written_out(comp, reducer, local, temp)
            out.extend(inline_comprehensions([_at(node, stmt) for node in loop], temp, depth))
            stmt = replaced(stmt, path, ast.Name(local, ast.Load()))
        out.append(stmt)
    return out


def _outward(path: list) -> list:
    """The path of the comprehension whose first `for` goes through the one at `path` (a filter evaluated
    first) when the two can be one loop (`_fusable`): both are written out together, outermost first."""
    while len(path) >= 3:
        gen, field, _ = path[-1]
        outer, outer_field, index = path[-2]
        if not (field == "iter" and outer_field == "generators" and index == 0 and _is_loop(outer)
                and gen is outer.generators[0]):
            break
        reducer = _reducer(path[:-2])
        if (reducer is None and isinstance(outer, ast.GeneratorExp)) or len(outer.generators) > BLOCK_ROOM \
                or _fusable(outer, 0, reducer, node_at(path)) is None:
            break
        path = path[:-2]
    return path


def body_depth(stmt: ast.stmt, field: str, depth: int) -> int:
    """The Python block depth of `stmt`'s nested body `field` (`body`, `orelse`, `handlers`, `finalbody`), `stmt`
    standing at block depth `depth`: a loop's, a `with`'s or a `try`'s body and `else` one block deeper, a
    `try`'s handlers and `finally` two; an `if`'s branches at its own depth. What `BLOCK_ROOM` counts."""
    inner = depth + 1 if isinstance(stmt, (ast.For, ast.While, ast.With, ast.Try)) else depth
    return inner if field in ("body", "orelse") else depth + 2


def _with_nested(stmt: ast.stmt, temp: Callable[[], str], depth: int) -> ast.stmt:
    """The statement with its nested bodies rewritten, each at its block depth (a copy if any changed)."""
    return with_nested(stmt, lambda nested, field: inline_comprehensions(nested, temp, body_depth(stmt, field, depth)))


def _is_loop(node: ast.AST) -> bool:
    """A comprehension this pass writes out: synchronous `for`s, each over a plain name (a generator
    only with one `for`: `any`'s loop stops at the first true element with a `break`)."""
    if isinstance(node, ast.GeneratorExp) and len(node.generators) != 1:
        return False
    return isinstance(node, (ast.ListComp, ast.GeneratorExp)) and all(
        not gen.is_async and isinstance(gen.target, ast.Name) for gen in node.generators)


_REDUCERS = ("len", "sum", "any", "first")


def _reducer(path: list) -> str | None:
    """`len`, `sum` or `any` when the comprehension is that builtin's one argument (and fits it)."""
    parent, field, index = path[-1]
    if not (field == "args" and index == 0 and isinstance(parent, ast.Call) and isinstance(parent.func, ast.Name)
            and parent.func.id in _REDUCERS and len(parent.args) == 1 and not parent.keywords and len(path) > 1):
        return None
    comp = parent.args[0]
    name = parent.func.id
    if name == "any":
        return name if isinstance(comp, ast.GeneratorExp) else None
    if not isinstance(comp, ast.ListComp):
        return None
    if name == "len" and not isinstance(comp.elt, ast.Name):
        return None   # counting never evaluates the element: it must be one of the loop's names
    if name == "first" and not (getattr(comp, "cog_quiet", False) and len(comp.generators) == 1
                                and isinstance(comp.elt, ast.Name) and isinstance(comp.generators[0].target, ast.Name)
                                and comp.elt.id == comp.generators[0].target.id):
        return None   # stopping early skips the tests of the later elements: they must be quiet
    return name


def _written_out(comp: ast.ListComp | ast.GeneratorExp, reducer: str | None, local: str,
                 temp: Callable[[], str]) -> list[ast.stmt]:
    """`local = START` and the loop (nested loops, one per `for`) that gives `local` the comprehension's
    (reduced) value: each `for` after the first goes through its iterable once per element of the one
    before, as the comprehension does. What a `for`'s tests read that is the same for every element
    (`steady`) is read once, before that `for`."""
    store = ast.Name(local, ast.Store())
    start: ast.expr
    inner: list[ast.stmt]
    if reducer == "len":
        start, inner = ast.Constant(0), [ast.AugAssign(store, ast.Add(), ast.Constant(1))]
    elif reducer == "sum":
        start, inner = ast.Constant(0), [ast.AugAssign(store, ast.Add(), comp.elt)]
    elif reducer == "any":
        start, inner = ast.Constant(False), [ast.If(comp.elt, [ast.Assign([store], ast.Constant(True)), ast.Break()],
                                                    [])]
    elif reducer == "first":
        start, inner = ast.Constant(None), [ast.Assign([store], comp.elt), ast.Break()]
    else:
        start = ast.List([], ast.Load())
        append = ast.Attribute(ast.Name(local, ast.Load()), "append", ast.Load())
        inner = [ast.Expr(ast.Call(append, [comp.elt], []))]
    targets = [gen.target.id for gen in comp.generators if isinstance(gen.target, ast.Name)]
    outermost: list[ast.stmt] = []   # steady reads of a later `for`'s iterable, read once before all the loops
    for depth in reversed(range(len(comp.generators))):
        gen = comp.generators[depth]
        tests, before = _read_once(gen.ifs, set(targets[depth:]), temp)
        for test in reversed(tests):
            inner = [ast.If(test, inner, [])]
        assert isinstance(gen.target, ast.Name)
        over = gen.iter
        fused = _fusable(comp, depth, reducer, over)
        if fused is not None:   # `for t in [IT for IT in E if C]`: one loop over E
            assert isinstance(fused.target, ast.Name)
            target = fused.target.id
            over, inner_tests, inner_before = fused.iter, *_read_once(fused.ifs, {targets[depth], target}, temp)
            inner = [ast.Assign([ast.Name(gen.target.id, ast.Store())], ast.Name(target, ast.Load())), *inner]
            for test in reversed(inner_tests):
                inner = [ast.If(test, inner, [])]
            before = [*before, *inner_before]
        else:
            target = gen.target.id
        if depth > 0:   # gone through once per element of the `for`s before it: its steady reads once in all
            bound = set(targets) | {n.id for n in ast.walk(over) if isinstance(n, ast.Name) and not isinstance(
                n.ctx, ast.Load)}
            lifted, once = _read_once([over], bound, temp)
            over = lifted[0]
            outermost += once
        nothing: list[ast.stmt] = [ast.Assign([store], ast.Call(ast.Name("first", ast.Load()),
                                                                [ast.Tuple([], ast.Load())], []))]
        inner = [*before, ast.For(ast.Name(target, ast.Store()), over, inner, nothing if reducer == "first" else [])]
    return [ast.Assign([ast.Name(local, ast.Store())], start), *outermost, *inner]


def _fusable(comp: ast.ListComp | ast.GeneratorExp, depth: int, reducer: str | None,
             over: ast.AST) -> ast.comprehension | None:
    """The `for` of `over` when the comprehension's `for` at `depth` goes through a filter
    `[IT for IT in E if C]` that can be one loop with it: `for IT in E: if C: T = IT; ...`.

    The filter's tests then run between the elements' own work instead of all before it. Nobody can tell
    when C is quiet (it cannot fail, has no effect, and reads nothing that work changes: a choice's later
    parts only pay and test). Otherwise the work must be unable to fail or be seen: the filter is the last
    `for`, its own tests and the element are quiet, and it only adds to the list (or the count) being made.
    The filter must not read the loop's name (the loop sets it as it goes)."""
    gen = comp.generators[depth]
    if not isinstance(over, ast.ListComp) or len(over.generators) != 1 or not isinstance(gen.target, ast.Name):
        return None
    inner = over.generators[0]
    if inner.is_async or not isinstance(inner.target, ast.Name) or not isinstance(over.elt, ast.Name) \
            or over.elt.id != inner.target.id or inner.target.id == gen.target.id:
        return None
    if any(isinstance(n, ast.Name) and n.id == gen.target.id for n in ast.walk(over)):
        return None
    if all(map(quiet, inner.ifs)):
        return inner
    if depth != len(comp.generators) - 1 or reducer not in (None, "len"):
        return None
    parts = comp.elt.elts if isinstance(comp.elt, ast.Tuple) else [comp.elt]
    if not all(isinstance(part, (ast.Name, ast.Constant)) for part in parts) or not all(map(quiet, gen.ifs)):
        return None
    return inner


def steady(node: ast.expr) -> ast.expr:
    """Mark a read that cannot fail and has no effect, whose value changes only with the locals it names
    (an item's stored attribute through a local known to hold an item, this match's board map): a loop
    whose test reads it with none of those locals bound by the loop reads it once, before the loop."""
    node.cog_steady = True  # type: ignore[attr-defined]
    return node


def _read_once(tests: list[ast.expr], bound: set[str], temp: Callable[[], str]) -> tuple[list[ast.expr],
                                                                                        list[ast.stmt]]:
    """The tests with each `steady` read that names none of `bound` (the loop's names; nor a name the test
    binds itself) taken out into a local, and the assignments of those locals (equal reads share one)."""
    inside = bound | {n.id for test in tests for n in ast.walk(test) if isinstance(n, ast.Name)
                      and not isinstance(n.ctx, ast.Load)} | {
        a.arg for test in tests for n in ast.walk(test) if isinstance(n, ast.Lambda) for a in n.args.args}
    found: dict[str, tuple[str, ast.expr]] = {}

    class Lift(ast.NodeTransformer):
        def visit(self, node: ast.AST) -> ast.AST:
            if getattr(node, "cog_steady", False) and isinstance(node, ast.expr) and not any(
                    isinstance(n, ast.Name) and n.id in inside for n in ast.walk(node)):
                key = ast.dump(node)
                if key not in found:
                    found[key] = (temp(), node)
                return ast.Name(found[key][0], ast.Load())
            return self.generic_visit(node)

    if not any(getattr(n, "cog_steady", False) for test in tests for n in ast.walk(test)):
        return tests, []
    lifted = [Lift().visit(copy.deepcopy(test)) for test in tests]   # nodes are shared: never changed in place
    before: list[ast.stmt] = [ast.Assign([ast.Name(name, ast.Store())], read) for name, read in found.values()]
    return lifted, before  # type: ignore[return-value]   # an expression stays one


def _at(node: ast.stmt, where: ast.stmt) -> ast.stmt:
    """`node` and the statements inside it carry `where`'s line (its DSL statement, for errors)."""
    for inner in ast.walk(node):
        if isinstance(inner, ast.stmt):
            ast.copy_location(inner, where)
    return node


def quiet(node: ast.expr) -> bool:
    """The expression cannot fail and has no effect: locals, constants, `steady` reads, and `and`/`or`/`not`
    and comparisons of them (by equality, or by order between surely numbers)."""
    if getattr(node, "cog_steady", False) or isinstance(node, (ast.Name, ast.Constant)):
        return True
    if isinstance(node, ast.BoolOp):
        return all(quiet(value) for value in node.values)
    if isinstance(node, ast.UnaryOp):
        return isinstance(node.op, ast.Not) and quiet(node.operand)
    if isinstance(node, ast.Compare):
        parts = [node.left, *node.comparators]
        if not all(quiet(part) for part in parts):
            return False
        return all(isinstance(op, (ast.Eq, ast.NotEq, ast.Is, ast.IsNot)) for op in node.ops) or all(
            getattr(part, "cog_number", False) or (isinstance(part, ast.Constant) and part.value.__class__ is int)
            for part in parts)
    return False
