"""Compiling DSL expressions and costs, once, at load time, into Python code (see engine/compile/codegen.py).

Every name is resolved here (counter, zone, component, local variable), so a
typo becomes a diagnostic with a "did you mean" instead of a run-time error.
Each method returns the Python expression (an `ast` node) for one DSL node;
`function` turns a whole DSL text into one Python function.
"""

from __future__ import annotations

import ast
import copy
from collections.abc import Callable
from functools import partial
from typing import Any, Self

from lark import Token, Tree

from engine.compile.codegen import Unit, checking_only, const, expr, stmts
from engine.diagnostics import did_you_mean
from engine.dsl.parse import DslText
from engine.errors import GameOver, RuleError, StopLoop
from engine.runtime import dsl_values as values
from engine.runtime.defs import Cost, Expr, Pack
from engine.runtime.state import Item, PlayerRef
from engine.usage import Usage

BUILTIN_NAMES = ("self", "event", "players", "option", "it", "me", "others", "everyone", "next_player")
PLAYER_ATTRS = {"seat"}
ITEM_BUILTINS = {"name", "id", "owner", "zone", "threshold", "label"}
# what generated code may call, by the names its templates use
HELPERS: dict[str, Any] = {
    "Item": Item, "PlayerRef": PlayerRef, "RuleError": RuleError, "StopLoop": StopLoop,
    "GameOver": GameOver, "as_items": values.as_items, "iterate": values.iterate, "count": values.count,
    "contains": values.contains, "div": values.div, "mod": values.mod, "index": values.index,
    "pick": values.pick, "rank": values.rank, "cost_uses": values.cost_uses, "get_attr": values.get_attr,
    "plain_attr": values.plain_attr,
    "item_actions": values.item_actions, "need_zone": values.need_zone, "need_item": values.need_item,
    "set_item_attr": values.set_item_attr, "show": values.show, "offer": values.offer,
    "describe": values.describe,
}
_COMPARE = {"eq": ast.Eq, "ne": ast.NotEq, "lt": ast.Lt, "le": ast.LtE, "gt": ast.Gt, "ge": ast.GtE}
_ARITH = {"add": ast.Add, "sub": ast.Sub, "mul": ast.Mult}
_BOOLEAN = {"eq", "ne", "lt", "le", "gt", "ge", "in_", "and_", "or_", "not_", "true", "false"}
_PLAIN = ("int", "str", "bool")  # read straight from `item.attrs` (a list may hold item references: get_attr)


class ExprCompiler:
    """Turns parse trees of one DSL text into the Python expressions of one generated function."""

    def __init__(self, pack: Pack, dsl: DslText, usage: Usage | None = None) -> None:
        self.pack = pack
        self.dsl = dsl
        self.usage = usage if usage is not None else Usage()
        self.unit = Unit(partial(dsl.where, 0), HELPERS)
        self.scope: dict[str, str] = {}  # DSL local -> Python local
        self.kinds: dict[str, str] = {}  # Python local -> what it is known to hold (see `kinded`)
        self._used: set[str] = set()
        self._counting = False   # inside count(...): reading another seat's hidden zone tells only its size
        if not pack.attr_names:  # worked out once per pack
            pack.attr_names = _attr_names(pack)
        self.attr_names = pack.attr_names

    # ---------------------------------------------------------------- entry points
    def expr(self, tree: Tree | Token) -> ast.expr:
        method = getattr(self, f"_x_{tree.data}", None) if isinstance(tree, Tree) else None
        if method is None:
            self.dsl.error(tree, "DSL010", f"this is not an expression: {self.dsl.snippet(tree)}")
            return const(0)
        return method(tree)

    def function(self, make: Callable[[ExprCompiler], list[ast.stmt]], role: str = "") -> Any:
        """The generated function whose body `make(compiler)` builds, named for where its text sits
        (`procedures.turn`) so tracebacks and profiles say which text they are in; `role` tells a text's
        second function apart. The body is built on the first call, by a twin of this compiler."""
        name = ".".join(str(step) for step in self.dsl.path) or "dsl"
        return self.unit.function(f"{name}.{role}" if role else name, lambda: make(self._twin()))

    def _twin(self) -> Self:
        """A compiler for the same text that reports nothing and notes no usage: it generates the code."""
        twin = copy.copy(self)
        twin.dsl = DslText(self.dsl.text, self.dsl.src, self.dsl.path)
        twin.usage = Usage()
        twin.scope, twin.kinds, twin._used = {}, {}, set()
        return twin

    def expr_function(self, tree: Tree) -> Expr:
        with checking_only():  # names resolved and problems reported now, the code built when first run
            self.expr(tree)
        return self.function(lambda c: stmts("return X", X=c.expr(tree)))

    def admission_function(self, tree: Tree) -> Expr:
        """A condition with `self` = the receiving item and `it` = the item offered to it (`admits`)."""
        with checking_only():
            self.with_it(tree, expr("ctx.offered"))

        def make(c: ExprCompiler) -> list[ast.stmt]:
            py, body = c.with_it(tree, expr("ctx.offered"))
            return stmts(f"{py} = ctx.offered\nreturn X", X=body)
        return self.function(make, "admits")

    def cost_amounts(self, tree: Tree) -> ast.expr:
        """`{counter: amount, ...}` for a cost; the same name twice adds up."""
        terms: list[tuple[ast.expr, str]] = []
        for term in tree.children:
            amount, name = term.children
            self.check_cost_name(name)
            self.usage.pay(str(name), self.dsl.place(name))
            terms.append((as_int(self.expr(amount)), str(name)))
        names = [n for _, n in terms]
        if len(set(names)) == len(names):
            return ast.Dict([const(n) for n in names], [a for a, _ in terms])
        merged: dict[str, ast.expr] = {}
        for amount, name in terms:
            merged[name] = amount if name not in merged else expr("A + B", A=merged[name], B=amount)
        return ast.Dict([const(n) for n in merged], list(merged.values()))

    def cost(self, tree: Tree) -> Cost:
        with checking_only():
            self.cost_amounts(tree)
        return Cost(self.function(lambda c: stmts("return X", X=c.cost_amounts(tree))), self.dsl.snippet(tree))

    def bind(self, name: str, kind: str | None = None) -> tuple[str, dict[str, str]]:
        """A Python local for DSL local `name` (fresh when it shadows another); returns the scope to restore."""
        saved = self.scope
        py = f"v_{name}"
        n = 1
        while py in self._used:
            n += 1
            py = f"v_{name}_{n}"
        self._used.add(py)
        if kind is not None:
            self.kinds[py] = kind
        self.scope = {**saved, name: py}
        return py, saved

    def read(self, node: ast.expr) -> ast.expr:
        """A collection to read without changing it (conditions, counts, sums, sorting): no copy."""
        kind = kind_of(node)
        if kind == "zone":
            return expr("X.items", X=node)
        return node if kind in ("list", "items", "players") else expr("iterate(X)", X=node)

    def snapshot(self, node: ast.expr) -> ast.expr:
        """A collection to loop over while the loop may move its items: zones are copied."""
        kind = kind_of(node)
        if kind == "zone":
            return expr("X.items[:]", X=node)
        return node if kind in ("list", "items", "players") else expr("as_items(X)", X=node)

    def check_cost_name(self, name: Token) -> None:
        n = str(name)
        if n in self.pack.wildcards or n in self.pack.counters:
            self.usage.ref(n, self.dsl.place(name))
            return
        self.unknown(name, "counter or wildcard", [*self.pack.counters, *self.pack.wildcards])

    def unknown(self, tok: Token | Tree, kind: str, candidates: list[str]) -> None:
        word = str(tok) if isinstance(tok, Token) else self.dsl.snippet(tok)
        self.dsl.error(tok, "REF001", f"unknown {kind} '{word}'", did_you_mean(word, candidates))

    def with_it(self, tree: Tree, over: ast.expr) -> tuple[str, ast.expr]:
        """(Python name of `it`, the expression compiled with `it` bound to each of `over`): where, sum, sorted."""
        py, saved = self.bind("it", element_kind(over))
        body = self.expr(tree)
        self.scope = saved
        return py, body

    # ---------------------------------------------------------------- atoms
    def _x_number(self, t: Tree) -> ast.expr:
        return const(int(t.children[0]))

    def _x_string(self, t: Tree) -> ast.expr:
        return const(str(t.children[0])[1:-1])

    def _x_true(self, t: Tree) -> ast.expr:
        return const(True)

    def _x_false(self, t: Tree) -> ast.expr:
        return const(False)

    def _x_list(self, t: Tree) -> ast.expr:
        return kinded(ast.List([self.expr(c) for c in t.children if c is not None], ast.Load()), "list")

    def _x_name(self, t: Tree) -> ast.expr:
        return self.name(t.children[0])

    def name(self, tok: Token) -> ast.expr:
        n = str(tok)
        pack = self.pack
        if n in self.scope:
            py = self.scope[n]
            return kinded(ast.Name(py, ast.Load()), self.kinds.get(py))
        builtin = _BUILTIN_EXPR.get(n)
        if builtin is not None:
            return kinded(expr(builtin[0]), builtin[1])
        if n in pack.counters or n in pack.zones or n in pack.components:
            self.usage.ref(n, self.dsl.place(tok))
        if n in pack.counters:
            return self._counter(n)
        if n in pack.zones:
            if pack.zones[n].scope == "global":
                return kinded(expr("game.state.zones[N]", N=const(n)), "zone")
            return kinded(expr("game.seats[ctx.seat].zones[N]", N=const(n)), "zone")
        if n in pack.components:
            return expr("game.instance(N, ctx.seat)", N=const(n))
        self.unknown(tok, "name", [*self.scope, *pack.counters, *pack.zones, *pack.components, *BUILTIN_NAMES])
        return const(0)

    def _counter(self, n: str) -> ast.expr:
        cdef = self.pack.counters[n]
        if cdef.items is not None:  # the sum of item values: computed on each read
            return expr("game.counter(N, ctx.seat)", N=const(n))
        if cdef.zone is not None:
            return expr("len(game.state.zone(Z, ctx.seat).items)", Z=const(cdef.zone))
        if cdef.scope == "global":
            return kinded(expr("game.state.counters[N]", N=const(n)), "value")
        return kinded(expr("game.seats[ctx.seat].counters[N]", N=const(n)), "value")

    # ---------------------------------------------------------------- operators
    def _arith(self, t: Tree) -> ast.expr:
        a, b = (self.expr(c) for c in t.children)
        return ast.BinOp(a, _ARITH[t.data](), b)

    _x_add = _x_sub = _x_mul = _arith

    def _x_div(self, t: Tree) -> ast.expr:
        return expr("div(A, B)", A=self.expr(t.children[0]), B=self.expr(t.children[1]))

    def _x_mod(self, t: Tree) -> ast.expr:
        return expr("mod(A, B)", A=self.expr(t.children[0]), B=self.expr(t.children[1]))

    def _compare(self, t: Tree) -> ast.expr:
        a, b = (self.expr(c) for c in t.children)
        return ast.Compare(a, [_COMPARE[t.data]()], [b])

    _x_eq = _x_ne = _x_lt = _x_le = _x_gt = _x_ge = _compare

    def _x_in_(self, t: Tree) -> ast.expr:
        return expr("contains(A, B)", A=self.expr(t.children[0]), B=self.expr(t.children[1]))

    def truth(self, t: Tree) -> ast.expr:
        """`t` as a bool (conditions read truthiness; `and`/`or` must still give true or false)."""
        node = self.expr(t)
        return node if isinstance(t, Tree) and t.data in _BOOLEAN else expr("bool(A)", A=node)

    def _x_and_(self, t: Tree) -> ast.expr:
        return ast.BoolOp(ast.And(), [self.truth(c) for c in t.children])

    def _x_or_(self, t: Tree) -> ast.expr:
        return ast.BoolOp(ast.Or(), [self.truth(c) for c in t.children])

    def _x_not_(self, t: Tree) -> ast.expr:
        return ast.UnaryOp(ast.Not(), self.expr(t.children[0]))

    def _x_neg(self, t: Tree) -> ast.expr:
        return ast.UnaryOp(ast.USub(), self.expr(t.children[0]))

    def _x_attr(self, t: Tree) -> ast.expr:
        base_tree, name_tok = t.children
        name = str(name_tok)
        if _is_name(base_tree, "option"):
            if name not in self.pack.options:
                self.unknown(name_tok, "option", list(self.pack.options))
            return expr("bool(game.options.get(N, False))", N=const(name))
        if not _is_name(base_tree, "event") and name not in self.attr_names:
            self.unknown(name_tok, "attribute", sorted(self.attr_names))
        base = self.expr(base_tree)
        if name in self.pack.zones or name in self.pack.counters:     # `q.hand` through a player value uses it
            self.usage.ref(name, self.dsl.place(name_tok))
        if kind_of(base) == "player":
            zdef = self.pack.zones.get(name)
            if (zdef is not None and zdef.visibility != "public" and not _is_name(base_tree, "me")
                    and not self._counting):
                self.usage.read_hidden(name, self.dsl.place(name_tok))
            return self._player_attr(base, name)
        if name in ("id", "name") and isinstance(base, ast.Name) and not self._declared(name):
            if kind_of(base) == "item":  # a str for sure
                return kinded(expr(f"B.comp.{name} if N not in B.attrs else get_attr(ctx, B, N)", B=base,
                                   N=const(name)), "value")
            return expr(f"B.comp.{name} if B.__class__ is Item and N not in B.attrs else get_attr(ctx, B, N)",
                        B=base, N=const(name))
        if not _plain_everywhere(self.pack, name):
            return expr("get_attr(ctx, B, N)", B=base, N=const(name))
        # a stored int/str/bool/list: read it straight from the item (0 where its type does not declare it)
        if name in ITEM_BUILTINS:
            return expr("plain_attr(ctx, B, N)", B=base, N=const(name))
        if kind_of(base) == "item":
            return kinded(expr("B.attrs.get(N, 0)", B=base, N=const(name)), "value")
        if isinstance(base, ast.Name):
            return kinded(expr("B.attrs.get(N, 0) if B.__class__ is Item else get_attr(ctx, B, N)", B=base,
                               N=const(name)), "value")
        return kinded(expr("plain_attr(ctx, B, N)", B=base, N=const(name)), "value")

    def _declared(self, name: str) -> bool:
        return any(name in t.attrs for t in self.pack.types.values())

    def _player_attr(self, player: ast.expr, name: str) -> ast.expr:
        """`p.NAME` for a known player: the seat (1-based), one of their counters or zones."""
        if name == "seat":
            return expr("P.seat + 1", P=player)
        cdef = self.pack.counters.get(name)
        if cdef is not None:
            if cdef.zone is None and cdef.items is None and cdef.scope == "player":
                return expr("game.state.players[P.seat].counters[N]", P=player, N=const(name))
            return expr("game.counter(N, P.seat)", P=player, N=const(name))
        if name in self.pack.zones:
            return kinded(expr("game.state.zone(N, P.seat)", P=player, N=const(name)), "zone")
        return expr("get_attr(ctx, P, N)", P=player, N=const(name))

    def _x_index(self, t: Tree) -> ast.expr:
        return expr("index(A, I)", A=self.read(self.expr(t.children[0])), I=self.expr(t.children[1]))

    def _x_collection(self, t: Tree) -> ast.expr:
        """`COLL where COND`: the items for which COND holds, with `it` bound."""
        source = self.expr(t.children[0])
        it, cond = self.with_it(t.children[1], source)
        kind = {"players": "players", "zone": "items", "items": "items"}.get(kind_of(source) or "", "list")
        return kinded(expr("[IT for IT in S if C]", IT=it, S=self.read(source), C=cond), kind)

    # ---------------------------------------------------------------- functions
    def _x_call_fn(self, t: Tree) -> ast.expr:
        name_tok, *args = t.children
        args = [a for a in args if a is not None]
        fname = str(name_tok)
        special = getattr(self, f"_fn_{fname}", None)
        if special is not None:
            return special(name_tok, args)
        self.unknown(name_tok, "function", [n[4:] for n in dir(self) if n.startswith("_fn_")])
        return const(0)

    def _arity(self, tok: Token, args: list, low: int, high: int | None = None) -> bool:
        high = low if high is None else high
        if low <= len(args) <= high:
            return True
        want = str(low) if low == high else f"{low} to {high}"
        self.dsl.error(tok, "DSL011", f"{tok}() takes {want} arguments, got {len(args)}")
        return False

    def _args(self, tok: Token, args: list, low: int, high: int | None = None) -> list[ast.expr] | None:
        return [self.expr(a) for a in args] if self._arity(tok, args, low, high) else None

    def _fn_count(self, tok: Token, args: list) -> ast.expr:
        if not self._arity(tok, args, 1):
            return const(0)
        counting, self._counting = self._counting, True      # a count of a hidden zone is public
        try:
            coll = self.expr(args[0])
        finally:
            self._counting = counting
        return expr("count(X)", X=coll) if kind_of(coll) is None else expr("len(X)", X=self.read(coll))

    def _fn_sum(self, tok: Token, args: list) -> ast.expr:
        if not self._arity(tok, args, 2):
            return const(0)
        coll = self.expr(args[0])
        it, value = self.with_it(args[1], coll)
        return expr("sum([int(V) for IT in C])", V=value, IT=it, C=self.read(coll))

    def _fn_items(self, tok: Token, args: list) -> ast.expr:
        colls = [self.expr(a) for a in args]
        parts = [ast.Starred(self.read(c), ast.Load()) for c in colls]
        of_items = all(element_kind(c) == "item" for c in colls)
        return kinded(ast.List(parts, ast.Load()), "items" if of_items else "list")

    def _fn_all(self, tok: Token, args: list) -> ast.expr:
        if not self._arity(tok, args, 1):
            return ast.List([], ast.Load())
        arg = args[0]
        tname = str(arg.children[0]) if _is_name(arg) else ""
        if tname not in self.pack.types:
            self.unknown(arg, "component type", list(self.pack.types))
            return ast.List([], ast.Load())
        self.usage.ref(tname, self.dsl.place(arg))
        return kinded(expr("game.all_of(T, ctx.seat)", T=const(tname)), "items")

    def _fn_max(self, tok: Token, args: list) -> ast.expr:
        parts = self._args(tok, args, 1, 8)
        return const(0) if parts is None else _builtin("max", parts)

    def _fn_min(self, tok: Token, args: list) -> ast.expr:
        parts = self._args(tok, args, 1, 8)
        return const(0) if parts is None else _builtin("min", parts)

    def _fn_abs(self, tok: Token, args: list) -> ast.expr:
        parts = self._args(tok, args, 1)
        return const(0) if parts is None else expr("abs(A)", A=parts[0])

    def _fn_rank(self, tok: Token, args: list) -> ast.expr:
        """rank(value, minimums): how many of the ascending minimums value reaches."""
        parts = self._args(tok, args, 2)
        return const(0) if parts is None else expr("rank(A, B)", A=parts[0], B=parts[1])

    def _fn_pick(self, tok: Token, args: list) -> ast.expr:
        """pick(list, i): the i-th element (1-based); 0 for i <= 0."""
        parts = self._args(tok, args, 2)
        return const(0) if parts is None else expr("pick(A, B)", A=parts[0], B=parts[1])

    def _fn_sorted(self, tok: Token, args: list) -> ast.expr:
        """sorted(COLL, KEY): the items in ascending order of KEY (with `it` bound); ties keep their order."""
        if not self._arity(tok, args, 2):
            return ast.List([], ast.Load())
        coll = self.expr(args[0])
        it, key = self.with_it(args[1], coll)
        kind = "items" if element_kind(coll) == "item" else "list"
        return kinded(expr("sorted(C, key=lambda IT: K)", C=self.read(coll), IT=it, K=key), kind)

    def _fn_range(self, tok: Token, args: list) -> ast.expr:
        """range(A, B): the numbers A..B inclusive (empty when B < A)."""
        parts = self._args(tok, args, 2)
        return ast.List([], ast.Load()) if parts is None else kinded(
            expr("list(range(int(A), int(B) + 1))", A=parts[0], B=parts[1]), "list")

    def _fn_neighbors(self, tok: Token, args: list) -> ast.expr:
        """neighbors(SPACE): the spaces linked to it on its board, in definition order."""
        parts = self._args(tok, args, 1)
        return ast.List([], ast.Load()) if parts is None else expr("game.neighbors(A)", A=parts[0])

    def _fn_adjacent(self, tok: Token, args: list) -> ast.expr:
        parts = self._args(tok, args, 2)
        return const(False) if parts is None else expr("game.graph_of(A).adjacent(A.comp.id, B.comp.id)",
                                                       A=parts[0], B=parts[1])

    def _fn_distance(self, tok: Token, args: list) -> ast.expr:
        """distance(A, B): fewest links between two spaces of a board (-1: unreachable)."""
        parts = self._args(tok, args, 2)
        return const(0) if parts is None else expr("game.graph_of(A).distance(A.comp.id, B.comp.id)",
                                                   A=parts[0], B=parts[1])

    def _fn_roll(self, tok: Token, args: list) -> ast.expr:
        """roll(SIDES): a die roll from the game's seeded random generator."""
        parts = self._args(tok, args, 1)
        return const(0) if parts is None else expr("game.state.rng.randint(1, int(A))", A=parts[0])

    def _fn_actions(self, tok: Token, args: list) -> ast.expr:
        """actions(item): the item's actions whose `when` holds now."""
        parts = self._args(tok, args, 1)
        return ast.List([], ast.Load()) if parts is None else expr("item_actions(ctx, A)", A=parts[0])

    def _fn_admits(self, tok: Token, args: list) -> ast.expr:
        """admits(RECEIVER, ITEM): the receiver's type's admission rule holds for ITEM (true without one)."""
        parts = self._args(tok, args, 2)
        return const(False) if parts is None else expr("game.admits(ctx, A, B)", A=parts[0], B=parts[1])

    def _fn_can_play(self, tok: Token, args: list) -> ast.expr:
        parts = self._args(tok, args, 2)
        return const(False) if parts is None else expr("game.can_play(ctx, A, B, False)", A=parts[0], B=parts[1])

    def _fn_cost_uses(self, tok: Token, args: list) -> ast.expr:
        """cost_uses(item, NAME [, amount]): some alternative cost of item names NAME (that many)."""
        if not self._arity(tok, args, 2, 3):
            return const(False)
        item = self.expr(args[0])
        if not _is_name(args[1]):
            self.dsl.error(args[1], "DSL012", "cost_uses() needs a counter name as its second argument")
            return const(False)
        counter = str(args[1].children[0])
        self.check_cost_name(args[1].children[0])
        amount = self.expr(args[2]) if len(args) == 3 else const(None)
        return expr("cost_uses(ctx, I, N, A)", I=item, N=const(counter), A=amount)


# built-in names: (code, kind)
_BUILTIN_EXPR: dict[str, tuple[str, str | None]] = {
    "self": ("t_self", None),  # read once, in the prologue: a local, so `self.x` reads the item directly
    "event": ("ctx.event or {}", None),
    "players": ("len(game.state.players)", None),
    "option": ("game.options", None),
    "me": ("game.players_from(game.acting(ctx.seat))[0]", "player"),
    "next_player": ("game.players_from(game.acting(ctx.seat))[1 % len(game.state.players)]", "player"),
    "others": ("game.players_from(game.acting(ctx.seat))[1:]", "players"),
    "everyone": ("game.players_from(game.state.counters.get('first_player', 0))", "players"),
}


def kinded(node: ast.expr, kind: str | None) -> ast.expr:
    """Note what an expression is known to hold at compile time: a `zone`, a `list`, `items` (a list of
    items), an `item`, a `player`, `players`, a plain `value` (number, string, bool or list of them).

    Code reading a known zone takes `.items` directly; a known player's counter is one dict read.
    """
    if kind is not None:
        node.cog_kind = kind  # type: ignore[attr-defined]
    return node


def kind_of(node: ast.expr) -> str | None:
    return getattr(node, "cog_kind", None)


def plain_value(node: ast.expr) -> bool:
    """The value is certainly a number, string, bool or list of them (never an item, zone or player)."""
    if kind_of(node) == "value" or isinstance(node, (ast.Constant, ast.Compare, ast.BoolOp, ast.BinOp,
                                                        ast.JoinedStr)):
        return True
    if isinstance(node, ast.UnaryOp):
        return isinstance(node.op, (ast.Not, ast.USub))
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("int", "len", "sum")


def element_kind(collection: ast.expr) -> str | None:
    """What each member of a collection of known kind is: a zone holds items, `everyone` players."""
    return {"zone": "item", "items": "item", "players": "player"}.get(kind_of(collection) or "")


def _builtin(fn: str, parts: list[ast.expr]) -> ast.expr:
    """max/min of the parts; of one part, max/min over it (as `max([x])` would)."""
    args = parts if len(parts) > 1 else [ast.List(parts, ast.Load())]
    return ast.Call(ast.Name(fn, ast.Load()), args, [])


def as_int(node: ast.expr) -> ast.expr:
    """`int(node)`, folded for a number written in the text."""
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node
    return expr("int(X)", X=node)


def _is_name(tree: Any, name: str | None = None) -> bool:
    return (isinstance(tree, Tree) and tree.data == "name"
            and (name is None or str(tree.children[0]) == name))


def _plain_everywhere(pack: Pack, name: str) -> bool:
    """Every component type that declares `name` stores it as a plain value (so `item.attrs` holds the answer)."""
    kinds = [t.attrs[name].type for t in pack.types.values() if name in t.attrs]
    return bool(kinds) and all(k in _PLAIN for k in kinds)


def _attr_names(pack: Pack) -> set[str]:
    names = set(ITEM_BUILTINS) | PLAYER_ATTRS | set(pack.counters) | set(pack.zones)
    for ctype in pack.types.values():
        names.update(ctype.attrs)
    return names
