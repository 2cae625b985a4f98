"""HIDDEN002 and HIDDEN003 on Robot Factory: the programming leaks of session 6 put back into a copy of the
pack are each reported at their statement, and the shipped pack is silent (engine/lint/simultaneous.py).

Before the fix (c01a205) the default action slots were public (`set a.used`, `set produce.slots` showed P1's
assignments), the program set the public counter `build_actions`, and the build zone, revealed after
programming, was never concealed again (from turn 2 P1's queued builds were public while P2 programmed).
"""

from __future__ import annotations

import shutil
from pathlib import Path

from engine.compile.build import Builder
from engine.dsl.sites import parsed_sites
from engine.lint.simultaneous import simultaneous_leaks
from engine.packs.files import load_pack_files

RF = Path(__file__).resolve().parent.parent / "content" / "robot-factory"


def _findings(root: Path) -> list[tuple[str, str, int, str]]:
    raw = load_pack_files(root)
    pack = Builder(raw).build()
    sites = list(parsed_sites(raw))
    lines = {p.name: p.read_text().splitlines() for p in root.glob("*.yaml")}
    found = []
    for d in simultaneous_leaks(raw, pack, sites):
        name = Path(d.file).name
        found.append((d.code, name, d.line, lines[name][d.line - 1][d.col - 1:].split()[0]))
    return sorted(found)


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new))


def test_the_shipped_programming_is_silent() -> None:
    assert _findings(RF) == []


def test_the_session_6_leaks_are_each_reported(tmp_path: Path) -> None:
    pack = tmp_path / "robot-factory"
    shutil.copytree(RF, pack)
    _edit(pack / "core.yaml", "actions: {name: Default action slots, visibility: owner}",
          "actions: {name: Default action slots}")
    _edit(pack / "procedures.yaml", "let builds = count(", "set build_actions = count(")
    _edit(pack / "procedures.yaml", "if builds > 0 {", "if build_actions > 0 {")
    _edit(pack / "procedures.yaml", "    conceal build_zone\n", "")
    assert _findings(pack) == [
        ("HIDDEN002", "procedures.yaml", 15, "produce.slots"),    # an item of the public action slots
        ("HIDDEN002", "procedures.yaml", 19, "a.used"),           # the slot a robot was assigned to
        ("HIDDEN002", "procedures.yaml", 27, "build_actions"),    # a counter
        ("HIDDEN002", "procedures.yaml", 29, "build_zone"),       # revealed and never concealed again
    ]


def test_counting_the_other_factorys_build_zone_while_programming(tmp_path: Path) -> None:
    pack = tmp_path / "robot-factory"
    shutil.copytree(RF, pack)
    _edit(pack / "procedures.yaml", "    if builds > 0 {", "    if builds > count(next_player.build_zone) {")
    assert _findings(pack) == [("HIDDEN003", "procedures.yaml", 28, "next_player.build_zone)")]


def test_a_counter_of_a_size_secret_zone_is_a_size_read(tmp_path: Path) -> None:
    """`zone: hand` makes a counter the number of items in the hand: reading another seat's is HIDDEN003."""
    pack = tmp_path / "chips"
    shutil.copytree(Path(__file__).resolve().parent / "lint_corpus" / "hidden003-count-of-a-secret-size" / "pack",
                    pack)
    _edit(pack / "game.yaml", "  coin: {name: Coin}\n", "  coin: {name: Coin}\n  cards: {name: Cards, zone: hand}\n")
    _edit(pack / "game.yaml", "if count(next_player.stash) == 0 {", "if next_player.cards > cards {")
    assert _findings(pack) == [("HIDDEN003", "game.yaml", 14, "next_player.cards")]


_COST_CASE = Path(__file__).resolve().parent / "lint_corpus" / "hidden002-cost-paid-in-step" / "pack"


def _cost_case(tmp_path: Path) -> Path:
    pack = tmp_path / "bids"
    shutil.copytree(_COST_CASE, pack)
    return pack


def test_a_free_play_pays_only_the_slots_cost(tmp_path: Path) -> None:
    """`play ... free` skips the item's `costs` (silent) but still pays the target zone's slot cost."""
    pack = _cost_case(tmp_path)
    _edit(pack / "game.yaml", "{ play c to bid }", "{ play c to bid free }")
    assert _findings(pack) == []
    _edit(pack / "game.yaml", "bid: {name: Bid, visibility: owner}",
          'bid: {name: Bid, visibility: owner, slots: [{}, {cost: "1 coin"}]}')
    assert _findings(pack) == [("HIDDEN002", "game.yaml", 21, "play")]


def test_paying_an_items_cost_attribute_and_an_actions_cost(tmp_path: Path) -> None:
    """`pay c.price` pays whatever cost `price` any component gives; `activate` pays the chosen action's cost."""
    pack = _cost_case(tmp_path)
    _edit(pack / "game.yaml", "    per_player: true\n",
          '    per_player: true\n    attrs:\n      price: {type: cost, default: "0 coin"}\n')
    _edit(pack / "game.yaml", 'costs: ["1 coin"]}', 'price: "1 coin"}')
    _edit(pack / "game.yaml", "{ play c to bid }", "{ move c to bid; pay c.price }")
    assert _findings(pack) == [("HIDDEN002", "game.yaml", 23, "pay")]
    pack = tmp_path / "actions"
    shutil.copytree(_COST_CASE, pack)
    _edit(pack / "game.yaml", 'costs: ["1 coin"]}',
          'actions: [{cost: "1 coin", effect: "set self.bid = 1"}], mode: one}')
    _edit(pack / "game.yaml", "    per_player: true\n",
          '    per_player: true\n    attrs:\n      bid: {type: int, default: 0}\n')
    _edit(pack / "game.yaml", "{ play c to bid }", "{ move c to bid; activate c with 1 }")
    assert _findings(pack) == [("HIDDEN002", "game.yaml", 23, "activate")]
