"""DSL texts become Python functions built as ASTs: what they may reach, scoping, error positions, lazy compiling."""

from __future__ import annotations

import ast
import textwrap
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from engine.compile.codegen import Unit, check, const, expr, prepare, stmts
from engine.compile.loading import load_pack
from engine.errors import RuleError
from engine.play.match import Match
from engine.runtime.context import Ctx
from engine.runtime.defs import Pack
from tests.test_engine_mechanisms import make_pack

TOY = """\
counters:
  coin: {name: Coin}
zones:
  box: {scope: global}
component_types:
  token: {zone: box, attrs: {note: {type: str, default: ""}}}
components:
  token:
    - {id: alpha, name: Alpha}
"""


def flow(effect: str) -> str:
    body = textwrap.indent(effect, " " * 10)
    return TOY + f"flow:\n  - id: turn\n    each_player:\n      - id: go\n        do: |\n{body}\n"


def test_check_refuses_names_dunders_and_objects_the_compilers_never_produce() -> None:
    allowed = {"helper": len}
    check(ast.parse("helper(ctx, v_x, t_1, game)"), allowed)
    for bad in ("open('f')", "__import__('os')", "ctx.__dict__", "helper.__globals__"):
        with pytest.raises(AssertionError):
            check(ast.parse(bad), allowed)
    with pytest.raises(AssertionError):
        check(ast.Module([ast.Expr(ast.Constant(b"bytes"))], []), allowed)


def test_templates_fill_names_expressions_and_statement_lists() -> None:
    body = stmts("for V in C:\n    BODY", V="v_x", C=expr("[1, 2]"), BODY=stmts("t_1 = V", V="v_x"))
    unit = Unit(lambda: "here", {})
    fn = unit.function("dsl", lambda: [*stmts("t_1 = 0"), *body, *stmts("return t_1 + K", K=const(40))])
    assert fn(SimpleNamespace(game=None, self_item=None)) == 42


def test_pack_text_is_data_never_code(tmp_path: Path) -> None:
    payload = "__import__('os').system('exit 3')"
    pack = make_pack(tmp_path, flow(f'set alpha.note = "{payload}"'))
    session = Match(pack, 1, 1)
    assert session.done
    assert session.game.instance("alpha", None).attrs["note"] == payload


def test_a_shadowing_local_does_not_leak_out_of_its_block(tmp_path: Path) -> None:
    text = "for x in [1, 2] {\n  for x in [10] { set coin = coin + x }\n  set coin = coin + x\n}"
    pack = make_pack(tmp_path, flow(text))
    session = Match(pack, 1, 1)
    assert session.game.counter("coin", 0) == 10 + 1 + 10 + 2


def test_a_run_time_error_names_the_innermost_failing_statement(tmp_path: Path) -> None:
    pack = make_pack(tmp_path, flow("set coin = 1\nif coin > 0 {\n  set coin = coin / 0\n}"))
    with pytest.raises(RuleError) as caught:
        Match(pack, 1, 1)
    text = (tmp_path / "toy" / "main.yaml").read_text().splitlines()
    line, row = next((i, row) for i, row in enumerate(text, 1) if "coin / 0" in row)
    assert caught.value.where == f"toy/main.yaml:{line}:{row.index('set') + 1}"
    assert "division by zero" in str(caught.value)


def test_functions_compile_on_their_first_call(tmp_path: Path) -> None:
    pack = make_pack(tmp_path, flow("set coin = 5") + "scoring:\n  score: coin * 2\n")
    assert pack.scoring is not None
    score = pack.scoring.score
    stub = score.__code__
    session = Match(pack, 1, 1)
    assert score(Ctx(session.game, 0)) == 10
    assert score.__code__ is not stub and score(Ctx(session.game, 0)) == 10


def test_a_player_counter_outside_any_turn_is_a_clear_error(tmp_path: Path) -> None:
    pack = make_pack(tmp_path, TOY + "flow:\n  - {id: setup, do: 'set coin = coin + 1'}\n")
    with pytest.raises(RuleError, match="needs an acting player, but it runs outside any player's turn"):
        Match(pack, 1, 1)


def test_an_agent_error_is_not_taken_for_a_content_mistake(tmp_path: Path) -> None:
    pack = make_pack(tmp_path, flow('choose x in ["a", "b"] { set coin = 1 }\nchoose y in ["c", "d"] { set coin = 2 }'))

    class BreaksOnSecond:
        calls = 0

        def choose(self, view: object, decision: object) -> int:
            self.calls += 1
            if self.calls == 2:  # asked inside the flow, from within generated code
                raise ValueError("agent bug")
            return 0

    session = Match(pack, 1, 1)
    with pytest.raises(ValueError, match="agent bug"):
        session.run([BreaksOnSecond()])  # type: ignore[list-item]


def _functions(pack: Pack) -> Iterator[Any]:
    """Every generated function of a pack."""
    effects = [*pack.procedures.values(), *(t.effect for t in pack.triggers)]
    yield from (t.when for t in pack.triggers)
    for comp in pack.components.values():
        yield from comp.derived.values()
        yield from (c.amounts for c in comp.costs)
        for action in comp.actions:
            yield action.when
            yield None if action.cost is None else action.cost.amounts
            effects.append(action.effect)
        for trigger in comp.triggers:
            yield trigger.when
            effects.append(trigger.effect)
    yield from (cost.amounts for zone in pack.zones.values() for cost in zone.slots if cost is not None)
    for effect in effects:
        yield effect.run
        yield effect.legal
    if pack.scoring is not None:
        yield from (pack.scoring.score, *pack.scoring.tiebreak, *pack.scoring.breakdown.values())
        yield from (rank.when for rank in pack.scoring.ranks)
    yield pack.flow
    yield pack.untraced_flow
    yield pack.quiet_flow


@pytest.mark.parametrize("name", ["raising-robots", "raising-robots-expansion", "robot-factory"])
def test_every_text_of_a_shipped_pack_generates_checks_and_compiles(name: str) -> None:
    functions = {id(fn): fn for fn in _functions(load_pack(name)) if fn is not None}  # defaults are shared
    for fn in functions.values():
        prepare(fn)  # generation, the safety check and compile(): what a first call would do
        assert fn.__code__.co_name == fn.__name__, f"{fn.__name__} is still pending"  # a stub's code is `dsl`
    assert len(functions) > 50


def test_a_zones_first_item_is_read_in_place_and_fails_as_index_did(tmp_path: Path) -> None:
    """`box[1]` reads the zone's list in place (no call); where Python refuses the local it names (what a
    comprehension goes through) it is `index()` again; an empty zone fails with index()'s error."""
    text = ('set alpha.note = box[1].name\n'
            'if coin == 0 and count(items([box[1]]) where it.note == "Alpha") == 1 { set coin = 7 }\n'
            'move alpha to spare\nset coin = box[1].note')
    pack = make_pack(tmp_path, flow(text).replace("  box: {scope: global}", "  box: {scope: global}\n"
                                                  "  spare: {scope: global}"))
    with pytest.raises(RuleError, match=r"index 1 is outside 1\.\.0") as caught:
        Match(pack, 1, 1)
    assert "box[1].note" in (tmp_path / "toy" / "main.yaml").read_text().splitlines()[
        int(caught.value.where.split(":")[1]) - 1]
    pack = make_pack(tmp_path / "ok", flow(text.rsplit("\n", 2)[0]))
    session = Match(pack, 1, 1)
    assert session.game.instance("alpha", None).attrs["note"] == "Alpha" and session.game.counter("coin", 0) == 7
