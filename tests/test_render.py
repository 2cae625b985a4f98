"""Rules text rendered from DSL (engine/dsl/render.py) and `cogwork explain`."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.cli import main
from engine.compile.build import Builder
from engine.dsl.english import plural
from engine.dsl.render import Renderer, threshold_unit
from engine.dsl.sites import parsed_sites
from engine.packs.files import load_pack_files

REPO = Path(__file__).resolve().parent.parent
MINIMAL = REPO / "tests" / "fixtures" / "packs" / "minimal"
ROBOTS = REPO / "content" / "raising-robots"


def renderer(root: Path) -> Renderer:
    raw = load_pack_files(root)
    pack = Builder(raw).build()
    return Renderer(pack, threshold_unit((tree for _, _, tree in parsed_sites(raw)), pack))


@pytest.fixture(scope="module")
def minimal() -> Renderer:
    return renderer(MINIMAL)


@pytest.fixture(scope="module")
def robots() -> Renderer:
    return renderer(ROBOTS)


@pytest.mark.parametrize(("name", "amount", "shown"), [
    ("Coin", "2", "Coins"), ("Coin", "1", "Coin"), ("Battery", "3", "Batteries"), ("Day", "2", "Days"),
    ("Box", "2", "Boxes"), ("Victory Points", "1", "Victory Point"), ("Victory Points", "2", "Victory Points"),
    ("Energy", "3", "Energy"), ("Glass", "1", "Glass"), ("Gas", "1", "Gas"), ("Gas", "2", "Gas"),
])
def test_plural(name: str, amount: str, shown: str) -> None:
    assert plural(name, amount) == shown


@pytest.mark.parametrize(("text", "english"), [
    ("gain 2 coin", "Gain 2 Coins."),
    ("gain 1 coin; gain 2 star; gain 1 star", "Gain 1 Coin, 2 Stars and 1 Star."),
    ("pay 1 coin; gain 2 star", "Pay 1 Coin to gain 2 Stars."),
    ("may { pay 1 coin; gain 2 star }", "You may pay 1 Coin to gain 2 Stars."),
    ("choose { gain 1 coin | draw 1 from deck to hand }", "Choose one: gain 1 Coin or draw 1 from Deck to Hand."),
    ("if coin >= 2 { gain 1 star } else { lose 1 coin }", "If Coin is at least 2: gain 1 Star; otherwise lose 1 Coin."),
    ("shuffle deck\nchoose c in hand { play c to table }",
     "Shuffle Deck. Choose c from Hand: play c to Table, paying its cost."),
    ("for c in hand where it.points > 1 { move c to discard top }",
     "For each c in Hand where the points of it is more than 1: move c to the top of Discard."),
    ("choose n from 0 to coin { pay n coin; gain n + 1 star }",
     "Choose a number n from 0 to Coin: pay n Coins to gain (n + 1) Stars."),
    ("repeat 2 { call income }; emit scored(by: 2); end_game", "2 times: income. Announce scored. The game ends."),
    ("as next_player { gain 1 coin }", "As the next player: gain 1 Coin."),
])
def test_effects(minimal: Renderer, text: str, english: str) -> None:
    assert minimal.text(text, "effect") == english


@pytest.mark.parametrize(("text", "english"), [
    ("(coin + star) / 3", "(Coin + Star) / 3, rounded down"),
    ("coin - (star - 1)", "Coin - (Star - 1)"),
    ("sum(table, it.points) * 2", "the total points of Table × 2"),
    ("count(hand) + max(coin, star)", "the number of items in Hand + (the highest of Coin and Star)"),
    ("not (low in hand) and option.fast", "Low is not in Hand and option fast is on"),
])
def test_expressions(minimal: Renderer, text: str, english: str) -> None:
    assert minimal.text(text, "expr") == english


def test_cost(minimal: Renderer) -> None:
    assert minimal.text("2 coin + 1 star", "cost") == "2 Coins and 1 Star"


def test_text_that_does_not_parse_is_shown_as_it_is(minimal: Renderer) -> None:
    assert minimal.text("gain gain", "effect") == "gain gain"


@pytest.mark.parametrize(("text", "english"), [
    ("gain 2 gear", "Gain 2 Gears."),
    ("pay 1 battery; gain 1 duct_tape; gain 1 wild", "Pay 1 Battery to gain 1 Duct Tape and 1 Wild."),
    ("choose { gain 1 gear | gain 1 sensor }", "Choose one: gain 1 Gear or gain 1 Sensor."),
])
def test_game_text(robots: Renderer, text: str, english: str) -> None:
    assert robots.text(text, "effect") == english


def test_every_shipped_dsl_text_renders(robots: Renderer) -> None:
    for site, _, _ in parsed_sites(load_pack_files(ROBOTS)):
        assert robots.text(site.text, site.start).strip()


def test_component_lines_use_the_threshold_unit(robots: Renderer) -> None:
    entry = load_pack_files(ROBOTS).components["astaire"]
    assert list(robots.component(entry)) == [
        "Attributes: phase = Design; vp = 2; upgrade = speed",
        "Cost: 2 Energy, 2 Programs and 1 Sensor; or 5 Energy and 1 Program.",
        "Actions (one per activation):",
        "  3 Energy: Gain 1 Program.",
        "  3 Energy, if it is upgraded: Gain 2 Programs.",
    ]


def test_explain_prints_components_procedures_and_triggers(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", str(ROBOTS), "board_upgrade_1", "inspiration", "rex_rivera"]) == 0
    out = capsys.readouterr().out
    assert ("Upgrade, top row (board_upgrade_1)\n  Attributes: phase = Upgrade\n"
            "  Pay 1 Energy and 4 Wilds: Unlock.\n") in out
    assert ("Procedure inspiration: Choose one: Draw Class Cards (draw class) or gain 2 Wilds or gain 4 Batteries."
            in out)
    assert "When an item is played, if the event's zone is Recycle row: Gain 2 Batteries." in out
    assert "  Printed: Basic: whenever you assemble a robot into your Recycle row" in out


def test_explain_whole_pack_lists_every_component(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", str(MINIMAL)]) == 0
    out = capsys.readouterr().out
    assert "== Card (2) ==" in out and "High (high) ×3" in out and "Procedure turn: Choose one:" in out


def test_explain_unknown_id(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", str(MINIMAL), "hihg"]) == 2
    assert "did you mean 'high'?" in capsys.readouterr().err


def test_explain_shows_what_patches_changed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    manifest = 'id: {id}\nname: N\nversion: 0.1.0\nengine: ">=0.1,<1.0"\nplayers: {{min: 1, max: 2}}\n'
    (tmp_path / "base").mkdir()
    (tmp_path / "base" / "pack.yaml").write_text(manifest.format(id="base"), encoding="utf-8")
    (tmp_path / "base" / "game.yaml").write_text(
        'counters:\n  coin: {name: Coin}\nprocedures:\n  earn: "gain 1 coin"\n'
        'flow:\n  - id: turns\n    each_player:\n      - {id: earn, do: "call earn"}\n', encoding="utf-8")
    (tmp_path / "mod").mkdir()
    (tmp_path / "mod" / "pack.yaml").write_text(manifest.format(id="mod") + "dependencies: [base]\n",
                                                encoding="utf-8")
    (tmp_path / "mod" / "patches.yaml").write_text(
        'patches:\n  - {op: replace, target: procedures/earn, value: "gain 2 coin"}\n', encoding="utf-8")
    assert main(["explain", str(tmp_path / "mod"), "earn"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Procedure earn: Gain 2 Coins.\n  History: defined in base (base/game.yaml:4:3); ")
    assert "by mod (mod/patches.yaml:2:5)" in out


def test_effect_and_cost_attributes_read_like_printed_rules(tmp_path: Path) -> None:
    root = tmp_path / "toy"
    root.mkdir()
    (root / "pack.yaml").write_text('id: toy\nname: Toy\nversion: 0.1.0\nengine: ">=0.1"\nplayers: {min: 1, max: 2}\n')
    (root / "main.yaml").write_text(
        "counters:\n  coin: {name: Coin, resource: true}\n  ore: {name: Ore, resource: true}\n"
        "zones:\n  shop: {scope: global}\n"
        "component_types:\n  offer:\n    zone: shop\n    attrs:\n"
        '      price: {type: cost, default: "1 coin"}\n      reward: {type: effect}\n'
        'components:\n  offer:\n    - {id: dear, name: Dear, price: "2 coin", reward: "gain 3 ore"}\n'
        'flow:\n  - {id: buy, do: "for o in shop { pay o.price; do o.reward }"}\n')
    shown = renderer(root)
    assert list(shown.component(load_pack_files(root).components["dear"])) == [
        "Price: 2 Coins.", "Reward: Gain 3 Ores."]
    assert shown.text("for o in shop { pay o.price; do o.reward }", "effect") == (
        "For each o in shop: pay the price of o, then carry out the reward of o.")


def test_a_counter_named_through_data_reads_as_the_attribute(minimal: Renderer) -> None:
    assert minimal.text("gain 2 t.cube; lose 1 t.cube", "effect") == "Gain 2 of the cube of t. Lose 1 of the cube of t."


def test_turn_position_reads_as_the_place_in_turn_order(minimal: Renderer) -> None:
    assert minimal.text("me.position", "expr") == "the place in turn order of you (1 = the first player)"


def test_explain_prints_the_new_mechanisms_as_rules(capsys: pytest.CaptureFixture[str]) -> None:
    """Item-backed counters, admission rules and board links read as rules text."""
    fixtures = REPO / "tests" / "fixtures" / "packs"
    assert main(["explain", str(fixtures / "exhaust"), "mana"]) == 0
    assert main(["explain", str(fixtures / "sockets"), "socket"]) == 0
    assert main(["explain", str(fixtures / "bridges"), "build", "burn"]) == 0
    out = capsys.readouterr().out
    assert ("Counter Mana (mana): the total, over the items in Lands in play that are not tapped"
            " (those where its kind is land), of its mana") in out
    assert "each becomes tapped and stops counting; an item is discarded instead if it is brittle" in out
    assert "Takes an item only if the Socket is not full and the Socket is open or its colour is the colour of" in out
    assert "join a to b (now adjacent)" in out and "cut the link between a and b" in out
