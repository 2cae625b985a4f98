"""Turning DSL parse trees into Python functions, built as Python ASTs (never as source text).

Why: a tree of closures costs a Python call for every DSL node on every run,
and DSL locals live in a dict. Here one DSL text becomes one Python function
whose DSL locals are Python locals, so a card's effect runs at roughly the
speed of the same rule written by hand.

Why this is safe for untrusted packs: pack text never becomes Python source.
The compilers build `ast` nodes from templates written in this package.
Values from a pack enter a function only as constants (`ast.Constant` holding
a str, int or bool) or as objects placed in the function's globals under
generated names (`K0`, `K1`, ...). `check` walks every finished tree before
`compile()` sees it: each name must be a local, a generated global or one of
a few builtins, and no attribute may be a dunder except `__class__`. Nothing
is `eval`'d or `exec`'d; the function object is made from the code object.

Run-time errors name the DSL statement that failed: every statement's nodes
carry a line number that indexes the DSL positions of that text, and the
function's one `except` clause maps the traceback's line back to the position.
"""

from __future__ import annotations

import ast
import builtins
from collections.abc import Callable
from functools import cache
from types import CodeType, FunctionType, TracebackType
from typing import Any

from engine.errors import CONTENT_FAULTS, RuleError, locate_error

Node = ast.AST
_BUILTINS = ("len", "int", "bool", "str", "list", "range", "sum", "min", "max", "abs", "sorted", "any", "isinstance")
_SAFE_BUILTINS = {name: getattr(builtins, name) for name in _BUILTINS}
_DUNDERS = ("__class__", "__traceback__")  # type tests and the error locator
_LOCALS = ("ctx", "exc", "game")  # the locals templates use; DSL locals are v_NAME, temporaries t_N


@cache
def _template(src: str) -> list[ast.stmt]:
    return ast.parse(src).body


def _fill(node: Any, parts: dict[str, Any]) -> Any:
    """A fresh copy of a template node with its placeholder names replaced (no location attributes)."""
    if isinstance(node, list):
        out = []
        for child in node:
            if (isinstance(child, ast.Expr) and isinstance(child.value, ast.Name)
                    and isinstance(parts.get(child.value.id), list)):
                out.extend(parts[child.value.id])  # a statement placeholder: splice the statements in
            else:
                out.append(_fill(child, parts))
        return out
    if isinstance(node, ast.Name) and node.id in parts:
        part = parts[node.id]
        if isinstance(part, str):  # a name placeholder: a local chosen by the compiler
            return ast.Name(part, ast.Store() if isinstance(node.ctx, ast.Store) else ast.Load())
        return part
    if isinstance(node, ast.arg) and isinstance(parts.get(node.arg), str):  # a lambda's parameter
        return ast.arg(parts[node.arg])
    if isinstance(node, ast.AST):
        new = node.__class__.__new__(node.__class__)
        for field in node._fields:
            setattr(new, field, _fill(getattr(node, field, None), parts))
        return new
    return node


def expr(src: str, **parts: Any) -> ast.expr:
    """An expression from a template: UPPERCASE names in `src` are placeholders for `parts`."""
    return _fill(_template(src)[0].value, parts)


def stmts(src: str, **parts: Any) -> list[ast.stmt]:
    """Statements from a template; a placeholder standing alone on a line splices a statement list."""
    return _fill(_template(src), parts)


def const(value: Any) -> ast.expr:
    return ast.Constant(value)


def stamp(nodes: list[ast.stmt], line: int) -> list[ast.stmt]:
    """Give every node not yet located this line (nested statements were stamped with their own)."""
    todo: list[Any] = list(nodes)
    while todo:
        node = todo.pop()
        if getattr(node, "lineno", None) is not None:
            continue
        if "lineno" in node._attributes:
            node.lineno = node.end_lineno = line
            node.col_offset = node.end_col_offset = 0
        todo.extend(child for child in ast.iter_child_nodes(node))
    return nodes


class Unit:
    """One generated function in the making: its globals, its locals and the DSL positions of its lines."""

    def __init__(self, where: str, helpers: dict[str, Any]) -> None:
        self.globals: dict[str, Any] = {"__builtins__": _SAFE_BUILTINS, **helpers}
        self.wheres = [where, where]  # line 1 is the function itself (the whole DSL text)
        self._ids: dict[int, str] = {}
        self.temps = 0

    def ref(self, value: Any, hint: str = "K") -> ast.Name:
        """A global name for an object the code needs (a helper, a compiled effect, a table)."""
        name = self._ids.get(id(value))
        if name is None:
            name = f"{hint.upper()}{len(self.globals)}"
            self.globals[name] = value
            self._ids[id(value)] = name
        return ast.Name(name, ast.Load())

    def temp(self, base: str = "t") -> str:
        self.temps += 1
        return f"{base}_{self.temps}"

    def line(self, where: str) -> int:
        self.wheres.append(where)
        return len(self.wheres) - 1

    def function(self, name: str, body: list[ast.stmt], prologue: list[ast.stmt]) -> FunctionType:
        """`def name(ctx): prologue; body`, any content fault re-raised at its DSL statement."""
        locate = self.ref(_locator(self.wheres), "L")
        catch = ast.Tuple([self.ref(e, "E") for e in (RuleError, *CONTENT_FAULTS)], ast.Load())
        guarded = stmts("try:\n    BODY\nexcept CATCH as exc:\n    raise LOCATE(exc, exc.__traceback__) from None",
                        BODY=body or [ast.Pass()], CATCH=catch, LOCATE=locate)
        module = ast.Module(stamp(stmts("def dsl(ctx):\n    BODY", BODY=prologue + guarded), 1), [])
        check(module, self.globals)
        code = compile(module, "<dsl>", "exec")
        inner = next(c for c in code.co_consts if isinstance(c, CodeType))
        return FunctionType(inner, self.globals, name)


def _locator(wheres: list[str]) -> Callable[[Exception, TracebackType | None], RuleError]:
    def locate(exc: Exception, tb: TracebackType | None) -> RuleError:
        line = tb.tb_lineno if tb is not None else 1
        return locate_error(exc, wheres[line] if 0 < line < len(wheres) else wheres[1])
    return locate


def check(tree: ast.AST, globals_: dict[str, Any]) -> None:
    """Refuse a tree that could reach anything but its locals, its own globals and the safe builtins."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            ok = node.id in globals_ or node.id in _SAFE_BUILTINS or node.id in _LOCALS or node.id.startswith(
                ("v_", "t_"))
            if not ok:
                raise AssertionError(f"generated code reads an unknown name {node.id!r}")
        elif isinstance(node, ast.Attribute) and node.attr.startswith("__") and node.attr not in _DUNDERS:
            raise AssertionError(f"generated code reads a dunder attribute {node.attr!r}")
        elif isinstance(node, ast.Constant) and not isinstance(node.value, (str, int, bool, type(None))):
            raise AssertionError(f"generated code holds a constant of type {type(node.value).__name__}")
