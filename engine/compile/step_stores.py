"""The quiet flow's step-name stores, kept only where something can read the name.

`State.step` names the flow step running. The quiet flow (engine/compile/flow.py: a game played through with no
trace and nobody watching) stores it at every step's start and end, but only a few places read it:
`Interpreter.ask` (the decision's step, the seat's view, a forced-decision note), whatever runs outside the
flow's own code (procedures, triggers, runtime calls that may fire triggers or end the game), a `raise` of
`stop` or `end_game` (the flow or the match goes on from there), and the flow's end (the final state is hashed).
The flow's own inline code between them (counters, seat loops, inline moves and draws, shuffles, work charges)
reads no step name, and a runaway's limit error names its place by line, not by step. So each store is

- dropped where no path from it reaches a reader before another store overwrites it (a step of inline code);
- else deferred to just before the first reader on each path, so that a store a rare fallback call alone
  needs (a draw from an empty deck, say) runs only on that path.

At every reader the name is the one the flow with all its stores would hold there (tests/test_quiet_flow.py).
"""

from __future__ import annotations

import ast
import copy
from dataclasses import dataclass, field

# calls that read no step name and run no content: builtins that call nothing they are given (a call inside
# their arguments, a generator's or a lambda's included, is looked at on its own), helpers of generated code,
# list and dict methods, and the interpreter's methods that only shuffle, count work or make a limit error
_BLIND_NAMES = frozenset({"len", "list", "tuple", "range", "any", "all", "sum", "int", "bool", "abs",
                          "rounds", "rounds_exhausted", "offer", "index"})
_BLIND_GAME = frozenset({"shuffle", "each", "spend", "out_of_work", "overrun", "stopped"})
_BLIND_METHODS = frozenset({"append", "pop", "remove", "extend", "insert", "clear", "get", "copy"})
# exceptions caught inside the flow: raised only by a `raise` or a call that may run content (both readers)
_FLOW_CATCHES = frozenset({"StopLoop", "GameOver"})


@dataclass(frozen=True)
class _At:
    """What the flow knows of the step name at a point: the store that made it (None: not known) and whether
    the state holds it (a deferred store has not run yet)."""

    key: str | None
    store: ast.stmt | None
    synced: bool


_NOBODY_READS = _At(None, None, True)   # no path from here reads the name before a store (or none reaches here)
_SYNCED = _At(None, None, True)          # the state holds the name, whichever it is


@dataclass
class _Loop:
    head_live: bool     # a path from the loop's head reads the name before a store
    after_live: bool    # one from after the loop does
    breaks: list[_At] = field(default_factory=list)


class StepStores:
    """Rewrites a flow body (its step stores assign `<state>.step`) keeping only the stores a reader needs."""

    def __init__(self, state: str) -> None:
        self.state = state
        self._live: dict[tuple[int, bool, bool, bool], bool] = {}

    def rewrite(self, body: list[ast.stmt]) -> list[ast.stmt]:
        out, at = self._block(body, _SYNCED, True, None)   # the flow starts with the state's name; its end reads it
        self._sync(at, out)
        return out or [ast.Pass()]

    # ---------------------------------------------------------------- what reads the name
    def _is_store(self, stmt: ast.stmt) -> bool:
        return isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 \
            and isinstance(target := stmt.targets[0], ast.Attribute) and target.attr == "step" \
            and isinstance(target.value, ast.Name) and target.value.id == self.state \
            and isinstance(stmt.value, ast.Constant | ast.Name)

    def _reads(self, node: ast.AST | None) -> bool:
        """`node` (a simple statement or an expression) may read the step name: a call that is not blind, a
        read of `<state>.step`, a `raise` other than a limit error's, a `return`."""
        if node is None:
            return False
        for sub in ast.walk(node):
            if isinstance(sub, ast.Call) and not self._blind(sub.func):
                return True
            if isinstance(sub, ast.Attribute) and sub.attr == "step" and isinstance(sub.value, ast.Name) \
                    and sub.value.id == self.state and isinstance(sub.ctx, ast.Load):
                return True
            if isinstance(sub, ast.Return | ast.Yield | ast.YieldFrom | ast.Await):
                return True
            if isinstance(sub, ast.Raise) and not _limit_error(sub.exc):
                return True
        return False

    @staticmethod
    def _blind(func: ast.expr) -> bool:
        if isinstance(func, ast.Name):
            return func.id in _BLIND_NAMES
        if isinstance(func, ast.Attribute):
            return func.attr in _BLIND_GAME if _is_game(func.value) else func.attr in _BLIND_METHODS
        return False

    def _plain_try(self, stmt: ast.Try) -> bool:
        """A `try` whose handlers catch only what the flow raises on purpose and whose `finally` is blind: its
        handlers start where a reader (synced) raised."""
        return all(isinstance(h.type, ast.Name) and h.type.id in _FLOW_CATCHES for h in stmt.handlers) \
            and not any(self._reads(s) or self._has_store(s) or _jumps(s) for s in stmt.finalbody)

    def _has_store(self, node: ast.AST) -> bool:
        return any(isinstance(s, ast.stmt) and self._is_store(s) for s in ast.walk(node))

    # ---------------------------------------------------------------- liveness (a path reads before a store)
    def _live_block(self, block: list[ast.stmt], out: bool, brk: bool, cont: bool) -> bool:
        for stmt in reversed(block):
            out = self._live_stmt(stmt, out, brk, cont)
        return out

    def _live_stmt(self, stmt: ast.stmt, out: bool, brk: bool, cont: bool) -> bool:
        key = (id(stmt), out, brk, cont)
        known = self._live.get(key)
        if known is None:
            known = self._live[key] = self._live_of(stmt, out, brk, cont)
        return known

    def _live_of(self, stmt: ast.stmt, out: bool, brk: bool, cont: bool) -> bool:
        if self._is_store(stmt):
            return False
        if isinstance(stmt, ast.Break):
            return brk
        if isinstance(stmt, ast.Continue):
            return cont
        if isinstance(stmt, ast.If):
            return self._reads(stmt.test) or self._live_block(stmt.body, out, brk, cont) \
                or self._live_block(stmt.orelse, out, brk, cont)
        if isinstance(stmt, ast.For | ast.While):
            return (isinstance(stmt, ast.For) and self._reads(stmt.iter)) or self._head_live(stmt, out, brk, cont)
        if isinstance(stmt, ast.Try):
            if not self._plain_try(stmt):
                return True
            return self._live_block(stmt.body, self._live_block(stmt.orelse, out, brk, cont), brk, cont)
        if _compound(stmt):
            return True
        return self._reads(stmt) or out

    def _head_live(self, loop: ast.For | ast.While, out: bool, brk: bool, cont: bool) -> bool:
        """At the loop's head (the least fixed point: each pass comes back to it)."""
        test = self._reads(loop.test) if isinstance(loop, ast.While) else False
        exit_live = self._live_block(loop.orelse, out, brk, cont)
        head = False
        while True:
            now = test or exit_live or self._live_block(loop.body, head, out, head)
            if now == head:
                return head
            head = now

    # ---------------------------------------------------------------- the rewrite
    def _block(self, block: list[ast.stmt], at: _At, out: bool, loop: _Loop | None) -> tuple[list[ast.stmt], _At]:
        brk = loop.after_live if loop else True
        cont = loop.head_live if loop else True
        afters = [out] * len(block)
        for i in range(len(block) - 2, -1, -1):
            afters[i] = self._live_stmt(block[i + 1], afters[i + 1], brk, cont)
        done: list[ast.stmt] = []
        for stmt, after in zip(block, afters, strict=True):
            at = self._stmt(stmt, at, after, loop, done)
        return done, at

    def _stmt(self, stmt: ast.stmt, at: _At, after: bool, loop: _Loop | None, done: list[ast.stmt]) -> _At:
        if self._is_store(stmt):
            assert isinstance(stmt, ast.Assign)
            return _At(ast.dump(stmt.value), stmt, False) if after else _NOBODY_READS   # deferred to a reader
        if isinstance(stmt, ast.Break | ast.Continue):
            return self._jump(stmt, at, loop, done)
        if isinstance(stmt, ast.If):
            return self._if(stmt, at, after, loop, done)
        if isinstance(stmt, ast.For | ast.While):
            return self._loop(stmt, at, after, loop, done)
        if isinstance(stmt, ast.Try) and self._plain_try(stmt):
            return self._try(stmt, at, after, loop, done)
        if isinstance(stmt, ast.Try) or _compound(stmt):   # kept as it is, its stores too
            self._sync(at, done)
            done.append(stmt)
            if loop is not None:
                loop.breaks.append(_SYNCED)
            return _SYNCED
        if self._reads(stmt):
            at = self._sync(at, done)
        done.append(stmt)
        return at

    def _jump(self, stmt: ast.Break | ast.Continue, at: _At, loop: _Loop | None, done: list[ast.stmt]) -> _At:
        """A `break` holds the name after the loop needs; a `continue`, the one its head needs."""
        assert loop is not None
        if isinstance(stmt, ast.Break):
            if loop.after_live:
                at = self._sync(at, done)
            loop.breaks.append(at if loop.after_live else _NOBODY_READS)
        elif loop.head_live:
            self._sync(at, done)
        done.append(stmt)
        return _NOBODY_READS   # (nothing after it runs)

    def _if(self, stmt: ast.If, at: _At, after: bool, loop: _Loop | None, done: list[ast.stmt]) -> _At:
        if self._reads(stmt.test):
            at = self._sync(at, done)
        body, then = self._block(stmt.body, at, after, loop)
        other, otherwise = self._block(stmt.orelse, at, after, loop)
        joined = self._join(after, [(then, body), (otherwise, other)])
        done.append(ast.copy_location(ast.If(stmt.test, body or [ast.Pass()], other), stmt))
        return joined

    def _loop(self, stmt: ast.For | ast.While, at: _At, after: bool, outer: _Loop | None,
              done: list[ast.stmt]) -> _At:
        brk = outer.after_live if outer else True
        cont = outer.head_live if outer else True
        if isinstance(stmt, ast.For) and self._reads(stmt.iter):
            at = self._sync(at, done)
        loop = _Loop(self._head_live(stmt, after, brk, cont), after)
        if loop.head_live:   # every way into the head holds the name
            self._sync(at, done)
            head = _SYNCED
        else:
            head = _NOBODY_READS
        body, end = self._block(stmt.body, head, loop.head_live, loop)
        if loop.head_live:
            self._sync(end, body)
        other, left = self._block(stmt.orelse, head, after, outer)
        joined = self._join(after, [(left, other), *((b, []) for b in loop.breaks)])
        new = copy.copy(stmt)
        new.body, new.orelse = body or [ast.Pass()], other
        done.append(new)
        return joined

    def _try(self, stmt: ast.Try, at: _At, after: bool, loop: _Loop | None, done: list[ast.stmt]) -> _At:
        brk = loop.after_live if loop else True
        cont = loop.head_live if loop else True
        body, end = self._block(stmt.body, at, self._live_block(stmt.orelse, after, brk, cont), loop)
        other, left = self._block(stmt.orelse, end, after, loop)
        ends = [(left, other)]
        handlers = []
        for handler in stmt.handlers:   # entered where a reader raised: the state holds the name
            caught, end = self._block(handler.body, _SYNCED, after, loop)
            ends.append((end, caught))
            handlers.append(ast.copy_location(ast.ExceptHandler(handler.type, handler.name, caught or [ast.Pass()]),
                                              handler))
        joined = self._join(after, ends)
        new = copy.copy(stmt)
        new.body, new.handlers, new.orelse = body or [ast.Pass()], handlers, other
        done.append(new)
        return joined

    @staticmethod
    def _sync(at: _At, done: list[ast.stmt]) -> _At:
        """Run the deferred store here (a reader follows)."""
        if at.synced:
            return at
        assert at.store is not None
        done.append(copy.deepcopy(at.store))
        return _At(at.key, at.store, True)

    def _join(self, after: bool, ends: list[tuple[_At, list[ast.stmt]]]) -> _At:
        """Where paths meet: one name if they agree on it, else each path's deferred store run at its end."""
        if not after:
            return _NOBODY_READS
        real = [(at, block) for at, block in ends if at is not _NOBODY_READS]
        if not real:
            return _NOBODY_READS
        keys = {at.key for at, _ in real}
        if len(keys) == 1 and None not in keys:
            first = real[0][0]
            return _At(first.key, first.store, all(at.synced for at, _ in real))
        for at, block in real:
            self._sync(at, block)
        return _SYNCED


def _limit_error(exc: ast.expr | None) -> bool:
    """`game.out_of_work(...)` or `game.overrun(...)`: a runaway's error, which names its place by line."""
    return isinstance(exc, ast.Call) and isinstance(exc.func, ast.Attribute) and _is_game(exc.func.value) \
        and exc.func.attr in ("out_of_work", "overrun")


def _is_game(node: ast.expr) -> bool:
    return isinstance(node, ast.Name) and node.id == "game"


def _compound(stmt: ast.stmt) -> bool:
    return any(isinstance(getattr(stmt, name, None), list) for name in ("body", "orelse", "finalbody", "handlers",
                                                                       "cases"))


def _jumps(node: ast.AST) -> bool:
    return any(isinstance(s, ast.Break | ast.Continue | ast.Return) for s in ast.walk(node))

