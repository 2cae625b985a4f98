"""Paying for collections inline (engine/compile/charges.py): the same work, in the same order, as the
`game.each` calls it replaces, and only where the collection is evaluated first and on every path."""

from __future__ import annotations

import ast
import itertools

import pytest

import engine
import engine.compile.expr as expr_module
from engine.compile import codegen
from engine.compile.charges import inline_charges
from engine.play.agents import RandomAgent
from engine.play.match import Match
from engine.runtime.interpreter import Interpreter


def charged(src: str) -> str:
    """`src` (statements, `C(...)` standing for `game.each(...)`) after inline_charges, as source."""
    names = itertools.count(1)
    token = codegen._GENERATING.set(True)
    try:
        body = ast.parse(src.replace("C(", "game.each(")).body
        out = inline_charges(body, lambda: f"t_{next(names)}")
    finally:
        codegen._GENERATING.reset(token)
    return ast.unparse(ast.fix_missing_locations(ast.Module(out, [])))


def test_a_collection_evaluated_first_is_paid_inline() -> None:
    assert charged("for v in C(z.items):\n    f(v)") == (
        "t_1 = z.items\nt_2 = t_state.work + len(t_1)\nt_state.work = t_2\n"
        "if t_2 > game.work_limit:\n    raise game.overrun(t_1)\nfor v in t_1:\n    f(v)")
    assert "game.each" not in charged("if len([v for v in C(z.items) if v.ok]) > 0:\n    end()")
    assert "game.each" not in charged("x = offer([v for v in C([*a.items, *b.items]) if v])")
    assert "game.each" not in charged("x = 1 + sum([int(v) for v in [w for w in C(z.items) if w]])")
    assert "game.each" not in charged("for v in sorted(C(z.items), key=lambda v: -v.power):\n    f(v)")


def test_a_range_only_gone_through_is_not_made_a_list() -> None:
    """A loop or a filter over a DSL `range` goes through Python's range: same numbers, same length paid."""
    assert charged("for v in C(list(range(1, 8))):\n    f(v)").startswith(
        "t_1 = range(1, 8)\nt_2 = t_state.work + len(t_1)\n")
    assert "t_1 = number_span(a, b, 'range()', 9)\n" in charged(
        "x = [v for v in C(list(number_span(a, b, 'range()', 9))) if v > 2]")
    assert "t_1 = list(range(1, 8))\n" in charged("x = offer(C(list(range(1, 8))))")   # kept: a list is offered
    assert "t_1 = list(f(1))\n" in charged("for v in C(list(f(1))):\n    g(v)")


@pytest.mark.parametrize("src", [
    "x = f() + len(C(z))",            # a call first: whatever it does happens before
    "x = a and len(C(z))",            # evaluated only on some paths
    "x = len(C(z)) if a else 0",
    "x = 0 if a else len(C(z))",
    "x = a < b < len(C(z))",
    "x = [v for v in y if v in C(z)]",  # inside a comprehension
    "while len(C(z)) > 0:\n    f()",  # evaluated again each time round
])
def test_a_collection_not_first_or_not_on_every_path_keeps_its_call(src: str) -> None:
    assert "game.each" in charged(src)


def test_a_node_shared_between_branches_is_paid_in_each_branch() -> None:
    """Templates put one expression node in both branches of an `if`: each branch pays for its own."""
    token = codegen._GENERATING.set(True)
    try:
        x = ast.parse("len([v for v in game.each(z.items) if v])", mode="eval").body
        body = codegen.stmts("if game.observers:\n    f(int(X))\nelse:\n    t_9 = int(X)", X=x)
        names = itertools.count(1)
        out = ast.unparse(ast.fix_missing_locations(ast.Module(inline_charges(body, lambda: f"t_{next(names)}"),
                                                               [])))
    finally:
        codegen._GENERATING.reset(token)
    assert "game.each" not in out
    assert "f(int(len([v for v in t_1 if v])))" in out and "t_9 = int(len([v for v in t_3 if v]))" in out
    assert "game.each(z.items)" in ast.unparse(x)   # the template's node itself is left as it was


@pytest.mark.parametrize("name", ["robot-factory", "raising-robots", "connect-four"])
def test_games_spend_the_same_work_as_with_the_calls(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    each_calls = [0]
    each = Interpreter.each

    def counted(game: Interpreter, collection: object) -> object:
        each_calls[0] += 1
        return each(game, collection)

    def play(pack: engine.Pack) -> tuple[list[tuple[int, str]], int]:
        each_calls[0], out = 0, []
        for seed in range(1, 6):
            match = Match(pack, 2, seed)
            match.run([RandomAgent(seed, seat) for seat in range(2)])
            out.append((match.game.state.work, match.state_hash()))
        return out, each_calls[0]

    monkeypatch.setattr(Interpreter, "each", counted)
    inline, few = play(engine.load_pack(name))
    monkeypatch.setattr(expr_module, "inline_charges", lambda body, temp: body)
    calls, many = play(engine.load_pack(name))   # a fresh pack: its code is generated again, with the calls
    assert inline == calls and all(work > 0 for work, _ in inline)
    assert few < many / 2   # most collections were paid inline
