"""What a generated statement evaluates first: the walk that lets a pass move work before the statement.

Two passes rewrite generated statements (engine/compile/charges.py, engine/compile/loops.py). Each
looks for a node it can do *before* the statement instead (a `game.each` charge, a comprehension) and
may move it only when moving changes nothing: the node is the first thing the statement evaluates that
can have an effect (before any other call; a `steady` read, such as an item's stored attribute through
`x.attrs.get`, is a call that cannot fail or have an effect, so it may come before), and it is evaluated on
every path (not after `and`/`or`,
not in a branch of `x if c else y`, a later comparison of a chain, a `while` test, a lambda's body or
a comprehension's per-element parts). `first_evaluated` finds it; `replaced` swaps it for a local.
Nodes are never changed in place (templates share them between branches): a statement that changes
is a copy, down the path to what changed.
"""

from __future__ import annotations

import ast
import copy
from collections.abc import Callable

STOP = True   # `first_evaluated`: a call or a conditional part comes first: nothing can move
Path = list[tuple[ast.AST, str, int | None]]   # from a statement down to a node: (parent, field, list index)
Target = Callable[[ast.AST], bool]

# the field of each statement kind that it evaluates before anything else it does
FIRST = {ast.For: "iter", ast.If: "test", ast.Assign: "value", ast.Expr: "value", ast.Return: "value",
         ast.AugAssign: "value"}
COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)


def first_in_statement(stmt: ast.stmt, target: Target) -> Path | None:
    """The path to the `target` node `stmt` evaluates first, if it can be moved before the statement."""
    if isinstance(stmt, ast.AugAssign) and not isinstance(stmt.target, ast.Name):
        return None   # `x.a += V` reads `x.a` before V
    found = first_evaluated(stmt, FIRST.get(type(stmt), ""), [], target)
    return found if isinstance(found, list) else None


def first_evaluated(parent: ast.AST, field: str, path: Path, target: Target, index: int | None = None) -> Path | bool:
    """The path to the `target` node that runs first in `parent.field` (in evaluation order: before any
    other call, and on every path), or `STOP` (something else comes first) or False (nothing in it calls).

    A comprehension evaluates its first iterable here and the rest later, per element: a target inside
    that iterable comes first; else the comprehension itself, if it is a target."""
    if not field:
        return False
    node = getattr(parent, field) if index is None else getattr(parent, field)[index]
    here = [*path, (parent, field, index)]
    if isinstance(node, COMPREHENSIONS):
        found = first_evaluated(node.generators[0], "iter", [*here, (node, "generators", 0)], target)
        if isinstance(found, list):
            return found
        return here if target(node) else STOP
    if target(node):
        return here
    if node is None or isinstance(node, (ast.Name, ast.Constant, ast.Lambda)) or getattr(node, "cog_steady", False):
        return False   # (a `steady` read, engine/compile/loops.py, cannot fail and has no effect: like a local)
    parts = _parts(node)
    if parts is None:
        return STOP
    found = _in_order(node, parts, here, target)
    # after its parts a call runs, and the rest of a chain of comparisons or of `and`/`or` is conditional
    stops = isinstance(node, (ast.Call, ast.BoolOp, ast.IfExp)) or (
        isinstance(node, ast.Compare) and len(node.comparators) > 1)
    return found or (STOP if stops else False)


def node_at(path: Path) -> ast.AST:
    parent, field, index = path[-1]
    return getattr(parent, field) if index is None else getattr(parent, field)[index]


def replaced(root: ast.stmt, path: Path, new: ast.expr) -> ast.stmt:
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


def with_nested(stmt: ast.stmt, rewrite: Callable[[list[ast.stmt], str], list[ast.stmt]]) -> ast.stmt:
    """The statement with its nested bodies rewritten (`rewrite(body, field)`, field "handlers" for an
    except clause's body; a copy if any changed)."""
    fields = {f: rewrite(getattr(stmt, f), f) for f in ("body", "orelse", "finalbody") if getattr(stmt, f, None)}
    handlers = [with_nested(h, lambda body, _field: rewrite(body, "handlers")) for h in getattr(stmt, "handlers", ())]
    if not fields and not handlers:
        return stmt
    stmt = copy.copy(stmt)
    for name, value in fields.items():
        setattr(stmt, name, value)
    if handlers:
        stmt.handlers = handlers   # type: ignore[attr-defined]
    return stmt


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
    ast.FormattedValue: ("value",), ast.NamedExpr: ("value",),
}


def _in_order(node: ast.AST, parts: list[tuple[str, int | None]], path: Path, target: Target) -> Path | bool:
    for field, index in parts:
        if (getattr(node, field) if index is None else getattr(node, field)[index]) is None:
            continue   # a dict's `**x` has no key; a slice may lack a bound
        found = first_evaluated(node, field, path, target, index)
        if found is not False:
            return found
    return False
