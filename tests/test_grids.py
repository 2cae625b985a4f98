"""The grid DSL: grids declared by size, at/column/row/line/step/first/in_a_row, `let` and `while`.

The fixture pack tests/fixtures/packs/lines: a 5-by-4 square grid, discs dropped into columns, three in a
row wins; `count_open` walks a `line` with `while`; `count_beside` (after each disc) reads the
cells a `step` away.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from engine.compile.loading import load_pack
from engine.diagnostics import PackError
from engine.dsl.render import Renderer
from engine.errors import RuleError
from engine.lint.run import lint
from engine.play.agents import RandomAgent
from engine.play.match import Match
from engine.runtime.limits import LimitError
from engine.runtime.scoring import winners

PACK = Path(__file__).parent / "fixtures" / "packs" / "lines"


def _pack_with(tmp_path: Path, game: str) -> Path:
    (tmp_path / "pack.yaml").write_text((PACK / "pack.yaml").read_text())
    (tmp_path / "game.yaml").write_text(game)
    return tmp_path


def _board(session: Match) -> dict[tuple[int, int], int]:
    return {(c.attrs["col"], c.attrs["row"]): c.attrs["mark"] for c in session.game.state.zone("board", None).items}


def _three(board: dict[tuple[int, int], int], seat: int) -> bool:
    """Three in a row anywhere, by brute force over every start and direction."""
    return any(all(board.get((c + i * dc, r + i * dr)) == seat for i in range(3))
               for (c, r) in board for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)))


def test_cells_are_made_from_the_size() -> None:
    pack = load_pack(str(PACK))
    cells = [c for c in pack.components.values() if c.ctype.id == "cell"]
    assert len(cells) == 20
    assert [c.id for c in cells[:6]] == ["cell_1_1", "cell_2_1", "cell_3_1", "cell_4_1", "cell_5_1", "cell_1_2"]
    assert cells[5].values["col"] == 1 and cells[5].values["row"] == 2 and cells[5].name == "1,2"


@pytest.mark.parametrize("seed", range(1, 61))
def test_random_games_end_exactly_when_someone_has_three_in_a_row(seed: int) -> None:
    session = Match(load_pack(str(PACK)), 2, seed)
    session.run([RandomAgent(seed, seat) for seat in range(2)])
    board = _board(session)
    won = winners(session.game)
    for seat in (1, 2):
        assert _three(board, seat) == (won == [seat - 1] and session.game.state.players[seat - 1].counters["won"] == 1)
    # `step` in all 8 directions from the middle of the bottom row: its 5 neighbours on the board
    assert session.game.state.counters["beside"] == sum(
        1 for dc in (-1, 0, 1) for dr in (-1, 0, 1) if (dc, dr) != (0, 0) and board.get((3 + dc, 1 + dr), 0) != 0)
    # discs stack: no empty cell under a disc
    assert all(board[(c, r - 1)] != 0 for (c, r), mark in board.items() if mark and r > 1)


def test_every_direction_of_in_a_row(tmp_path: Path) -> None:
    """A diagonal of three, found from each of its cells; a broken line is not three in a row."""
    game = (PACK / "game.yaml").read_text().replace(
        "flow:\n", "flow:\n  - {id: setup, do: \"set at(cell, 1, 1).mark = 1; set at(cell, 2, 2).mark = 1; "
        "set at(cell, 3, 3).mark = 1; set at(cell, 5, 1).mark = 1; set at(cell, 5, 3).mark = 1\"}\n"
        "  - {id: probe, do: \"if in_a_row(at(cell, 2, 2), 3, it.mark == 1) and in_a_row(at(cell, 3, 3), 3, "
        "it.mark == 1) and in_a_row(at(cell, 1, 1), 3, it.mark > 0) and not in_a_row(at(cell, 5, 1), 2, it.mark > 0) "
        "and not in_a_row(at(cell, 5, 1), 2, it.mark == 1) and count(line(at(cell, 1, 1), "
        "\\\"ne\\\")) == 3 and count(line(at(cell, 1, 1), \\\"sw\\\")) == 0 { set open = 7; end_game }\"}\n", 1)
    session = Match(load_pack(str(_pack_with(tmp_path, game))), 2, 1)
    session.run([RandomAgent(1, seat) for seat in range(2)])
    assert session.game.state.counters["open"] == 7


@pytest.mark.parametrize(("marked", "open_cells"), [([], 3), ([(3, 3)], 1), ([(3, 2), (3, 4)], 0)])
def test_while_walks_a_line_until_a_marked_cell(tmp_path: Path, marked: list[tuple[int, int]],
                                                open_cells: int) -> None:
    setup = "; ".join(f"set at(cell, {c}, {r}).mark = 1" for c, r in marked) or "set open = 0"
    game = (PACK / "game.yaml").read_text().replace(
        "flow:\n", f"flow:\n  - {{id: setup, do: \"{setup}; call count_open; end_game\"}}\n", 1)
    session = Match(load_pack(str(_pack_with(tmp_path, game))), 2, 1)
    session.run([RandomAgent(1, seat) for seat in range(2)])
    assert session.game.state.counters["open"] == open_cells


def test_listing_a_component_of_a_sized_grid_is_an_error(tmp_path: Path) -> None:
    game = (PACK / "game.yaml").read_text().replace(
        "procedures:", "components:\n  cell:\n    - {id: extra, name: Extra}\n\nprocedures:", 1)
    with pytest.raises(PackError) as found:
        load_pack(str(_pack_with(tmp_path, game)))
    assert [d.code for d in found.value.diagnostics] == ["BOARD003"]


def test_explain_renders_the_grid_functions_let_and_parameters() -> None:
    procedures = yaml.safe_load((PACK / "game.yaml").read_text())["procedures"]
    renderer = Renderer(load_pack(str(PACK)))
    texts = {name: text if isinstance(text, str) else text["effect"] for name, text in procedures.items()}
    drop, claim, walk = (renderer.text(texts[name], "effect") for name in ("drop", "claim", "count_open"))
    # claim's card phrase "mark {c} with {mark}" (tests/test_procedure_phrases.py)
    assert "mark the first of column k of the Cell grid, lowest first where the mark of it is 0 with the seat of" \
           " you" in drop
    assert "c is one of 3 cells in a row" in claim
    assert "Let n be 0" in walk
    assert "the cells from the Cell at column 3, row 1 going north to the edge" in walk
    assert "As long as n is less than" in walk


@pytest.mark.parametrize(("call", "code"), [("call claim(at(cell, 1, 1))", "DSL011"), ("call claim", "DSL011"),
                                            ("call count_open(1)", "DSL011")])
def test_a_call_gives_each_parameter_a_value(tmp_path: Path, call: str, code: str) -> None:
    game = (PACK / "game.yaml").read_text().replace("- {id: last_look, do: \"call count_open\"}",
                                                    f"- {{id: last_look, do: \"{call}\"}}", 1)
    with pytest.raises(PackError) as found:
        load_pack(str(_pack_with(tmp_path, game)))
    assert [d.code for d in found.value.diagnostics] == [code]


def test_a_parameter_may_not_hide_a_name(tmp_path: Path) -> None:
    game = (PACK / "game.yaml").read_text().replace("params: [c, mark]", "params: [c, won]", 1)
    with pytest.raises(PackError) as found:
        load_pack(str(_pack_with(tmp_path, game)))
    hiding = [d for d in found.value.diagnostics if d.code == "DSL017"]
    assert len(hiding) == 1 and "parameter 'won' would hide the counter 'won'" in hiding[0].message


def test_an_endless_while_runs_out_of_work(tmp_path: Path) -> None:
    """`while true { ... }` is bounded by the work budget: a LimitError (RUN002), not a hang."""
    game = (PACK / "game.yaml").read_text().replace("repeat: {count: 10}", "repeat: {count: 0}", 1).replace(
        '- {id: last_look, do: "call count_open"}', '- {id: last_look, do: "while true { set open = open + 1 }"}', 1)
    with pytest.raises(LimitError, match="while loop"):
        Match(load_pack(str(_pack_with(tmp_path, game))), 2, 1)


@pytest.mark.parametrize(("need", "marked", "tested"), [
    (1, [(3, 2)], [(3, 2)]),                                   # the cell alone is a line of one
    (3, [(3, 2), (4, 2), (5, 2)], [(3, 2), (4, 2), (5, 2)]),   # found going east: nothing further is read
    (3, [(3, 2), (2, 2), (1, 2)], [(3, 2), (4, 2), (2, 2), (1, 2)]),   # east fails at once, then west
    (3, [(3, 2)], [(3, 2), (4, 2), (2, 2), (3, 3), (3, 1), (4, 3), (2, 1), (4, 1), (2, 3)]),  # every axis
    (3, [], [(3, 2)]),                                         # the cell itself fails: nothing else is read
])
def test_in_a_row_reads_each_cell_once_nearest_first_and_stops_at_n(need: int, marked: list[tuple[int, int]],
                                                                     tested: list[tuple[int, int]]) -> None:
    """The condition runs on the fewest cells, in a fixed order: it may cost work or fail, so which cells it
    reads is part of the game's behaviour (the plain-attribute form `in_a_row_of` reads the same cells)."""
    session = Match(load_pack(str(PACK)), 2, 1)
    grids = session.game.grids
    cells = {(c.attrs["col"], c.attrs["row"]): c for c in session.game.state.zone("board", None).items}
    for xy in marked:
        cells[xy].own_attrs()["mark"] = 1
    seen: list[tuple[int, int]] = []

    def holds(cell: object) -> bool:
        seen.append((cell.attrs["col"], cell.attrs["row"]))   # type: ignore[attr-defined]
        return cell.attrs["mark"] == 1                          # type: ignore[attr-defined]

    found = grids.in_a_row(cells[(3, 2)], need, holds)
    assert seen == tested
    assert found == (len(marked) >= need)
    assert grids.in_a_row_of(cells[(3, 2)], need, "mark", 1) == found


def _probe(tmp_path: Path, condition: str) -> int:
    """Run the lines pack with a first step that sets `open` to 7 when `condition` holds, and end the game."""
    game = (PACK / "game.yaml").read_text().replace(
        "flow:\n", f"flow:\n  - {{id: probe, do: 'if {condition} {{ set open = 7 }}; end_game'}}\n", 1)
    session = Match(load_pack(str(_pack_with(tmp_path, game))), 2, 1)
    session.run([RandomAgent(1, seat) for seat in range(2)])
    return int(session.game.state.counters["open"])


@pytest.mark.parametrize("condition", [
    # the cells in the order of the directions listed; none past the edge (south and west of the corner)
    'step(at(cell, 1, 1), ["w", "n", "s", "ne", "e"]) == [at(cell, 1, 2), at(cell, 2, 2), at(cell, 2, 1)]',
    'step(at(cell, 5, 4), ["e", "sw", "n", "w"]) == [at(cell, 4, 3), at(cell, 4, 4)]',
    'count(step(at(cell, 1, 1), "s")) == 0 and first(step(at(cell, 2, 3), "se")) == at(cell, 3, 2)',
    # the same with the directions worked out (read when the rule runs, not written out) and an empty list
    'step(at(cell, 1, 1), pick([["w", "n", "ne"], ["s"]], 1)) == [at(cell, 1, 2), at(cell, 2, 2)]',
    'count(step(at(cell, 3, 3), [])) == 0',
])
def test_step_gives_the_cells_one_step_away_in_order(tmp_path: Path, condition: str) -> None:
    assert _probe(tmp_path, condition) == 7


def test_step_with_a_direction_the_grid_lacks_at_run_time_is_a_rule_error(tmp_path: Path) -> None:
    """A direction worked out when the rule runs is checked then: a rule error naming the grid's directions."""
    with pytest.raises(RuleError, match="'up' is not a direction of a square grid"):
        _probe(tmp_path, 'count(step(at(cell, 1, 1), pick(["up"], 1))) == 0')


@pytest.mark.parametrize(("call", "code", "message"), [
    ('step(3, "n")', "TYPE012", "step() needs an item, got '3' (a number)"),
    ("step(at(cell, 1, 1), 3)", "TYPE018",
     "the direction in step() needs a direction (text) or a list of directions, got '3' (a number)"),
    ('step(at(cell, 1, 1), ["n", 2])', "TYPE018", "each direction in step() needs text, got '2' (a number)"),
    ('step(at(cell, 1, 1), "up")', "BOARD004", "'up' is not a direction of the square grid of 'cell'"),
    ('step(at(cell, 1, 1), ["n", "up"])', "BOARD004", "'up' is not a direction of the square grid of 'cell'"),
])
def test_step_reports_wrong_arguments(tmp_path: Path, call: str, code: str, message: str) -> None:
    game = (PACK / "game.yaml").read_text().replace(
        "flow:\n", f"flow:\n  - {{id: probe, do: 'set open = count({call})'}}\n", 1)
    found = lint(_pack_with(tmp_path, game), games=0)
    assert [d.code for d in found] == [code]
    assert message in found[0].message


def test_explain_renders_step() -> None:
    text = yaml.safe_load((PACK / "game.yaml").read_text())["procedures"]["count_beside"]
    renderer = Renderer(load_pack(str(PACK)))
    assert ("the cells next to the Cell at column 3, row 1 going north-west, north, north-east, west, east, "
            "south-west, south and south-east, in that order (none past the edge)") in renderer.text(text, "effect")
    assert "the cell next to the Cell at column 1, row 1 going north (none past the edge)" in renderer.text(
        'set open = count(step(at(cell, 1, 1), "n"))', "effect")
    assert "the cells next to the Cell at column 1, row 1 in the directions entry 1 of" in renderer.text(
        'set open = count(step(at(cell, 1, 1), pick([["n", "e"]], 1)))', "effect")
