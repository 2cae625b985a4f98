"""Paying for a collection inline where a statement begins by going through it.

`paid()` (engine/compile/expr.py) wraps every collection a rule goes through
in `game.each(X)`, a call that adds the collection's length to the work
budget (engine/runtime/limits.py) and returns it. The call and its frame
cost bytecodes of their own, and most such collections are the first thing
their statement evaluates (`for x in pile`, `count(hand where ...) > 0`,
`choose c in hand`). There the charge is made before the statement instead,
and the statement reads the collection from a local:

    t = X
    t_w = t_state.work + len(t)
    t_state.work = t_w
    if t_w > game.work_limit:
        raise game.overrun(t)

A DSL `range` a loop or a comprehension goes through (`where` over a range) is charged and gone through as Python's
`range`: the list it would be (`list(range(...))`) is never made.

(`t_state` is the function's local for `game.state`, one object for the whole match: codegen's prologue
reads it once where the body uses it.) The same work in the same order, the same error at the same DSL line. A
collection with a call before it (whatever the call does happens first), or
that is evaluated only on some paths (after `and`/`or`, in a branch of
`x if c else y`, a later comparison of a chain, a `while` test, inside a
comprehension or a lambda), keeps its `game.each` call.
"""

from __future__ import annotations

import ast
from collections.abc import Callable

from engine.compile.codegen import stmts
from engine.compile.order import first_in_statement, node_at, replaced, with_nested


def inline_charges(body: list[ast.stmt], temp: Callable[[], str]) -> list[ast.stmt]:
    """`body` with every leading `game.each(X)` of a statement charged inline (nested bodies too); `temp`
    names a new local. Statements that change are copies (engine/compile/order.py)."""
    out: list[ast.stmt] = []
    for stmt in body:
        stmt = with_nested(stmt, lambda nested, _field: inline_charges(nested, temp))
        while (path := first_in_statement(stmt, _is_charge)) is not None:
            call = node_at(path)
            assert isinstance(call, ast.Call)
            local = temp()
            parent, field, _ = path[-1]
            listed = call.args[0]
            if isinstance(parent, (ast.comprehension, ast.For)) and field == "iter" and _listed_range(listed):
                listed = listed.args[0]  # type: ignore[attr-defined]   # only gone through: the range, no list made
            charge = stmts("T = X\nW = t_state.work + len(T)\nt_state.work = W\n"
                           "if W > game.work_limit:\n    raise game.overrun(T)",
                           T=local, W=temp(), X=listed)
            out.extend(ast.copy_location(node, stmt) for node in charge)
            stmt = replaced(stmt, path, ast.Name(local, ast.Load()))
        out.append(stmt)
    return out


def _listed_range(node: ast.expr) -> bool:
    """`list(range(...))` or `list(number_span(...))`: a DSL `range` (engine/compile/expr.py). A loop or a
    comprehension that goes through it (a `where` over a range) goes through the range as well, with the same
    length."""
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "list"
            and len(node.args) == 1 and not node.keywords and isinstance(inner := node.args[0], ast.Call)
            and isinstance(inner.func, ast.Name) and inner.func.id in ("range", "number_span"))


def _is_charge(node: ast.AST) -> bool:
    """`game.each(X)`: what `paid()` generates."""
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    return (isinstance(func, ast.Attribute) and func.attr == "each" and isinstance(func.value, ast.Name)
            and func.value.id == "game" and len(node.args) == 1 and not node.keywords)
