"""The acting player's state read into a local (engine/compile/acting.py): same reads, fewer bytecodes."""

from __future__ import annotations

import ast
import textwrap

from engine.compile.acting import acting_local


def _rewritten(src: str) -> str:
    body = ast.parse(textwrap.dedent(src)).body
    return ast.unparse(ast.Module(acting_local(body), []))


def test_reads_use_the_local_read_again_after_every_seat_change() -> None:
    out = _rewritten("""\
        x = game.seats[ctx.seat].counters['coin']
        o = ctx.seat
        ctx.seat = p.seat
        try:
            y = game.seats[ctx.seat].zones['hand']
        finally:
            ctx.seat = o
        z = game.seats[ctx.seat].counters['ore']
        """)
    assert out == textwrap.dedent("""\
        t_me = game.seats[ctx.seat]
        x = t_me.counters['coin']
        o = ctx.seat
        ctx.seat = p.seat
        t_me = game.seats[ctx.seat]
        try:
            y = t_me.zones['hand']
        finally:
            ctx.seat = o
            t_me = game.seats[ctx.seat]
        z = t_me.counters['ore']""")


def test_a_lambda_with_its_own_ctx_reads_its_own_seat() -> None:
    src = "game.reorder(ctx, lambda ctx: game.seats[ctx.seat].counters['coin'])"
    assert _rewritten(src) == src


def test_a_function_that_never_reads_the_acting_player_gets_no_local() -> None:
    assert _rewritten("x = ctx.seat\nctx.seat = 1") == "x = ctx.seat\nctx.seat = 1"


def test_the_statements_given_are_left_as_they_were() -> None:
    """The flow's traced and untraced functions are made from the same statements."""
    body = ast.parse("ctx.seat = 1\nx = game.seats[ctx.seat].counters['coin']").body
    before = ast.dump(ast.Module(body, []))
    acting_local(body)
    assert ast.dump(ast.Module(body, [])) == before
    assert "t_me" in ast.unparse(ast.Module(acting_local(body), []))
