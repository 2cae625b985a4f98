"""The acting seat's player in a local: `game.seats[ctx.seat]` read once where the seat is set.

A rule reads the acting player's zones and counters often (`count(hand)`, `coins >= 2`, `move c
to hand`): each read went `game.seats[ctx.seat]` first, five bytecodes. The seat a generated function
acts for changes only where the code says so: at the function's start (its `ctx`), in an `as PLAYER`
block and in a flow `each_player`/`simultaneous` loop (both set `ctx.seat` and put it back after). So
the compilers read the player into a local at each of those places (`ExprCompiler.acting_as`) and
code inside reads the local; a `lambda ctx:` run for other seats (a `reorder`, a step's `order`) reads
`game.seats[ctx.seat]` as before. A procedure called with the same `ctx` reads its own at its start.
`with_acting_player` then drops the reads nothing uses and adds the function's own if used.
"""

from __future__ import annotations

import ast
import copy

from engine.compile.codegen import stmts

ACTING = "t_me"   # the function's own local; an `as` block's or a flow loop's are t_me_N


def with_acting_player(body: list[ast.stmt], name: str = ACTING) -> list[ast.stmt]:
    """`body` reading the acting player into `name` first if it uses it, and without the reads of
    `as`/flow locals (t_me_N) it never uses. Statements that change are copies."""
    used = {node.id for stmt in body for node in ast.walk(stmt)
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id.startswith(name)}
    body = _without_unused(body, used, name + "_")
    if name in used:
        first = stmts("ME = game.seats[ctx.seat]", ME=name)
        body = [*(ast.copy_location(node, body[0]) if body else node for node in first), *body]
    return body


def _without_unused(body: list[ast.stmt], used: set[str], prefix: str) -> list[ast.stmt]:
    out: list[ast.stmt] = []
    for stmt in body:
        if (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)
                and stmt.targets[0].id.startswith(prefix) and stmt.targets[0].id not in used):
            continue   # `game.seats[...]` is a dict read: dropping it changes nothing
        nested = {f: _without_unused(getattr(stmt, f), used, prefix) for f in ("body", "orelse", "finalbody")
                  if getattr(stmt, f, None)}
        handlers = [_without_unused([h], used, prefix)[0] for h in getattr(stmt, "handlers", ())]
        if any(value != getattr(stmt, f) for f, value in nested.items()) or handlers:
            stmt = copy.copy(stmt)
            for f, value in nested.items():
                setattr(stmt, f, value or [ast.Pass()])
            if handlers:
                stmt.handlers = handlers   # type: ignore[attr-defined]
        out.append(stmt)
    return out
