"""A procedure whose body runs no other rules leaves the count of procedures running as it is
(engine/compile/leaf.py): it still checks the count and pays its work, so the limits and their errors are
the same; anything that may run rules keeps the full count."""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

import pytest

import engine
from engine.compile.codegen import prepare
from engine.compile.leaf import runs_no_rules
from engine.errors import RuleError
from engine.play.agents import RandomAgent
from engine.play.match import Match
from tests.test_engine_mechanisms import COUNTERS, make_pack


def _body(src: str) -> list[ast.stmt]:
    return ast.parse(textwrap.dedent(src)).body


def test_only_calls_known_to_run_no_rules_make_a_leaf() -> None:
    drop = """\
        t_13 = []
        for v in range(1, 8):
            if len(t_13) < 3:
                t_13.append(v)
        v_k = game.ask(ctx, 'choose', 'p', None, t_13)
        t_15 = first(t_13)
        set_item_attr(t_15, 'mark', ctx.seat + 1 if ctx.seat is not None else game.acting(None))
        if game.grids.in_a_row_of(t_15, 4, 'mark', 1):
            raise game.out_of_work('x')
        """
    assert runs_no_rules(_body(drop), asks_run_rules=False)
    assert not runs_no_rules(_body(drop), asks_run_rules=True)   # anytime actions may be taken at the ask
    for call in ("game.move(ctx, a, b, False)", "K5.run(ctx)", "game.can_call(ctx, 'x')", "item_attr(x, 'a')",
                 "game.grids.in_a_row(c, 4, lambda it: True)", "t_9.append(v)", "f()(x)"):
        assert not runs_no_rules(_body(drop + call + "\n"), asks_run_rules=False), call
    # `append` only to a list the body made, and nothing else ever bound to that name
    assert not runs_no_rules(_body("t_1 = []\nt_1 = game.state.log\nt_1.append(1)"), asks_run_rules=False)
    assert not runs_no_rules(_body("t_1 = []\nfor t_1 in x:\n    t_1.append(1)"), asks_run_rules=False)
    assert runs_no_rules(_body("x = a.attrs['b'] + len(c)"), asks_run_rules=False)


CHAIN = COUNTERS + """\
procedures:
  down:
    params: [n]
    effect: "if n > 1 { call down(n - 1) } else { call leaf }"
  leaf: "gain 1 coin"
  leaf2: "let x = 1"
flow:
  - id: turn
    each_player:
      - {id: go, do: "call down(DEPTH)"}
"""


def _leaf_has_no_count(pack: engine.Pack, name: str) -> bool:
    fn = pack.procedures[name].run
    prepare(fn)
    return "t_depth" not in fn.__code__.co_varnames


@pytest.mark.parametrize("leaf", ["leaf", "leaf2"])
def test_a_leaf_called_past_the_depth_limit_fails_as_any_procedure_does(tmp_path: Path, leaf: str) -> None:
    """`down(N)` runs N nested procedures, then the leaf inside them: a 65th procedure is past the limit."""
    text = CHAIN.replace("call leaf }", f"call {leaf} }}")
    fits = make_pack(tmp_path / "fits", text.replace("DEPTH", "63"))
    assert not _leaf_has_no_count(fits, "leaf") and _leaf_has_no_count(fits, "leaf2") and \
        not _leaf_has_no_count(fits, "down")   # (gaining a counter may fire triggers: not a leaf)
    match = Match(fits, 1, 1)
    assert match.done and match.game.call_depth == 0
    deep = make_pack(tmp_path / "deep", text.replace("DEPTH", "64"))
    with pytest.raises(RuleError, match=f"nested deeper than 64 \\(at '{leaf}'\\)"):
        Match(deep, 1, 1)


def test_connect_four_s_move_is_a_leaf_and_plays_the_same_games() -> None:
    """Its move is called once a decision; the games (and the work paid) are the OpenSpiel-checked ones."""
    pack = engine.load_pack("connect-four")
    assert _leaf_has_no_count(pack, "drop")
    for seed in (1, 2, 3):
        match = Match.played(pack, 2, seed, [RandomAgent(seed, seat) for seat in range(2)])
        assert match.game.call_depth == 0 and match.log
