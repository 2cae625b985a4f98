"""Compiling the `flow` section (rounds, phases, steps) into one generator.

Each step kind is a small policy: `do` runs an effect, `each_player` runs
sub-steps per seat in turn order, `simultaneous` does the same but is the
place for hidden commitments that are revealed together afterwards, `if`,
`repeat` and `for` are the usual control structures.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.context import Ctx
from engine.errors import StopLoop
from engine.pack import Runner
from engine.source import SourceFile
from engine.values import as_items

if TYPE_CHECKING:
    from engine.build import Builder

MAX_ROUNDS = 10_000
STEP_KINDS = ("do", "each_player", "simultaneous", "if", "repeat", "for")


class FlowCompiler:
    def __init__(self, builder: Builder) -> None:
        self.b = builder
        self.locals: set[str] = set()

    def steps(self, src: SourceFile, path: tuple, data: Any, prefix: str = "") -> Runner:
        runners = [self.step(src, (*path, i), d, prefix) for i, d in enumerate(data or [])]

        def run(ctx: Ctx) -> None:
            for r in runners:
                r(ctx)
        return run

    def step(self, src: SourceFile, path: tuple, d: Any, prefix: str) -> Runner:
        sid = f"{prefix}{d.get('id', path[-1])}"
        kinds = [k for k in STEP_KINDS if k in d]
        if len(kinds) != 1:
            self.b.error(src, path, "FLOW001", f"step '{sid}' needs exactly one of {', '.join(STEP_KINDS)}"
                         f" (has {', '.join(kinds) or 'none'})")
            return _nothing
        body = getattr(self, f"_{kinds[0]}")(src, path, d, sid + "/")
        name = sid

        def run(ctx: Ctx) -> None:
            game = ctx.game
            outer, game.step = game.step, name
            listened = game.pack.listened  # most steps have no listener: skip building the event
            if "step_start" in listened:
                game.emit("step_start", ctx.seat, {"step": name})
            body(ctx)
            if "step_end" in listened:
                game.emit("step_end", ctx.seat, {"step": name})
            game.step = outer
        return run

    def _do(self, src: SourceFile, path: tuple, d: Any, prefix: str) -> Runner:
        effect = self.b.effect(src, (*path, "do"), d["do"], self.locals)
        return effect.run

    def _seats(self, src: SourceFile, path: tuple, d: Any) -> Any:
        order = self.b.expr(src, (*path, "order"), d["order"], self.locals) if "order" in d else None

        def seats(ctx: Ctx) -> list[int]:
            n = len(ctx.game.state.players)
            first = ctx.game.state.counters.get("first_player", 0) % n
            base = [(first + k) % n for k in range(n)]
            if order is None:
                return base
            return sorted(base, key=lambda s: order(Ctx(ctx.game, s)))
        return seats

    def _per_player(self, src: SourceFile, path: tuple, d: Any, key: str, prefix: str) -> Runner:
        seats = self._seats(src, path, d)
        body = self.steps(src, (*path, key), d[key], prefix)

        def run(ctx: Ctx) -> None:
            outer = ctx.seat
            for seat in seats(ctx):
                ctx.game.epochs["turn"] += 1
                ctx.seat = seat
                body(ctx)
            ctx.seat = outer
        return run

    def _each_player(self, src: SourceFile, path: tuple, d: Any, prefix: str) -> Runner:
        return self._per_player(src, path, d, "each_player", prefix)

    def _simultaneous(self, src: SourceFile, path: tuple, d: Any, prefix: str) -> Runner:
        commit = self._per_player(src, path, d, "simultaneous", prefix)
        reveal = [(zid, i) for i, zid in enumerate(d.get("reveal", []) or [])]
        for zid, i in reveal:
            if zid not in self.b.pack.zones:
                self.b.error(src, (*path, "reveal", i), "REF001", f"unknown zone '{zid}'")

        def run(ctx: Ctx) -> None:
            commit(ctx)
            state = ctx.game.state
            for zid, _ in reveal:
                zones = [state.zones[zid]] if zid in state.zones else [p.zones[zid] for p in state.players]
                for zone in zones:
                    ctx.game.reveal(zone)
        return run

    def _if(self, src: SourceFile, path: tuple, d: Any, prefix: str) -> Runner:
        cond = self.b.expr(src, (*path, "if"), d["if"], self.locals)
        then = self.steps(src, (*path, "then"), d.get("then"), prefix)
        other = self.steps(src, (*path, "else"), d.get("else"), prefix)

        def run(ctx: Ctx) -> None:
            (then if cond(ctx) else other)(ctx)
        return run

    def _repeat(self, src: SourceFile, path: tuple, d: Any, prefix: str) -> Runner:
        spec = d["repeat"] or {}
        count = self.b.expr(src, (*path, "repeat", "count"), spec["count"], self.locals) if "count" in spec else None
        until = self.b.expr(src, (*path, "repeat", "until"), spec["until"], self.locals) if "until" in spec else None
        counter = spec.get("counter")
        if counter is not None and counter not in self.b.pack.counters:
            self.b.error(src, (*path, "repeat", "counter"), "REF001", f"unknown counter '{counter}'")
            counter = None
        body = self.steps(src, (*path, "steps"), d.get("steps"), prefix)

        def run(ctx: Ctx) -> None:
            n = 0
            limit = MAX_ROUNDS if count is None else int(count(ctx))
            while n < limit:
                n += 1
                ctx.game.epochs["round"] += 1
                if ctx.game.round_listener is not None:
                    ctx.game.round_listener(n)
                if counter is not None:
                    ctx.game.set_counter(ctx, counter, n)
                try:
                    body(ctx)
                except StopLoop:
                    return
                if until is not None and until(ctx):
                    return
        return run

    def _for(self, src: SourceFile, path: tuple, d: Any, prefix: str) -> Runner:
        spec = d["for"] or {}
        var = str(spec.get("var", "x"))
        coll = self.b.expr(src, (*path, "for", "in"), spec.get("in", "[]"), self.locals)
        saved = self.locals
        self.locals = saved | {var}
        body = self.steps(src, (*path, "steps"), d.get("steps"), prefix)
        self.locals = saved

        def run(ctx: Ctx) -> None:
            old = ctx.vars.get(var)
            for value in as_items(coll(ctx)):
                ctx.vars[var] = value
                body(ctx)
            ctx.vars[var] = old
        return run


def _nothing(ctx: Ctx) -> None:
    return
