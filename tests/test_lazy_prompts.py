"""Prompts with `{EXPR}` fields: the values are worked out at the ask (a field that fails, fails there, as
ever), the text is joined only when read (a bot answering by index never reads it); the type pass checks
each field where its statement stands (TYPE019: a field that reads a rule)."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.compile.loading import load_pack
from engine.errors import RuleError
from engine.play.agents import RandomAgent
from engine.play.match import Match
from engine.runtime.decision import joined_prompt
from engine.runtime.state import Item, PlayerRef

MANIFEST = """id: prompts
name: Prompts
version: 0.1.0
engine: ">=0.1,<1.0"
players: {min: 1, max: 2}
"""

GAME = """counters:
  coin: {name: Coin, resource: true, initial: 3}
zones:
  shop: {name: Shop, scope: global}
  bin: {name: Bin, scope: global}
component_types:
  deal: {zone: shop}
components:
  deal:
    - {id: bargain, name: Bargain}
    - {id: steal, name: Steal}
flow:
  - id: turns
    each_player:
      - id: buy
        do: 'choose d in shop PROMPT { move d to bin }'
scoring:
  score: "coin"
"""


def _pack(tmp_path: Path, prompt: str) -> Path:
    (tmp_path / "pack.yaml").write_text(MANIFEST)
    (tmp_path / "game.yaml").write_text(GAME.replace("PROMPT", prompt))
    return tmp_path


def test_values_are_kept_and_joined_when_read(tmp_path: Path) -> None:
    match = Match(load_pack(str(_pack(tmp_path, '"{me}: take {shop[1]} of {coin + 0} in {shop}"'))), 2, 1)
    decision = match.decision
    assert decision is not None
    pieces, first, second, third, fourth = decision._prompt
    assert pieces == ("", ": take ", " of ", " in ", "")
    # a player, an item and a number cannot show differently later: kept; a zone is shown at once
    assert (type(first), type(second), third) == (PlayerRef, Item, 3) and isinstance(fourth, str)
    assert decision.prompt == f"P1: take Bargain of 3 in {fourth}" == joined_prompt(decision._prompt)
    assert decision._prompt == decision.prompt          # joined once, kept


def test_a_prompt_without_fields_is_text_at_once(tmp_path: Path) -> None:
    match = Match(load_pack(str(_pack(tmp_path, '"take one"'))), 2, 1)
    assert match.decision is not None and match.decision._prompt == "take one"


def test_a_field_that_fails_fails_at_the_ask_even_for_a_bot_that_never_reads_it(tmp_path: Path) -> None:
    pack = load_pack(str(_pack(tmp_path, '"take one, after {bin[1]}"')))
    with pytest.raises(RuleError) as made:
        match = Match(pack, 2, 1)
        match.run([RandomAgent(1, seat) for seat in range(2)])
    # the error main gave when prompts were f-strings, at the field's place
    assert str(made.value).endswith("game.yaml:16:14: error: index 1 is outside 1..0 [RUN001]")


def test_the_games_prompts_read_as_before() -> None:
    goofspiel = Match(load_pack("goofspiel"), 2, 1)
    prize = goofspiel.game.state.zone("prize", None).items[0]
    assert goofspiel.decision is not None and goofspiel.decision.prompt == f"bid for {prize.name}" == "bid for prize 9"
