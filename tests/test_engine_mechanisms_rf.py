"""Kernel mechanisms added while writing the Robot Factory pack, each on a tiny inline pack.

- prompt templates: `{EXPR}` inside a choosing statement's prompt;
- fast paths that must not change meaning: plain attribute reads, literals in comparisons,
  counting zones, option de-duplication of identical items;
- the terminal player sees the other players' counters.
"""

from __future__ import annotations

import io
import textwrap
from pathlib import Path

import pytest

from engine.diagnostics import PackError
from engine.play.match import Match
from engine.play.rules_text import load_with_rules
from engine.play.table_text import TableText
from engine.play.terminal_player import HumanAgent
from tests.test_engine_mechanisms import make_pack

UNITS = """\
counters:
  coin: {initial: 3}
zones:
  pool: {}
  kept: {}
component_types:
  unit:
    zone: pool
    per_player: true
    attrs:
      power: {type: int, default: 1}
      tag: {type: str, default: plain}
  marker:
    zone: kept
    per_player: true
    attrs:
      where: {type: zone, default: pool}
components:
  unit:
    - {id: a, name: Alpha, power: 3}
    - {id: b, name: Beta, copies: 2}
  marker:
    - {id: m, name: Marker}
"""


def flow(effect: str) -> str:
    return "flow:\n  - id: turn\n    each_player:\n      - id: go\n        do: |\n" + textwrap.indent(effect, " " * 10)


def test_prompt_templates_show_current_values(tmp_path: Path) -> None:
    pack = make_pack(tmp_path, UNITS + flow(
        'for u in pool { choose x in ["keep", "drop"] "{u.name} ({u.power}), P{me.seat} has {coin}" { } }\n'))
    session = Match(pack, 1, 1)
    prompts = []
    while not session.done:
        prompts.append(session.decision.prompt)
        session.apply_label("keep")
    assert prompts == ["Alpha (3), P1 has 3", "Beta (1), P1 has 3", "Beta (1), P1 has 3"]


def test_prompt_without_fields_is_unchanged(tmp_path: Path) -> None:
    pack = make_pack(tmp_path, UNITS + flow('choose x in ["a", "b"] "pick one" { }\n'))
    session = Match(pack, 1, 1)
    assert session.decision.prompt == "pick one"


def test_prompt_field_errors_point_into_the_prompt(tmp_path: Path) -> None:
    with pytest.raises(PackError) as err:
        make_pack(tmp_path, UNITS + flow('choose x in ["a", "b"] "pick {u.powr}" { }\n'))
    text = str(err.value)
    assert "unknown name 'u'" in text
    # the effect's first line is line 30 of main.yaml, indented by 10: `u` is at column 41, `powr` at 43
    assert "main.yaml:30:41: error: unknown name 'u'" in text
    assert "main.yaml:30:43: error: unknown attribute 'powr'" in text


def test_identical_items_are_one_option_and_different_ones_are_not(tmp_path: Path) -> None:
    pack = make_pack(tmp_path, UNITS + flow(
        'repeat choose u in pool "take" { move u to kept }\n'))
    session = Match(pack, 1, 1)
    assert session.decision.labels == ["Alpha", "Beta", "done"]  # the two Betas are the same option
    session.apply_label("Beta")
    assert session.decision.labels == ["Alpha", "Beta", "done"]  # the other Beta is still there
    session.game.state.players[0].zones["pool"].items[1].own_attrs()["power"] = 7  # now Beta differs from nothing
    session.apply_label("Alpha")
    assert session.decision.labels == ["Beta", "done"]


def test_copies_that_differ_get_unique_labels(tmp_path: Path) -> None:
    pack = make_pack(tmp_path, UNITS + flow(
        'for u in pool where it.id == "b" { set u.power = u.power + count(kept) }\n'
        'move items(pool)[1] to kept\n'
        'set items(pool)[2].power = 5\n'
        'choose u in pool "take" { move u to kept }\n'))
    session = Match(pack, 1, 1)
    assert session.decision.labels == ["Beta (b) [power 2]", "Beta (b) [power 5]"]  # unique, so logs replay
    session.apply_label("Beta (b) [power 5]")
    kept = session.game.state.players[0].zones["kept"].items
    assert [(u.comp.id, u.attrs.get("power")) for u in kept] == [("m", None), ("a", 3), ("b", 5)]


def test_attribute_reads_on_items_players_and_missing_attributes(tmp_path: Path) -> None:
    pack = make_pack(tmp_path, UNITS + flow(
        'set coin = count(items(pool, kept) where it.tag == "plain") * 100'
        ' + sum(items(pool, kept), it.power) * 10 + count(everyone where it.coin == 3)\n'
        'set coin = coin + count(kept where it.power == 0)\n'))  # a marker has no power: reads 0
    session = Match(pack, 1, 1)
    assert session.game.counter("coin", 0) == 3 * 100 + 5 * 10 + 1 + 1


def test_literal_comparisons_and_arithmetic(tmp_path: Path) -> None:
    pack = make_pack(tmp_path, UNITS + flow(
        'if coin == 3 and coin != 4 and coin < 4 and coin <= 3 and coin > 2 and coin >= 3 {'
        ' set coin = coin * 2 + 1 - 3 }\n'
        'if m.where == pool { set coin = coin + 100 }\n'))
    session = Match(pack, 1, 1)
    assert session.game.counter("coin", 0) == 104


def test_terminal_player_sees_the_other_players_counters(tmp_path: Path) -> None:
    pack = make_pack(tmp_path, UNITS + flow('choose x in ["a", "b"] "pick" { }\n'))
    session = Match(pack, 2, 1)
    out = io.StringIO()
    _, rules = load_with_rules(str(tmp_path / "toy"))
    HumanAgent(TableText(rules, out), stdin=io.StringIO("1\n")).choose(session.view(0), session.decision)
    assert "-- P2 (seat 2) --\n  coin: 3\n" in out.getvalue()
