"""Compiling DSL expressions and costs, once, at load time, into Python code (see engine/compile/codegen.py).

Every name is resolved here (counter, zone, component, local variable), so a
typo becomes a diagnostic with a "did you mean" instead of a run-time error.
Each method returns the Python expression (an `ast` node) for one DSL node;
`function` turns a whole DSL text into one Python function.
"""

from __future__ import annotations

import ast
import copy
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from typing import Any, Self

from lark import Token, Tree

from engine.compile.acting import ACTING, with_acting_player
from engine.compile.charges import inline_charges
from engine.compile.codegen import Unit, checking_only, const, expr, generating, stmts
from engine.compile.grid_loops import grid_loops
from engine.compile.loops import inline_comprehensions, quiet, steady
from engine.diagnostics import did_you_mean
from engine.dsl.functions import FUNCTIONS
from engine.dsl.parse import DslText, counter_chain
from engine.dsl.types import T
from engine.dsl.walk import EXPRESSION, Walker
from engine.errors import GameOver, RuleError, StopLoop
from engine.runtime import dsl_values as values
from engine.runtime import limits
from engine.runtime.anytime import REASK
from engine.runtime.containers import need_containers
from engine.runtime.defs import Cost, Expr, Pack, held_by_every_item
from engine.runtime.grids import direction_key
from engine.runtime.limits import MAX_LIST
from engine.runtime.state import Item, PlayerRef
from engine.usage import Place, Usage

BUILTIN_NAMES = ("self", "event", "players", "option", "it", "me", "others", "everyone", "next_player")
PLAYER_ATTRS = {"seat", "position"}
ITEM_BUILTINS = {"name", "id", "owner", "zone", "threshold", "label"}
# what generated code may call, by the names its templates use
HELPERS: dict[str, Any] = {
    "Item": Item, "PlayerRef": PlayerRef, "RuleError": RuleError, "StopLoop": StopLoop, "KeyError": KeyError,
    "GameOver": GameOver, "as_items": values.as_items, "iterate": values.iterate, "count": values.count,
    "div": values.div, "mod": values.mod, "index": values.index,
    "pick": values.pick, "rank": values.rank, "cost_uses": values.cost_uses, "get_attr": values.get_attr,
    "item_attr": values.item_attr,
    "plain_attr": values.plain_attr, "need_number": values.need_number,
    "item_actions": values.item_actions, "need_zone": values.need_zone, "need_item": values.need_item,
    "set_item_attr": values.set_item_attr, "show": values.show, "offer": values.offer,
    "offer_combinations": values.offer_combinations,
    "describe": values.describe, "direction_key": direction_key, "bounded": limits.bounded,
    "number_span": limits.number_span,
    "refuse": limits.refuse, "need_containers": need_containers, "reask": REASK, "first": values.first,
    "plus": limits.plus, "times": limits.times, "compared": limits.compared,
    "sorting": limits.sorting, **{f"op_{name}": op for name, op in limits.COMPARISONS.items()},
}
_COMPARE = {"eq": ast.Eq, "ne": ast.NotEq, "lt": ast.Lt, "le": ast.LtE, "gt": ast.Gt, "ge": ast.GtE}
_ARITH = {"add": ast.Add, "sub": ast.Sub, "mul": ast.Mult}
_BOOLEAN = {"eq", "ne", "lt", "le", "gt", "ge", "in_", "and_", "or_", "not_", "true", "false"}
_PLAIN = ("int", "str", "bool", "counter")  # read straight from item.attrs (a list may hold item refs: get_attr)


class ExprCompiler(Walker):
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
        # the local holding the acting seat's player (`game.seats[ctx.seat]`) where the code being generated
        # runs, or None where `ctx` is not the function's own (a `lambda ctx:`); see `acting_player`
        self.me: str | None = ACTING
        self.self_kind: str | None = None   # "item" where `self` is surely an item (an item's derived attribute)
        if not pack.attr_names:  # worked out once per pack
            pack.attr_names = _attr_names(pack)
        self.attr_names = pack.attr_names

    # ---------------------------------------------------------------- entry points
    def expr(self, tree: Tree) -> ast.expr:
        method = getattr(self, EXPRESSION + tree.data, None)     # Walker.walk, inlined: called per node
        return method(tree) if method is not None else self.no_method(EXPRESSION, tree)

    def function(self, make: Callable[[Self], list[ast.stmt]], role: str = "", procedure: str | None = None) -> Any:
        """The generated function whose body `make(compiler)` builds, named for where its text sits
        (`procedures.turn`) so tracebacks and profiles say which text they are in; `role` tells a text's
        second function apart; `procedure`: it is that procedure's (it pays for its call). The body is
        built on the first call, by a twin of this compiler."""
        name = ".".join(str(step) for step in self.dsl.path) or "dsl"
        return self.unit.function(f"{name}.{role}" if role else name,
                                  lambda: self._finished(make(self._twin())), procedure)

    def _finished(self, body: list[ast.stmt]) -> list[ast.stmt]:
        """A generated body with its leading comprehensions written out as loops, then its leading
        collections paid for inline (engine/compile/loops.py, charges.py), and the acting player read
        into its local first if the body reads it (engine/compile/acting.py)."""
        body = grid_loops(inline_charges(inline_comprehensions(body, self.unit.temp), self.unit.temp),
                          self.unit.temp, self.pack)
        self.unit.asks_run_rules = bool(self.pack.anytime)   # (the whole pack's: known once code is built)
        return with_acting_player(_plain_in_iterables(body), ACTING)

    def acting_player(self) -> ast.expr:
        """The acting seat's player (`game.seats[ctx.seat]`: its zones and counters): a local read once
        where the seat was set (the function's start, an `as` block, a flow `each_player`)."""
        return expr("game.seats[ctx.seat]") if self.me is None else ast.Name(self.me, ast.Load())

    @contextmanager
    def acting_as(self, local: str | None) -> Iterator[None]:
        """Code generated inside reads the acting player from `local` (None: from `ctx`, not the function's
        own, e.g. a `lambda ctx:` run for other seats)."""
        saved, self.me = self.me, local
        try:
            yield
        finally:
            self.me = saved

    def _twin(self) -> Self:
        """A compiler for the same text that reports nothing and notes no usage: it generates the code."""
        twin = copy.copy(self)
        twin.dsl = DslText(self.dsl.text, self.dsl.src, self.dsl.path)
        twin.usage = Usage()
        twin.scope, twin.kinds, twin._used = {}, {}, set()
        twin.me = ACTING
        return twin

    def expr_function(self, tree: Tree, of_item: bool = False) -> Expr:
        """The expression as a function; `of_item`: it is an item's attribute, read only with that item as
        `self` (`dsl_values._item_attr`): `self` is known to be an item, so its stored attributes are read
        straight from its dict, as reads that cannot fail (`steady`)."""
        with checking_only():  # names resolved and problems reported now, the code built when first run
            self.expr(tree)
        if of_item:
            self.self_kind = "item"   # (code only: the check above is the same for every text)
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
        if any(isinstance(term.children[1], Tree) for term in tree.children):  # a counter named through data
            pairs: list[ast.expr] = [
                ast.Tuple([self.counter_ref(name, self.usage.pay), as_int(self.expr(amount))], ast.Load())
                for amount, name in (term.children for term in tree.children)]
            return expr("game.add_amounts(P)", P=ast.List(pairs, ast.Load()))
        terms: list[tuple[ast.expr, str]] = []
        for term in tree.children:
            amount, name = term.children
            self.check_cost_name(name)
            self.usage.pay(str(name), self.dsl.spot(name))
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
        return getattr(node, "cog_copy_of", node) if kind in ("list", "items", "players") else expr("iterate(X)",
                                                                                                      X=node)

    def snapshot(self, node: ast.expr) -> ast.expr:
        """A collection to loop over while the loop may move its items: zones are copied."""
        kind = kind_of(node)
        if kind == "zone":
            return expr("X.items[:]", X=node)
        return node if kind in ("list", "items", "players") else expr("as_items(X)", X=node)

    def counter_ref(self, name: Token | Tree, use: Callable[[str, Place], None],
                    wildcards: bool = True) -> ast.expr:
        """The id of the counter a gain, lose or cost term names: NAME itself, or the value of a
        `counter` attribute (`c.colour.cube`), checked when the rule runs."""
        if isinstance(name, Token):
            self.check_cost_name(name)
            use(str(name), self.dsl.spot(name))
            return const(str(name))
        attr = str(name.children[-1])
        if not any(a.type == "counter" for t in self.pack.types.values() if (a := t.attrs.get(attr))):
            self.dsl.error(name, "DSL015", f"'{self.dsl.snippet(name)}' cannot name a counter: no component type "
                           f"declares '{attr}' a `counter` attribute", None)
            return const("")
        for value in self.counter_values(attr):
            use(value, self.dsl.spot(name))
        return expr("game.counter_id(X, W)", X=self.expr(counter_chain(name)), W=const(wildcards))

    def counter_values(self, attr: str) -> set[str]:
        """The counters a `counter` attribute names in any component (for lint's uses of each counter)."""
        return {str(c.values[attr]) for c in self.pack.components.values()
                if c.values.get(attr) is not None and getattr(c.ctype.attrs.get(attr), "type", None) == "counter"}

    def check_cost_name(self, name: Token | Tree) -> None:
        n = str(name)
        if n in self.pack.wildcards or n in self.pack.counters:
            self.usage.ref(n, self.dsl.spot(name))
            return
        self.unknown(name, "counter or wildcard", [*self.pack.counters, *self.pack.wildcards])

    def unknown(self, tok: Token | Tree, kind: str, candidates: list[str]) -> None:
        word = str(tok) if isinstance(tok, Token) else self.dsl.snippet(tok)
        self.dsl.error(tok, "REF001", f"unknown {kind} '{word}'", did_you_mean(word, candidates))

    def taken_name(self, name: str) -> str | None:
        """What a new local called `name` would hide: a built-in name or a name the pack defines."""
        if name in BUILTIN_NAMES:
            return f"the built-in name '{name}'"
        for kind, table in (("counter", self.pack.counters), ("zone", self.pack.zones),
                            ("component", self.pack.components)):
            if name in table:
                return f"the {kind} '{name}'"
        return None

    def with_it(self, tree: Tree, over: ast.expr) -> tuple[str, ast.expr]:
        """(Python name of `it`, the expression compiled with `it` bound to each of `over`): where, sum, sorted."""
        py, saved = self.bind("it", element_kind(over))
        body = self.expr(tree)
        self.scope = saved
        return py, body

    # ---------------------------------------------------------------- atoms
    def _x_number(self, t: Tree) -> ast.expr:
        return const(int(str(t.children[0])))

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

    def name(self, tok: Token | Tree) -> ast.expr:
        n = str(tok)
        pack = self.pack
        if n in self.scope:
            py = self.scope[n]
            return kinded(ast.Name(py, ast.Load()), self.kinds.get(py))
        builtin = _BUILTIN_EXPR.get(n)
        if builtin is not None:
            # where a flow loop or an `as` block holds the acting player in a local, its seat is read from it
            acting = _ACTING if self.me is None or self.me == ACTING else f"{self.me}.seat"
            # a pack played by one number of players only: that number (a match of another is refused)
            count = str(pack.min_players) if pack.min_players == pack.max_players else _PLAYERS

            def written(code: str) -> str:
                return code.replace(_ACTING, acting).replace(_PLAYERS, count)
            code = builtin[0]
            if n == "everyone" and "first_player" not in pack.counters:
                # the players from seat 0 unless a rule set the order (`Interpreter.everyone` without the call; the
                # layout's list, shared and read-only, not an attribute of the interpreter: one more of those, a
                # 30th, made every `game.X` read of a generated function slower, +1.4% of a game's instructions)
                code = "(game.layout.rotations[0] if game.state.order is None else game.everyone())"
            node = kinded(expr(written(code)), self.self_kind if n == "self" else builtin[1])
            if n in _BUILTIN_SEATS:   # its seat, without the player: `next_player.hand` reads no rotation
                node.cog_seat = expr(written(_BUILTIN_SEATS[n]))  # type: ignore[attr-defined]
            return node
        if n in pack.counters or n in pack.zones or n in pack.components or n in pack.dice:
            self.usage.ref(n, self.dsl.spot(tok))
        if n in pack.counters:
            return self._counter(n)
        if n in pack.zones:
            if pack.zones[n].scope == "global":
                return zone_named(expr("game.state.zones[N]", N=const(n)), n)
            return zone_named(expr("ME.zones[N]", ME=self.acting_player(), N=const(n)), n)
        if n in pack.components:
            return expr("game.instance(N, ctx.seat)", N=const(n))
        if n in pack.dice:   # a dice pool: the faces its dice show, a list of numbers
            return kinded(expr("game.state.dice[N]", N=const(n)), "list")
        self.unknown(tok, "name", [*self.scope, *pack.counters, *pack.zones, *pack.components, *pack.dice,
                                   *BUILTIN_NAMES])
        return const(0)

    def _counter(self, n: str) -> ast.expr:
        cdef = self.pack.counters[n]
        if cdef.items is not None:  # the sum of item values: computed on each read
            return numeric(expr("game.counter(N, ctx.seat)", N=const(n)))
        if cdef.held is not None:  # what containers hold: the `within` one's, or the seat's total
            return numeric(expr("game.held_total(ctx, N)", N=const(n)))
        if cdef.zone is not None:
            return numeric(expr("len(game.state.zone(Z, ctx.seat).items)", Z=const(cdef.zone)))
        if cdef.scope == "global":
            return numeric(kinded(expr("game.state.counters[N]", N=const(n)), "value"))
        return numeric(kinded(expr("ME.counters[N]", ME=self.acting_player(), N=const(n)), "value"))

    # ---------------------------------------------------------------- operators
    def _arith(self, t: Tree) -> ast.expr:
        """`+`, `-`, `*`. Where a list or text could meet `+` or `*` (joined, repeated: work that grows with
        its size), limits.plus/times pay for it; a number known here keeps Python's operator (the hot path)."""
        a, b = (self.expr(c) for c in t.children)
        if t.data == "add" and not (is_number(a) or is_number(b)):
            return expr("plus(game, A, B)", A=a, B=b)
        if t.data == "mul" and not (is_number(a) and is_number(b)):
            return expr("times(game, A, B)", A=a, B=b)
        return ast.BinOp(a, _ARITH[t.data](), b)

    _x_add = _x_sub = _x_mul = _arith

    def _x_div(self, t: Tree) -> ast.expr:
        return expr("div(A, B)", A=self.expr(t.children[0]), B=self.expr(t.children[1]))

    def _x_mod(self, t: Tree) -> ast.expr:
        return expr("mod(A, B)", A=self.expr(t.children[0]), B=self.expr(t.children[1]))

    def _compare(self, t: Tree) -> ast.expr:
        """Two lists compare element by element (limits.compared pays for long ones); when either side is
        surely not a list, Python's operator is O(1)."""
        a, b = (self.expr(c) for c in t.children)
        some = _some_pass(a, b, t.data)
        if some is not None:
            return some
        if not (_not_a_list(a) or _not_a_list(b)):
            return expr(f"compared(game, A, B, op_{t.data})", A=a, B=b)
        return ast.Compare(a, [_COMPARE[t.data]()], [b])

    _x_eq = _x_ne = _x_lt = _x_le = _x_gt = _x_ge = _compare

    def _x_in_(self, t: Tree) -> ast.expr:
        return expr("game.contains(A, B)", A=self.expr(t.children[0]), B=self.expr(t.children[1]))

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
        self._note_attr_use(base_tree, base, name_tok)
        if kind_of(base) == "player":
            if name == "seat" and _is_name(base_tree, "me") and "me" not in self.scope:
                # inline: no list of players to build, no call unless nobody acts (then acting() raises)
                return small(kinded(expr("(ctx.seat + 1 if ctx.seat is not None else game.acting(None))"), "value"))
            return self._player_attr(base, name)
        return self._item_attr(base, name)

    def _note_attr_use(self, base_tree: Any, base: ast.expr, name_tok: Token | Tree) -> None:
        """`q.hand` through a player value uses the zone or counter; reading the items of another seat's
        hidden zone (not only how many there are) is noted for lint."""
        name = str(name_tok)
        if name in self.pack.zones or name in self.pack.counters:
            self.usage.ref(name, self.dsl.spot(name_tok))
        if kind_of(base) == "player":
            zdef = self.pack.zones.get(name)
            if (zdef is not None and zdef.visibility != "public" and not _is_name(base_tree, "me")
                    and not self._counting):
                self.usage.read_hidden(name, self.dsl.spot(name_tok))

    def _item_attr(self, base: ast.expr, name: str) -> ast.expr:
        """`x.NAME` for an item (or a value not known to be a player): the cheapest read that is right."""
        if name in ("id", "name") and isinstance(base, ast.Name) and not self._declared(name):
            if kind_of(base) == "item":  # a str for sure
                return kinded(expr(f"B.comp.{name} if N not in B.attrs else get_attr(ctx, B, N)", B=base,
                                   N=const(name)), "value")
            return expr(f"B.comp.{name} if B.__class__ is Item and N not in B.attrs else get_attr(ctx, B, N)",
                        B=base, N=const(name))
        if not _plain_everywhere(self.pack, name):   # (an item for sure: `get_attr`'s item case, without the call)
            return expr("item_attr(ctx, B, N)" if kind_of(base) == "item" else "get_attr(ctx, B, N)", B=base,
                        N=const(name))
        # a stored int/str/bool/list: read it straight from the item (0 where its type does not declare it)
        if name in ITEM_BUILTINS:
            return expr("plain_attr(ctx, B, N)", B=base, N=const(name))
        number = numbers_everywhere(self.pack, name)     # `set` keeps it so (effect.py)
        if kind_of(base) == "item":   # an item's dict: the read cannot fail (a loop reads a local's once)
            held = generating() and held_by_every_item(self.pack, name)   # no default needed: a plain read
            read = kinded(expr("B.attrs[N]" if held else "B.attrs.get(N, 0)", B=base, N=const(name)), "value")
            return numeric(steady(read) if isinstance(base, ast.Name) else read, number)
        if isinstance(base, ast.Name):
            return numeric(kinded(expr("B.attrs.get(N, 0) if B.__class__ is Item else get_attr(ctx, B, N)", B=base,
                                       N=const(name)), "value"), number)
        return kinded(expr("plain_attr(ctx, B, N)", B=base, N=const(name)), "value")

    def _declared(self, name: str) -> bool:
        return any(name in t.attrs for t in self.pack.types.values())

    def _player_attr(self, player: ast.expr, name: str) -> ast.expr:
        """`p.NAME` for a known player: the seat (1-based), the place in turn order, a counter or a zone.
        The seat is read from the player, or worked out directly for `me` and `next_player` (`cog_seat`)."""
        seat = getattr(player, "cog_seat", None) or expr("P.seat", P=player)
        if name == "seat":
            return numeric(expr("S + 1", S=seat))
        if name == "position":
            return numeric(expr("game.position(S)", S=seat))
        cdef = self.pack.counters.get(name)
        if cdef is not None:
            if cdef.stored and cdef.scope == "player":
                return numeric(expr("game.state.players[S].counters[N]", S=seat, N=const(name)))
            return numeric(expr("game.counter(N, S)", S=seat, N=const(name)))
        zdef = self.pack.zones.get(name)
        if zdef is not None:
            if zdef.scope == "player":   # (`State.zone`, inlined: the seat's own copy)
                return zone_named(expr("game.state.players[S].zones[N]", S=seat, N=const(name)), name)
            return zone_named(expr("game.state.zone(N, S)", S=seat, N=const(name)), name)
        return expr("get_attr(ctx, P, N)", P=player, N=const(name))

    def _x_index(self, t: Tree) -> ast.expr:
        """`coll[i]`: an element of the collection (index() raises outside it), so of its elements' kind."""
        coll = self.expr(t.children[0])
        i = self.expr(t.children[1])
        if kind_of(coll) in ("zone", "items") and isinstance(i, ast.Constant) and i.value.__class__ is int \
                and i.value > 0:   # a list: its element read in place, index() only to report one it lacks
            code = "L[0] if (L := A) else index(L, I)" if i.value == 1 else "L[J] if len(L := A) > J else index(L, I)"
            read = kinded(expr(code, L=self.unit.temp(), A=self.read(coll), I=i, J=const(i.value - 1)),
                          element_kind(coll))
            read.cog_plain = expr("index(A, I)", A=self.read(coll), I=i)  # type: ignore[attr-defined] # see _finished
            # an item read from a zone named by id lies in that zone (every item in a zone's list has it as its
            # `zone`): a move of it can leave out the tests its definition rules out (effect.py `_s_move`)
            read.cog_item_of = getattr(coll, "cog_zone", None)  # type: ignore[attr-defined]
            return read
        return kinded(expr("index(A, I)", A=self.read(coll), I=i), element_kind(coll))

    def _x_collection(self, t: Tree) -> ast.expr:
        """`COLL where COND`: the items for which COND holds, with `it` bound."""
        source = self.expr(t.children[0])
        it, cond = self.with_it(t.children[1], source)
        kind = {"players": "players", "zone": "items", "items": "items"}.get(kind_of(source) or "", "list")
        found = charged(kinded(expr("[IT for IT in E if C]", IT=it, E=paid(self.read(source)), C=cond), kind))
        if quiet(cond):    # first(...) of it may stop at the first that passes (engine/compile/loops.py)
            found.cog_quiet = True  # type: ignore[attr-defined]
        return distinct_numbers(found) if getattr(source, "cog_distinct", False) else found

    # ---------------------------------------------------------------- functions
    def _x_call_fn(self, t: Tree) -> ast.expr:
        """A built-in function (engine/dsl/functions.py): its code template, or its `lower_NAME` method."""
        name_tok, *args = t.children
        args = [a for a in args if a is not None]
        fn = FUNCTIONS.get(str(name_tok))
        if fn is None:
            self.unknown(name_tok, "function", sorted(FUNCTIONS))
            return const(0)
        if not fn.takes(len(args)):
            self.dsl.error(name_tok, "DSL011", f"{name_tok}() takes {fn.arity_text()} arguments, got {len(args)}")
            return _nothing(fn.returns)
        if fn.code is None:
            lower: Callable[[Any, list], ast.expr] = getattr(self, f"lower_{fn.name}")
            return lower(name_tok, args)
        parts = dict(zip("ABC", (self.expr(a) for a in args), strict=False))
        node = kinded(expr(fn.code, **parts), fn.code_kind)
        return charged(node) if fn.charged else node

    # ---------------------------------------------------------------- functions whose code depends on kinds
    def lower_count(self, tok: Token, args: list) -> ast.expr:
        counting, self._counting = self._counting, True      # a count of a hidden zone is public
        try:
            coll = self.expr(args[0])
        finally:
            self._counting = counting
        return expr("count(X)", X=coll) if kind_of(coll) is None else expr("len(X)", X=self.read(coll))

    def lower_sum(self, tok: Token, args: list) -> ast.expr:
        coll = self.expr(args[0])
        it, value = self.with_it(args[1], coll)
        # an item's number read from its dict is an int or a bool: `sum` of those is the int `int()` would give
        summed = value if _item_number(value) else expr("int(V)", V=value)
        return expr("sum([V for IT in E])", V=summed, IT=it, E=paid(self.read(coll)))

    def lower_items(self, tok: Token, args: list) -> ast.expr:
        colls = [self.expr(a) for a in args]
        parts: list[ast.expr] = [ast.Starred(self.read(c), ast.Load()) for c in colls]
        of_items = all(element_kind(c) == "item" for c in colls)
        joined = expr("game.each(L)", L=ast.List(parts, ast.Load()))  # copying them is work: paid by length
        joined.cog_made = True  # type: ignore[attr-defined]  # a new list each time: a choice offers it uncopied
        return charged(kinded(joined, "items" if of_items else "list"))

    def lower_all(self, tok: Token, args: list) -> ast.expr:
        arg = args[0]
        tname = str(arg.children[0]) if _is_name(arg) else ""
        if tname not in self.pack.types:
            self.unknown(arg, "component type", list(self.pack.types))
            return ast.List([], ast.Load())
        self.usage.ref(tname, self.dsl.spot(arg))
        return charged(kinded(expr("game.all_of(T, ctx.seat)", T=const(tname)), "items"))  # all_of pays its scan

    def lower_range(self, tok: Token, args: list) -> ast.expr:
        """range(A, B): the numbers A..B, a new list paid for by its length; between two numbers written in the
        text (within the limit) without number_span's checks. Its numbers differ: see `distinct_numbers`."""
        low, high = self.expr(args[0]), self.expr(args[1])
        if (isinstance(low, ast.Constant) and isinstance(high, ast.Constant) and low.value.__class__ is int
                and high.value.__class__ is int and high.value - low.value < MAX_LIST):
            node = expr("game.each(list(range(A, B)))", A=low, B=const(high.value + 1))
        else:
            node = expr(f"game.each(list(number_span(A, B, 'range()', {MAX_LIST})))", A=low, B=high)
        return distinct_numbers(charged(kinded(node, "list")))

    def lower_max(self, tok: Token, args: list) -> ast.expr:
        return _builtin("max", [self.expr(a) for a in args])

    def lower_min(self, tok: Token, args: list) -> ast.expr:
        return _builtin("min", [self.expr(a) for a in args])

    def lower_sorted(self, tok: Token, args: list) -> ast.expr:
        """sorted(COLL, KEY): the items in ascending order of KEY (with `it` bound); ties keep their order."""
        coll = self.expr(args[0])
        it, key = self.with_it(args[1], coll)
        kind = "items" if element_kind(coll) == "item" else "list"
        return charged(kinded(expr("sorted(sorting(game, E), key=lambda IT: K)", E=paid(self.read(coll)), IT=it,
                                   K=key), kind))

    def lower_held(self, tok: Token, args: list) -> ast.expr:
        """held(CONTAINER, NAME): how many of the held counter NAME the container holds."""
        return self._container_call("game.held_in(C, N)", args)

    def lower_room(self, tok: Token, args: list) -> ast.expr:
        """room(CONTAINER, NAME): how many more units of NAME fit in the container."""
        return self._container_call("game.room_for(C, N)", args)

    def _container_call(self, code: str, args: list) -> ast.expr:
        """A container function's call: its second argument names a held counter."""
        container = self.expr(args[0])
        name = args[1].children[0] if _is_name(args[1]) else None
        cdef = self.pack.counters.get(str(name)) if name is not None else None
        if cdef is None or cdef.held is None:
            self.dsl.error(args[1], "DSL012", f"'{self.dsl.snippet(args[1])}' is not a counter held in containers"
                           " (a counter that declares `held`)", None)
            return const(0)
        self.usage.ref(str(name), self.dsl.spot(name))
        return expr(code, C=container, N=const(str(name)))

    def grid_type(self, arg: Any, fn: str) -> str | None:
        """The grid type a grid function's first argument names (`at(cell, 1, 2)`), else reported."""
        tname = str(arg.children[0]) if _is_name(arg) else ""
        if tname not in self.pack.types:
            self.unknown(arg, "component type", list(self.pack.types))
            return None
        self.usage.ref(tname, self.dsl.spot(arg))
        if self.pack.types[tname].grid is None:
            grids = [t for t, ctype in self.pack.types.items() if ctype.grid is not None]
            self.dsl.error(arg, "BOARD003", f"{fn}() needs a grid board type, and '{tname}' declares no `grid`",
                           did_you_mean(tname, grids) or "declare the type's grid: grid: {shape: square, size: [W, H]}")
            return None
        return tname

    def lower_at(self, tok: Token, args: list) -> ast.expr:
        tname = self.grid_type(args[0], "at")
        col, row = self.expr(args[1]), self.expr(args[2])
        if tname is None:
            return const(0)
        if not self.pack.types[tname].per_player:   # one board for everyone: the match's item of the cell's uid
            for by, fixed, other in ((1, row, col), (0, col, row)):   # a row (column) written as a number: its map
                if isinstance(fixed, ast.Constant) and fixed.value.__class__ is int:
                    along = steady(expr("game.grids.maps.along[T, B, N]", T=const(tname), B=const(by),
                                        N=const(fixed.value)))   # made at its first read: cannot fail
                    read = expr("I[L[X]]", I=_match_items(), L=along, X=other)
                    # a loop over written numbers may read it from a span (engine/compile/grid_loops.py)
                    if isinstance(read, ast.Subscript):   # (not while only checking)
                        read.slice.cog_span = (tname, by, fixed.value)  # type: ignore[attr-defined]
                    return kinded(read, "item")
            board = steady(expr("game.grids.maps.boards[T]", T=const(tname)))   # made at its first read
            return kinded(expr("I[B[(C, R)]]", I=_match_items(), B=board, C=col, R=row), "item")
        return kinded(expr("game.grids.at(T, ctx.seat, C, R)", T=const(tname), C=col, R=row), "item")

    def _grid_run(self, args: list, fn: str) -> ast.expr:
        tname = self.grid_type(args[0], fn)
        number = self.expr(args[1])
        if tname is None:
            return ast.List([], ast.Load())
        if not self.pack.types[tname].per_player:   # one board for everyone: its getter called on the match's items
            runs = steady(expr(f"game.grids.maps.{fn}s[T]", T=const(tname)))
            run = expr("R[N](I)", R=runs, N=number, I=_match_items())
            run.cog_made = True  # type: ignore[attr-defined]  # a new list each time: a choice offers it uncopied
            run.cog_reads = True  # type: ignore[attr-defined]  # a getter (engine/runtime/grids.py): runs no rules
            run.cog_run = (tname, fn)  # type: ignore[attr-defined]  # a loop may go through its uids (grid_loops.py)
            return kinded(run, "items")
        return kinded(expr(f"game.grids.{fn}(T, ctx.seat, N)", T=const(tname), N=number), "items")

    def lower_column(self, tok: Token, args: list) -> ast.expr:
        return self._grid_run(args, "column")

    def lower_row(self, tok: Token, args: list) -> ast.expr:
        return self._grid_run(args, "row")

    def lower_step(self, tok: Token, args: list) -> ast.expr:
        """step(CELL, DIRS): a read of the match's table for those directions (each cell's steps worked out at
        its first read), keyed by the directions one a line (written out: a constant); a call when CELL is not
        known to be an item (a dict key must be one)."""
        cell = self.expr(args[0])
        words = _written_directions(args[1])
        directions = self.expr(args[1]) if words is None else None
        key = const("\n".join(words)) if words is not None else expr("direction_key(D)", D=directions)
        if kind_of(cell) != "item":
            return kinded(expr("game.grids.step(C, K)", C=cell, K=key), "items")
        # made at its first read, keyed by a key that is always made: cannot fail (nor can DIRS, if quiet)
        table = expr("game.grids.steps[K]", K=key)
        fixed = directions is None or quiet(directions)
        run = kinded(expr("S[C]", S=steady(table) if fixed else table, C=cell), "items")
        copied = kinded(expr("list(X)", X=run), "items")
        copied.cog_copy_of = run  # type: ignore[attr-defined]   # what `read` takes (it never changes it)
        return copied

    def lower_first(self, tok: Token, args: list) -> ast.expr:
        coll = self.expr(args[0])
        return kinded(expr("first(X)", X=self.read(coll)), element_kind(coll))

    def lower_in_a_row(self, tok: Token, args: list) -> ast.expr:
        cell, n = self.expr(args[0]), self.expr(args[1])
        compared = self._attr_equals(args[2])
        if compared is not None:   # `it.ATTR == VALUE`: VALUE worked out once, no call per cell
            attr, value_t = compared
            return expr("game.grids.in_a_row_of(C, N, A, V)", C=cell, N=n, A=const(attr), V=self.expr(value_t))
        py, saved = self.bind("it", "item")
        test = self.expr(args[2])
        self.scope = saved
        return expr("game.grids.in_a_row(C, N, lambda IT: K)", C=cell, N=n, IT=py, K=test)

    def _attr_equals(self, cond: Any) -> tuple[str, Any] | None:
        """(ATTR, VALUE) for a condition `it.ATTR == VALUE` where ATTR is stored plainly by every type that
        declares it and VALUE reads neither `it` nor calls a function (a `roll()` must roll per cell)."""
        if not (isinstance(cond, Tree) and cond.data == "eq"):
            return None
        for side, other in (cond.children, reversed(cond.children)):
            if (isinstance(side, Tree) and side.data == "attr" and _is_name(side.children[0], "it")
                    and _plain_everywhere(self.pack, str(side.children[1]))
                    and str(side.children[1]) not in ITEM_BUILTINS and str(side.children[1]) in self.attr_names
                    and isinstance(other, Tree) and not any(_is_name(node, "it") or node.data == "call_fn"
                                                            for node in other.iter_subtrees())):
                return str(side.children[1]), other
        return None

    def lower_cost_uses(self, tok: Token, args: list) -> ast.expr:
        """cost_uses(item, NAME [, amount]): some alternative cost of item names NAME (that many)."""
        item = self.expr(args[0])
        if not _is_name(args[1]):
            self.dsl.error(args[1], "DSL012", "cost_uses() needs a counter name as its second argument")
            return const(False)
        counter = str(args[1].children[0])
        self.check_cost_name(args[1].children[0])
        amount = self.expr(args[2]) if len(args) == 3 else const(None)
        return expr("cost_uses(ctx, I, N, A)", I=item, N=const(counter), A=amount)


def _plain_in_iterables(body: list[ast.stmt]) -> list[ast.stmt]:
    """`body` with each read that names a local (`Z[1]` as `L[0] if (L := Z.items) else ...`) put back to
    its plain form (`index(Z.items, 1)`) inside what a comprehension goes through, where Python refuses `:=`.
    Changed in place: both forms give the same value, so a node shared with another place may change too."""
    for node in (n for stmt in body for n in ast.walk(stmt)):
        if isinstance(node, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
            for gen in node.generators:
                if any(isinstance(n, ast.NamedExpr) for n in ast.walk(gen.iter)):
                    gen.iter = _Plain().visit(gen.iter)  # type: ignore[assignment]   # an expression stays one
    return body


class _Plain(ast.NodeTransformer):
    def visit(self, node: ast.AST) -> ast.AST:
        return self.generic_visit(getattr(node, "cog_plain", node))


# the acting seat (`game.acting` only where nobody acts: it raises the error)
_ACTING = "(ctx.seat if ctx.seat is not None else game.acting(None))"


def _match_items() -> ast.expr:
    """The match's items by uid (`t_state.items`: the same list for the whole match), which grid maps index."""
    return steady(expr("t_state.items"))
_PLAYERS = "len(game.state.players)"

# built-in names: (code, kind)
_BUILTIN_EXPR: dict[str, tuple[str, str | None]] = {
    "self": ("t_self", None),  # read once, in the prologue: a local, so `self.x` reads the item directly
    "event": ("ctx.event or {}", None),
    "players": ("len(game.state.players)", None),
    "option": ("game.options", None),
    "me": (f"game.players_from({_ACTING})[0]", "player"),
    "next_player": (f"game.players_from({_ACTING})[1 % len(game.state.players)]", "player"),
    "others": (f"game.players_from({_ACTING})[1:]", "players"),
    "everyone": ("game.everyone()", "players"),
}


# the seat of a built-in player, worked out without the player (`players_from(s)[k]` is seat s + k, wrapped)
_BUILTIN_SEATS = {
    "me": _ACTING,
    "next_player": f"({_ACTING} + 1) % len(game.state.players)",
}


def _written_directions(tree: Any) -> tuple[str, ...] | None:
    """The directions `step` is given when they are written out: `"n"` or `["sw", "s", "se"]`."""
    words = tree.children if isinstance(tree, Tree) and tree.data == "list" else [tree]
    if not words or not all(isinstance(w, Tree) and w.data == "string" for w in words):
        return None
    return tuple(str(w.children[0])[1:-1] for w in words)


def zone_named(node: ast.expr, zid: str) -> ast.expr:
    """A zone read by its id (a player's copy, or the shared one): its definition is known when compiled
    (`cog_zone`), so code can leave out run-time tests of what the definition rules out."""
    node.cog_zone = zid  # type: ignore[attr-defined]
    return kinded(node, "zone")


def kinded(node: ast.expr, kind: str | None) -> ast.expr:
    """Note what an expression is known to hold at compile time: a `zone`, a `list`, `items` (a list of
    items), an `item`, a `player`, `players`, a plain `value` (number, string, bool or list of them).

    Code reading a known zone takes `.items` directly; a known player's counter is one dict read.
    """
    if kind is not None:
        node.cog_kind = kind  # type: ignore[attr-defined]
    return node


# `count(X where C)` compared with a number that asks only whether some element passes: (op, number) -> whether
# the comparison holds when one does
_SOME = {("gt", 0): True, ("ne", 0): True, ("ge", 1): True, ("eq", 0): False, ("le", 0): False, ("lt", 1): False}


def _some_pass(a: ast.expr, b: ast.expr, op: str) -> ast.expr | None:
    """`count(X where C) > 0` (or `== 0`, ...) as `any(True for it in X if C)` where C is `quiet`: it stops at
    the first element that passes (written out with a `break`, engine/compile/loops.py). The same answer and
    work (X is paid for by its length before the loop), since a quiet C cannot fail and has no effect."""
    holds = _SOME.get((op, b.value)) if isinstance(b, ast.Constant) and b.value.__class__ is int else None
    if holds is None or not (isinstance(a, ast.Call) and isinstance(a.func, ast.Name) and a.func.id == "len"
                             and len(a.args) == 1 and isinstance(a.args[0], ast.ListComp)):
        return None
    comp = a.args[0]
    if not (getattr(comp, "cog_quiet", False) and len(comp.generators) == 1):
        return None
    some = ast.Call(ast.Name("any", ast.Load()), [ast.GeneratorExp(ast.Constant(True), comp.generators)], [])
    return some if holds else ast.UnaryOp(ast.Not(), some)


def charged(node: ast.expr) -> ast.expr:
    """Note that making this collection already spent at least its length from the game's work budget
    (a `where`, `sorted`, `all()`): going through it again need not pay (engine/runtime/limits.py)."""
    node.cog_charged = True  # type: ignore[attr-defined]
    return node


def paid(collection: ast.expr) -> ast.expr:
    """A collection about to be gone through, paid for by its length unless making it paid already."""
    return collection if getattr(collection, "cog_charged", False) else expr("game.each(X)", X=collection)


def kind_of(node: ast.expr) -> str | None:
    return getattr(node, "cog_kind", None)


def numeric(node: ast.expr, number: bool = True) -> ast.expr:
    """Note that this expression's value is surely a number (a counter, an `int` attribute): `+`, `*` and
    comparisons on it keep Python's operators, with nothing to pay for size."""
    if number:
        node.cog_number = True  # type: ignore[attr-defined]
    return node


def distinct_numbers(node: ast.expr) -> ast.expr:
    """Note that this expression makes a new list of numbers that all differ (a `range`, or some of one): a
    choice among them offers it as it is, labelled only if read (what `offer` would find out)."""
    node.cog_distinct = True  # type: ignore[attr-defined]
    return node


def small(node: ast.expr) -> ast.expr:
    """Note that this expression's value is surely an int within the engine's limits (a seat number): stored
    as it is, with no type or size check (engine/compile/effect.py)."""
    node.cog_small = True  # type: ignore[attr-defined]
    return numeric(node)


_NUMBER_CALLS = frozenset({"int", "len", "sum", "abs", "div", "mod", "count", "rank"})


def is_number(node: ast.expr) -> bool:
    """The value is surely a number (or a bool), never a list or a text."""
    if getattr(node, "cog_number", False) or isinstance(node, (ast.BinOp, ast.Compare, ast.BoolOp)):
        return True    # `+`/`*` compile to a BinOp only over numbers; `-` of anything else fails
    if isinstance(node, ast.Constant):
        return node.value.__class__ in (int, bool)
    if isinstance(node, ast.UnaryOp):
        return True
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _NUMBER_CALLS


def _not_a_list(node: ast.expr) -> bool:
    """Comparing with this value takes constant time: it is surely not a list (a number, a text written out,
    an item, a player, a zone)."""
    return is_number(node) or isinstance(node, ast.Constant) or kind_of(node) in ("item", "player", "zone")


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


def _nothing(t: T) -> ast.expr:
    """What a call with the wrong number of arguments compiles to (it is reported; the pack does not load)."""
    return ast.List([], ast.Load()) if t.kind == "list" else const(False) if t.kind == "bool" else const(0)


def _builtin(fn: str, parts: list[ast.expr]) -> ast.expr:
    """max/min of the parts; of one part, max/min over it (as `max([x])` would)."""
    args: list[ast.expr] = parts if len(parts) > 1 else [ast.List(parts, ast.Load())]
    return ast.Call(ast.Name(fn, ast.Load()), args, [])


def as_int(node: ast.expr) -> ast.expr:
    """`int(node)`, folded for a number written in the text and left out where the value is an int already."""
    if (isinstance(node, ast.Constant) and type(node.value) is int) or surely_int(node):
        return node
    return expr("int(X)", X=node)


def surely_int(node: ast.expr) -> bool:
    """The value is an int, never a bool (so `int()` of it is itself): `+`, `-`, `*` (a BinOp only over numbers,
    and arithmetic on bools gives ints), `len`, `sum`, `int`, or noted `small`."""
    return getattr(node, "cog_small", False) or isinstance(node, ast.BinOp) or (
        isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("int", "len", "sum"))


def _item_number(node: ast.expr) -> bool:
    """An item attribute read straight from its dict (`x.attrs[N]`, `x.attrs.get(N, 0)`) that every type declares
    `int` or `bool` (`numbers_everywhere`): the value is an int or a bool."""
    if not getattr(node, "cog_number", False):
        return False
    if isinstance(node, ast.Subscript):
        base = node.value
    elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get":
        base = node.func.value
    else:
        return False
    return isinstance(base, ast.Attribute) and base.attr == "attrs"


def _is_name(tree: Any, name: str | None = None) -> bool:
    return (isinstance(tree, Tree) and tree.data == "name"
            and (name is None or str(tree.children[0]) == name))


def numbers_everywhere(pack: Pack, name: str) -> bool:
    """Every component type that declares `name` declares it `int` or `bool` (its YAML values are checked when
    the pack loads, its `set`s when they run), so reading it gives a number."""
    kinds = [t.attrs[name].type for t in pack.types.values() if name in t.attrs]
    return bool(kinds) and all(k in ("int", "bool") for k in kinds)


def _plain_everywhere(pack: Pack, name: str) -> bool:
    """Every component type that declares `name` stores it as a plain value (so `item.attrs` holds the answer)."""
    kinds = [t.attrs[name].type for t in pack.types.values() if name in t.attrs]
    return bool(kinds) and all(k in _PLAIN for k in kinds)


def _attr_names(pack: Pack) -> set[str]:
    names = set(ITEM_BUILTINS) | PLAYER_ATTRS | set(pack.counters) | set(pack.zones)
    for ctype in pack.types.values():
        names.update(ctype.attrs)
    return names
