"""Paying for a collection inline where a statement begins by going through it.

`paid()` (engine/compile/expr.py) wraps every collection a rule goes through
in `game.each(X)`, a call that adds the collection's length to the work
budget (engine/runtime/limits.py) and returns it. The call and its frame
cost bytecodes of their own, and most such collections are the first thing
their statement evaluates (`for x in pile`, `count(hand where ...) > 0`,
`choose c in hand`). There the charge is made before the statement instead,
and the statement reads the collection from a local:

    t = X
    t_w = game.state.work + len(t)
    game.state.work = t_w
    if t_w > game.work_limit:
        raise game.overrun(t)

The same work in the same order, the same error at the same DSL line. A
collection with a call before it (whatever the call does happens first), or
that is evaluated only on some paths (after `and`/`or`, in a branch of
`x if c else y`, a later comparison of a chain, a `while` test, inside a
comprehension or a lambda), keeps its `game.each` call.
"""

from __future__ import annotations

import ast
import copy
from collections.abc import Callable

from engine.compile.codegen import stmts

_STOP = True   # `_first_charge`: a call or a conditional part comes first: nothing can move
Path = list[tuple[ast.AST, str, int | None]]   # from a statement down to a node: (parent, field, list index)


def inline_charges(body: list[ast.stmt], temp: Callable[[], str]) -> list[ast.stmt]:
    """`body` with every leading `game.each(X)` of a statement charged inline (nested bodies too); `temp`
    names a new local. Nodes are never changed in place (templates share them between branches): a
    statement that changes is a copy, down the path to what changed."""
    out: list[ast.stmt] = []
    for stmt in body:
        stmt = _with_nested(stmt, temp)
        while True:
            path = _first_charge(stmt, _FIRST.get(type(stmt), ""), [])
            if not isinstance(path, list):
                break
            parent, field, index = path[-1]
            call = getattr(parent, field) if index is None else getattr(parent, field)[index]
            local = temp()
            charge = stmts("T = X\nW = game.state.work + len(T)\ngame.state.work = W\n"
                           "if W > game.work_limit:\n    raise game.overrun(T)",
                           T=local, W=temp(), X=call.args[0])
            out.extend(ast.copy_location(node, stmt) for node in charge)
            stmt = _replaced(stmt, path, ast.Name(local, ast.Load()))
        out.append(stmt)
    return out


# the field of each statement kind that it evaluates before anything else it does
_FIRST = {ast.For: "iter", ast.If: "test", ast.Assign: "value", ast.Expr: "value", ast.Return: "value"}


def _with_nested(stmt: ast.stmt, temp: Callable[[], str]) -> ast.stmt:
    """The statement with its nested bodies charged inline (a copy if any changed)."""
    fields = {f: inline_charges(getattr(stmt, f), temp) for f in ("body", "orelse", "finalbody")
              if getattr(stmt, f, None)}
    handlers = [_with_nested(h, temp) for h in getattr(stmt, "handlers", ())]
    if not fields and not handlers:
        return stmt
    stmt = copy.copy(stmt)
    for name, value in fields.items():
        setattr(stmt, name, value)
    if handlers:
        stmt.handlers = handlers   # type: ignore[attr-defined]
    return stmt


def _replaced(root: ast.stmt, path: Path, new: ast.expr) -> ast.stmt:
    """A copy of `root` with the node at the end of `path` replaced by `new` (only the nodes on the path
    are copied)."""
    top = copy.copy(root)
    node: ast.AST = top
    for depth, (_, field, index) in enumerate(path):
        last = depth == len(path) - 1
        if index is None:
            child = new if last else copy.copy(getattr(node, field))
            setattr(node, field, child)
        else:
            items = list(getattr(node, field))
            items[index] = child = new if last else copy.copy(items[index])
            setattr(node, field, items)
        node = child
    return top


def _is_charge(node: ast.AST) -> bool:
    """`game.each(X)`: what `paid()` generates."""
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    return (isinstance(func, ast.Attribute) and func.attr == "each" and isinstance(func.value, ast.Name)
            and func.value.id == "game" and len(node.args) == 1 and not node.keywords)


def _first_charge(parent: ast.AST, field: str, path: Path, index: int | None = None) -> Path | bool:
    """The path to the `game.each` call that runs first in `parent.field` (in evaluation order: before any
    other call, and on every path), or `_STOP` (something else comes first) or False (nothing in it calls)."""
    if not field:
        return False
    node = getattr(parent, field) if index is None else getattr(parent, field)[index]
    here = [*path, (parent, field, index)]
    if _is_charge(node):
        return here
    if node is None or isinstance(node, (ast.Name, ast.Constant, ast.Lambda)):
        return False
    if isinstance(node, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
        return _first_charge(node.generators[0], "iter", [*here, (node, "generators", 0)]) or _STOP
    parts = _parts(node)
    if parts is None:
        return _STOP
    found = _in_order(node, parts, here)
    # after its parts a call runs, and the rest of a chain of comparisons or of `and`/`or` is conditional
    stops = isinstance(node, (ast.Call, ast.BoolOp, ast.IfExp)) or (
        isinstance(node, ast.Compare) and len(node.comparators) > 1)
    return found or (_STOP if stops else False)


def _parts(node: ast.AST) -> list[tuple[str, int | None]] | None:
    """The parts of an expression evaluated first, in order, on every path; None: an unknown kind."""
    if isinstance(node, ast.Call):
        return [("func", None), *(("args", i) for i in range(len(node.args)))]
    if isinstance(node, ast.BoolOp):
        return [("values", 0)]
    if isinstance(node, ast.IfExp):
        return [("test", None)]
    if isinstance(node, ast.Compare):
        return [("left", None), ("comparators", 0)]
    if isinstance(node, ast.Dict):   # key, value, key, value...
        return [(f, i) for i in range(len(node.keys)) for f in ("keys", "values")]
    lists = _LIST_FIELDS.get(type(node))
    if lists is not None:
        return [(lists, i) for i in range(len(getattr(node, lists)))]
    singles = _SINGLE_FIELDS.get(type(node))
    return None if singles is None else [(f, None) for f in singles]


# expressions whose parts are evaluated in this order: one list of nodes, or single nodes (or None)
_LIST_FIELDS: dict[type, str] = {ast.List: "elts", ast.Tuple: "elts", ast.Set: "elts", ast.JoinedStr: "values"}
_SINGLE_FIELDS: dict[type, tuple[str, ...]] = {
    ast.Attribute: ("value",), ast.Subscript: ("value", "slice"), ast.BinOp: ("left", "right"),
    ast.UnaryOp: ("operand",), ast.Starred: ("value",), ast.Slice: ("lower", "upper", "step"),
    ast.FormattedValue: ("value",),
}


def _in_order(node: ast.AST, parts: list[tuple[str, int | None]], path: Path) -> Path | bool:
    for field, index in parts:
        if (getattr(node, field) if index is None else getattr(node, field)[index]) is None:
            continue   # a dict's `**x` has no key; a slice may lack a bound
        found = _first_charge(node, field, path, index)
        if found is not False:
            return found
    return False
