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

_BUILTINS = ("len", "int", "bool", "str", "list", "range", "sum", "min", "max", "abs", "sorted", "any", "isinstance")
Where = Callable[[], str]  # a DSL position, `file:line:col`, worked out only when an error needs it
_SAFE_BUILTINS = {name: getattr(builtins, name) for name in _BUILTINS}
_DUNDERS = ("__class__", "__traceback__")  # type tests and the error locator
_LOCALS = ("ctx", "exc", "game")  # the locals templates use; DSL locals are v_NAME, temporaries t_N


@cache
def _template(src: str) -> list[ast.stmt]:
    return ast.parse(src).body


_SHARED = (ast.expr_context, ast.boolop, ast.operator, ast.unaryop, ast.cmpop)  # stateless: shared, not copied


def _fill(node: Any, parts: dict[str, Any]) -> Any:
    """A fresh copy of a template node with its placeholder names replaced (no location attributes)."""
    if node.__class__ is list:
        out = []
        for child in node:
            if (child.__class__ is ast.Expr and child.value.__class__ is ast.Name
                    and isinstance(parts.get(child.value.id), list)):
                out.extend(parts[child.value.id])  # a statement placeholder: splice the statements in
            else:
                out.append(_fill(child, parts))
        return out
    cls = node.__class__
    if cls is ast.Name:
        part = parts.get(node.id)
        if part is None:
            return ast.Name(node.id, node.ctx)
        if isinstance(part, str):  # a name placeholder: a local chosen by the compiler
            return ast.Name(part, node.ctx)
        return part
    if cls is ast.arg and isinstance(parts.get(node.arg), str):  # a lambda's parameter
        return ast.arg(parts[node.arg])
    if isinstance(node, _SHARED):
        return node
    new = cls.__new__(cls)
    for field in node._fields:
        value = getattr(node, field, None)
        if value.__class__ is list or isinstance(value, ast.AST):
            value = _fill(value, parts)
        setattr(new, field, value)
    return new


def expr(src: str, **parts: Any) -> ast.expr:
    """An expression from a template: UPPERCASE names in `src` are placeholders for `parts`."""
    return _fill(_template(src)[0].value, parts)


def stmts(src: str, **parts: Any) -> list[ast.stmt]:
    """Statements from a template; a placeholder standing alone on a line splices a statement list."""
    return _fill(_template(src), parts)


def const(value: Any) -> ast.expr:
    return ast.Constant(value)


def stamp(nodes: list[ast.stmt], line: int) -> list[ast.stmt]:
    """Give these statements this line; nodes inside them without one inherit it when compiled.

    Nested DSL statements were stamped with their own line first, so an error points at the innermost one.
    """
    for node in nodes:
        if getattr(node, "lineno", None) is None:
            node.lineno = node.end_lineno = line
            node.col_offset = node.end_col_offset = 0
    return nodes


class Unit:
    """One generated function in the making: its globals, its locals and the DSL positions of its lines."""

    def __init__(self, where: Where, helpers: dict[str, Any]) -> None:
        self.globals: dict[str, Any] = {"__builtins__": _SAFE_BUILTINS, **helpers}
        self.wheres = [where, where]  # line 1 is the function itself (the whole DSL text)
        self._ids: dict[int, str] = {}
        self.temps = 0
        self.functions = 0

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

    def line(self, where: Where) -> int:
        """A new line number standing for the DSL position `where()` names (computed only for an error)."""
        self.wheres.append(where)
        return len(self.wheres) - 1

    def function(self, name: str, body: list[ast.stmt], prologue: list[ast.stmt]) -> FunctionType:
        """`def name(ctx): prologue; body`, any content fault re-raised at its DSL statement.

        It is checked and compiled on its first call (the function object then swaps in the real
        code): the linter builds every DSL text of a pack for its diagnostics but runs none of them.
        """
        locate = self.ref(_locator(self.wheres), "L")
        catch = ast.Tuple([self.ref(e, "E") for e in (RuleError, *CONTENT_FAULTS)], ast.Load())
        guarded = stmts("try:\n    BODY\nexcept CATCH as exc:\n    raise LOCATE(exc, exc.__traceback__) from None",
                        BODY=body or [ast.Pass()], CATCH=catch, LOCATE=locate)
        module = ast.Module(stamp(stmts("def dsl(ctx):\n    BODY", BODY=stamp(prologue + guarded, 1)), 1), [])
        self.functions += 1
        finish = f"F{self.functions}"
        fn = FunctionType(_stub(finish), self.globals, name)

        def compile_now(ctx: Any) -> Any:
            check(module, self.globals)
            code = compile(ast.fix_missing_locations(module), "<dsl>", "exec")
            fn.__code__ = next(c for c in code.co_consts if isinstance(c, CodeType))
            return fn(ctx)
        self.globals[finish] = compile_now
        return fn


@cache
def _stub(finish: str) -> CodeType:
    """`def dsl(ctx): return FINISH(ctx)`: the code of a generated function until its first call."""
    code = compile(ast.parse(f"def dsl(ctx):\n    return {finish}(ctx)"), "<dsl>", "exec")
    return next(c for c in code.co_consts if isinstance(c, CodeType))


def _locator(wheres: list[Where]) -> Callable[[Exception, TracebackType | None], RuleError]:
    def locate(exc: Exception, tb: TracebackType | None) -> RuleError:
        line = tb.tb_lineno if tb is not None else 1
        return locate_error(exc, (wheres[line] if 0 < line < len(wheres) else wheres[1])())
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
