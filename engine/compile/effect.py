"""Compiling DSL statements into Python code (see engine/compile/codegen.py).

A DSL text becomes one Python function `dsl(ctx)`; nested blocks, choices
and loops are inlined into it. Where a player must choose, the code calls
`Interpreter.ask`, which pauses the game (see engine/play/match.py) and returns the
answer, so an effect can stop anywhere and resume there.
"""

from __future__ import annotations

import ast
import copy
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from typing import Any

from lark import Token, Tree

from engine.compile.acting import ACTING
from engine.compile.codegen import checking_only, const, expr, generating, stamp, stmts
from engine.compile.expr import (
    ExprCompiler,
    as_int,
    charged,
    element_kind,
    is_number,
    kind_of,
    kinded,
    numbers_everywhere,
    numeric,
    paid,
    plain_value,
)
from engine.compile.prompts import compile_prompt
from engine.diagnostics import did_you_mean
from engine.dsl.parse import DslText, branch_parts, choice_binders, label_text
from engine.dsl.walk import STATEMENT
from engine.runtime.decision import DONE, YES
from engine.runtime.defs import Effect, Pack, ZoneDef, item_names_unique, items_at_most
from engine.runtime.dsl_values import offer, option_labels
from engine.runtime.limits import DRAW_WORK, MAX_OPTIONS, MAX_VALUE, SIZE_FREE
from engine.usage import Usage

# Python refuses a function with more than 20 blocks (loops, try) nested statically. Generated code nests
# this many per DSL statement; one more is kept for the `except` clause of the innermost `try`.
PYTHON_BLOCKS = {"repeat_n": 2, "repeat_choose_item": 2, "repeat_choose_alt": 2, "for_stmt": 1, "choose_item": 1,
                 "while_stmt": 2, "choose_alt": 1, "as_stmt": 1, "within": 1}
MAX_BLOCK_DEPTH = 19
# choices that offer anytime actions: in a pack that has some, the chosen option runs inside a `try` that
# marks it committed (one more Python block)
CHOICES = ("choose_alt", "repeat_choose_alt", "choose_item", "repeat_choose_item")


@dataclass
class Code:
    """Compiled statements: their Python body, whether they can start now (None: always), their DSL text."""

    body: list[ast.stmt]
    legal: ast.expr | None
    text: str


class EffectCompiler(ExprCompiler):
    """Statements on top of expressions; one instance per DSL text."""

    def __init__(self, pack: Pack, dsl: DslText, procedures: Mapping[str, tuple[str, ...]],
                 usage: Usage | None = None) -> None:
        super().__init__(pack, dsl, usage)
        self.known_procedures = procedures   # each procedure's parameters
        self.blocks = 1  # Python blocks around the code being generated: the function's own `try`
        self.too_deep = False  # reported once per generated function
        self.lets: set[str] = set()  # Python locals of `let`s: `set NAME = ...` may change them

    def effect_function(self, tree: Tree, text: str, params: tuple[str, ...] = (),
                        procedure: str | None = None) -> Effect:
        """The whole text as an `Effect`: its run function and, when it has one, its legality test. For
        `procedure` (its name), the run function pays for the call (engine/compile/codegen.py) and `params`
        are locals holding the values its `call` passed (`ctx.args`)."""
        with checking_only():  # names resolved and problems reported now, the code built when first run
            self.take_params(params)
            code = self.effect(tree)
        legal = None if code.legal is None else self.function(
            lambda c: [*c.take_params(params), *stmts("return X", X=c.effect(tree).legal)], "legal")
        return Effect(self.function(lambda c: [*c.take_params(params), *c.effect(tree).body], procedure=procedure),
                      legal, text)

    def take_params(self, params: tuple[str, ...]) -> list[ast.stmt]:
        """Bind each parameter to its value in `ctx.args` (like a `let`: `set NAME = ...` changes it)."""
        code: list[ast.stmt] = []
        for i, name in enumerate(params):
            py, _ = self.bind(name)
            self.lets.add(py)
            code += stmts("V = ctx.args[I]", V=py, I=const(i))
        return code

    def effect(self, tree: Tree) -> Code:
        """A statement list: runs in order; legal if its first statement is."""
        saved = self.scope   # a `let` binds its name to the end of this statement list
        try:
            codes = [self.stmt(s) for s in tree.children if isinstance(s, Tree)]
        finally:
            self.scope = saved
        body = [node for c in codes for node in c.body]
        return Code(body, codes[0].legal if codes else None, self.dsl.snippet(tree))

    def stmt(self, t: Tree) -> Code:
        method = getattr(self, STATEMENT + t.data, None)       # Walker.walk, inlined: called per statement
        weight = PYTHON_BLOCKS.get(str(t.data), 0) + (self.pack.anytime and t.data in CHOICES)
        with self.nested(weight, lambda: self.dsl.error(t, "DSL006", self.too_deep_message())):
            body, legal = method(t) if method is not None else self.no_method(STATEMENT, t)
        return Code(stamp(body, self.unit.line(partial(self.dsl.where, t))), legal, self.dsl.snippet(t))

    @contextmanager
    def nested(self, weight: int, report: Callable[[], None]) -> Iterator[None]:
        """Code generated inside `weight` more Python blocks; `report` is called (once) past MAX_BLOCK_DEPTH."""
        self.blocks += weight
        if self.blocks > MAX_BLOCK_DEPTH and not self.too_deep:
            self.too_deep = True
            report()
        try:
            yield
        finally:
            self.blocks -= weight

    def too_deep_message(self) -> str:
        return (f"blocks nested too deeply: this needs {self.blocks} nested Python blocks and the engine allows"
                f" {MAX_BLOCK_DEPTH} (a repeat counts 2, a for, choose or as 1, with the flow steps around it)")

    def block(self, t: Tree) -> Code:
        return self.effect(t.children[0])

    def prompt(self, token: Token | Tree | None, default: str) -> ast.expr:
        return compile_prompt(self, token if isinstance(token, Token) else None, default)

    def scoped(self, var: str, tree: Tree, over: ast.expr | None = None) -> tuple[str, Code]:
        """A block compiled with DSL local `var` bound (to each of `over`): (its Python name, the block)."""
        py, saved = self.bind(var, None if over is None else element_kind(over))
        code = self.block(tree)
        self.scope = saved
        return py, code

    # ---------------------------------------------------------------- counters
    def _s_gain(self, t: Tree):
        amount_t, name = t.children
        if isinstance(name, Tree):  # `gain N ITEM.ATTR`: the counter a `counter` attribute names
            target = self.counter_ref(name, self.usage.produce)
            return stmts("game.gain(ctx, N, int(A))", N=target, A=self.expr(amount_t)), None
        self.check_cost_name(name)
        self.usage.produce(str(name), self.dsl.spot(name))
        self._not_item_backed(name, "gained")
        amount = self.expr(amount_t)
        general = stmts("game.gain(ctx, N, int(A))", N=const(str(name)), A=amount)
        return self._unless_watched(self.quick_counter(str(name), "gain", amount), general), None

    def _s_lose(self, t: Tree):
        amount_t, name = t.children
        if isinstance(name, Tree):
            target = self.counter_ref(name, self.usage.ref, wildcards=False)
            return stmts("game.lose(ctx, N, int(A))", N=target, A=self.expr(amount_t)), None
        if str(name) not in self.pack.counters:
            self.unknown(name, "counter", list(self.pack.counters))
        self._not_item_backed(name, "lost")
        amount = self.expr(amount_t)
        general = stmts("game.lose(ctx, N, int(A))", N=const(str(name)), A=amount)
        return self._unless_watched(self.quick_counter(str(name), "lose", amount), general), None

    def _not_item_backed(self, tok: Token | Tree, done: str) -> None:
        """An item-backed counter is read from its items: only paying (exhausting them) changes it."""
        cdef = self.pack.counters.get(str(tok))
        if cdef is not None and cdef.items is not None:
            self.dsl.error(tok, "ITEMS003", f"'{tok}' is the sum of the items in zone '{cdef.items.zone}': it cannot"
                           f" be {done}, only paid (by exhausting items)",
                           "change the items instead: move them, or set their attributes")

    def _s_pay(self, t: Tree):
        amounts = self.cost_amounts(t.children[0])
        return (stmts("game.pay(ctx, A, T)", A=amounts, T=const(self.dsl.snippet(t.children[0]))),
                expr("game.can_pay(ctx, A)", A=amounts))

    def _s_pay_attr(self, t: Tree):
        """`pay ITEM.ATTR`: the item's `cost` attribute; anything else after `pay` is not a cost."""
        target = t.children[0]
        if not self._names_dsl_attr(target, "cost"):
            self.dsl.error(target, "DSL014", f"pay needs a cost ('2 coin + 1 ore') or ITEM.ATTR naming a `cost` "
                           f"attribute, got '{self.dsl.snippet(target)}'", None)
            return [], None
        base, name = self.expr(target.children[0]), const(str(target.children[1]))
        return (stmts("game.pay_attr(ctx, B, N)", B=base, N=name), expr("game.can_pay_attr(ctx, B, N)", B=base, N=name))

    def _names_dsl_attr(self, tree: Tree | Token, kind: str) -> bool:
        """`ITEM.ATTR` where some component type declares ATTR of this kind (`effect` or `cost`)."""
        if not (isinstance(tree, Tree) and tree.data == "attr"):
            return False
        name = str(tree.children[1])
        return any(a.type == kind for ctype in self.pack.types.values() if (a := ctype.attrs.get(name)))

    def _s_set(self, t: Tree):
        target, value_t = t.children
        value = self.expr(value_t)
        if isinstance(target, Tree) and target.data == "name":
            tok = target.children[0]
            n = str(tok)
            if n in self.scope and self.scope[n] in self.lets:   # a `let` local takes a new value
                py = self.scope[n]
                return stmts("V = X", V=py, X=value), None
            cdef = self.pack.counters.get(n)
            if cdef is not None and cdef.items is not None:
                self._not_item_backed(tok, "set")
                return [], None
            if cdef is not None and cdef.held is not None:
                self.dsl.error(tok, "HELD003", f"'{tok}' is what containers hold: it cannot be set",
                               f"gain or lose it (within a container: `within C {{ lose 1 {tok} }}`)")
                return [], None
            if cdef is None or cdef.zone is not None:
                self.dsl.error(tok, "DSL013", f"'{n}' cannot be set: only counters and item attributes can",
                               None)
                return [], None
            self.usage.produce(n, self.dsl.spot(tok))
            quick = self.quick_counter(n, "set", value)
            return quick or stmts("game.change(ctx, N, int(V))", N=const(n), V=value), None
        if isinstance(target, Tree) and target.data == "attr":
            base_t, name_tok = target.children
            base, attr = self.expr(base_t), str(name_tok)
            if attr not in self.attr_names:
                self.unknown(name_tok, "attribute", sorted(self.attr_names))
            check: list[ast.stmt] = []  # a stored value stays within the engine's limits (after the base)
            grows = _may_grow(value)
            if numbers_everywhere(self.pack, attr) and not is_number(value):
                # declared a number everywhere: reads of it are compiled as numbers (plain `+`, `==`), so a
                # pack that skipped the type pass cannot slip a list in
                held = self.unit.temp()
                check = stmts("V = X\nif V.__class__ is not int and V.__class__ is not bool:\n"
                              "    V = need_number(V, W)", V=held, X=value, W=const(attr))
                value = numeric(kinded(ast.Name(held, ast.Load()), "value"))
            if grows:
                plain, held = plain_value(value), self.unit.temp()
                check += stmts("V = X\nif V.__class__ is not int or V > HIGH or V < LOW:\n    V = bounded(V, W)",
                               V=held, X=value, HIGH=const(MAX_VALUE), LOW=const(-MAX_VALUE),
                               W=const(f"attribute '{attr}'"))
                value = kinded(ast.Name(held, ast.Load()), "value" if plain else None)
            tmp = self.unit.temp()
            if attr not in self.pack.counters:
                if not plain_value(value):  # an item or zone is stored by id: the helper converts it
                    return stmts("T = B\nCHECK\nset_item_attr(T, N, V)", T=tmp, B=base, CHECK=check or [ast.Pass()],
                                 N=const(attr), V=value), None
                return self._set_attr(base, tmp, attr, value, check), None
            # `set p.score = 3` for a player p
            return stmts("T = B\nCHECK\nif isinstance(T, PlayerRef):\n"
                         "    game.change(ctx.child(seat=T.seat), N, int(V))\nelse:\n    set_item_attr(T, N, V)",
                         T=tmp, B=base, CHECK=check or [ast.Pass()], N=const(attr), V=value), None
        self.dsl.error(target, "DSL013", "only a counter or an item attribute can be set")
        return [], None

    @staticmethod
    def _set_attr(base: ast.expr, tmp: str, attr: str, value: ast.expr, check: list[ast.stmt]) -> list[ast.stmt]:
        """`set B.attr = V` for a plain value: stored straight into an item's attrs, made the item's own first
        (`_own_attrs`). A local (a loop's or a choice's variable) needs no temporary, and a value known to be an item
        no class test."""
        item = kind_of(base) == "item"
        if isinstance(base, ast.Name):   # reading a local twice is free and cannot change in between
            if item:
                return stmts("CHECK\nOWN\nB.attrs[N] = V", B=base, CHECK=check or [ast.Pass()], OWN=_own_attrs(base),
                             N=const(attr), V=value)
            return stmts("CHECK\nif B.__class__ is Item:\n    OWN\n    B.attrs[N] = V\nelse:\n"
                         "    set_item_attr(B2, N, V2)", B=base, B2=ast.Name(base.id, ast.Load()),
                         CHECK=check or [ast.Pass()], OWN=_own_attrs(base), N=const(attr), V=value,
                         V2=copy.deepcopy(value))
        if item:
            return stmts("T = B\nCHECK\nOWN\nT.attrs[N] = V", T=tmp, B=base, CHECK=check or [ast.Pass()],
                         OWN=_own_attrs(tmp), N=const(attr), V=value)
        return stmts("T = B\nCHECK\nif T.__class__ is Item:\n    OWN\n    T.attrs[N] = V\nelse:\n"
                     "    set_item_attr(T, N, V)", T=tmp, B=base, CHECK=check or [ast.Pass()], OWN=_own_attrs(tmp),
                     N=const(attr), V=value)

    @staticmethod
    def _unless_watched(quick: list[ast.stmt] | None, general: list[ast.stmt]) -> list[ast.stmt]:
        """The quick path while nobody observes the match, else the general one, which tells observers
        (a table's event feed shows what each player gained)."""
        if quick is None:
            return general
        return [ast.If(expr("game.observers"), general, quick)]

    def quick_counter(self, name: str, op: str, amount: ast.expr) -> list[ast.stmt] | None:
        """`gain`/`lose`/`set` of a plain counter nobody listens to, as a few dict operations.

        Same result as Interpreter.gain / lose / change: the value is clamped to the counter's bounds. Counters
        backed by a zone or a shared supply, wildcards, and events someone listens to take the general path.
        """
        cdef = self.pack.counters.get(name)
        listened = self.pack.listened
        if cdef is None or not cdef.stored or cdef.supply is not None or cdef.track is not None \
                or "changed" in listened \
                or (op == "gain" and "gained" in listened):
            return None
        store = (expr("game.state.counters") if cdef.scope == "global"
                 else expr("ME.counters", ME=self.acting_player()))
        new = {"set": "A", "gain": "S[N] + A", "lose": "S[N] - (A if A > 0 else 0)"}[op]
        # no declared max: past the engine's hard limit is an error (engine/runtime/limits.py)
        clamp = "S[N] = (V if V <= LIMIT else refuse(V, W)) if V >= LOW else LOW" if cdef.max is None else \
            "S[N] = HIGH if V > HIGH else V if V >= LOW else LOW"
        code = f"A = X\nS = STORE\nV = {new}\n{clamp}"
        if op == "gain":
            code = f"A = X\nif A > 0:\n    S = STORE\n    V = {new}\n    {clamp}"
        return stmts(code, A=self.unit.temp(), X=as_int(amount), S=self.unit.temp(), V=self.unit.temp(), N=const(name),
                     STORE=store, LOW=const(int(cdef.min)), HIGH=const(None if cdef.max is None else int(cdef.max)),
                     LIMIT=const(MAX_VALUE), W=const(f"counter '{name}'"))

    # ---------------------------------------------------------------- zones
    def _s_draw(self, t: Tree):
        amount, src, dst = (self.expr(c) for c in t.children)
        deck = self._zone_def(src)
        if not (isinstance(amount, ast.Constant) and amount.value == 1) or "moved" in self.pack.listened \
                or (deck is not None and (deck.random_draw or deck.refill_from)):
            return stmts("game.draw(ctx, S, D, A)", S=_zone(src), D=_zone(dst), A=as_int(amount)), None
        # `draw 1` written out (`Interpreter.draw` then the usual move, no call): the first item of a deck that
        # has one, draws at random and refills from no other zone, onto the end of a zone without a capacity,
        # nobody watching; anything else takes `draw`. Tests a zone's definition rules out are left out.
        tests = ["game.observers", "not I", *self._size_tests(src, "S"), *self._size_tests(dst, "D"),
                 *self._bulk_test("I"), *(() if deck is not None else ("S.zdef.random_draw", "S.zdef.refill_from"))]
        return stmts("S = SRC\nD = DST\nI = S.items\nif " + " or ".join(tests) + ":\n"
                     "    game.draw(ctx, S, D, 1)\nelse:\n    t_state.work += WORK\n"
                     "    if t_state.work > game.work_limit:\n"
                     "        raise game.out_of_work('drawing 1 items')\n    X = I.pop(0)\n    D.items.append(X)\n"
                     "    D.names_differ = False\n    D.hears = None\n"
                     "    X.zone = D", S=self.unit.temp(), SRC=_zone(src), D=self.unit.temp(), DST=_zone(dst),
                     I=self.unit.temp(), X=self.unit.temp(), FREE=const(SIZE_FREE), WORK=const(DRAW_WORK)), None

    def _s_move(self, t: Tree):
        item_t, zone_t, top = t.children
        item = self.expr(item_t)
        if kind_of(item) != "item":
            item = expr("need_item(I, 'move')", I=item)
        zone = _zone(self.expr(zone_t))
        if top is not None or "moved" in self.pack.listened:
            return stmts("game.move(ctx, I, Z, TOP)", I=item, Z=zone, TOP=const(top is not None)), None
        # the usual move written out (`Interpreter.move`'s last branch, no call): out of a zone onto the end of
        # another without a capacity, nobody watching, no refill; anything else takes `move`
        # an item just read from a zone named by id (`hand[1]`) lies in it: it is somewhere, and that zone's
        # definition says whether it can be a market
        origin = self._zone_def(item, "cog_item_of")
        tests = [*(("O is None", "O.keep_filled") if origin is None else self._size_tests(origin, "O")),
                 *self._size_tests(zone, "D"), "game.observers", *self._bulk_test("O.items")]
        return stmts("T = I\nD = Z\nO = T.zone\nif " + " or ".join(tests) + ":\n"
                     "    game.move(ctx, T, D, False)\nelse:\n"
                     "    O.items.remove(T)\n    D.items.append(T)\n    D.names_differ = False\n    D.hears = None\n"
                     "    T.zone = D",
                     T=self.unit.temp(), I=item,
                     D=self.unit.temp(), Z=zone, O=self.unit.temp(), FREE=const(SIZE_FREE)), None

    def _bulk_test(self, items: str) -> list[str]:
        """A written-out move's or draw's test of its source's size (past SIZE_FREE items the search and the
        shift are paid for: `move` and `draw` do that), left out when no zone of the pack can hold that many."""
        return [] if items_at_most(self.pack) <= SIZE_FREE else [f"len({items}) > FREE"]

    def _zone_def(self, node: ast.expr, tag: str = "cog_zone") -> ZoneDef | None:
        """The definition of the zone `node` reads, when it names one (`zone_named`); with `tag`
        "cog_item_of", of the zone an item `node` reads was just read from (`expr.py` `_x_index`)."""
        zid = getattr(node, tag, None)
        return None if zid is None else self.pack.zones.get(zid)

    def _size_tests(self, node: ast.expr | ZoneDef, local: str) -> list[str]:
        """The run-time tests a written-out move or draw makes of zone `local` (read from `node`, or of the
        definition given): the destination's capacity (`D`), the source's market size (`S`, `O`), unless its
        definition has none."""
        zdef = node if isinstance(node, ZoneDef) else self._zone_def(node)
        attr = "capacity" if local == "D" else "keep_filled"
        if zdef is not None and not getattr(zdef, attr) and attr not in zdef.sizes:
            return []
        return [f"{local}.capacity is not None"] if local == "D" else [f"{local}.keep_filled"]

    def _s_shuffle(self, t: Tree):
        return stmts("game.shuffle(Z)", Z=_zone(self.expr(t.children[0]))), None

    def _s_reveal(self, t: Tree):
        return self.turned(_zone(self.expr(t.children[0])), "reveal"), None

    def _s_conceal(self, t: Tree):
        return self.turned(_zone(self.expr(t.children[0])), "conceal"), None

    def turned(self, zone: ast.expr, how: str) -> list[ast.stmt]:
        """`reveal Z` / `conceal Z`: the zone's visibility set in place while nobody watches (what
        `Interpreter.reveal`/`conceal` do then, without the call), else the call, which tells observers."""
        shown = "'public'" if how == "reveal" else "T.zdef.visibility"
        return stmts(f"T = Z\nif game.observers:\n    game.{how}(T)\nelse:\n    T.visibility = {shown}",
                     T=self.unit.temp(), Z=zone)

    def _s_link(self, t: Tree):
        a, b = (self.expr(c) for c in t.children)
        return stmts("game.relink(A, B, J)", A=a, B=b, J=const(t.data == "link")), None

    _s_unlink = _s_link

    # ---------------------------------------------------------------- dice pools
    def die(self, tok: Token | Tree) -> str:
        """The die a `roll`/`reroll` names; DICE001 when the name is no kind of die."""
        name = str(tok)
        self.usage.ref(name, self.dsl.spot(tok))
        if name not in self.pack.dice:
            self.dsl.error(tok, "DICE001", f"'{name}' is not a kind of die: `roll` and `reroll` take a name from the"
                           " `dice` section", did_you_mean(name, sorted(self.pack.dice)))
        return name

    def _s_roll_dice(self, t: Tree):
        count_t, die_tok = t.children
        return stmts("game.roll_dice(ctx, D, int(N))", D=const(self.die(die_tok)), N=self.expr(count_t)), None

    def _s_reroll(self, t: Tree):
        die_tok, cond_t, limit_t, prompt_tok = t.children
        die = self.die(die_tok)
        pool = kinded(expr("game.state.dice[D]", D=const(die)), "list")
        if cond_t is None:
            eligible = expr("list(range(len(P)))", P=pool)
        else:
            it, cond = self.with_it(cond_t, pool)
            eligible = expr("[I for I in range(len(P)) for IT in (P[I],) if C]", I=self.unit.temp(), IT=it, P=pool,
                            C=cond)
        limit = const(None) if limit_t is None else expr("int(N)", N=self.expr(limit_t))
        name = self.pack.dice[die].name if die in self.pack.dice else die
        prompt = self.prompt(prompt_tok, f"choose {name} dice to reroll")
        return stmts("game.reroll(ctx, D, P, N, E)", D=const(die), P=prompt, N=limit, E=eligible), None

    # ---------------------------------------------------------------- control
    def _s_if_stmt(self, t: Tree):
        cond = self.expr(t.children[0])
        then = self.block(t.children[1])
        other_t = t.children[2] if len(t.children) > 2 else None
        if other_t is None:
            other: list[ast.stmt] = []
        elif other_t.data == "block":
            other = self.block(other_t).body
        else:
            other = self.stmt(other_t).body
        return [ast.If(cond, then.body or [ast.Pass()], other)], None

    def _s_may(self, t: Tree):
        label_tok, body_t = branch_parts(t.children[1])
        body = self.effect(body_t)
        label = self.option_label(label_tok, reserved=("no",))
        prompt = self.prompt(t.children[0], f"do: {body.text}?")
        code = stmts("if game.ask(ctx, 'may', P, [Y, 'no'], [True, False], True, [T, '']):\n"
                     "    BODY", P=prompt, Y=const(label or f"{YES}{body.text}"), T=const(body.text),
                     BODY=body.body or [ast.Pass()])
        if body.legal is not None:
            code = [ast.If(body.legal, code, [])]
        return code, None

    def _alternatives(self, t: Tree, reserved: tuple[str, ...]) -> list[tuple[str, Code]]:
        """Each alternative's option label (the designer's, else its DSL text) and code."""
        out: list[tuple[str, Code]] = []
        seen: set[str] = set()
        for branch in t.children:
            label_tok, body_t = branch_parts(branch)
            code = self.effect(body_t)
            label = self.option_label(label_tok, reserved)
            if label is not None and label.casefold() in seen:
                self.dsl.error(label_tok, "DSL016", f"two alternatives of one choose are labelled '{label}':"
                               " a label must name one option")
            seen.add((label or code.text).casefold())
            out.append((label or code.text, code))
        return out

    def option_label(self, token: Token | None, reserved: tuple[str, ...]) -> str | None:
        """A designer's option label (None if not written); DSL016 for one that cannot name an option."""
        if token is None:
            return None
        label = label_text(token)
        if not label:
            self.dsl.error(token, "DSL016", "an option label cannot be empty")
        elif label.casefold() in reserved:
            self.dsl.error(token, "DSL016", f"'{label}' is the engine's own option here: choose another label")
        elif "{" in label:
            self.dsl.error(token, "DSL016", "an option label is fixed text (logs name options by it):"
                           " '{...}' fields are evaluated only in prompts")
        return label

    def _s_choose_alt(self, t: Tree):
        branches = self._alternatives(t.children[1], ())
        prompt = self.prompt(t.children[0], "choose one")
        legals = [b.legal for _, b in branches if b.legal is not None]
        legal = ast.BoolOp(ast.Or(), legals) if len(legals) == len(branches) else None
        return self._alt_runner(branches, prompt, repeat=False), legal

    def _s_repeat_choose_alt(self, t: Tree):
        branches = self._alternatives(t.children[1], (DONE,))
        return self._alt_runner(branches, self.prompt(t.children[0], "choose one"), repeat=True), None

    def _alt_runner(self, branches: list[tuple[str, Code]], prompt: ast.expr, repeat: bool) -> list[ast.stmt]:
        """Ask which legal branch to run (again and again, until `done`, when `repeat`)."""
        opts, labels, rules, chosen = self.unit.temp(), self.unit.temp(), self.unit.temp(), self.unit.temp()
        offer: list[ast.stmt] = []
        for i, (label, b) in enumerate(branches):
            add = stmts("O.append(I)\nL.append(X)\nR.append(T)", O=opts, L=labels, R=rules, I=const(i),
                        X=const(label), T=const(b.text))
            offer += add if b.legal is None else [ast.If(b.legal, add, [])]
        # one `if` per branch, side by side: an if/elif chain nests, and a few thousand branches would be
        # too deep for Python's compiler
        run = [ast.If(expr("C == I", C=ast.Name(chosen, ast.Load()), I=const(i)), b.body or [ast.Pass()], [])
               for i, (_, b) in enumerate(branches)]
        done = (stmts("L.append(DONE)\nO.append(None)\nR.append('')", L=labels, O=opts, R=rules, DONE=const(DONE))
                if repeat else [])
        after = self._committed(stmts("try:\n    RUN\nexcept StopLoop:\n    break", RUN=run) if repeat
                                else [*run, ast.Break()])
        return stmts("while True:\n    O = []\n    L = []\n    R = []\n    OFFER\n    if not O:\n        break\n"
                     "    DONE_\n    C = game.ask(ctx, 'choose', P, L, O, REP, R, FRESH)\n"
                     "    REASK_\n    if C is None:\n        break\n    AFTER", O=opts,
                     L=labels, R=rules, C=chosen, OFFER=offer or [ast.Pass()], DONE_=done or [ast.Pass()], P=prompt,
                     REP=const(repeat), AFTER=after, FRESH=self._fresh(), REASK_=self._asked_again(chosen))

    def _committed(self, run: list[ast.stmt]) -> list[ast.stmt]:
        """The chosen option's code; in a pack with anytime actions, marked as committed while it runs, so
        no anytime action is offered inside it (it could undo what the choice was offered for)."""
        if not self.pack.anytime:
            return run
        return stmts("game.committed += 1\ntry:\n    RUN\nfinally:\n    game.committed -= 1", RUN=run)

    def _item_choice(self, t: Tree, repeat: bool, optional: bool):
        binders = choice_binders(t)
        prompt_tok, body_t = t.children[-2], t.children[-1]
        if len(binders) > 1:
            return self._combination_choice(binders, prompt_tok, body_t, optional)
        var_tok, coll_t = binders[0]
        var = str(var_tok)
        coll = self.expr(coll_t)
        py, body = self.scoped(var, body_t, coll)
        prompt = self.prompt(prompt_tok, f"choose {var}")
        if body.legal is None:
            options = self.read(coll)
            legal = expr("len(C) > 0", C=self.read(coll))
        else:
            options = charged(expr("[V for V in E if L]", V=py, E=paid(self.read(coll)), L=body.legal))
            legal = expr("any(L for V in E)", V=py, E=paid(self.read(coll)), L=body.legal)
        fixed = _constants(coll) if body.legal is None else None
        if fixed is not None:  # `choose x in ["keep", "sell"]`: the options and their labels are known now
            values, known = offer(fixed)
            names = known if known is not None else option_labels(values)
            options = ast.Tuple([ast.List([const(v) for v in values], ast.Load()),
                                 ast.List([const(n) for n in names], ast.Load())], ast.Load())
        elif getattr(coll, "cog_distinct", False):   # a new list of numbers that differ: as offer() would find
            options = ast.Tuple([paid(options), const(None)], ast.Load())
        elif generating() and self.kinds.get(py) == "item" and item_names_unique(self.pack):
            # items each named as no other item is: offer() would merge none and leave the labels to be made
            # if read (a fact of the whole pack, asked only when generating); a list made here (a `where`) is
            # offered as it is, anything else (a zone's items) as a copy
            offered = paid(options)
            if not isinstance(offered, ast.ListComp):
                offered = expr("list(X)", X=offered)
            options = ast.Tuple([offered, const(None)], ast.Load())
        else:
            # a list made for this choice (a `where`, `items(A, B)`) is offered as it is, not copied
            made = isinstance(options, ast.ListComp) or getattr(options, "cog_made", False)
            options = expr("offer(X, MADE)", X=paid(options), MADE=const(made))
            # a zone's own items: `offer`'s quick case (`Zone.names_differ`) tested here, without the call
            # (the zone itself, read into a local: its flag is read there, not through its first item)
            options.cog_zone_items = coll if body.legal is None and kind_of(coll) == "zone" else None  # type: ignore[attr-defined]
        return self._item_asker(py, options, prompt, body, repeat, optional), (None if repeat or optional else legal)

    def _combination_choice(self, binders: list[tuple[Token, Any]], prompt_tok: Token | Tree | None, body_t: Tree,
                            optional: bool):
        """`choose a in A, b in B { ... }`: one decision over every (a, b) with a in A and b in B (B may use
        a) for which the block can start; the option is labelled by its parts (`offer_combinations`)."""
        saved = self.scope
        names: list[str] = []
        loops: list[tuple[str, ast.expr]] = []   # (Python name, collection read with the names before it bound)
        for var_tok, coll_t in binders:
            if str(var_tok) in names:
                self.dsl.error(var_tok, "DSL018", f"two parts of one choose are named '{var_tok}': each part "
                               "needs its own name", "rename one")
            coll = self.expr(coll_t)
            py, _ = self.bind(str(var_tok), element_kind(coll))
            names.append(str(var_tok))
            loops.append((py, paid(self.read(coll))))
        body = self.block(body_t)
        self.scope = saved
        prompt = self.prompt(prompt_tok, f"choose {', '.join(names)}")

        def comprehension(element: ast.expr, kind: type[ast.ListComp] | type[ast.GeneratorExp]) -> ast.expr:
            generators = [ast.comprehension(ast.Name(py, ast.Store()), over, [], 0) for py, over in loops]
            if body.legal is not None:
                generators[-1].ifs.append(body.legal)
            return kind(element, generators)

        parts = ast.Tuple([ast.Name(py, ast.Load()) for py, _ in loops], ast.Load())
        # items with names of their own: labels made only if read (a fact of the whole pack: asked only when
        # generating, on the first run, when every component is known)
        named = generating() and all(self.kinds.get(py) == "item" for py, _ in loops) and item_names_unique(self.pack)
        options = expr("offer_combinations(X, N)", X=comprehension(parts, ast.ListComp), N=const(named))
        chosen = self.unit.temp()
        body.body = [ast.Assign([ast.Tuple([ast.Name(py, ast.Store()) for py, _ in loops], ast.Store())],
                                ast.Name(chosen, ast.Load())), *body.body]
        legal = expr("any(X)", X=comprehension(const(True), ast.GeneratorExp))
        return self._item_asker(chosen, options, prompt, body, False, optional), (None if optional else legal)

    def _item_asker(self, chosen: str, options: ast.expr, prompt: ast.expr, body: Code, repeat: bool,
                    optional: bool) -> list[ast.stmt]:
        """Ask for one of `options` (a (values, labels) pair) into Python local `chosen` and run the block
        (again and again, until `done`, when `repeat`)."""
        things, labels = self.unit.temp(), self.unit.temp()
        may_stop = repeat or optional
        done = (stmts("if L is not None:\n    L.append(DONE)\nT.append(None)", L=labels, T=things, DONE=const(DONE))
                if may_stop else [])
        stop = stmts("if V is None:\n    break", V=chosen) if may_stop else []
        after = self._committed(stmts("try:\n    BODY\nexcept StopLoop:\n    break", BODY=body.body or [ast.Pass()])
                                if repeat else [*body.body, ast.Break()])
        zone = getattr(options, "cog_zone_items", None) if isinstance(options, ast.Call) else None
        if zone is not None:
            held = self.unit.temp()
            offering = stmts("Z = ZONE\nC = ITEMS\nif len(C) > 1 and Z.names_differ:\n"
                             "    T = list(C)\n    L = None\nelse:\n    T, L = offer(C)", Z=held, ZONE=zone,
                             C=self.unit.temp(), ITEMS=paid(expr("Z.items", Z=held)), T=things, L=labels)
        else:
            offering = stmts("T, L = OPTIONS", T=things, L=labels, OPTIONS=options)
        fresh = self._fresh()
        # (arguments equal to `ask`'s defaults left out: a call's every argument is a load and a copy)
        tail = ", OPT, None, FRESH" if self.pack.anytime else ", OPT" if may_stop else ""
        return stmts("while True:\n    OFFERING\n    if not T:\n        break\n"
                     f"    DONE_\n    V = game.ask(ctx, 'choose', P, L, T{tail})\n"
                     "    REASK_\n    STOP\n    AFTER",
                     T=things, OFFERING=offering, L=labels, DONE_=done or [ast.Pass()], V=chosen, P=prompt,
                     OPT=const(may_stop), STOP=stop or [ast.Pass()], AFTER=after, FRESH=fresh,
                     REASK_=self._asked_again(chosen))

    def _fresh(self) -> ast.expr:
        """`ask`'s `fresh` for a choice that can work its options out again: only a pack with anytime actions
        offers them beside it (a fact of the whole pack: code is generated once the pack is complete)."""
        return const(bool(self.pack.anytime))

    def _asked_again(self, chosen: str) -> list[ast.stmt]:
        """A choice asks again when its answer is REASK (an anytime action was taken instead): only `ask` with
        `fresh` in a pack with anytime actions answers so, so a pack without any has no test for it."""
        return stmts("if V is reask:\n    continue", V=chosen) if self.pack.anytime else [ast.Pass()]

    def _s_choose_item(self, t: Tree):
        optional = any(isinstance(c, Token) and c.type == "OPTIONAL" for c in t.children)
        return self._item_choice(t, repeat=False, optional=optional)

    def _s_repeat_choose_item(self, t: Tree):
        return self._item_choice(t, repeat=True, optional=True)

    def _s_choose_number(self, t: Tree):
        var_tok, low_t, high_t, prompt_tok, body_t = t.children
        var = str(var_tok)
        prompt = self.prompt(prompt_tok, f"choose {var}")
        low, high = self.expr(low_t), self.expr(high_t)
        py, body = self.scoped(var, body_t)
        numbers = self.unit.temp()
        span = expr("game.each(number_span(LO, HI, T, MAX))", LO=low, HI=high, T=const(f"choose {var}"),
                    MAX=const(MAX_OPTIONS))
        options = (expr("list(S)", S=span) if body.legal is None
                   else expr("[V for V in S if L]", V=py, S=span, L=body.legal))
        # (the labels, the numbers as text, are made only if read)
        return stmts("NS = OPTIONS\nif NS:\n    V = game.ask(ctx, 'number', P, None, NS)\n    BODY",
                     NS=numbers, OPTIONS=options, V=py, P=prompt, BODY=body.body or [ast.Pass()]), None

    def _s_for_stmt(self, t: Tree):
        var_tok, coll_t, body_t = t.children
        coll = self.expr(coll_t)
        py, body = self.scoped(str(var_tok), body_t, coll)
        return stmts("for V in C:\n    BODY", V=py, C=paid(self.snapshot(coll)),
                     BODY=body.body or [ast.Pass()]), None

    def _s_repeat_n(self, t: Tree):
        count = self.expr(t.children[0])
        body = self.block(t.children[1])
        # `game.passes(N)` written out: the passes paid for when the loop starts; past the budget `passes` itself
        # pays and fails, with its message
        return stmts("C = N\nif C > 0:\n    if t_state.work + C > game.work_limit:\n        game.passes(C)\n"
                     "    t_state.work += C\ntry:\n    for K in range(C):\n        BODY\nexcept StopLoop:\n    pass",
                     C=self.unit.temp(), N=as_int(count), K=self.unit.temp(), BODY=body.body or [ast.Pass()]), None

    def _s_while_stmt(self, t: Tree):
        cond = self.truth(t.children[0])
        body = self.block(t.children[1])
        return stmts("try:\n    while C:\n        game.spend(1, 'a while loop')\n        BODY\nexcept StopLoop:\n"
                     "    pass", C=cond, BODY=body.body or [ast.Pass()]), None

    def _s_let(self, t: Tree):
        """`let NAME = VALUE`: a local for the rest of the statement list (bound after VALUE is worked out)."""
        name_tok, value_t = t.children
        name = str(name_tok)
        value = self.expr(value_t)
        taken = self.taken_name(name)
        if taken is not None:
            self.dsl.error(name_tok, "DSL017", f"'let {name}' would hide {taken}", "choose another name")
        py, _ = self.bind(name)   # no kind: `set NAME = ...` may give it a value of another kind
        self.lets.add(py)
        return stmts("V = X", V=py, X=value), None

    def _s_end_game(self, t: Tree):
        return stmts("raise GameOver"), None

    def _s_stop(self, t: Tree):
        return stmts("raise StopLoop(W)", W=self.unit.ref(partial(self.dsl.where, t), "W")), None

    # ---------------------------------------------------------------- actions
    def _s_do_stmt(self, t: Tree):
        if self._names_dsl_attr(t.children[0], "effect"):  # `do ITEM.ATTR`: run the item's `effect` attribute
            base, name = self.expr(t.children[0].children[0]), const(str(t.children[0].children[1]))
            return (stmts("game.run_attr(ctx, B, N)", B=base, N=name),
                    expr("game.can_run_attr(ctx, B, N)", B=base, N=name))
        target = self.expr(t.children[0])
        return stmts("game.do(ctx, T)", T=target), expr("game.can_do(ctx, T)", T=target)

    def _s_activate(self, t: Tree):
        item, limit = (self.expr(c) for c in t.children)
        return stmts("game.activate(ctx, I, int(L))", I=item, L=limit), None

    def _s_play(self, t: Tree):
        item_t, zone_t, free = t.children
        item, zone, is_free = self.expr(item_t), self.expr(zone_t), const(free is not None)
        return (stmts("game.play(ctx, I, Z, free=F)", I=item, Z=_zone(zone), F=is_free),
                expr("game.can_play(ctx, I, Z, free=F)", I=item, Z=zone, F=is_free))

    def _s_call(self, t: Tree):
        name_tok = t.children[0]
        name = str(name_tok)
        if name not in self.known_procedures:
            self.unknown(name_tok, "procedure", sorted(self.known_procedures))
            return [], None
        self.usage.ref(name, self.dsl.spot(name_tok))
        args = [self.expr(a) for a in t.children[1:] if a is not None]
        params = self.known_procedures[name]
        if len(args) != len(params):
            takes = f"{len(params)} ({', '.join(params)})" if params else "none"
            self.dsl.error(name_tok, "DSL011", f"procedure '{name}' takes {takes} arguments, got {len(args)}")
            return [], None
        if not args:
            # the procedure's function pays for the call itself (engine/compile/codegen.py, `Unit.module`); once
            # the pack is built (code is generated on a text's first run) it is called without the table
            proc = self.pack.procedures.get(name)
            call = stmts("P.run(ctx)", P=self.unit.ref(proc)) if proc is not None else \
                stmts("game.pack.procedures[N].run(ctx)", N=const(name))
            return (call,
                    expr("game.can_call(ctx, N)", N=const(name)))
        values = ast.Tuple(args, ast.Load())
        return (stmts("game.call_with(ctx, N, A)", N=const(name), A=values),
                expr("game.can_call_with(ctx, N, A)", N=const(name), A=values))

    def _s_as_stmt(self, t: Tree):
        """`as PLAYER { ... }`: the block acts for (and asks) that player; locals stay visible."""
        who = self.expr(t.children[0])
        me = self.unit.temp(ACTING)
        with self.acting_as(me):
            body = self.block(t.children[1])
        return stmts("P = WHO\nif not isinstance(P, PlayerRef):\n    raise RuleError('as needs a player, got ' + "
                     "describe(P))\nO = ctx.seat\nctx.seat = P.seat\nME = game.seats[ctx.seat]\ntry:\n    BODY\n"
                     "finally:\n    ctx.seat = O", P=self.unit.temp(), WHO=who, O=self.unit.temp(), ME=me,
                     BODY=body.body or [ast.Pass()]), None

    def _s_within(self, t: Tree):
        """`within C { ... }`: held counters in the block read, gain into and pay from container C alone (or
        from the containers C lists, a zone or a list of them: the player picks among them unit by unit)."""
        container = self.expr(t.children[0])
        body = self.block(t.children[1])
        legal = None if body.legal is None else expr("game.legal_within(ctx, C, lambda: L)", C=container,
                                                          L=body.legal)
        return stmts("O = ctx.pool\nctx.pool = need_containers(C)\ntry:\n    BODY\nfinally:\n    ctx.pool = O",
                     O=self.unit.temp(), C=container, BODY=body.body or [ast.Pass()]), legal

    def _s_block_link(self, t: Tree):
        a, b = (self.expr(c) for c in t.children)
        return stmts("game.block(A, B, True)", A=a, B=b), None

    def _s_unblock_link(self, t: Tree):
        a, b = (self.expr(c) for c in t.children)
        return stmts("game.block(A, B, False)", A=a, B=b), None

    def _s_rotate(self, t: Tree):
        tile, steps = (self.expr(c) for c in t.children)
        return stmts("game.rotate(T, N)", T=tile, N=steps), None

    def _s_reorder(self, t: Tree):
        """`reorder by EXPR`: EXPR is read for each seat (as `me`), so it is compiled as a function of one."""
        with self.acting_as(None):   # the lambda's `ctx` acts for each seat in turn
            key = self.expr(t.children[0])
        return stmts("game.reorder(ctx, lambda ctx: K)", K=key), None

    def _s_emit(self, t: Tree):
        name_tok, *args = t.children
        name = str(name_tok)
        self.usage.emit(name, self.dsl.spot(name_tok))
        keys: list[ast.expr | None] = []
        vals: list[ast.expr] = []
        for arg in args:
            if arg is None:
                continue
            key, value_t = arg.children
            keys.append(const(str(key)))
            vals.append(self.expr(value_t))
        if name not in self.pack.listened and all(isinstance(v, (ast.Name, ast.Constant)) for v in vals):
            return [ast.Pass()], None   # no trigger of the pack hears it: emitting it would do nothing
        return stmts("game.emit(N, ctx.seat, P)", N=const(name), P=ast.Dict(keys, vals)), None


def _may_grow(value: ast.AST) -> bool:
    """The value may be larger than any value stored so far: it adds, multiplies, joins or sums (reading a
    stored value, a constant, a count or a comparison gives a value within the limits already)."""
    if getattr(value, "cog_small", False):
        return False
    if isinstance(value, (ast.BinOp, ast.List, ast.ListComp)) or (isinstance(value, ast.Call) and isinstance(
            value.func, ast.Name) and value.func.id in _GROWING):
        return True
    return any(_may_grow(n) for n in ast.iter_child_nodes(value))


def _own_attrs(item: ast.expr | str) -> list[ast.stmt]:
    """Before `ITEM.attrs[N] = V`: until its first write an item's attrs are its component's values, shared by
    every copy in every match (`Item`), so they are made the item's own first, as `Item.own_attrs` does,
    written out (the test, three attribute reads, runs on every store; the copy once an item a match). The copy
    is marked a read: it runs no rules (engine/compile/leaf.py)."""
    made = stmts("if B.attrs is B.comp.values:\n    B.attrs = B.attrs.copy()", B=item)
    for stmt in made:
        for node in ast.walk(stmt):
            if isinstance(node, ast.Call):
                node.cog_reads = True  # type: ignore[attr-defined]
    return made


_GROWING = frozenset({"sum", "plus", "times"})    # `+` and `*` where a list or text may meet them (expr.py)


def _zone(node: ast.expr) -> ast.expr:
    """A zone operand: checked at run time unless it is known to be one."""
    return node if kind_of(node) == "zone" else expr("need_zone(Z)", Z=node)


def _constants(node: ast.expr) -> list[Any] | None:
    """The values of a list written out of literals (`["keep", "sell"]`), else None."""
    if not isinstance(node, ast.List):
        return None
    values = [e.value for e in node.elts if isinstance(e, ast.Constant)]
    return values if len(values) == len(node.elts) else None
