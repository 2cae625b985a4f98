"""The acting player's state (`game.seats[ctx.seat]`) read once into a local of a generated function.

Why: every read of one of the acting player's zones or counters (`hand`, `minerals`) went through
`game.seats[ctx.seat]`, four bytecodes more than a local. Within one generated function the acting seat
changes only where the function itself assigns `ctx.seat` (an `as` block and its restore, a flow
`each_player` pass): a procedure or trigger it runs puts back any seat it changes before it returns. So
`t_me = game.seats[ctx.seat]` at the start and after each such assignment, and every read uses `t_me`.
A lambda with its own `ctx` (`reorder by`, a step's `order`) reads for another seat: it is left alone.
Where nobody acts, `game.seats[None]` is the object whose zones and counters raise the clear error, so
the error still comes from the read, at its statement.
"""

from __future__ import annotations

import ast
import copy
from typing import Any

from engine.compile.codegen import stmts

ME = "t_me"


def acting_local(body: list[ast.stmt]) -> list[ast.stmt]:
    """A copy of `body` (a generated function's statements: the flow's two functions share theirs) with
    `game.seats[ctx.seat]` read from the local `t_me`."""
    replace = _Replace()
    body = [replace.visit(node) for node in copy.deepcopy(body)]
    if not replace.found:
        return body
    return [*_refresh(body[0] if body else None), *_after_seat_changes(body)]


def _is_acting(node: ast.AST) -> bool:
    """`game.seats[ctx.seat]`."""
    return (isinstance(node, ast.Subscript) and isinstance(node.value, ast.Attribute) and node.value.attr == "seats"
            and _is_name(node.value.value, "game") and isinstance(node.slice, ast.Attribute)
            and node.slice.attr == "seat" and _is_name(node.slice.value, "ctx"))


def _is_name(node: ast.AST, name: str) -> bool:
    return isinstance(node, ast.Name) and node.id == name


def _sets_seat(node: ast.stmt) -> bool:
    """`ctx.seat = ...`."""
    return isinstance(node, ast.Assign) and any(
        isinstance(t, ast.Attribute) and t.attr == "seat" and _is_name(t.value, "ctx") for t in node.targets)


class _Replace(ast.NodeTransformer):
    def __init__(self) -> None:
        self.found = False

    def visit_Lambda(self, node: ast.Lambda) -> Any:
        if any(a.arg == "ctx" for a in node.args.args):   # its own ctx: another seat
            return node
        return self.generic_visit(node)

    def visit_Subscript(self, node: ast.Subscript) -> Any:
        if _is_acting(node):
            self.found = True
            return ast.copy_location(ast.Name(ME, ast.Load()), node)
        return self.generic_visit(node)


def _refresh(at: ast.stmt | None) -> list[ast.stmt]:
    """`t_me = game.seats[ctx.seat]`, on the line of `at` (an error there names that statement)."""
    code = stmts("ME = game.seats[ctx.seat]", ME=ME)
    if at is not None:
        for node in code:
            ast.copy_location(node, at)
    return code


def _after_seat_changes(body: list[ast.stmt]) -> list[ast.stmt]:
    """`body` with `t_me` read again after every `ctx.seat = ...`, in nested blocks too."""
    out: list[ast.stmt] = []
    for node in body:
        for field, value in ast.iter_fields(node):
            if isinstance(value, list) and value and isinstance(value[0], ast.stmt):
                setattr(node, field, _after_seat_changes(value))
            elif field == "handlers":
                for handler in value:
                    handler.body = _after_seat_changes(handler.body)
        out.append(node)
        if _sets_seat(node):
            out += _refresh(node)
    return out
