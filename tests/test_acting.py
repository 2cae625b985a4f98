"""The acting seat's player read into a local (engine/compile/acting.py): read where the seat is set,
used by the code acting for that seat, never by a `lambda ctx:` run for other seats."""

from __future__ import annotations

import ast
from pathlib import Path

from engine.compile import codegen
from engine.compile.acting import with_acting_player
from engine.play.agents import RandomAgent
from engine.play.match import Match
from tests.test_engine_mechanisms import make_pack


def finished(src: str) -> str:
    token = codegen._GENERATING.set(True)
    try:
        out = with_acting_player(ast.parse(src).body)
    finally:
        codegen._GENERATING.reset(token)
    return ast.unparse(ast.fix_missing_locations(ast.Module(out, [])))


def test_the_function_reads_its_player_first_only_when_used() -> None:
    assert finished("x = t_me.counters['a']") == "t_me = game.seats[ctx.seat]\nx = t_me.counters['a']"
    assert finished("x = 1") == "x = 1"


def test_a_block_s_player_is_read_only_when_its_code_uses_it() -> None:
    src = "ctx.seat = p.seat\nt_me_2 = game.seats[ctx.seat]\ntry:\n    f()\nfinally:\n    ctx.seat = o"
    assert "t_me_2" not in finished(src)
    assert "t_me_2 = game.seats" in finished(src.replace("f()", "f(t_me_2.zones['hand'])"))


COINS = """\
counters:
  coin: {name: Coin}
flow:
  - id: turn
    each_player:
      - id: go
        do: |
          gain 1 coin
          if me.seat == 2 { as next_player { gain 10 coin } }
          gain 100 coin
  - id: order
    do: "reorder by 0 - coin - me.seat"
"""


def test_code_after_an_as_block_acts_for_its_own_seat_again(tmp_path: Path) -> None:
    match = Match(make_pack(tmp_path, COINS), 2, 1)
    match.run([RandomAgent(1, seat) for seat in range(2)])
    # each seat 1 and 100 on its turn; the second seat gives the first 10 (a slip after the block: [211, 1])
    assert [p.counters["coin"] for p in match.game.state.players] == [111, 101]
    assert match.game.turn_order() == [0, 1]   # by each seat's own count and seat: 0-111-1, 0-101-2
