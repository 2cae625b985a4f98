"""Compiling DSL statements into generator closures.

A compiled statement is `run(ctx)`, a plain call. Where a player must choose
it calls `Game.ask`, which pauses the game (see engine/session.py) and
returns the answer, so an effect can stop anywhere and resume there.
"""

from __future__ import annotations

from typing import Any

from lark import Token, Tree

from engine.compile_expr import ExprCompiler
from engine.context import Ctx
from engine.dsl import DslText
from engine.errors import CONTENT_FAULTS, GameOver, RuleError, StopLoop, locate_error
from engine.model import Item, PlayerRef, Zone
from engine.pack import Effect, Expr, Pack
from engine.prompts import Prompt, compile_prompt
from engine.usage import Usage
from engine.values import as_items, describe, item_key, item_label

DONE = "done"


def _nothing(ctx: Ctx) -> None:
    return


def _bind(ctx: Ctx, name: str, value: Any) -> Any:
    old = ctx.vars.get(name)
    ctx.vars[name] = value
    return old


class EffectCompiler(ExprCompiler):
    """Statements on top of expressions; one instance per DSL text."""

    def __init__(self, pack: Pack, dsl: DslText, procedures: set[str], locals_: set[str] | None = None,
                 usage: Usage | None = None) -> None:
        super().__init__(pack, dsl, locals_, usage)
        self.known_procedures = procedures

    def effect(self, tree: Tree) -> Effect:
        """A statement list: runs in order; legal if its first statement is."""
        trees = [s for s in tree.children if isinstance(s, Tree)]
        stmts = [self.stmt(s) for s in trees]
        text = self.dsl.snippet(tree)
        if not stmts:
            return Effect(_nothing, None, text)
        if len(stmts) == 1:
            return Effect(stmts[0].run, stmts[0].legal, text)
        steps = [(s.run, self.dsl.where(t)) for s, t in zip(stmts, trees, strict=True)]

        def run(ctx: Ctx) -> None:
            for r, where in steps:
                try:
                    r(ctx)
                except (RuleError, *CONTENT_FAULTS) as exc:  # name the failing statement, not only its text
                    raise locate_error(exc, where) from None
        return Effect(run, stmts[0].legal, text)

    def stmt(self, t: Tree) -> Effect:
        method = getattr(self, f"_s_{t.data}", None)
        if method is None:  # pragma: no cover - the grammar has no other statements
            self.dsl.error(t, "DSL010", f"unsupported statement {t.data}")
            return Effect(_nothing, None, "")
        run, legal = method(t)
        return Effect(run, legal, self.dsl.snippet(t))

    def block(self, t: Tree) -> Effect:
        return self.effect(t.children[0])

    # ---------------------------------------------------------------- counters
    def _s_gain(self, t: Tree):
        amount_t, name = t.children
        self.check_cost_name(name)
        self.usage.produce(str(name), self.dsl.place(name))
        amount, n = self.expr(amount_t), str(name)

        def run(ctx: Ctx) -> None:
            ctx.game.gain(ctx, n, int(amount(ctx)))
        return run, None

    def _s_lose(self, t: Tree):
        amount_t, name = t.children
        if str(name) not in self.pack.counters:
            self.unknown(name, "counter", list(self.pack.counters))
        amount, n = self.expr(amount_t), str(name)

        def run(ctx: Ctx) -> None:
            ctx.game.lose(ctx, n, int(amount(ctx)))
        return run, None

    def _s_pay(self, t: Tree):
        cost = self.cost(t.children[0])

        def run(ctx: Ctx) -> None:
            ctx.game.pay(ctx, cost.amounts(ctx), cost.text)
        return run, lambda ctx: ctx.game.can_pay(ctx, cost.amounts(ctx))

    def _s_set(self, t: Tree):
        target, value_t = t.children
        value = self.expr(value_t)
        if isinstance(target, Tree) and target.data == "name":
            tok = target.children[0]
            n = str(tok)
            cdef = self.pack.counters.get(n)
            if cdef is None or cdef.zone is not None:
                self.dsl.error(tok, "DSL013", f"'{n}' cannot be set: only counters and item attributes can",
                               None)
                return _nothing, None

            self.usage.produce(n, self.dsl.place(tok))

            def run(ctx: Ctx) -> None:
                ctx.game.change(ctx, n, int(value(ctx)))
            return run, None
        if isinstance(target, Tree) and target.data == "attr":
            base_t, name_tok = target.children
            base, attr = self.expr(base_t), str(name_tok)
            if attr not in self.attr_names:
                self.unknown(name_tok, "attribute", sorted(self.attr_names))

            def run_attr(ctx: Ctx) -> None:
                target = base(ctx)
                if isinstance(target, PlayerRef) and attr in self.pack.counters:
                    ctx.game.change(ctx.child(seat=target.seat), attr, int(value(ctx)))
                    return
                if not isinstance(target, Item):
                    raise RuleError(f"cannot set '.{attr}' on {describe(target)}")
                ctx.game.set_attr(target, attr, value(ctx))
                return
            return run_attr, None
        self.dsl.error(target, "DSL013", "only a counter or an item attribute can be set")
        return _nothing, None

    # ---------------------------------------------------------------- zones
    def _s_draw(self, t: Tree):
        amount, src, dst = (self.expr(c) for c in t.children)

        def run(ctx: Ctx) -> None:
            ctx.game.draw(ctx, _zone(src(ctx)), _zone(dst(ctx)), int(amount(ctx)))
        return run, None

    def _s_move(self, t: Tree):
        item_t, zone_t, top = t.children
        item, zone = self.expr(item_t), self.expr(zone_t)
        at_top = top is not None

        def run(ctx: Ctx) -> None:
            thing = item(ctx)
            if not isinstance(thing, Item):
                raise RuleError(f"move needs an item, got {describe(thing)}")
            ctx.game.move(ctx, thing, _zone(zone(ctx)), top=at_top)
        return run, None

    def _zone_op(self, t: Tree, op: str):
        zone = self.expr(t.children[0])

        def run(ctx: Ctx) -> None:
            getattr(ctx.game, op)(_zone(zone(ctx)))
            return
        return run, None

    def _s_shuffle(self, t: Tree):
        return self._zone_op(t, "shuffle")

    def _s_reveal(self, t: Tree):
        return self._zone_op(t, "reveal")

    def _s_conceal(self, t: Tree):
        return self._zone_op(t, "conceal")

    # ---------------------------------------------------------------- control
    def _s_if_stmt(self, t: Tree):
        cond = self.expr(t.children[0])
        then = self.block(t.children[1])
        other_t = t.children[2] if len(t.children) > 2 else None
        if other_t is None:
            other = None
        elif other_t.data == "block":
            other = self.block(other_t)
        else:
            other = self.stmt(other_t)

        def run(ctx: Ctx) -> None:
            if cond(ctx):
                then.run(ctx)
            elif other is not None:
                other.run(ctx)
        return run, None

    def _s_may(self, t: Tree):
        body = self.block(t.children[1])
        prompt = compile_prompt(self, t.children[0], f"do: {body.text}?")

        def run(ctx: Ctx) -> None:
            if body.legal is not None and not body.legal(ctx):
                return
            yes = ctx.game.ask(ctx, "may", prompt(ctx), [f"yes: {body.text}", "no"], [True, False],
                                          optional=True)
            if yes:
                body.run(ctx)
        return run, None

    def _alternatives(self, t: Tree) -> list[Effect]:
        return [self.effect(e) for e in t.children]

    def _s_choose_alt(self, t: Tree):
        branches = self._alternatives(t.children[1])
        prompt = compile_prompt(self, t.children[0], "choose one")
        return self._alt_runner(branches, prompt, repeat=False), _any_legal(branches)

    def _s_repeat_choose_alt(self, t: Tree):
        branches = self._alternatives(t.children[1])
        return self._alt_runner(branches, compile_prompt(self, t.children[0], "choose one"), repeat=True), None

    def _alt_runner(self, branches: list[Effect], prompt: Prompt, repeat: bool):

        def run(ctx: Ctx) -> None:
            while True:
                legal = [b for b in branches if b.legal is None or b.legal(ctx)]
                if not legal:
                    return
                labels = [b.text for b in legal]
                values: list[Effect | None] = list(legal)
                if repeat:
                    labels.append(DONE)
                    values.append(None)
                chosen = ctx.game.ask(ctx, "choose", prompt(ctx), labels, values, optional=repeat)
                if chosen is None:
                    return
                try:
                    chosen.run(ctx)
                except StopLoop:
                    if repeat:
                        return
                    raise
                if not repeat:
                    return
        return run

    def _item_choice(self, t: Tree, repeat: bool, optional: bool):
        var_tok, coll_t = t.children[0], t.children[1]
        prompt_tok, body_t = t.children[-2], t.children[-1]
        var = str(var_tok)
        coll = self.expr(coll_t)
        saved = self.with_local(var)
        body = self.block(body_t)
        self.locals = saved
        prompt = compile_prompt(self, prompt_tok, f"choose {var}")

        def options(ctx: Ctx) -> list[Any]:
            out, seen = [], set()
            unkeyed: dict[str, Item] = {}  # the only option of its component so far: its key is computed on a clash
            keyed: set[str] = set()
            old = ctx.vars.get(var)
            for thing in as_items(coll(ctx)):
                key: Any = None
                if isinstance(thing, Item):
                    cid = thing.comp.id
                    if cid in unkeyed:
                        seen.add(item_key(unkeyed.pop(cid)))
                        keyed.add(cid)
                    if cid in keyed:
                        key = item_key(thing)
                else:
                    key = repr(thing)
                if key is not None and key in seen:
                    continue
                if body.legal is not None:
                    ctx.vars[var] = thing
                    if not body.legal(ctx):
                        continue
                if key is None:
                    unkeyed[thing.comp.id] = thing
                else:
                    seen.add(key)
                out.append(thing)
            ctx.vars[var] = old
            return out

        def run(ctx: Ctx) -> None:
            while True:
                things = options(ctx)
                if not things:
                    return
                labels = _labels(things)
                values: list[Any] = list(things)
                if repeat or optional:
                    labels.append(DONE)
                    values.append(None)
                chosen = ctx.game.ask(ctx, "choose", prompt(ctx), labels, values,
                                                 optional=repeat or optional)
                if chosen is None:
                    return
                old = _bind(ctx, var, chosen)
                try:
                    body.run(ctx)
                except StopLoop:
                    if repeat:
                        return
                    raise
                finally:
                    ctx.vars[var] = old
                if not repeat:
                    return

        def legal(ctx: Ctx) -> bool:
            return bool(options(ctx))
        return run, (None if optional or repeat else legal)

    def _s_choose_item(self, t: Tree):
        optional = any(isinstance(c, Token) and c.type == "OPTIONAL" for c in t.children)
        return self._item_choice(t, repeat=False, optional=optional)

    def _s_repeat_choose_item(self, t: Tree):
        return self._item_choice(t, repeat=True, optional=True)

    def _s_choose_number(self, t: Tree):
        var_tok, low_t, high_t, prompt_tok, body_t = t.children
        var = str(var_tok)
        prompt = compile_prompt(self, prompt_tok, f"choose {var}")
        low, high = self.expr(low_t), self.expr(high_t)
        saved = self.with_local(var)
        body = self.block(body_t)
        self.locals = saved

        def run(ctx: Ctx) -> None:
            numbers = []
            old = ctx.vars.get(var)
            for n in range(int(low(ctx)), int(high(ctx)) + 1):
                ctx.vars[var] = n
                if body.legal is None or body.legal(ctx):
                    numbers.append(n)
            ctx.vars[var] = old
            if not numbers:
                return
            n = ctx.game.ask(ctx, "number", prompt(ctx), [str(n) for n in numbers], numbers)
            old = _bind(ctx, var, n)
            try:
                body.run(ctx)
            finally:
                ctx.vars[var] = old
        return run, None

    def _s_for_stmt(self, t: Tree):
        var_tok, coll_t, body_t = t.children
        var = str(var_tok)
        coll = self.expr(coll_t)
        saved = self.with_local(var)
        body = self.block(body_t)
        self.locals = saved

        def run(ctx: Ctx) -> None:
            old = ctx.vars.get(var)
            try:
                for thing in as_items(coll(ctx)):
                    ctx.vars[var] = thing
                    body.run(ctx)
            finally:
                ctx.vars[var] = old
        return run, None

    def _s_repeat_n(self, t: Tree):
        count = self.expr(t.children[0])
        body = self.block(t.children[1])

        def run(ctx: Ctx) -> None:
            try:
                for _ in range(int(count(ctx))):
                    body.run(ctx)
            except StopLoop:
                return
        return run, None

    def _s_end_game(self, t: Tree):
        def run(ctx: Ctx) -> None:
            raise GameOver
        return run, None

    def _s_stop(self, t: Tree):
        def run(ctx: Ctx) -> None:
            raise StopLoop
        return run, None

    # ---------------------------------------------------------------- actions
    def _s_do_stmt(self, t: Tree):
        target = self.expr(t.children[0])

        def run(ctx: Ctx) -> None:
            ctx.game.do(ctx, target(ctx))
        return run, lambda ctx: ctx.game.can_do(ctx, target(ctx))

    def _s_activate(self, t: Tree):
        item, limit = (self.expr(c) for c in t.children)

        def run(ctx: Ctx) -> None:
            ctx.game.activate(ctx, item(ctx), int(limit(ctx)))
        return run, None

    def _s_play(self, t: Tree):
        item_t, zone_t, free = t.children
        item, zone = self.expr(item_t), self.expr(zone_t)
        is_free = free is not None

        def run(ctx: Ctx) -> None:
            ctx.game.play(ctx, item(ctx), _zone(zone(ctx)), free=is_free)
        return run, lambda ctx: ctx.game.can_play(ctx, item(ctx), zone(ctx), free=is_free)

    def _s_call(self, t: Tree):
        name_tok = t.children[0]
        name = str(name_tok)
        if name not in self.known_procedures:
            self.unknown(name_tok, "procedure", sorted(self.known_procedures))
            return _nothing, None
        self.usage.ref(name, self.dsl.place(name_tok))

        def run(ctx: Ctx) -> None:
            ctx.game.call(ctx, name)
        return run, lambda ctx: ctx.game.can_call(ctx, name)

    def _s_as_stmt(self, t: Tree):
        """`as PLAYER { ... }`: the block acts for (and asks) that player; locals stay visible."""
        who = self.expr(t.children[0])
        body = self.block(t.children[1])

        def run(ctx: Ctx) -> None:
            player = who(ctx)
            if not isinstance(player, PlayerRef):
                raise RuleError(f"as needs a player, got {describe(player)}")
            outer = ctx.seat
            ctx.seat = player.seat
            try:
                body.run(ctx)
            finally:
                ctx.seat = outer
        return run, None

    def _s_emit(self, t: Tree):
        name_tok, *args = t.children
        name = str(name_tok)
        self.usage.emit(name, self.dsl.place(name_tok))
        fields: list[tuple[str, Expr]] = []
        for arg in args:
            if arg is None:
                continue
            key, value_t = arg.children
            fields.append((str(key), self.expr(value_t)))

        def run(ctx: Ctx) -> None:
            payload = {k: v(ctx) for k, v in fields}
            ctx.game.emit(name, ctx.seat, payload)
        return run, None


def _zone(value: Any) -> Zone:
    if not isinstance(value, Zone):
        raise RuleError(f"expected a zone, got {describe(value)}")
    return value


def _any_legal(branches: list[Effect]) -> Expr | None:
    if any(b.legal is None for b in branches):
        return None
    return lambda ctx: any(b.legal(ctx) for b in branches)


def _labels(things: list[Any]) -> list[str]:
    """Readable, unique labels: names, with the component id added where names clash."""
    raw = [item_label(x) if isinstance(x, Item) else str(x) for x in things]
    out = []
    for thing, label in zip(things, raw, strict=True):
        if raw.count(label) > 1 and isinstance(thing, Item):
            label = f"{label} ({thing.comp.id})"
        out.append(label)
    return out if len(set(out)) == len(out) else _unclash(things, out)


def _unclash(things: list[Any], labels: list[str]) -> list[str]:
    """Copies of one component that differ (they were not merged as one option) show how: `Beta (b) [power 5]`.

    Labels must be unique, or a log of labels could not say which option was taken.
    """
    out = list(labels)
    for label in {x for x in labels if labels.count(x) > 1}:
        group = [i for i, x in enumerate(labels) if x == label and isinstance(things[i], Item)]
        if len(group) < 2:
            continue
        keys = sorted({k for i in group for k in things[i].attrs})
        differ = [k for k in keys if len({repr(things[i].attrs.get(k)) for i in group}) > 1]
        for i in group:
            out[i] = f"{label} [{', '.join(f'{k} {things[i].attrs.get(k)}' for k in differ)}]"
    for label in {x for x in out if out.count(x) > 1}:  # still the same (e.g. plain values): number them
        for n, i in enumerate([i for i, x in enumerate(out) if x == label], 1):
            out[i] = f"{label} #{n}"
    return out
