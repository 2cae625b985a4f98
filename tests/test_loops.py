"""Comprehensions written out as loops (engine/compile/loops.py): the same values, work and order as the
comprehensions they replace, and only where the statement evaluates them first and on every path."""

from __future__ import annotations

import ast
import itertools
from pathlib import Path

import pytest

import engine
import engine.compile.expr as expr_module
from engine.compile import codegen
from engine.compile.loops import inline_comprehensions
from engine.play.agents import RandomAgent
from engine.play.match import Match
from tests.test_engine_mechanisms import make_pack


def looped(src: str) -> str:
    names = itertools.count(1)
    token = codegen._GENERATING.set(True)
    try:
        out = inline_comprehensions(ast.parse(src).body, lambda: f"t_{next(names)}")
    finally:
        codegen._GENERATING.reset(token)
    return ast.unparse(ast.fix_missing_locations(ast.Module(out, [])))


def run(src: str, **names: object) -> dict[str, object]:
    scope = dict(names)
    exec(compile(src, "<test>", "exec"), {}, scope)   # test-only: the engine never execs
    return scope


def test_counts_sums_tests_and_lists_become_loops() -> None:
    assert looped("x = len([v for v in z if v.ok]) > 0") == (
        "t_1 = 0\nfor v in z:\n    if v.ok:\n        t_1 += 1\nx = t_1 > 0")
    assert looped("x = 1 + sum([int(v) for v in z])") == "t_1 = 0\nfor v in z:\n    t_1 += int(v)\nx = 1 + t_1"
    assert looped("if any(v > 2 for v in z):\n    f()") == (
        "t_1 = False\nfor v in z:\n    if v > 2:\n        t_1 = True\n        break\nif t_1:\n    f()")
    assert looped("for w in [v for v in z if v]:\n    f(w)") == (
        "t_1 = []\nfor v in z:\n    if v:\n        t_1.append(v)\nfor w in t_1:\n    f(w)")


def test_several_fors_become_nested_loops() -> None:
    assert looped("x = [(p, t) for p in a if p.ok for t in [u for u in b if f(u)] if t > p]") == (
        "t_1 = []\nfor p in a:\n    if p.ok:\n        t_2 = []\n        for u in b:\n            if f(u):\n"
        "                t_2.append(u)\n        for t in t_2:\n            if t > p:\n"
        "                t_1.append((p, t))\nx = t_1")


def test_a_last_for_over_a_filter_is_one_loop_with_it() -> None:
    """`for t in [u for u in b if C]` as the last `for` of a list of combinations (a choice of several parts):
    one loop over b, as the filter's tests are all that can fail or be seen."""
    assert looped("x = [(p, t) for p in a if p.ok for t in [u for u in b if u > p]]") == (
        "t_1 = []\nfor p in a:\n    if p.ok:\n        for u in b:\n            if u > p:\n"
        "                t = u\n                t_1.append((p, t))\nx = t_1")
    assert looped("x = len([t for p in a for t in [u for u in b if u > p]])") == (
        "t_1 = 0\nfor p in a:\n    for u in b:\n        if u > p:\n            t = u\n            t_1 += 1\nx = t_1")
    # a filter whose tests cannot fail nor be seen is one loop with any `for` (here the first: written out with it)
    assert looped("x = [(p, t) for p in [u for u in b if u != 1] for t in f(p)]") == (
        "t_1 = []\nfor u in b:\n    if u != 1:\n        p = u\n        for t in f(p):\n"
        "            t_1.append((p, t))\nx = t_1")


@pytest.mark.parametrize("src", [
    "x = [(p, t) for p in a for t in [u for u in b if u > t]]",        # the filter reads the loop's name
    "x = [(p, f(t)) for p in a for t in [u for u in b if u > p]]",     # an element that can fail
    "x = [(p, t) for p in a for t in [u for u in b if u > p] if t.ok]",  # a test of its own that can fail
    "x = sum([t for p in a for t in [u for u in b if u > p]])",
    "x = [(p, t) for p in [u for u in b if f(u)] for t in a]",          # not the last `for`, a test that can fail
    "x = [(p, t) for p in a for t in [u + 1 for u in b if u > p]]",     # not a filter
])
def test_a_filter_stays_a_list_where_its_tests_would_move_past_what_can_fail(src: str) -> None:
    out = looped(src)
    assert "[" not in out.replace("[]", "") and " = u\n" not in out   # written out, the filter as a list of its own


def test_nested_comprehensions_go_inside_out() -> None:
    out = looped("x = sum([int(w) for w in [v for v in z if v.ok]])")
    assert "[" not in out.replace("[]", "")
    assert out.index("t_1 = []") < out.index("t_2 = 0")
    # one in a condition is written out inside the loop, before the test that reads it
    assert looped("x = len([v for v in z if len([w for w in v.parts if w]) > 1])") == (
        "t_1 = 0\nfor v in z:\n    t_2 = 0\n    for w in v.parts:\n        if w:\n            t_2 += 1\n"
        "    if t_2 > 1:\n        t_1 += 1\nx = t_1")


@pytest.mark.parametrize("src", [
    "x = f() + len([v for v in z if v])",     # a call first: whatever it does happens before
    "x = a and len([v for v in z if v])",     # evaluated only on some paths
    "x = len([v for v in z if v]) if a else 0",
    "while len([v for v in z if v]) > 0:\n    f()",
    "x = g(v for v in z)",                     # a generator consumed lazily by a call
    "x = any(v for w in z for v in w)",        # a generator of two `for`s: `break` would leave one
    "x = [v for (v, w) in z]",                 # a tuple target
    "x = lambda: [v for v in z]",
])
def test_a_comprehension_not_first_or_not_on_every_path_stays(src: str) -> None:
    assert looped(src) == ast.unparse(ast.parse(src))


@pytest.mark.parametrize("src", [
    "x = len([v for v in z if v % 3])", "x = sum([v * 2 for v in z if v > 4])", "x = any(v > 8 for v in z)",
    "x = any(v > 80 for v in z)", "x = [v + 1 for v in z if v % 2]", "x = len([v for v in []])",
    "x = [(v, w) for v in z if v % 3 for w in range(v) if w > v - 3]", "x = len([w for v in z for w in range(v)])",
    "x = [(v, w) for v in [u for u in z if u != 3] for w in [u for u in range(v) if u != v - 2]]",
    "x = sum([w for v in [u for u in z if u != 3] for w in [u for u in range(v) if u % 3]])",
    "x = len([(v, w) for v in [u for u in z if u != 3] if v % 2 for w in [u for u in range(12) if u > v] if w % 3])",
])
def test_the_loops_give_the_same_values(src: str) -> None:
    z = list(range(10))
    assert run(looped(src), z=z)["x"] == run(src, z=z)["x"]


@pytest.mark.parametrize("name", ["robot-factory", "raising-robots", "connect-four", "breakthrough"])
def test_games_end_the_same_with_the_same_work(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    def play(pack: engine.Pack) -> list[tuple[int, str]]:
        out = []
        for seed in range(1, 6):
            match = Match(pack, 2, seed)
            match.run([RandomAgent(seed, seat) for seat in range(2)])
            out.append((match.game.state.work, match.state_hash()))
        return out

    looped_games = play(engine.load_pack(name))
    monkeypatch.setattr(expr_module, "inline_comprehensions", lambda body, temp: body)
    assert play(engine.load_pack(name)) == looped_games   # a fresh pack: its code generated with comprehensions


def test_deep_in_nested_blocks_a_comprehension_stays_one() -> None:
    """CPython refuses more than 20 nested blocks: loops are written out only within BLOCK_ROOM."""
    count = "x = len([v for v in z if v])"
    src = count
    for _ in range(20):   # the count at each of 21 depths (1: the generated function's `try`, ... 21)
        src = count + "\nfor w in z:\n" + "\n".join("    " + line for line in src.splitlines())
    out = looped(src)
    assert out.count("len([v for v in z if v])") == 6   # written out at depths 1..15, kept at 16..21
    compile(out, "<test>", "exec")


DEEP = """\
counters:
  coin: {name: Coin}
zones:
  box: {scope: global}
component_types:
  token: {zone: box, attrs: {ok: {type: bool, default: true}}}
components:
  token:
    - {id: alpha, name: Alpha, copies: 3}
flow:
  - id: turn
    each_player:
      - id: go
        do: |
          BODY
"""


def test_a_pack_nested_as_deep_as_the_engine_allows_still_runs(tmp_path: Path) -> None:
    body = "gain count(box where count(box where count(box where it.ok) > 1) > 2) coin"   # written out: 3 loops
    for _ in range(8):   # each `repeat` is two Python blocks; with the flow's loop and the function's `try`,
        # 18 of the 19 the compilers allow (one more is DSL006)
        body = f"repeat 1 {{ {body} }}"
    match = Match(make_pack(tmp_path, DEEP.replace("BODY", body)), 2, 1)
    match.run([RandomAgent(1, seat) for seat in range(2)])
    assert [p.counters["coin"] for p in match.game.state.players] == [3, 3]


def _steady(src: str) -> ast.expr:
    node = ast.parse(src, mode="eval").body
    node.cog_steady = True  # type: ignore[attr-defined]
    return node


def test_a_steady_read_is_read_once_before_the_loop_whose_test_names_none_of_its_locals() -> None:
    test = ast.Compare(_steady("v.attrs.get('col', 0)"), [ast.Eq()], [_steady("p.attrs.get('col', 0)")])
    comp = ast.ListComp(ast.Name("v", ast.Load()), [ast.comprehension(ast.Name("v", ast.Store()),
                                                                      ast.Name("z", ast.Load()), [test], 0)])
    names = itertools.count(1)
    out = inline_comprehensions([ast.Assign([ast.Name("x", ast.Store())], comp)], lambda: f"t_{next(names)}")
    assert ast.unparse(ast.fix_missing_locations(ast.Module(out, []))) == (
        "t_1 = []\nt_2 = p.attrs.get('col', 0)\nfor v in z:\n    if v.attrs.get('col', 0) == t_2:\n"
        "        t_1.append(v)\nx = t_1")     # `v` is the loop's own: read per element



def test_a_comprehension_after_only_steady_reads_is_written_out_before_the_statement() -> None:
    """A steady read (an item's stored attribute) cannot fail and has no effect: a comprehension the statement
    evaluates after it, and before any other call, is still written out (`pos > len([...])`); after a call
    that may fail or have an effect (`f(p)`), it stays."""
    def statement(left: ast.expr) -> ast.stmt:
        counted = ast.parse("len([v for v in z if v.ok])", mode="eval").body
        return ast.If(ast.Compare(left, [ast.Gt()], [counted]), [ast.Expr(ast.parse("f()", mode="eval").body)], [])

    names = itertools.count(1)
    out = inline_comprehensions([statement(_steady("p.attrs.get('pos', 0)"))], lambda: f"t_{next(names)}")
    assert ast.unparse(ast.fix_missing_locations(ast.Module(out, []))) == (
        "t_1 = 0\nfor v in z:\n    if v.ok:\n        t_1 += 1\nif p.attrs.get('pos', 0) > t_1:\n    f()")
    kept = inline_comprehensions([statement(ast.parse("f(p)", mode="eval").body)], lambda: f"t_{next(names)}")
    assert "for v in z" in ast.unparse(ast.fix_missing_locations(ast.Module(kept, [])))   # still a comprehension
    assert len(kept) == 1

def test_a_steady_read_of_a_later_for_is_read_once_before_all_the_loops() -> None:
    """A choice's later part (`t in step(p, forward)`) is gone through once per earlier part: its steady reads
    that name no loop's local (the table for `forward`) are read once, before the first loop."""
    table = ast.Subscript(_steady("g.steps[key(d)]"), ast.Name("p", ast.Load()), ast.Load())
    comp = ast.ListComp(ast.Tuple([ast.Name("p", ast.Load()), ast.Name("t", ast.Load())], ast.Load()), [
        ast.comprehension(ast.Name("p", ast.Store()), ast.Name("a", ast.Load()), [], 0),
        ast.comprehension(ast.Name("t", ast.Store()), table, [], 0)])
    names = itertools.count(1)
    out = inline_comprehensions([ast.Assign([ast.Name("x", ast.Store())], comp)], lambda: f"t_{next(names)}")
    assert ast.unparse(ast.fix_missing_locations(ast.Module(out, []))) == (
        "t_1 = []\nt_2 = g.steps[key(d)]\nfor p in a:\n    for t in t_2[p]:\n        t_1.append((p, t))\nx = t_1")
    # one that names an earlier part's local stays where it is
    table.value = _steady("g.steps[key(p)]")
    names = itertools.count(1)
    out = inline_comprehensions([ast.Assign([ast.Name("x", ast.Store())], comp)], lambda: f"t_{next(names)}")
    assert "for t in g.steps[key(p)][p]" in ast.unparse(ast.fix_missing_locations(ast.Module(out, [])))


def test_first_of_a_quiet_filter_stops_at_the_first_that_passes(tmp_path: Path) -> None:
    """`first(X where C)` with C that cannot fail tests no element after the one it takes; with a C that can
    (here a division), every element is tested as before, so an error after it still fails the rule."""
    game = """
counters:
  got: {name: Got}
zones:
  box: {scope: global}
component_types:
  token: {zone: box, attrs: {v: {type: int}}}
components:
  token:
    - {id: a, name: A, v: 1}
    - {id: b, name: B, v: 0}
flow:
  - id: turn
    each_player:
      - {id: go, do: "set got = first(box where WHERE).v"}
"""
    quiet = make_pack(tmp_path / "quiet", game.replace("WHERE", "it.v == 1"))
    assert Match(quiet, 1, 1).game.counter("got", 0) == 1
    with pytest.raises(engine.RuleError, match="division by zero"):
        Match(make_pack(tmp_path / "loud", game.replace("WHERE", "it.v == 1 or 1 / it.v == 1")), 1, 1)
    none = make_pack(tmp_path / "none", game.replace("WHERE", "it.v == 5"))
    with pytest.raises(engine.RuleError, match=r"first\(\) of an empty collection"):
        Match(none, 1, 1)
