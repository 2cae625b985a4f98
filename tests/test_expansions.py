"""Expansions and mods: dependencies, load order, one namespace across packs, patches and their history."""

from __future__ import annotations

import shutil
import textwrap
from pathlib import Path

import pytest

from engine.cli import main
from engine.compile.build import build_pack
from engine.compile.loading import load_pack
from engine.diagnostics import Diagnostic, PackError
from engine.packs.dependencies import parse_dependency
from engine.packs.files import load_pack_files
from engine.packs.raw import RawPack
from engine.packs.versions import parse_constraint
from engine.runtime.interpreter import Game

MINIMAL = Path(__file__).resolve().parent / "fixtures" / "packs" / "minimal"
BASE, EXPANSION = "raising-robots", "raising-robots-expansion"
NEW_ROBOTS = ("quibble", "sketch", "marquee", "lathe", "cog", "tack", "mulch", "dynamo", "scrounge")


def make_pack(folder: Path, manifest: str, **files: str) -> Path:
    """A pack folder: pack.yaml from `manifest` (id/name/version/engine/players added when absent)."""
    folder.mkdir(parents=True, exist_ok=True)
    head = {"name": "X", "version": "0.1.0", "engine": '">=0.1"', "players": "{min: 2, max: 2}"}
    text = textwrap.dedent(manifest)
    text += "".join(f"{k}: {v}\n" for k, v in head.items() if f"{k}:" not in text)
    (folder / "pack.yaml").write_text(text)
    for name, body in files.items():
        (folder / f"{name}.yaml").write_text(textwrap.dedent(body))
    return folder


@pytest.fixture
def packs(tmp_path: Path) -> Path:
    """A folder holding a copy of the generic minimal pack, for expansions to sit next to."""
    shutil.copytree(MINIMAL, tmp_path / "minimal")
    return tmp_path


def extend(packs: Path, name: str = "ext", deps: str = "[minimal]", **files: str) -> Path:
    return make_pack(packs / name, f"id: {name}\ndependencies: {deps}\n", **files)


def errors(root: Path) -> list[Diagnostic]:
    with pytest.raises(PackError) as caught:
        load_pack_files(root)
    return caught.value.diagnostics


def codes(root: Path) -> list[str]:
    return [d.code for d in errors(root)]


def at(diag: Diagnostic) -> tuple[str, str, int, int]:
    return diag.code, diag.file, diag.line, diag.col


# --- the shipped example expansion ---------------------------------------------------------

@pytest.fixture(scope="module")
def expansion() -> RawPack:
    return load_pack_files(Path(__file__).resolve().parent.parent / "content" / EXPANSION)


def test_expansion_loads_after_its_dependency(expansion: RawPack) -> None:
    assert expansion.packs == [BASE, EXPANSION]
    assert expansion.manifest["id"] == EXPANSION and expansion.warnings == []
    assert expansion.flow is not None and expansion.flow.pack == BASE      # the base game's flow and scoring
    assert expansion.components["quibble"].pack == EXPANSION and expansion.components["nugget"].pack == BASE


def test_expansion_cards_are_in_the_decks(expansion: RawPack) -> None:
    game = Game(build_pack(expansion), 2, 1)
    deck = [item.comp.id for item in game.state.zone("robot_deck", None).items]
    base_deck = [item.comp.id for item in Game(load_pack(BASE), 2, 1).state.zone("robot_deck", None).items]
    assert len(NEW_ROBOTS) >= 8 and all(deck.count(robot) == 2 for robot in NEW_ROBOTS)
    assert len(deck) == len(base_deck) + 2 * len(NEW_ROBOTS)
    assert not set(NEW_ROBOTS) & set(base_deck)
    assert "reliability_engineering" in [i.comp.id for i in game.state.zone("class_deck", None).items]
    assert "bea_bellows" in [i.comp.id for i in game.state.zone("inventor_deck", None).items]


def test_patched_base_card_changes_only_with_the_expansion(expansion: RawPack) -> None:
    assert build_pack(expansion).components["clank"].values["vp"] == 1
    assert load_pack(BASE).components["clank"].values["vp"] == 0          # the base pack is untouched
    chain = expansion.history["clank"]
    assert chain[0].startswith(f"defined in {BASE} ({BASE}/robots.yaml:")
    assert chain[1].startswith(f"replaced vp by {EXPANSION} ({EXPANSION}/patches.yaml:")
    assert chain[2].startswith(f"replaced text by {EXPANSION}")
    assert list(expansion.history) == ["clank"]


def test_expansion_plays_and_content_lints_clean(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", EXPANSION, "--players", "3", "-q"]) == 0
    assert "Winner" in capsys.readouterr().out
    assert main(["lint", "--strict", str(Path(__file__).resolve().parent.parent / "content")]) == 0


# --- versions and dependency strings -------------------------------------------------------

@pytest.mark.parametrize(("text", "version", "allowed"), [
    (">=0.1,<1.0", "0.1.0", True), (">=0.1 <1.0", "0.9.9", True), (">=0.1 <1.0", "1.0.0", False),
    ("==0.2", "0.2.0", True), ("!=0.2", "0.2.0", False), (">1", "1.0.1", True), ("<=1.2.3", "1.2.4", False),
    ("~=1.2", "1.9.0", True), ("~=1.2", "2.0.0", False), ("~=1.2.3", "1.2.9", True), ("~=1.2.3", "1.3.0", False),
    ("", "7.0.0", True), (">=0.1", "0.2.0-beta+5", True), (">=0.1", "not a version", False),
])
def test_constraints(text: str, version: str, allowed: bool) -> None:
    constraint = parse_constraint(text)
    assert constraint is not None and constraint.allows(version) is allowed


def test_malformed_constraints() -> None:
    assert parse_constraint(">= x") is None and parse_constraint("1.0") is None


@pytest.mark.parametrize(("entry", "expected"), [
    ("base", ("base", "required", "")), ("? extra-tiles >=1.2", ("extra-tiles", "optional", ">=1.2")),
    ("! rival >=2 <3", ("rival", "incompatible", ">=2 <3")), ("base>=0.1,<1.0", ("base", "required", ">=0.1,<1.0")),
    ({"id": "base", "version": ">=0.1", "kind": "optional"}, ("base", "optional", ">=0.1")),
])
def test_dependency_forms(entry: object, expected: tuple[str, str, str]) -> None:
    dep = parse_dependency(entry, 0)
    assert dep is not None and (dep.id, dep.kind, dep.version.text) == expected


def test_dependency_schema_errors_are_positioned(packs: Path) -> None:
    root = make_pack(packs / "ext", "id: ext\ndependencies:\n  - 'minimal >= one'\n  - {id: minimal, kind: requried}\n")
    found = errors(root)
    assert [(d.code, d.line, d.col) for d in found] == [("SCH004", 3, 5), ("SCH004", 4, 25)]
    assert found[0].message == "'minimal >= one' is not a valid dependency string"
    assert found[1].hint == "did you mean 'required'?"


# --- finding dependencies and the load order -----------------------------------------------

def test_string_dependency_and_sibling_folder(packs: Path) -> None:
    raw = load_pack_files(extend(packs, deps='["minimal >=0.1 <1.0"]'))
    assert raw.packs == ["minimal", "ext"] and raw.flow is not None and raw.flow.pack == "minimal"
    assert [f.display for f in raw.files] == ["minimal/pack.yaml", "minimal/game.yaml", "ext/pack.yaml"]


def test_missing_dependency(packs: Path) -> None:
    [diag] = errors(extend(packs, deps="[minimal, minimla-extra]"))
    assert at(diag) == ("PACK005", "ext/pack.yaml", 2, 25) and "'minimla-extra' not found" in diag.message


def test_dependency_version_and_engine(packs: Path) -> None:
    found = errors(make_pack(packs / "ext", 'id: ext\nengine: ">=9.0"\ndependencies: ["minimal >=0.2"]\n'))
    assert [(d.code, d.line) for d in found] == [("PACK004", 2), ("PACK006", 3)]
    assert "needs engine >=9.0; this is cogwork" in found[0].message
    assert "needs 'minimal' >=0.2; found version 0.1.0" in found[1].message


def test_incompatible_pack(packs: Path) -> None:
    extend(packs, "rival")
    root = make_pack(packs / "bundle", "id: bundle\ndependencies: [rival, ext]\n")
    extend(packs, "ext", deps="[minimal, '! rival']")
    assert codes(root) == ["PACK007"]
    extend(packs, "ext", deps="[minimal, '! rival >=2']")         # only other versions are incompatible
    assert load_pack_files(root).packs == ["minimal", "ext", "rival", "bundle"]


def test_cycle(packs: Path) -> None:
    extend(packs, "a-pack", deps="[b-pack]")
    extend(packs, "b-pack", deps="[a-pack]")
    [diag] = errors(packs / "a-pack")
    assert diag.code == "PACK008" and diag.message == "dependency cycle: a-pack → b-pack → a-pack"


def test_load_order_is_dependencies_first_then_id(packs: Path) -> None:
    extend(packs, "zeta")
    extend(packs, "alpha", deps="[minimal, '? zeta']")              # optional: ordered after zeta when loaded
    extend(packs, "beta")
    bundle = make_pack(packs / "bundle", "id: bundle\ndependencies: [zeta, beta, alpha]\n")
    assert load_pack_files(bundle).packs == ["minimal", "beta", "zeta", "alpha", "bundle"]
    assert load_pack_files(packs / "alpha").packs == ["minimal", "alpha"]      # optional and absent: fine


def test_dependency_options_join_the_namespace(packs: Path) -> None:
    (packs / "minimal" / "pack.yaml").write_text((packs / "minimal" / "pack.yaml").read_text()
                                                 + "options:\n  fast: {description: Shorter game}\n")
    pack = build_pack(load_pack_files(extend(packs)))
    assert list(pack.options) == ["fast"]


# --- one namespace -------------------------------------------------------------------------

def test_redefining_another_packs_id_is_dup004(packs: Path) -> None:
    found = errors(extend(packs, cards="""\
        counters:
          coin: {name: Coin}
        components:
          card:
            - {id: high, name: High}
        flow:
          - {id: again, do: "gain 1 coin"}
        """))
    assert [at(d) for d in found] == [("DUP004", "ext/cards.yaml", 2, 3), ("DUP004", "ext/cards.yaml", 5, 12),
                                      ("DUP004", "ext/cards.yaml", 6, 1)]
    assert found[0].message == "'coin' is already defined by pack 'minimal' at minimal/game.yaml:6:3"
    assert "target: counters/coin" in (found[0].hint or "") and "target: card/high" in (found[1].hint or "")
    assert "target: flow" in (found[2].hint or "")


def test_same_pack_duplicates_keep_their_codes(packs: Path) -> None:
    root = extend(packs, a="counters:\n  gem: {name: Gem}\n", b="counters:\n  gem: {name: Gem}\n")
    assert codes(root) == ["DUP001"]


# --- patches -------------------------------------------------------------------------------

def patched(packs: Path, patches: str, **files: str) -> RawPack:
    return load_pack_files(extend(packs, patches=f"patches:\n{textwrap.indent(textwrap.dedent(patches), '  ')}",
                                  **files))


def test_replace_add_remove_merge(packs: Path) -> None:
    raw = patched(packs, """\
        - {op: replace, target: card/low, path: points, value: 2}
        - {op: add, target: card/low, path: text, value: "Worth 2 now."}
        - {op: add, target: card/low, path: costs, value: "1 star"}
        - {op: remove, target: minimal.high}
        - {op: merge, target: zones/hand, value: {capacity: 5, name: Cards in hand}}
        - {op: add, target: flow, path: rounds/steps/-, value: {id: bonus, do: "gain 1 star"}}
        - {op: add, target: flow, path: rounds/steps/turns, value: {id: warmup, do: "gain 1 coin"}}
        - {op: replace, target: procedures/income, value: "gain 2 coin"}
        - {op: replace, target: scoring, path: score, value: "star"}
        """)
    low = raw.components["low"].data
    assert (low["points"], low["text"], list(low["costs"])) == (2, "Worth 2 now.", ["1 coin", "1 star"])
    assert "high" not in raw.components and (raw.zones["hand"].data["capacity"], raw.zones["hand"].data["name"]) == (
        5, "Cards in hand")
    assert [s["id"] for s in raw.flow.data[1]["steps"]] == ["warmup", "turns", "bonus"]
    assert raw.procedures["income"].data == "gain 2 coin" and raw.scoring.data["score"] == "star"
    pack = build_pack(raw)
    assert [i.comp.id for i in Game(pack, 2, 1).state.zone("deck", None).items] == ["low"] * 4
    assert raw.history["high"][-1].startswith("removed the whole definition by ext (ext/patches.yaml:5:5)")
    assert raw.history["flow"][0].startswith("defined in minimal (minimal/game.yaml:")
    assert raw.warnings == []
    fresh = load_pack_files(packs / "minimal")                          # the dependency's own data is untouched
    assert fresh.components["low"].data["points"] == 1 and "high" in fresh.components


def test_patch_that_matches_nothing(packs: Path) -> None:
    root = extend(packs, patches="""\
        patches:
          - {op: replace, target: card/lwo, path: points, value: 2}
          - {op: replace, target: card/low, path: pionts, value: 2}
          - {op: replace, target: flow, path: rounds/steps/turnz, value: {id: x, do: "stop"}}
          - {op: replace, target: zones/low, path: points, value: 2}
          - {op: replace, target: card/ext.low, path: points, value: 2}
          - {op: replace, target: card/nothing, value: {}, optional: true}
          - {op: remove, target: card/low, path: missing, optional: true}
        """)
    found = errors(root)
    assert [(d.code, d.line) for d in found] == [("PATCH001", 2), ("PATCH002", 3), ("PATCH002", 4),
                                                 ("PATCH001", 5), ("PATCH001", 6)]
    assert found[0].message == "patch target 'card/lwo' matches no definition"
    assert found[0].hint == "did you mean 'low'?"
    assert found[1].message == "path 'pionts' in card/low: no key 'pionts'"
    assert found[1].hint == "did you mean 'points'?"
    assert found[2].hint == "did you mean 'turns'?" and (found[1].line, found[1].col) == (3, 43)
    assert found[3].message == "patch target 'zones/low' is a card, not in zones"
    assert found[4].message == "patch target 'card/ext.low' is defined by pack 'minimal', not 'ext'"


def test_patch_that_does_not_fit(packs: Path) -> None:
    root = extend(packs, patches="""\
        patches:
          - {op: add, target: card/low, path: points, value: 2}
          - {op: replace, target: card/low, path: points}
          - {op: merge, target: card/low, path: points, value: {a: 1}}
          - {op: replace, target: card/low, path: id, value: lower}
          - {op: replace, target: card/low, path: copies, value: many}
          - {op: add, target: card/low, value: {a: 1}}
        """)
    found = errors(root)
    assert [(d.code, d.line) for d in found] == [("PATCH003", 2), ("PATCH003", 3), ("PATCH003", 4),
                                                 ("PATCH003", 5), ("SCH003", 6), ("PATCH003", 7)]
    assert found[0].message == "'points' already exists: use replace or merge to change it"
    assert found[1].message == "'replace' needs a `value`"
    assert found[3].message == "a patch cannot change the id of 'low'"
    assert found[4].message == "after this patch, card/low is invalid: expected an integer, got string 'many'"


def test_removed_target_says_who_removed_it(packs: Path) -> None:
    extend(packs, "cut", patches="patches:\n  - {op: remove, target: card/high}\n")
    extend(packs, "tweak", deps="[cut]",
           patches="patches:\n  - {op: replace, target: card/high, path: points, value: 9}\n")
    [diag] = errors(packs / "tweak")
    assert diag.code == "PATCH001" and diag.hint == "it was removed by 'cut' at cut/patches.yaml:2:5"


def two_mods(packs: Path, first: str, second: str, deps: str = "[minimal]") -> RawPack:
    extend(packs, "mod-a", patches=f"patches:\n  - {first}\n")
    extend(packs, "mod-b", deps=deps, patches=f"patches:\n  - {second}\n")
    bundle = make_pack(packs / "bundle", "id: bundle\ndependencies: [mod-b, mod-a]\n")
    return load_pack_files(bundle)


def test_two_packs_changing_one_field_is_a_warning(packs: Path) -> None:
    raw = two_mods(packs, "{op: replace, target: card/low, path: points, value: 2}",
                   "{op: merge, target: card/low, value: {points: 3}}")
    [warning] = raw.warnings
    assert at(warning) == ("PATCH004", "mod-b/patches.yaml", 2, 25) and warning.severity == "warning"
    assert warning.message == ("'mod-b' and 'mod-a' (mod-a/patches.yaml:2:5) both change card/low points, and neither "
                               "depends on the other")
    assert raw.components["low"].data["points"] == 3                   # mod-b loads last (by id)
    assert [line.split(" (")[0] for line in raw.history["low"]] == ["defined in minimal", "replaced points by mod-a",
                                                                    "merged the whole definition by mod-b"]


def test_no_warning_when_ordered_or_additive(packs: Path) -> None:
    ordered = two_mods(packs, "{op: replace, target: card/low, path: points, value: 2}",
                       "{op: replace, target: card/low, path: points, value: 3}", deps="[minimal, '? mod-a']")
    assert ordered.warnings == [] and ordered.components["low"].data["points"] == 3
    appended = two_mods(packs, "{op: add, target: card/low, path: costs, value: '1 star'}",
                        "{op: add, target: card/low, path: costs, value: '2 star'}")
    assert appended.warnings == [] and list(appended.components["low"].data["costs"]) == ["1 coin", "1 star", "2 star"]
    apart = two_mods(packs, "{op: replace, target: card/low, path: points, value: 2}",
                     "{op: replace, target: card/low, path: name, value: Lo}")
    assert apart.warnings == []


def test_triggers_are_patched_by_id(packs: Path) -> None:
    extend(packs, "ext", rules="""\
        triggers:
          - {id: bonus, on: paid, effect: 'gain 1 star'}
          - {on: paid, effect: 'gain 1 coin'}
        """)
    mod = extend(packs, "mod", deps="[ext]", patches="""\
        patches:
          - {op: replace, target: triggers/bonus, path: effect, value: "gain 2 star"}
          - {op: add, target: triggers/trigger_2, path: optional, value: true}
        """)
    raw = load_pack_files(mod)
    assert [(t.id, t.data.get("effect"), t.data.get("optional")) for t in raw.triggers] == [
        ("bonus", "gain 2 star", None), ("trigger_2", "gain 1 coin", True)]
    assert list(raw.history) == ["triggers/bonus", "triggers/trigger_2"]
    build_pack(raw)
