"""Compiling the `flow` section (rounds, phases, steps) into one generated function.

Each step kind is a small policy: `do` runs an effect, `each_player` runs
sub-steps per seat in turn order, `simultaneous` does the same but is the
place for hidden commitments that are revealed together afterwards, `if`,
`repeat` and `for` are the usual control structures. Every DSL text in the
flow is compiled into the same function (engine/compile/codegen.py), so a flow `for`
variable is a Python local the steps inside it read directly.
"""

from __future__ import annotations

import ast
import copy
from collections.abc import Callable, Mapping
from typing import Any

from engine.compile.acting import ACTING
from engine.compile.codegen import Unit, const, expr, stamp, stmts
from engine.compile.effect import EffectCompiler
from engine.compile.expr import paid, small
from engine.compile.inline_calls import inline_calls
from engine.compile.sink import Diagnostics
from engine.compile.step_stores import StepStores
from engine.dsl.parse import DslText
from engine.dsl.sites import SiteIndex
from engine.errors import RuleError
from engine.packs.source import SourceFile
from engine.runtime.context import Ctx
from engine.runtime.defs import Pack, Runner
from engine.runtime.limits import LimitError

MAX_ROUNDS = 10_000
STEP_KINDS = ("do", "each_player", "simultaneous", "if", "repeat", "for")
# Python blocks (see effect.py): loops and `try` count, an `if` does not (the `if K >= 0` around each step
# and the `if game.live` around a `do` are free)
FLOW_BLOCKS = {"each_player": 1, "simultaneous": 2, "repeat": 2, "for": 1}


class FlowCompiler:
    """Compiles the flow into one function: its texts come from `sites`, names are resolved against `pack`,
    problems go to `sink`."""

    def __init__(self, pack: Pack, procedures: Mapping[str, tuple[str, ...]], sink: Diagnostics, sites: SiteIndex,
                 src: SourceFile, path: tuple) -> None:
        self.pack = pack
        self.sink = sink
        self.sites = sites
        self.c = EffectCompiler(pack, DslText("", src, path), procedures, usage=pack.usage)
        self.c.unit.globals.update(seats=_seats, rounds=_rounds,
                                   rounds_exhausted=_rounds_exhausted)
        self.state = self.c.unit.temp()   # a local for `game.state` (one object for the whole match)
        self.first_step = self.c.unit.temp()   # the untraced flow's local for the step it started in
        self.observers = self.c.unit.temp()    # the untraced flow's local for `game.observers` (changed in place)

    def compile(self, data: Any) -> tuple[Runner, Runner, Runner]:
        """The flow three times: the traced function (keeps the flow position for forks; any match can run it);
        the same without that bookkeeping, for a match that keeps no trace from its start (a pausable match,
        a played-through one someone watches): `_untraced` cuts every node the trace needs out of a copy of the
        body, and only the step-name stores a reader needs stay (engine/compile/step_stores.py; telling an
        observer reads the name); and the quiet flow, for a game played through with no trace and nobody
        watching (benches, `Match.played`): the untraced one without its observer tests (`_quiet`)."""
        flow = self.c.dsl
        assert flow.src is not None
        body = self.steps(flow.src, flow.path, data)  # generated now: one function, run by every game
        self.c.dsl = flow  # the function is named for the flow, not for its last step's text
        prologue = stmts("S = game.state", S=self.state)
        first = stmts("F = S.step\nW = game.observers", F=self.first_step, S=self.state, W=self.observers)

        def untraced() -> list[ast.stmt]:
            return [*first, *_untraced(body, self.state, self.observers, self.c.unit.temp)]

        return (self.c.function(lambda c: [*prologue, *body]),
                self.c.function(lambda c: [*prologue, *StepStores(self.state).rewrite(untraced())], "untraced"),
                self.c.function(lambda c: [*prologue, *_quiet(untraced(), self.state, self.observers, self.c.unit)],
                                "quiet"))

    def steps(self, src: SourceFile, path: tuple, data: Any, prefix: str = "") -> list[ast.stmt]:
        return [node for i, d in enumerate(data or []) for node in self.step(src, (*path, i), d, prefix)]

    # ---------------------------------------------------------------- DSL inside the flow
    def _dsl(self, src: SourceFile, path: tuple, start: str) -> Any:
        """Parse the flow's DSL text at `path` (a site, engine/dsl/sites.py) with the shared compiler pointed
        at it; None if it does not parse."""
        dsl = self.sink.text(src, path, self.sites.text(src, path, ""))
        tree = dsl.parse(start)
        self.c.dsl = dsl
        return tree

    def _expr(self, src: SourceFile, path: tuple) -> ast.expr:
        tree = self._dsl(src, path, "expr")
        return const(0) if tree is None else self.c.expr(tree)

    def _where(self, src: SourceFile, path: tuple) -> int:
        def where() -> str:
            line, col = src.pos(path)
            return f"{src.display}:{line}:{col}"
        return self.c.unit.line(where)

    # ---------------------------------------------------------------- steps
    def step(self, src: SourceFile, path: tuple, d: Any, prefix: str) -> list[ast.stmt]:
        sid = f"{prefix}{d.get('id', path[-1])}"
        kinds = [k for k in STEP_KINDS if k in d]
        if len(kinds) != 1:
            self.sink.error(src, path, "FLOW001", f"step '{sid}' needs exactly one of {', '.join(STEP_KINDS)}"
                         f" (has {', '.join(kinds) or 'none'})")
            return []
        weight = FLOW_BLOCKS.get(kinds[0], 0)
        with self.c.nested(weight, lambda: self.sink.error(src, path, "DSL006", self.c.too_deep_message())):
            body = getattr(self, f"_{kinds[0]}")(src, path, d, sid + "/")
        listened = self.pack.listened  # most steps have no listener: no event is built
        start = stmts("if game.live:\n    game.emit('step_start', ctx.seat, {'step': N})", N=const(sid)) \
            if "step_start" in listened else []
        end = stmts("if game.live:\n    game.emit('step_end', ctx.seat, {'step': N})", N=const(sid)) \
            if "step_end" in listened else []
        outer, slot = self.c.unit.temp(), self.c.unit.temp()
        # enter_step/exit_step keep the flow position (engine/runtime/interpreter.py): K < 0 skips a step
        # already done while a fork catches up with its checkpoint; a quiet game (no trace, nobody watching)
        # keeps none
        code = stmts("O = S.step\nS.step = N\nK = 0 if game.quiet else game.enter_step()\n"
                     "if K >= 0:\n    START\n    BODY\n    END\n    if not game.quiet:\n"
                     "        game.exit_step(K)\nS.step = O", O=outer, S=self.state,
                     N=const(sid), K=slot, START=start or [ast.Pass()], BODY=body or [ast.Pass()],
                     END=end or [ast.Pass()])
        if code:   # untraced: only observers hear of the step; a step that ends normally leaves its parent's
            # name (the step the flow started in, at the top), which is what the traced flow restores
            _untraced_as(code[0], [])
            _untraced_as(code[2], stmts("if game.observers:\n    game.step_started()"))
            _untraced_as(code[3], [*start, *body, *end])
            _untraced_as(code[4], stmts("S.step = P", S=self.state,
                                        P=const(prefix[:-1]) if prefix else ast.Name(self.first_step, ast.Load())))
        return stamp(code, self._where(src, path))

    def _do(self, src: SourceFile, path: tuple, d: Any, prefix: str) -> list[ast.stmt]:
        tree = self._dsl(src, (*path, "do"), "effect")
        if tree is None:
            return []
        effect = self.c.effect(tree).body
        code = stmts("if game.live:\n    BODY", BODY=effect or [ast.Pass()])
        if code:   # untraced: always live (only a fork catching up with its trace is not)
            _untraced_as(code[0], effect)
        return code

    def _per_player(self, src: SourceFile, path: tuple, d: Any, key: str, prefix: str) -> list[ast.stmt]:
        # `order` is read for each seat in turn: a lambda over a context acting for that seat
        if "order" in d:
            with self.c.acting_as(None):   # the lambda's `ctx` acts for each seat in turn
                seats = expr("seats(ctx, lambda ctx: X)", X=self._expr(src, (*path, "order")))
        elif "first_player" in self.pack.counters:
            seats = expr("game.turn_order()")
        else:   # `turn_order` without the call: the order a rule set, else clockwise from seat 0
            order = self.c.unit.temp()
            seats = expr("O if (O := S.order) is not None else game.clockwise", O=order, S=self.state)
        seats = self._traced(seats)
        me = self.c.unit.temp(ACTING)
        with self.c.acting_as(me):
            body = self.steps(src, (*path, key), d[key], prefix)
        outer, seat = self.c.unit.temp(), self.c.unit.temp()
        code = stmts("O = ctx.seat\nfor S in SEATS:\n    ST.turns += 1\n    ctx.seat = S\n"
                     "    ME = game.seats[S]\n    BODY\nctx.seat = O", O=outer, S=seat, ST=self.state, SEATS=seats,
                     ME=me, BODY=body or [ast.Pass()])
        code[1].cog_seat_loop = True  # type: ignore[attr-defined]  # (`_after_seat_loops`)
        return code

    def _each_player(self, src: SourceFile, path: tuple, d: Any, prefix: str) -> list[ast.stmt]:
        return self._per_player(src, path, d, "each_player", prefix)

    def _simultaneous(self, src: SourceFile, path: tuple, d: Any, prefix: str) -> list[ast.stmt]:
        commit = self._per_player(src, path, d, "simultaneous", prefix)
        reveal = [str(z) for z in d.get("reveal", []) or []]
        for i, zid in enumerate(reveal):
            if zid not in self.pack.zones:
                self.sink.error(src, (*path, "reveal", i), "REF001", f"unknown zone '{zid}'")
        body = commit + [node for zid in reveal if zid in self.pack.zones for node in self._reveal(zid)]
        # the answers from here to the end of the reveal are secret: the state says since when (the outermost
        # step's start; `State.secret_since`), for samples that must not keep the other seats' answers
        outermost = self.c.unit.temp()
        return stmts("F = S.secret_since is None\nif F:\n    S.secret_since = S.decisions\ntry:\n    BODY\n"
                     "finally:\n    if F:\n        S.secret_since = None", F=outermost, S=self.state,
                     BODY=body or [ast.Pass()])

    def _reveal(self, zid: str) -> list[ast.stmt]:
        """A `simultaneous` step's `reveal` of one zone: the shared one, or every player's in seat order."""
        if self.pack.zones[zid].scope == "global":
            return self.c.turned(expr("S.zones[Z]", S=self.state, Z=const(zid)), "reveal")
        player = self.c.unit.temp()
        return stmts("for P in S.players:\n    REVEAL", P=player, S=self.state,
                     REVEAL=self.c.turned(expr("P.zones[Z]", P=player, Z=const(zid)), "reveal"))

    def _if(self, src: SourceFile, path: tuple, d: Any, prefix: str) -> list[ast.stmt]:
        cond = self._expr(src, (*path, "if"))
        then = self.steps(src, (*path, "then"), d.get("then"), prefix)
        other = self.steps(src, (*path, "else"), d.get("else"), prefix)
        return [ast.If(self._traced(cond), then or [ast.Pass()], other)]

    def _repeat(self, src: SourceFile, path: tuple, d: Any, prefix: str) -> list[ast.stmt]:
        spec = d["repeat"] or {}
        count = self._traced(expr("rounds(C)", C=self._expr(src, (*path, "repeat", "count")))) if "count" in spec \
            else const(MAX_ROUNDS)
        until = self._traced(self._expr(src, (*path, "repeat", "until"))) if "until" in spec else None
        counter = spec.get("counter")
        if counter is not None and counter not in self.pack.counters:
            self.sink.error(src, (*path, "repeat", "counter"), "REF001", f"unknown counter '{counter}'")
            counter = None
        body = self.steps(src, (*path, "steps"), d.get("steps"), prefix)
        n, limit = self.c.unit.temp(), self.c.unit.temp()
        # the pass number in the counter: a dict store where nothing else depends on it (effect.py)
        mark: list[ast.stmt] | None = []
        if counter is not None:
            mark = self.c.quick_counter(counter, "set", small(ast.Name(n, ast.Load())))
            cdef = self.pack.counters[counter]
            if mark and cdef.scope == "global" and cdef.min <= 1 and (cdef.max is None or cdef.max >= MAX_ROUNDS):
                # the pass number (an int from 1 to MAX_ROUNDS) is within the counter's bounds: stored as it is
                mark = stmts("S.counters[C] = N", S=self.state, C=const(counter), N=n)
            mark = mark or stmts("game.set_counter(ctx, C, N)", C=const(counter), N=n)
        stop = [ast.If(until, [ast.Break()], [])] if until is not None else []
        # no `count`: the game should end (`until`, `end_game`) long before MAX_ROUNDS passes; reaching
        # it means it never would, and stopping there quietly would print winners of a game not over
        line, col = src.key_pos((*path, "repeat"))
        endless = [] if "count" in spec else stmts("rounds_exhausted(W)", W=const(f"{src.display}:{line}:{col}"))
        code = stmts("N = 0\nLIMIT = COUNT\ntry:\n    while N < LIMIT:\n        N += 1\n"
                     "        game.round_started(N)\n        MARK\n        BODY\n        STOP\n"
                     "    else:\n        ENDLESS\nexcept StopLoop:\n    game.stopped()", N=n, LIMIT=limit, COUNT=count,
                     MARK=mark or [ast.Pass()], BODY=body or [ast.Pass()], STOP=stop or [ast.Pass()],
                     ENDLESS=endless or [ast.Pass()])
        # the untraced flow (always live) does what `round_started` does inline: a call less per round
        loop = code[2]
        assert isinstance(loop, ast.Try) and isinstance(loop.body[0], ast.While)
        started = loop.body[0].body[1]
        assert isinstance(started, ast.Expr)
        _untraced_as(started, stmts("S.rounds += 1\nS.work += 1\nif S.work > game.work_limit:\n"
                                    "    raise game.out_of_work('a flow repeat')\nif game.observers:\n"
                                    "    game.round_told(N)", S=self.state, N=n))
        return code

    def _for(self, src: SourceFile, path: tuple, d: Any, prefix: str) -> list[ast.stmt]:
        spec = d["for"] or {}
        coll = self._expr(src, (*path, "for", "in"))
        py, saved = self.c.bind(str(spec.get("var", "x")))
        body = self.steps(src, (*path, "steps"), d.get("steps"), prefix)
        self.c.scope = saved
        coll = self._traced(expr("list(C)", C=paid(self.c.snapshot(coll))))
        return stmts("for V in C:\n    BODY", V=py, C=coll, BODY=body or [ast.Pass()])

    def _traced(self, value: ast.expr) -> ast.expr:
        """A value the flow's shape depends on, kept in the flow trace so a fork can retrace the shape."""
        return _untraced_as(expr("X if game.quiet else game.traced(X) if game.live else game.untrace()", X=value),
                            value)


# ---------------------------------------------------------------- the untraced flow
def _untraced_as(node: Any, plain: Any) -> Any:
    """Mark a node of the flow's trace bookkeeping: in the untraced flow it becomes `plain` (an expression
    for an expression; a statement list, possibly empty, for a statement)."""
    node.cog_untraced = plain
    return node


class _Untrace(ast.NodeTransformer):
    def visit(self, node: ast.AST) -> Any:
        plain = getattr(node, "cog_untraced", None)
        if plain is None:
            return self.generic_visit(node)
        if isinstance(plain, list):
            out: list[ast.stmt] = []
            for stmt in plain:
                done = self.visit(stmt)
                out.extend(done if isinstance(done, list) else [done])
            return out or [ast.Pass()]   # a block must keep a statement
        return self.visit(plain)


class _OutsideNested(ast.NodeTransformer):
    """A rewrite of the flow's own code to read a local: not inside lambdas and comprehensions (where a local
    would become a closure cell)."""

    def _nested(self, node: ast.AST) -> ast.AST:
        return node

    visit_Lambda = visit_ListComp = visit_SetComp = visit_DictComp = visit_GeneratorExp = _nested  # noqa: N815


class _GameReads(_OutsideNested):
    """`game.state` and `game.observers` read from the flow's locals (the match's one state; its observers
    list, which `watch` and `unwatch` change in place)."""

    def __init__(self, state: str, observers: str) -> None:
        self.locals = {"state": state, "observers": observers}

    def visit_Attribute(self, node: ast.Attribute) -> ast.AST:
        local = self.locals.get(node.attr)
        if local is not None and isinstance(node.ctx, ast.Load) and isinstance(node.value, ast.Name) \
                and node.value.id == "game":
            return ast.copy_location(ast.Name(local, ast.Load()), node)
        return self.generic_visit(node)


class _SharedZones(_OutsideNested):
    """`S.zones['ID']` (a shared zone of the flow's one state, whose zones dict is made once with every shared
    zone in it and never changes) read from a local set at the flow's start, outside lambdas and comprehensions:
    a local read instead of an attribute read and a dict lookup."""

    def __init__(self, state: str, temp: Callable[[], str]) -> None:
        self.state, self.temp = state, temp
        self.found: dict[str, str] = {}   # zone id -> its local

    def visit_Subscript(self, node: ast.Subscript) -> ast.AST:
        read, key = node.value, node.slice
        if isinstance(node.ctx, ast.Load) and isinstance(key, ast.Constant) and isinstance(key.value, str) \
                and isinstance(read, ast.Attribute) and read.attr == "zones" and isinstance(read.value, ast.Name) \
                and read.value.id == self.state:
            local = self.found.get(key.value)
            if local is None:
                local = self.found[key.value] = self.temp()
            return ast.copy_location(ast.Name(local, ast.Load()), node)
        return self.generic_visit(node)

    def reads(self) -> list[ast.stmt]:
        return [node for zid, local in self.found.items()
                for node in stmts("L = S.zones[Z]", L=local, S=self.state, Z=const(zid))]


# ---------------------------------------------------------------- the quiet flow
def _quiet(untraced: list[ast.stmt], state: str, observers: str, unit: Unit) -> list[ast.stmt]:
    """The untraced flow for a game nobody watches (`Match._play_through` runs it only then, and nobody may
    subscribe while it runs): its observer tests decided (the `observers` local is an empty list) and its
    step-name stores kept only where something reads the name (engine/compile/step_stores.py). An observers
    local read other than as a test keeps its list."""
    module = ast.Module(untraced, [])
    if _only_tested(module, observers):
        module = _Unobserved(observers).visit(module)
        for node in ast.walk(module):   # a block the fold emptied keeps a statement
            body = getattr(node, "body", None)
            if node is not module and isinstance(body, list) and not body:
                body.append(ast.Pass())
            if isinstance(node, ast.Try) and not node.handlers and not node.finalbody:
                node.finalbody.append(ast.Pass())
    return StepStores(state).rewrite(inline_calls(_without_passes(module.body), unit))


def _only_tested(module: ast.Module, name: str) -> bool:
    """Every read of the local `name` is a test's truth (of an `if`, a conditional expression, `or`, `and`,
    `not` within one)."""
    tested: set[int] = set()

    def test(node: ast.expr) -> None:
        tested.add(id(node))
        if isinstance(node, ast.BoolOp):
            for value in node.values:
                test(value)
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            test(node.operand)

    for node in ast.walk(module):
        if isinstance(node, ast.If | ast.IfExp | ast.While):
            test(node.test)
    return all(id(node) in tested for node in ast.walk(module)
               if isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Load))


class _Unobserved(ast.NodeTransformer):
    """The observers local read as an empty list's truth (False) and the tests it decides folded away; its
    assignment dropped."""

    def __init__(self, name: str) -> None:
        self.name = name

    def visit_Assign(self, node: ast.Assign) -> Any:
        if len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) and node.targets[0].id == self.name:
            return None
        return self.generic_visit(node)

    def visit_Name(self, node: ast.Name) -> ast.AST:
        if node.id == self.name and isinstance(node.ctx, ast.Load):
            return ast.copy_location(ast.Constant(False), node)
        return node

    def visit_BoolOp(self, node: ast.BoolOp) -> ast.AST:
        tested = any(isinstance(v, ast.Name) and v.id == self.name for v in node.values)   # (only in a test)
        self.generic_visit(node)
        if isinstance(node.op, ast.Or):   # `False or X` is X; `X or False`, in a test, is X's truth
            last = node.values[-1]
            node.values = [v for v in node.values[:-1] if not _false(v)] + ([] if tested and _false(last) else [last])
            if not node.values:
                return ast.copy_location(ast.Constant(False), node)
        elif _false(node.values[0]):      # `False and X` is False, X not evaluated
            return ast.copy_location(ast.Constant(False), node)
        return node.values[0] if len(node.values) == 1 else node

    def visit_UnaryOp(self, node: ast.UnaryOp) -> ast.AST:
        self.generic_visit(node)
        if isinstance(node.op, ast.Not) and isinstance(node.operand, ast.Constant):
            return ast.copy_location(ast.Constant(not node.operand.value), node)
        return node

    def visit_If(self, node: ast.If) -> Any:
        self.generic_visit(node)
        if isinstance(node.test, ast.Constant):
            return (node.body if node.test.value else node.orelse) or None
        return node

    def visit_IfExp(self, node: ast.IfExp) -> ast.AST:
        self.generic_visit(node)
        if isinstance(node.test, ast.Constant):
            return node.body if node.test.value else node.orelse
        return node


def _false(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and node.value is False


def _without_passes(block: list[ast.stmt]) -> list[ast.stmt]:
    """`block` and the blocks inside it without the `pass`es a fold left (a block keeps one if it had nothing
    else)."""
    for node in ast.walk(ast.Module(block, [])):
        for name in ("body", "orelse", "finalbody"):
            inner = getattr(node, name, None)
            if isinstance(inner, list) and inner and isinstance(inner[0], ast.stmt):
                inner[:] = [s for s in inner if s.__class__ is not ast.Pass] or inner[:1]
    return [s for s in block if s.__class__ is not ast.Pass] or block[:1]


def _untraced(body: list[ast.stmt], state: str, observers: str, temp: Callable[[], str]) -> list[ast.stmt]:
    """A copy of the flow's body without its trace bookkeeping (the nodes `_untraced_as` marked), reading
    `game.state` and `game.observers` from the locals `state` and `observers`, and the shared zones from locals
    set at its start (`temp` names them)."""
    module = _GameReads(state, observers).visit(_Untrace().visit(ast.Module(copy.deepcopy(body), [])))
    shared = _SharedZones(state, temp)
    module = shared.visit(module)
    module.body[:0] = shared.reads()
    for node in ast.walk(module):
        for field in ("body", "orelse", "finalbody"):
            block = getattr(node, field, None)
            if isinstance(block, list) and block and isinstance(block[0], ast.stmt):
                block[:] = _live_step_stores(block)
    for node in ast.walk(module):
        for field in ("body", "orelse", "finalbody"):
            block = getattr(node, field, None)
            if isinstance(block, list) and any(getattr(stmt, "cog_seat_loop", False) for stmt in block):
                block[:] = _live_step_stores(_after_seat_loops(block))
    return module.body or [ast.Pass()]


def _after_seat_loops(block: list[ast.stmt]) -> list[ast.stmt]:
    """`block` with the step store that ends each pass of a seat loop (`_per_player`: the name of the step the
    loop runs in, put back) made once, after the loop and the restore of `ctx.seat` that follows it. The next
    pass's first statements (the turn count, the seat, its player) read no step name before its first step
    stores its own; a loop of no pass leaves the name the store would put back; a pass that ends by an
    exception ends before the store either way."""
    out: list[ast.stmt] = []
    moved: ast.stmt | None = None
    for stmt in block:
        out.append(stmt)
        if moved is not None:      # after the loop's `ctx.seat = O`
            out.append(moved)
            moved = None
        if getattr(stmt, "cog_seat_loop", False) and isinstance(stmt, ast.For) and len(stmt.body) > 4 \
                and _stores_step(stmt.body[3]) and _stores_step(stmt.body[-1]):   # (3: the pass's own statements)
            moved = stmt.body.pop()
    if moved is not None:
        out.append(moved)
    return out


def _live_step_stores(block: list[ast.stmt]) -> list[ast.stmt]:
    """`block` without its `pass`es (what the bookkeeping cut left) and without a store of the step name that
    the next statement overwrites (a step's end, then its sibling's start: nothing runs in between)."""
    block = [stmt for stmt in block if stmt.__class__ is not ast.Pass] or block[:1]
    return [stmt for stmt, after in zip(block, [*block[1:], None], strict=True)
            if not (_stores_step(stmt) and _stores_step(after))]


def _stores_step(stmt: ast.stmt | None) -> bool:
    return isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Attribute) \
        and stmt.targets[0].attr == "step"


def _rounds(count: Any) -> int:
    """A flow `repeat`'s count, refused past MAX_ROUNDS passes (the schema refuses a larger number written out)."""
    count = int(count)
    if count > MAX_ROUNDS:
        raise LimitError(f"a flow repeat of {count:,} passes; the limit is {MAX_ROUNDS:,}")
    return count


def _seats(ctx: Ctx, order: Any) -> list[int]:
    """The seats sorted by the step's `order` expression (ties in turn order from the first player)."""
    return sorted(ctx.game.turn_order(), key=lambda s: order(Ctx(ctx.game, s)))


def _rounds_exhausted(where: str) -> None:
    raise RuleError(f"the flow repeated {MAX_ROUNDS:,} times without ending the game (its `until` never held);"
                    f" give the repeat a `count`, or an `until` the game reaches", where)
