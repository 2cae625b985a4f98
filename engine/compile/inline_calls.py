"""A flow step's `call NAME` (no arguments) run inside the quiet flow's own function instead of calling the
procedure's.

A turn is often one flow step that calls a procedure (`do: "call move"`): each paid a Python call (~200
instructions) and the procedure's prologue in a frame of its own. The quiet flow (engine/compile/flow.py
`_quiet`) takes the procedure's generated body (engine/compile/codegen.py `procedure_body`) into its own code,
with the procedure's prologue written out at the call by `Unit.called`, which `Unit.module` uses too: the work
unit and the depth check (and count, restored however the body ends, unless the body runs no other rules:
engine/compile/leaf.py), their errors named at the caller's `call` statement, a content fault inside the body
located at the procedure's own DSL statement (its lines are taken into the flow's table).
The body's locals are renamed apart from the flow's; the globals it names are taken into the flow's. A body that
would nest the flow's Python blocks near the compiler's limit, or names something the flow cannot read, stays a
call; so does a call inside an inlined body (a procedure calling itself stays finite).
"""

from __future__ import annotations

import ast

from engine.compile.codegen import Unit, procedure_body, stamp, stmts
from engine.compile.leaf import runs_no_rules
from engine.runtime.defs import Effect

# Python allows 20 nested blocks (loops, `try`s, handlers): counted generously, with room to spare
_MAX_BLOCKS = 16
_SHARED_LOCALS = frozenset({"t_state"})   # `game.state`: the match's one state, the flow's `t_state` too


def inline_calls(body: list[ast.stmt], unit: Unit) -> list[ast.stmt]:
    """`body` (the quiet flow's, compiled in `unit`) with each `K.run(ctx)` of a procedure without parameters
    run in place."""
    return _Inliner(unit).block(body, 2)   # (the function's own `try` around its body)


class _Inliner:
    def __init__(self, unit: Unit) -> None:
        self.unit = unit
        self.inlined = 0

    def block(self, block: list[ast.stmt], depth: int) -> list[ast.stmt]:
        out: list[ast.stmt] = []
        for stmt in block:
            done = self._call(stmt, depth)
            if done is not None:
                out.extend(done)
                continue
            inner = _blocks(stmt)
            for name in ("body", "orelse", "finalbody"):
                statements = getattr(stmt, name, None)
                if isinstance(statements, list) and statements and isinstance(statements[0], ast.stmt):
                    setattr(stmt, name, self.block(statements, depth + max(inner, 2 if name == "finalbody" else 0)))
            for handler in getattr(stmt, "handlers", None) or []:
                handler.body = self.block(handler.body, depth + 3)
            out.append(stmt)
        return out

    def _call(self, stmt: ast.stmt, depth: int) -> list[ast.stmt] | None:
        """The procedure's body in place of `K.run(ctx)`, or None (not such a call, or it stays one)."""
        if not (isinstance(stmt, ast.Expr) and isinstance(call := stmt.value, ast.Call) and not call.keywords
                and len(call.args) == 1 and isinstance(call.args[0], ast.Name) and call.args[0].id == "ctx"
                and isinstance(call.func, ast.Attribute) and call.func.attr == "run"
                and isinstance(call.func.value, ast.Name)):
            return None
        effect = self.unit.globals.get(call.func.value.id)
        found = procedure_body(effect.run) if isinstance(effect, Effect) else None
        if found is None:
            return None
        proc_unit, procedure, body = found
        if depth + 3 + _depth(body) > _MAX_BLOCKS:
            return None
        leaf = runs_no_rules(body, proc_unit.asks_run_rules)   # (its function counts no depth either: leaf.py)
        suffix = f"_i{self.inlined + 1}"
        if not self._renamed(proc_unit, body, suffix):
            return None
        self.inlined += 1
        self._relined(proc_unit, body)
        if any(isinstance(node, ast.Name) and node.id == f"t_self{suffix}" for node in ast.walk(ast.Module(body, []))):
            body[:0] = stmts(f"t_self{suffix} = ctx.self_item")   # (the procedure read it from the same ctx)
        code = self.unit.called(procedure, body, f"t_depth{suffix}", leaf, located=False)
        return stamp(code, stmt.lineno)   # the prologue and the restore: the caller's `call` statement

    def _renamed(self, proc_unit: Unit, body: list[ast.stmt], suffix: str) -> bool:
        """Rename `body`'s locals apart (`suffix`) and its globals to the flow unit's names for the same objects;
        False if it names something else (then it is left to its own function)."""
        builtins = self.unit.globals["__builtins__"]
        for node in _each_once(body):
            if isinstance(node, ast.arg) and node.arg.startswith(("t_", "v_")):
                node.arg += suffix
            if not isinstance(node, ast.Name) or node.id in ("game", "ctx"):
                continue
            if node.id.startswith(("t_", "v_")):
                node.id += "" if node.id in _SHARED_LOCALS else suffix
            elif node.id in proc_unit.globals and node.id not in ("__builtins__", "located"):
                node.id = self.unit.ref(proc_unit.globals[node.id], node.id[0]).id
            elif node.id not in builtins:
                return False
        return True

    def _relined(self, proc_unit: Unit, body: list[ast.stmt]) -> None:
        """Give `body`'s nodes lines of the flow's table standing for the same DSL positions."""
        lines: dict[int, int] = {}
        wheres = proc_unit.wheres
        for node in _each_once(body):
            line = getattr(node, "lineno", None)
            if line is not None:
                if line not in lines:
                    lines[line] = self.unit.line(wheres[line] if 0 < line < len(wheres) else wheres[1])
                setattr(node, "lineno", lines[line])   # noqa: B010  (any node with a line: not one type)
                setattr(node, "end_lineno", lines[line])   # noqa: B010


def _each_once(body: list[ast.stmt]) -> list[ast.AST]:
    """Every node of `body` once (generated code shares some nodes between places)."""
    seen: dict[int, ast.AST] = {}
    for node in ast.walk(ast.Module(body, [])):
        seen.setdefault(id(node), node)
    return [node for node in seen.values() if not isinstance(node, ast.Module)]


def _blocks(stmt: ast.stmt) -> int:
    """Python blocks a statement's body adds (counted generously: a `try` as its body and handler)."""
    if isinstance(stmt, ast.For | ast.While | ast.AsyncFor | ast.With | ast.AsyncWith):
        return 1
    if isinstance(stmt, ast.Try):
        return 2
    return 0


def _depth(body: list[ast.stmt]) -> int:
    """The deepest Python block nesting inside `body` (generously counted)."""
    deepest = 0
    for stmt in body:
        inner = [s for name in ("body", "orelse", "finalbody") for s in (getattr(stmt, name, None) or [])
                 if isinstance(s, ast.stmt)]
        handlers = [s for handler in getattr(stmt, "handlers", None) or [] for s in handler.body]
        deepest = max(deepest, _blocks(stmt) + _depth(inner), 3 + _depth(handlers) if handlers else 0)
    return deepest
