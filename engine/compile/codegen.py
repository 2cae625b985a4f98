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
a few builtins, and no attribute may be a dunder but `__class__` and
`__traceback__`. Nothing is `eval`'d or `exec`'d; the function object is made
from the code object.

Code is generated lazily: loading a pack compiles every text under
`checking_only()` (names resolved, problems reported, no code built) and a
function builds, checks and compiles its body on its first call.

Run-time errors name the DSL statement that failed: every statement's nodes
carry a line number that indexes the DSL positions of that text, and the
function's one `except` clause maps the traceback's line back to the position.
"""

from __future__ import annotations

import ast
import builtins
from collections.abc import Callable
from contextvars import ContextVar
from functools import cache
from types import CodeType, FunctionType, TracebackType
from typing import Any

from engine.compile.leaf import runs_no_rules
from engine.errors import CONTENT_FAULTS, RuleError, locate_error
from engine.runtime.limits import CALL_WORK, MAX_CALL_DEPTH, LimitError

_BUILTINS = ("len", "int", "bool", "str", "list", "range", "sum", "min", "max", "abs", "sorted", "any", "isinstance")
Where = Callable[[], str]  # a DSL position, `file:line:col`, worked out only when an error needs it
_GENERATING: ContextVar[bool] = ContextVar("cogwork_generating", default=True)  # see checking_only()
_SAFE_BUILTINS = {name: getattr(builtins, name) for name in _BUILTINS}
_FAULTS = (RuleError, *CONTENT_FAULTS)  # what a content mistake raises; re-raised at its DSL statement
_DUNDERS = ("__class__", "__traceback__")  # type tests and the error locator
_LOCALS = ("ctx", "exc", "game")  # the locals templates use; DSL locals are v_NAME, temporaries t_N


_SHARED = (ast.expr_context, ast.boolop, ast.operator, ast.unaryop, ast.cmpop)  # stateless: shared, not copied


@cache
def _template(src: str) -> Callable[[dict[str, Any]], list[ast.stmt]]:
    """A template turned into a function that builds a fresh copy of its statements, placeholders filled.

    The builder is a chain of `ast` constructor calls made once per template (from engine text only, so
    it needs no check): copying a parsed template node by node in Python was a quarter of a pack's load.
    """
    refs: dict[str, Any] = {"__builtins__": {}, "name_part": _name_part}

    def ref(value: Any) -> ast.Name:
        name = f"R{len(refs)}"
        refs[name] = value
        return ast.Name(name, ast.Load())

    def part(name: str) -> ast.expr:
        return ast.Subscript(ast.Name("parts", ast.Load()), ast.Constant(name), ast.Load())

    def build(node: Any) -> ast.expr:
        if isinstance(node, list):  # a placeholder standing alone as a statement splices a statement list
            return ast.List([ast.Starred(part(c.value.id), ast.Load()) if _is_hole(c) else build(c) for c in node],
                            ast.Load())
        if isinstance(node, ast.Name) and node.id.isupper():
            return ast.Call(ast.Name("name_part", ast.Load()), [part(node.id), ref(node.ctx)], [])
        if isinstance(node, ast.arg) and node.arg.isupper():
            return ast.Call(ref(ast.arg), [part(node.arg)], [])
        if isinstance(node, _SHARED):
            return ref(node)
        if isinstance(node, ast.AST):
            return ast.Call(ref(node.__class__), [build(getattr(node, f, None)) for f in node._fields], [])
        return ast.Constant(node)

    maker = ast.parse("def template(parts):\n    return None")
    define = maker.body[0]
    assert isinstance(define, ast.FunctionDef) and isinstance(define.body[0], ast.Return)
    define.body[0].value = build(ast.parse(src).body)
    code = compile(ast.fix_missing_locations(maker), "<template>", "exec")
    return FunctionType(next(c for c in code.co_consts if isinstance(c, CodeType)), refs)


def _is_hole(node: ast.stmt) -> bool:
    return isinstance(node, ast.Expr) and isinstance(node.value, ast.Name) and node.value.id.isupper()


def _name_part(part: Any, context: ast.expr_context) -> ast.expr:
    """A name placeholder: a local the compiler chose (a str), or any expression."""
    return ast.Name(part, context) if isinstance(part, str) else part


def expr(src: str, **parts: Any) -> ast.expr:
    """An expression from a template: UPPERCASE names in `src` are placeholders for `parts`."""
    if not _GENERATING.get():
        return ast.Constant(None)
    statement = _template(src)(parts)[0]
    assert isinstance(statement, ast.Expr)
    return statement.value


def stmts(src: str, **parts: Any) -> list[ast.stmt]:
    """Statements from a template; a placeholder standing alone on a line splices a statement list."""
    if not _GENERATING.get():
        return []
    return _template(src)(parts)


def generating() -> bool:
    """Code is being generated (not `checking_only`): the pack is complete, so facts of the whole pack hold."""
    return _GENERATING.get()


class checking_only:  # noqa: N801 - used as a function: `with checking_only():`
    """Within it the compilers resolve names, report problems and note usage, but templates build nothing.

    A pack's texts are compiled this way when it loads; a text's code is generated when it first runs
    (`Unit.function`), so loading or linting a pack pays only for the checks. A class, not a
    `@contextmanager`: it is entered once or twice per text (a generator costs twice as much).
    """

    __slots__ = ("_token",)

    def __enter__(self) -> None:
        self._token = _GENERATING.set(False)

    def __exit__(self, *exc: object) -> None:
        _GENERATING.reset(self._token)


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


_BUILTINS_WITH: dict[int, tuple[dict[str, Any], dict[str, Any]]] = {}   # id(helpers) -> (helpers, builtins)


def _builtins_with(helpers: dict[str, Any]) -> dict[str, Any]:
    """The `__builtins__` of every function made with `helpers`: the safe builtins, the content faults and
    the helpers. Shared, made once: a pack makes a `Unit` per DSL text, and a copy of them all in each
    text's globals was a tenth of the memory of a big pack's lint (and of its time, in page faults)."""
    kept = _BUILTINS_WITH.get(id(helpers))
    if kept is None or kept[0] is not helpers:
        kept = _BUILTINS_WITH[id(helpers)] = (helpers, {**_SAFE_BUILTINS, "content_faults": _FAULTS, **helpers})
    return kept[1]


class Unit:
    """One generated function in the making: its globals, its locals and the DSL positions of its lines."""

    def __init__(self, where: Where, helpers: dict[str, Any]) -> None:
        self.wheres = [where, where]  # line 1 is the function itself (the whole DSL text)
        # the helpers are builtins of the function (one shared dict): its globals hold only its own names
        self.globals: dict[str, Any] = {"__builtins__": _builtins_with(helpers), "located": _locator(self.wheres)}
        self._ids: dict[int, str] = {}
        self.temps = 0
        self.functions = 0
        self.asks_run_rules = True   # `game.ask` may run rules (anytime actions): the compiler says when not

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

    def function(self, name: str, make_body: Callable[[], list[ast.stmt]],
                 procedure: str | None = None) -> FunctionType:
        """`def name(ctx): ...` running the statements `make_body()` generates, with any content fault
        re-raised at its DSL statement; with `procedure`, the function of that procedure (see `module`).

        The body is generated, checked and compiled on the function's first call (the function object
        then swaps in the real code): most texts of a pack never run in a given game, and the linter
        runs none of them.
        """
        self.functions += 1
        finish = f"F{self.functions}"
        fn = FunctionType(_stub(finish), self.globals, name)
        self.globals[finish] = _Pending(self, fn, make_body, procedure)
        return fn

    def module(self, name: str, body: list[ast.stmt], procedure: str | None = None) -> ast.Module:
        """The module defining `def name(ctx)`: the prologue, then `body` guarded by the error locator.

        A procedure's function pays for its call and counts the procedures running (`game.call_depth`)
        itself, so `call NAME` is one Python call: a work unit check, then the depth, restored however
        the body ends (a procedure's `stop` ends its caller's `repeat`). The restore sits in the `try`
        every function has, so a procedure nests no deeper in Python blocks than any other text.
        Errors of the prologue are raised outside that `try`: the caller's statement is named.
        """
        read = _locals_read(body)
        head = "def dsl(ctx):\n    game = ctx.game\n" + ("    t_self = ctx.self_item\n" if "t_self" in read else "")
        if procedure is None:
            code = stmts(head + ("    t_state = game.state\n" if "t_state" in read else "") +
                         "    try:\n        BODY\n"
                         "    except content_faults as exc:\n        raise located(exc, exc.__traceback__) from None",
                         BODY=body or [ast.Pass()])
        else:
            code = stmts(head + "    t_state = game.state\n    CALLED",
                         CALLED=self.called(procedure, body, "t_depth", runs_no_rules(body, self.asks_run_rules)))
        assert isinstance(code[0], ast.FunctionDef)
        code[0].name = name  # any text: only tracebacks and profiles show it
        return ast.Module(stamp(code, 1), [])


    def called(self, procedure: str, body: list[ast.stmt], depth: str, leaf: bool,
               located: bool = True) -> list[ast.stmt]:
        """`body` as procedure `procedure` runs when called: its work unit paid, then the depth checked and
        counted in the local `depth`, restored however the body ends; a body that runs no other rules (`leaf`:
        engine/compile/leaf.py) only checks it (nothing reads the count while it runs). A content fault in the
        body is located there (`located`; a leaf inlined in a function that locates its own may leave it out).
        Both a procedure's own function (`module`) and a call written out in place (engine/compile/inline_calls.py)
        are made here: one text of the prologue, its limits and its errors."""
        locate = "try:\n    BODY\nexcept content_faults as exc:\n    raise located(exc, exc.__traceback__) from None"
        count = ("if game.call_depth >= DEPTH:\n    raise LIMIT(NESTED)\n" + (locate if located else "BODY")) \
            if leaf else \
            ("D = game.call_depth\nif D >= DEPTH:\n    raise LIMIT(NESTED)\ngame.call_depth = D + 1\n"
             "try:\n    BODY\nexcept content_faults as exc:\n    game.call_depth = D\n"
             "    raise located(exc, exc.__traceback__) from None\nexcept ANY:\n    game.call_depth = D\n"
             "    raise\ngame.call_depth = D")
        return stmts("t_state.work += WORK\nif t_state.work > game.work_limit:\n    raise game.out_of_work(CALLING)\n"
                     + count, D=depth, BODY=body or [ast.Pass()], WORK=const(CALL_WORK),
                     CALLING=const(f"calling '{procedure}'"), DEPTH=const(MAX_CALL_DEPTH), LIMIT=self.ref(LimitError),
                     ANY=self.ref(BaseException),
                     NESTED=const(f"procedure calls nested deeper than {MAX_CALL_DEPTH} (at '{procedure}'):"
                                  " recursion?"))


_PROLOGUE_LOCALS = frozenset({"t_self", "t_state"})


def _locals_read(body: list[ast.stmt]) -> set[str]:
    """Which of the prologue's optional locals generated statements read: `t_self` (the item `self` names)
    and `t_state` (`game.state`, read by inline charges). The prologue sets only those: a function runs
    for every trigger, attribute and procedure call, and most read neither."""
    return {node.id for stmt in body for node in ast.walk(stmt)
            if node.__class__ is ast.Name and node.id in _PROLOGUE_LOCALS}


class _Pending:
    """A generated function whose code is not built yet: built on its first call, or by `prepare`."""

    def __init__(self, unit: Unit, fn: FunctionType, make_body: Callable[[], list[ast.stmt]],
                 procedure: str | None = None) -> None:
        self.unit, self.fn, self.make_body, self.procedure = unit, fn, make_body, procedure

    def __call__(self, ctx: Any) -> Any:
        self.build()
        return self.fn(ctx)

    def build(self) -> None:
        token = _GENERATING.set(True)
        try:
            module = self.unit.module(self.fn.__name__, self.make_body(), self.procedure)
        finally:
            _GENERATING.reset(token)
        check(module, self.unit.globals)
        try:
            code = compile(ast.fix_missing_locations(module), "<dsl>", "exec")
        except (SyntaxError, RecursionError, MemoryError) as exc:  # lint's limits should make this unreachable
            raise RuleError(f"this text is too complex to compile ({type(exc).__name__}: {exc})",
                            self.unit.wheres[1]()) from None
        self.fn.__code__ = next(c for c in code.co_consts if isinstance(c, CodeType))


def procedure_body(fn: Any) -> tuple[Unit, str, list[ast.stmt]] | None:
    """For a procedure's generated function `fn`: its unit, the procedure's name and a fresh copy of the body its
    function runs (the prologue `Unit.module` wraps around it left out), for a caller that runs the body in its
    own function (engine/compile/inline_calls.py); None for any other function."""
    pending = next((value for value in getattr(fn, "__globals__", {}).values()
                    if isinstance(value, _Pending) and value.fn is fn), None)
    if pending is None or pending.procedure is None:
        return None
    token = _GENERATING.set(True)
    try:
        return pending.unit, pending.procedure, pending.make_body()
    finally:
        _GENERATING.reset(token)


def prepare(fn: Any) -> None:
    """Build a generated function's code now if it is still pending (tests build every text of a pack)."""
    code = getattr(fn, "__code__", None)
    pending = fn.__globals__.get(code.co_names[0]) if code is not None and code.co_names else None
    if isinstance(pending, _Pending) and pending.fn is fn:
        pending.build()


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
    """Refuse a tree that could reach anything but its locals, its own globals and its builtins (the safe
    builtins and the helpers).

    The compilers never build such a tree, so a refusal is a bug in them: an AssertionError, not a diagnostic.
    """
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            ok = node.id in globals_ or node.id in globals_.get("__builtins__", _SAFE_BUILTINS) \
                or node.id in _LOCALS or node.id.startswith(("v_", "t_"))
            if not ok:
                raise AssertionError(f"generated code reads an unknown name {node.id!r}")
        elif isinstance(node, ast.Attribute) and node.attr.startswith("__") and node.attr not in _DUNDERS:
            raise AssertionError(f"generated code reads a dunder attribute {node.attr!r}")
        elif isinstance(node, ast.Constant) and not isinstance(node.value, (str, int, bool, type(None))):
            raise AssertionError(f"generated code holds a constant of type {type(node.value).__name__}")
