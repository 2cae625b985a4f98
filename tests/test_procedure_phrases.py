"""A procedure's card phrase (`text`): explain reads `call repair_shields(2)` as "repair 2 shields"; a template
naming no parameter, or left open, is DSL019 at the character in the template.

The fixture pack tests/fixtures/packs/lines: `claim(c, mark)` reads "mark {c} with {mark}", `count_open` (no
parameters) reads as one phrase.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from engine.compile.build import Builder
from engine.diagnostics import PackError
from engine.dsl.phrase import fill_phrase, phrase_problems
from engine.packs.files import load_pack_files

REPO = Path(__file__).resolve().parent.parent
LINES = REPO / "tests" / "fixtures" / "packs" / "lines"

GAME = """counters:
  shields: {name: Shields}
procedures:
  repair_shields:
    params: [n]
    text: "TEMPLATE"
    effect: "gain n shields"
  rest:
    text: "take a rest"
    effect: "call repair_shields(1)"
  plain: "call repair_shields(3)"
  pick: 'choose "what" { "Take a rest": call rest | "Repair more": call repair_shields(4) }'
flow:
  - id: turns
    each_player:
      - {id: repair, do: "call repair_shields(2); call rest; call plain; call pick"}
scoring:
  score: "shields"
"""


def _pack(tmp_path: Path, template: str) -> Path:
    (tmp_path / "pack.yaml").write_text((LINES / "pack.yaml").read_text())
    (tmp_path / "game.yaml").write_text(GAME.replace("TEMPLATE", template))
    return tmp_path


def _explain(pack: Path) -> str:
    out = subprocess.run([sys.executable, "-m", "engine.cli", "explain", str(pack)], capture_output=True,
                         text=True, cwd=REPO, check=True)
    return out.stdout


def test_explain_reads_calls_by_their_card_phrase(tmp_path: Path) -> None:
    text = _explain(_pack(tmp_path, "repair {n} shields"))
    assert "Procedure rest: Repair 1 shields." in text
    assert "Procedure plain: Repair 3 shields." in text
    assert "  A call reads: repair {n} shields" in text
    assert "with" not in text.split("Procedure plain:")[1].splitlines()[0]


def test_an_option_labelled_as_its_phrase_reads_is_printed_once(tmp_path: Path) -> None:
    text = _explain(_pack(tmp_path, "repair {n} shields"))
    assert "Procedure pick: Choose one: Take a rest or Repair more (repair 4 shields)." in text


def test_a_phrase_without_parameters_reads_as_written() -> None:
    text = _explain(LINES)
    assert "Procedure drop: Choose k from 1 to 5 where the mark of the Cell at column it, row 4 is 0: mark the" \
           " first of column k of the Cell grid, lowest first where the mark of it is 0 with the seat of you." in text
    assert "  A call reads: count the empty cells above the middle of the bottom row" in text


def test_a_call_without_a_phrase_keeps_the_generic_reading(tmp_path: Path) -> None:
    pack = _pack(tmp_path, "x")
    game = (pack / "game.yaml").read_text().replace('    text: "x"\n', "")
    (pack / "game.yaml").write_text(game)
    assert "Procedure plain: Repair shields with 3." in _explain(pack)


@pytest.mark.parametrize(("template", "col", "message"), [
    ("repair {count} shields", 19, "'{count}' names no parameter of the procedure (its parameters: n)"),
    ("repair {n shields", 19, "'{' is never closed"),
    ("repair {n} shields}", 30, "'}' closes no '{'"),
    ("repair {{n} shields", 19, "'{' is never closed"),
    ("repair {n} {n|shield}", 23, "'{n|shield}' needs two word forms: {n|ONE|MANY}"),
    ("repair {n} {m|shield|shields}", 23, "'{m}' names no parameter of the procedure (its parameters: n)"),
])
def test_a_phrase_explain_cannot_fill_is_dsl019_at_the_character(tmp_path: Path, template: str, col: int,
                                                                  message: str) -> None:
    with pytest.raises(PackError) as caught:
        Builder(load_pack_files(_pack(tmp_path, template))).build()
    found = [d for d in caught.value.diagnostics if d.code == "DSL019"]
    assert [(d.line, d.col, d.message) for d in found] == [(6, col, message)]


def test_templates_fill_each_field_and_leave_other_words_alone() -> None:
    assert phrase_problems("lose {n} of {what}", ["what", "n"]) == []
    assert fill_phrase("lose {n} of {what}", {"n": "2", "what": "Shields"}) == "lose 2 of Shields"
    assert phrase_problems("{}", ["n"]) == [(0, "'{}' names no parameter of the procedure (its parameters: n)")]


def test_a_word_field_agrees_with_its_argument() -> None:
    """`{n|ONE|MANY}`: ONE only where the argument reads "1" (a number or an expression otherwise)."""
    template = "lose {n} {n|shield|shields}"
    assert phrase_problems(template, ["n"]) == []
    assert fill_phrase(template, {"n": "1"}) == "lose 1 shield"
    assert fill_phrase(template, {"n": "2"}) == "lose 2 shields"
    assert fill_phrase(template, {"n": "Damage"}) == "lose Damage shields"


def test_a_list_in_a_phrase_reads_like_a_printed_row_of_values(tmp_path: Path) -> None:
    """`call gain_by_level([1, 2, 3, 3])` under "gain {amounts} shields by level" reads "gain 1/2/3/3 ...";
    outside a phrase a list keeps its brackets (the generic reading)."""
    pack = _pack(tmp_path, "repair {n} shields by level")
    game = pack / "game.yaml"
    game.write_text(game.read_text().replace('"call repair_shields(3)"', '"call repair_shields([1, 2, 3, 3])"')
                    .replace('effect: "gain n shields"', 'effect: "gain count(n) shields"'))
    text = _explain(pack)
    assert "Procedure plain: Repair 1/2/3/3 shields by level." in text
    game.write_text(game.read_text().replace('    text: "repair {n} shields by level"\n', ""))
    assert "Procedure plain: Repair shields with [1, 2, 3, 3]." in _explain(pack)
