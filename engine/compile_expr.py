"""Compiling DSL expressions and costs into closures, once, at load time.

Every name is resolved here (counter, zone, component, local variable), so a
typo becomes a diagnostic with a "did you mean" instead of a run-time error,
and running an expression is a plain Python call with no tree walking.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

from lark import Token, Tree

from engine.context import Ctx
from engine.diagnostics import did_you_mean
from engine.dsl import DslText
from engine.errors import RuleError
from engine.model import Item, PlayerRef, Zone
from engine.pack import Cost, Expr, Pack
from engine.usage import Usage
from engine.values import as_items, get_attr, item_actions

BUILTIN_NAMES = ("self", "event", "players", "option", "it", "me", "others", "everyone", "next_player")
PLAYER_ATTRS = {"seat"}
ITEM_BUILTINS = {"name", "id", "owner", "zone", "threshold", "label"}
_BINARY: dict[str, Callable[[Any, Any], Any]] = {
    "add": operator.add, "sub": operator.sub, "mul": operator.mul,
    "eq": operator.eq, "ne": operator.ne, "lt": operator.lt, "le": operator.le,
    "gt": operator.gt, "ge": operator.ge,
}


def _const(value: Any) -> Expr:
    return lambda ctx: value


def _div(a: Any, b: Any) -> int:
    if b == 0:
        raise RuleError("division by zero")
    return a // b


def _mod(a: Any, b: Any) -> int:
    if b == 0:
        raise RuleError("modulo by zero")
    return a % b


def _contains(a: Any, b: Any) -> bool:
    if isinstance(b, (list, tuple, str)):
        return a in b
    return a in as_items(b)


class ExprCompiler:
    """Turns parse trees of one DSL text into closures over a `Ctx`."""

    def __init__(self, pack: Pack, dsl: DslText, locals_: set[str] | None = None,
                 usage: Usage | None = None) -> None:
        self.pack = pack
        self.dsl = dsl
        self.usage = usage if usage is not None else Usage()
        self.locals: set[str] = set(locals_ or ())
        self.attr_names = _attr_names(pack)

    # ---------------------------------------------------------------- entry points
    def expr(self, tree: Tree | Token) -> Expr:
        method = getattr(self, f"_x_{tree.data}", None) if isinstance(tree, Tree) else None
        if method is None:
            self.dsl.error(tree, "DSL010", f"this is not an expression: {self.dsl.snippet(tree)}")
            return _const(0)
        return method(tree)

    def cost(self, tree: Tree) -> Cost:
        terms: list[tuple[Expr, str]] = []
        for term in tree.children:
            amount, name = term.children
            self.check_cost_name(name)
            self.usage.pay(str(name), self.dsl.place(name))
            terms.append((self.expr(amount), str(name)))
        return Cost(terms, self.dsl.snippet(tree))

    def with_local(self, name: str) -> set[str]:
        """Add a local variable; returns the previous set so the caller can restore it."""
        previous = self.locals
        self.locals = previous | {name}
        return previous

    def check_cost_name(self, name: Token) -> None:
        n = str(name)
        if n in self.pack.wildcards or n in self.pack.counters:
            self.usage.ref(n, self.dsl.place(name))
            return
        self.unknown(name, "counter or wildcard", [*self.pack.counters, *self.pack.wildcards])

    def unknown(self, tok: Token | Tree, kind: str, candidates: list[str]) -> None:
        word = str(tok) if isinstance(tok, Token) else self.dsl.snippet(tok)
        self.dsl.error(tok, "REF001", f"unknown {kind} '{word}'", did_you_mean(word, candidates))

    # ---------------------------------------------------------------- atoms
    def _x_number(self, t: Tree) -> Expr:
        return _const(int(t.children[0]))

    def _x_string(self, t: Tree) -> Expr:
        return _const(str(t.children[0])[1:-1])

    def _x_true(self, t: Tree) -> Expr:
        return _const(True)

    def _x_false(self, t: Tree) -> Expr:
        return _const(False)

    def _x_list(self, t: Tree) -> Expr:
        parts = [self.expr(c) for c in t.children if c is not None]
        return lambda ctx: [p(ctx) for p in parts]

    def _x_name(self, t: Tree) -> Expr:
        tok: Token = t.children[0]
        return self.name(tok)

    def name(self, tok: Token) -> Expr:
        n = str(tok)
        pack = self.pack
        if n in self.locals:
            return lambda ctx: ctx.vars[n]
        if n == "self":
            return lambda ctx: ctx.self_item
        if n == "event":
            return lambda ctx: ctx.event or {}
        if n == "players":
            return lambda ctx: len(ctx.game.state.players)
        if n == "option":
            return lambda ctx: ctx.game.options
        if n == "me":
            return lambda ctx: PlayerRef(ctx.game.acting(ctx.seat))
        if n == "next_player":
            return lambda ctx: PlayerRef((ctx.game.acting(ctx.seat) + 1) % len(ctx.game.state.players))
        if n == "others":
            return lambda ctx: ctx.game.players_from(ctx.game.acting(ctx.seat))[1:]
        if n == "everyone":
            return lambda ctx: ctx.game.players_from(ctx.game.state.counters.get("first_player", 0))
        if n in pack.counters or n in pack.zones or n in pack.components:
            self.usage.ref(n, self.dsl.place(tok))
        if n in pack.counters:
            return _counter_reader(pack, n)
        if n in pack.zones:
            if pack.zones[n].scope == "global":
                return lambda ctx: ctx.game.state.zones[n]
            return lambda ctx: ctx.game.state.players[ctx.seat].zones[n]
        if n in pack.components:
            return lambda ctx: ctx.game.instance(n, ctx.seat)
        self.unknown(tok, "name", [*self.locals, *pack.counters, *pack.zones, *pack.components,
                                   *BUILTIN_NAMES])
        return _const(0)

    # ---------------------------------------------------------------- operators
    def _binary(self, t: Tree, fn: Callable[[Any, Any], Any]) -> Expr:
        a, b = (self.expr(c) for c in t.children)
        literal = _literal(t.children[1])
        if literal is not None and fn in _WITH_LITERAL:  # `x == "gather"`, `n + 1`: one call fewer
            return _WITH_LITERAL[fn](a, literal[0])
        return lambda ctx: fn(a(ctx), b(ctx))

    def _x_add(self, t: Tree) -> Expr:
        return self._binary(t, _BINARY["add"])

    def _x_sub(self, t: Tree) -> Expr:
        return self._binary(t, _BINARY["sub"])

    def _x_mul(self, t: Tree) -> Expr:
        return self._binary(t, _BINARY["mul"])

    def _x_div(self, t: Tree) -> Expr:
        return self._binary(t, _div)

    def _x_mod(self, t: Tree) -> Expr:
        return self._binary(t, _mod)

    def _x_eq(self, t: Tree) -> Expr:
        return self._binary(t, _BINARY["eq"])

    def _x_ne(self, t: Tree) -> Expr:
        return self._binary(t, _BINARY["ne"])

    def _x_lt(self, t: Tree) -> Expr:
        return self._binary(t, _BINARY["lt"])

    def _x_le(self, t: Tree) -> Expr:
        return self._binary(t, _BINARY["le"])

    def _x_gt(self, t: Tree) -> Expr:
        return self._binary(t, _BINARY["gt"])

    def _x_ge(self, t: Tree) -> Expr:
        return self._binary(t, _BINARY["ge"])

    def _x_in_(self, t: Tree) -> Expr:
        return self._binary(t, _contains)

    def _x_and_(self, t: Tree) -> Expr:
        a, b = (self.expr(c) for c in t.children)
        return lambda ctx: bool(a(ctx)) and bool(b(ctx))

    def _x_or_(self, t: Tree) -> Expr:
        a, b = (self.expr(c) for c in t.children)
        return lambda ctx: bool(a(ctx)) or bool(b(ctx))

    def _x_not_(self, t: Tree) -> Expr:
        a = self.expr(t.children[0])
        return lambda ctx: not a(ctx)

    def _x_neg(self, t: Tree) -> Expr:
        a = self.expr(t.children[0])
        return lambda ctx: -a(ctx)

    def _x_attr(self, t: Tree) -> Expr:
        base_tree, name_tok = t.children
        name = str(name_tok)
        if _is_name(base_tree, "option"):
            if name not in self.pack.options:
                self.unknown(name_tok, "option", list(self.pack.options))
            return lambda ctx: bool(ctx.game.options.get(name, False))
        if not _is_name(base_tree, "event") and name not in self.attr_names:
            self.unknown(name_tok, "attribute", sorted(self.attr_names))
        base = self.expr(base_tree)
        if _plain_everywhere(self.pack, name):
            local = str(base_tree.children[0]) if _is_name(base_tree) and str(base_tree.children[0]) in self.locals \
                else None
            if local is not None:
                def plain_local(ctx: Ctx) -> Any:
                    obj = ctx.vars[local]
                    if obj.__class__ is Item and name in obj.attrs:  # `it.job`, `r.power`: no call for the base
                        return obj.attrs[name]
                    return get_attr(ctx, obj, name)
                return plain_local

            def plain(ctx: Ctx) -> Any:
                obj = base(ctx)
                if obj.__class__ is Item and name in obj.attrs:  # fast path: a stored int/str/bool/list value
                    return obj.attrs[name]
                return get_attr(ctx, obj, name)
            return plain
        return lambda ctx: get_attr(ctx, base(ctx), name)

    def _x_index(self, t: Tree) -> Expr:
        base, index = (self.expr(c) for c in t.children)

        def run(ctx: Ctx) -> Any:
            seq = as_items(base(ctx))
            i = int(index(ctx))
            if not 1 <= i <= len(seq):
                raise RuleError(f"index {i} is outside 1..{len(seq)}")
            return seq[i - 1]
        return run

    def _x_collection(self, t: Tree) -> Expr:
        """`COLL where COND`: the items for which COND holds, with `it` bound."""
        source = self.expr(t.children[0])
        saved = self.with_local("it")
        cond = self.expr(t.children[1])
        self.locals = saved

        def run(ctx: Ctx) -> list[Any]:
            old = ctx.vars.get("it")
            out = []
            src = source(ctx)
            for item in src.items if src.__class__ is Zone else as_items(src):  # conditions never move items
                ctx.vars["it"] = item
                if cond(ctx):
                    out.append(item)
            ctx.vars["it"] = old
            return out
        return run

    # ---------------------------------------------------------------- functions
    def _x_call_fn(self, t: Tree) -> Expr:
        name_tok, *args = t.children
        args = [a for a in args if a is not None]
        fname = str(name_tok)
        special = getattr(self, f"_fn_{fname}", None)
        if special is not None:
            return special(name_tok, args)
        self.unknown(name_tok, "function", [n[4:] for n in dir(self) if n.startswith("_fn_")])
        return _const(0)

    def _arity(self, tok: Token, args: list, low: int, high: int | None = None) -> bool:
        high = low if high is None else high
        if low <= len(args) <= high:
            return True
        want = str(low) if low == high else f"{low} to {high}"
        self.dsl.error(tok, "DSL011", f"{tok}() takes {want} arguments, got {len(args)}")
        return False

    def _fn_count(self, tok: Token, args: list) -> Expr:
        if not self._arity(tok, args, 1):
            return _const(0)
        coll = self.expr(args[0])

        def run(ctx: Ctx) -> int:
            value = coll(ctx)
            return len(value.items) if value.__class__ is Zone else len(as_items(value))
        return run

    def _fn_sum(self, tok: Token, args: list) -> Expr:
        if not self._arity(tok, args, 2):
            return _const(0)
        coll = self.expr(args[0])
        saved = self.with_local("it")
        value = self.expr(args[1])
        self.locals = saved

        def run(ctx: Ctx) -> int:
            old = ctx.vars.get("it")
            total = 0
            for item in as_items(coll(ctx)):
                ctx.vars["it"] = item
                total += int(value(ctx))
            ctx.vars["it"] = old
            return total
        return run

    def _fn_items(self, tok: Token, args: list) -> Expr:
        parts = [self.expr(a) for a in args]
        return lambda ctx: [i for p in parts for i in as_items(p(ctx))]

    def _fn_all(self, tok: Token, args: list) -> Expr:
        if not self._arity(tok, args, 1):
            return _const([])
        arg = args[0]
        tname = str(arg.children[0]) if _is_name(arg) else ""
        if tname not in self.pack.types:
            self.unknown(arg, "component type", list(self.pack.types))
            return _const([])
        self.usage.ref(tname, self.dsl.place(arg))
        return lambda ctx: ctx.game.all_of(tname, ctx.seat)

    def _fn_max(self, tok: Token, args: list) -> Expr:
        if not self._arity(tok, args, 1, 8):
            return _const(0)
        parts = [self.expr(a) for a in args]
        return lambda ctx: max(p(ctx) for p in parts)

    def _fn_min(self, tok: Token, args: list) -> Expr:
        if not self._arity(tok, args, 1, 8):
            return _const(0)
        parts = [self.expr(a) for a in args]
        return lambda ctx: min(p(ctx) for p in parts)

    def _fn_abs(self, tok: Token, args: list) -> Expr:
        if not self._arity(tok, args, 1):
            return _const(0)
        a = self.expr(args[0])
        return lambda ctx: abs(a(ctx))

    def _fn_rank(self, tok: Token, args: list) -> Expr:
        """rank(value, minimums): how many of the ascending minimums value reaches."""
        if not self._arity(tok, args, 2):
            return _const(0)
        value, table = (self.expr(a) for a in args)
        return lambda ctx: sum(1 for m in table(ctx) if value(ctx) >= m)

    def _fn_pick(self, tok: Token, args: list) -> Expr:
        """pick(list, i): the i-th element (1-based); 0 for i <= 0."""
        if not self._arity(tok, args, 2):
            return _const(0)
        table, index = (self.expr(a) for a in args)

        def run(ctx: Ctx) -> Any:
            seq, i = table(ctx), int(index(ctx))
            if i <= 0:
                return 0
            if i > len(seq):
                raise RuleError(f"pick: index {i} is outside 1..{len(seq)}")
            return seq[i - 1]
        return run

    def _fn_sorted(self, tok: Token, args: list) -> Expr:
        """sorted(COLL, KEY): the items in ascending order of KEY (with `it` bound); ties keep their order."""
        if not self._arity(tok, args, 2):
            return _const([])
        coll = self.expr(args[0])
        saved = self.with_local("it")
        key = self.expr(args[1])
        self.locals = saved

        def run(ctx: Ctx) -> list[Any]:
            old = ctx.vars.get("it")
            keyed = []
            for item in as_items(coll(ctx)):
                ctx.vars["it"] = item
                keyed.append((key(ctx), item))
            ctx.vars["it"] = old
            return [item for _, item in sorted(keyed, key=lambda pair: pair[0])]
        return run

    def _fn_range(self, tok: Token, args: list) -> Expr:
        """range(A, B): the numbers A..B inclusive (empty when B < A)."""
        if not self._arity(tok, args, 2):
            return _const([])
        low, high = (self.expr(a) for a in args)
        return lambda ctx: list(range(int(low(ctx)), int(high(ctx)) + 1))

    def _graph_args(self, tok: Token, args: list, n: int) -> list[Expr] | None:
        return [self.expr(a) for a in args] if self._arity(tok, args, n) else None

    def _fn_neighbors(self, tok: Token, args: list) -> Expr:
        """neighbors(SPACE): the spaces linked to it on its board, in definition order."""
        parts = self._graph_args(tok, args, 1)
        if parts is None:
            return _const([])
        (space,) = parts
        return lambda ctx: ctx.game.neighbors(space(ctx))

    def _fn_adjacent(self, tok: Token, args: list) -> Expr:
        parts = self._graph_args(tok, args, 2)
        if parts is None:
            return _const(False)
        a, b = parts
        return lambda ctx: ctx.game.graph_of(a(ctx)).adjacent(a(ctx).comp.id, b(ctx).comp.id)

    def _fn_distance(self, tok: Token, args: list) -> Expr:
        """distance(A, B): fewest links between two spaces of a board (-1: unreachable)."""
        parts = self._graph_args(tok, args, 2)
        if parts is None:
            return _const(0)
        a, b = parts
        return lambda ctx: ctx.game.graph_of(a(ctx)).distance(a(ctx).comp.id, b(ctx).comp.id)

    def _fn_roll(self, tok: Token, args: list) -> Expr:
        """roll(SIDES): a die roll from the game's seeded random generator."""
        if not self._arity(tok, args, 1):
            return _const(0)
        sides = self.expr(args[0])
        return lambda ctx: ctx.game.state.rng.randint(1, int(sides(ctx)))

    def _fn_actions(self, tok: Token, args: list) -> Expr:
        """actions(item): the item's actions whose `when` holds now."""
        if not self._arity(tok, args, 1):
            return _const([])
        item = self.expr(args[0])
        return lambda ctx: item_actions(ctx, item(ctx))

    def _fn_can_play(self, tok: Token, args: list) -> Expr:
        if not self._arity(tok, args, 2, 2):
            return _const(False)
        item, zone = (self.expr(a) for a in args)
        return lambda ctx: ctx.game.can_play(ctx, item(ctx), zone(ctx), free=False)

    def _fn_cost_uses(self, tok: Token, args: list) -> Expr:
        """cost_uses(item, NAME [, amount]): some alternative cost of item names NAME (that many)."""
        if not self._arity(tok, args, 2, 3):
            return _const(False)
        item = self.expr(args[0])
        if not _is_name(args[1]):
            self.dsl.error(args[1], "DSL012", "cost_uses() needs a counter name as its second argument")
            return _const(False)
        counter = str(args[1].children[0])
        self.check_cost_name(args[1].children[0])
        amount = self.expr(args[2]) if len(args) == 3 else None

        def run(ctx: Ctx) -> bool:
            it = item(ctx)
            want = None if amount is None else amount(ctx)
            for cost in it.comp.costs:
                need = cost.amounts(ctx).get(counter, 0)
                if need and (want is None or need == want):
                    return True
            return False
        return run


def _is_name(tree: Any, name: str | None = None) -> bool:
    return (isinstance(tree, Tree) and tree.data == "name"
            and (name is None or str(tree.children[0]) == name))


def _counter_reader(pack: Pack, n: str) -> Expr:
    cdef = pack.counters[n]
    if cdef.zone is not None:
        zid = cdef.zone
        return lambda ctx: len(ctx.game.state.zone(zid, ctx.seat).items)
    if cdef.scope == "global":
        return lambda ctx: ctx.game.state.counters[n]
    return lambda ctx: ctx.game.state.players[ctx.seat].counters[n]


_WITH_LITERAL: dict[Callable[[Any, Any], Any], Callable[[Expr, Any], Expr]] = {
    operator.eq: lambda a, v: lambda ctx: a(ctx) == v, operator.ne: lambda a, v: lambda ctx: a(ctx) != v,
    operator.lt: lambda a, v: lambda ctx: a(ctx) < v, operator.le: lambda a, v: lambda ctx: a(ctx) <= v,
    operator.gt: lambda a, v: lambda ctx: a(ctx) > v, operator.ge: lambda a, v: lambda ctx: a(ctx) >= v,
    operator.add: lambda a, v: lambda ctx: a(ctx) + v, operator.sub: lambda a, v: lambda ctx: a(ctx) - v,
    operator.mul: lambda a, v: lambda ctx: a(ctx) * v,
}


def _literal(tree: Any) -> tuple[Any] | None:
    """(value,) for a number, string or boolean literal; None otherwise."""
    if not isinstance(tree, Tree):
        return None
    if tree.data == "number":
        return (int(tree.children[0]),)
    if tree.data == "string":
        return (str(tree.children[0])[1:-1],)
    if tree.data in ("true", "false"):
        return (tree.data == "true",)
    return None


def _plain_everywhere(pack: Pack, name: str) -> bool:
    """Every component type that declares `name` stores it as a plain value (so `item.attrs` holds the answer)."""
    kinds = [t.attrs[name].type for t in pack.types.values() if name in t.attrs]
    return bool(kinds) and all(k in ("int", "str", "bool", "list") for k in kinds)


def _attr_names(pack: Pack) -> set[str]:
    names = set(ITEM_BUILTINS) | PLAYER_ATTRS | set(pack.counters) | set(pack.zones)
    for ctype in pack.types.values():
        names.update(ctype.attrs)
    return names
