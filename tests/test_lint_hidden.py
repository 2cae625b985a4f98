"""HIDDEN001's ordering (engine/lint/hidden.py) on small packs: which reads a reveal covers, and which not.

The lint corpus holds the headline cases (read before reveal, reveal on one path, a trigger that conceals,
a correct order that stays quiet); these pin the finer rules of the walk.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.lint.run import lint

MANIFEST = 'id: case\nname: Case\nversion: 0.1.0\nengine: ">=0.1,<1.0"\nplayers: {min: 1, max: 2}\n'
HEAD = """counters:
  coin: {name: Coin}
zones:
  hand: {name: Hand, visibility: owner}
component_types:
  card: {name: Card, zone: hand, per_player: true}
components:
  card:
    - {id: gem, name: Gem, copies: 2}
"""
READ = 'choose c in next_player.hand "name a card" { gain 1 coin }'


def hidden_lines(tmp_path: Path, body: str) -> list[int]:
    """The lines of game.yaml with a HIDDEN001 finding, for a pack made of HEAD and `body`."""
    (tmp_path / "pack.yaml").write_text(MANIFEST, encoding="utf-8")
    (tmp_path / "game.yaml").write_text(HEAD + body + 'scoring:\n  score: "coin"\n', encoding="utf-8")
    return [d.line for d in lint(tmp_path, games=0) if d.code == "HIDDEN001"]


def test_each_seat_revealing_its_own_counts_for_everyone_once_the_step_is_over(tmp_path: Path) -> None:
    body = f"""flow:
  - id: show
    each_player:
      - {{id: own, do: "reveal hand"}}
  - id: peek
    each_player:
      - {{id: look, do: '{READ}'}}
"""
    assert hidden_lines(tmp_path, body) == []


def test_inside_the_step_the_seats_still_to_come_have_not_revealed(tmp_path: Path) -> None:
    body = f"""flow:
  - id: turns
    each_player:
      - {{id: own, do: "reveal hand"}}
      - {{id: look, do: '{READ}'}}
"""
    assert hidden_lines(tmp_path, body) == [14]


def test_a_reveal_under_a_condition_does_not_count_for_everyone(tmp_path: Path) -> None:
    body = f"""flow:
  - id: show
    each_player:
      - {{id: own, do: "if coin > 0 {{ reveal hand }}"}}
  - id: peek
    each_player:
      - {{id: look, do: '{READ}'}}
"""
    assert hidden_lines(tmp_path, body) == [16]


def test_a_rule_outside_the_flow_must_reveal_first(tmp_path: Path) -> None:
    body = f"""triggers:
  - {{id: peek, on: gained, effect: '{READ}'}}
  - {{id: fair, on: gained, effect: 'reveal next_player.hand; {READ}'}}
flow:
  - id: show
    simultaneous:
      - {{id: ready, do: "gain 1 coin"}}
    reveal: [hand]
"""
    assert hidden_lines(tmp_path, body) == [11]


@pytest.mark.parametrize("order", ["reveal hand; call peek", "call peek; reveal hand"])
def test_a_procedure_is_followed_from_where_the_flow_calls_it(tmp_path: Path, order: str) -> None:
    body = f"""procedures:
  peek: '{READ}'
flow:
  - id: show
    each_player:
      - {{id: own, do: "reveal hand"}}
  - id: peek
    each_player:
      - {{id: look, do: "{order}"}}
  - id: hide
    each_player:
      - {{id: own, do: "conceal hand"}}
  - id: again
    each_player:
      - {{id: look, do: "call peek"}}
"""
    assert hidden_lines(tmp_path, body) == [11]      # the last call runs after every hand is concealed


def test_a_procedure_that_calls_itself_ends(tmp_path: Path) -> None:
    body = f"""procedures:
  peek: 'if coin < 3 {{ gain 1 coin; conceal hand; call peek }}; {READ}'
flow:
  - id: show
    simultaneous:
      - {{id: ready, do: "gain 1 coin"}}
    reveal: [hand]
  - id: peek
    each_player:
      - {{id: look, do: "call peek"}}
"""
    assert hidden_lines(tmp_path, body) == [11]


def test_statements_inside_labelled_branches_are_followed(tmp_path: Path) -> None:
    body = f"""flow:
  - id: show
    simultaneous:
      - {{id: ready, do: "gain 1 coin"}}
    reveal: [hand]
  - id: peek
    each_player:
      - id: look
        do: |
          choose {{ "keep them shown": gain 1 coin | "hide them": conceal hand }}
          may "peek" {{ reveal next_player.hand; {READ} }}
          {READ}
"""
    assert hidden_lines(tmp_path, body) == [21]     # the last read only: the `may` revealed what it reads
