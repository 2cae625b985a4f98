"""`cogwork play` on broken input: exit 2, a positioned `file:line:col: error: ... [CODE]`, never a traceback.

Each case copies the tiny generic pack in tests/fixtures/packs/minimal into tmp_path, breaks one
thing by replacing a unique snippet, and runs the real command line. The expected position is
that of a marker in the broken text (the offending key, value or DSL token), so the tests check
the exact line and column without hard-coding fixture line numbers.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from engine.cli import main

REPO = Path(__file__).resolve().parent.parent
FIXTURE = Path(__file__).resolve().parent / "fixtures" / "packs" / "minimal"
PACK = "minimal"            # the copy's folder name: diagnostics name files `minimal/game.yaml`

# `file:LINE:COL: error: message [CODE]` (Diagnostic.format); a hint follows on its own line.
DIAG = re.compile(r"^(?P<file>\S[^:]*):(?P<line>\d+):(?P<col>\d+): error: (?P<message>.+) \[(?P<code>[A-Z]+\d{3})\]$",
                  re.MULTILINE)


@dataclass(frozen=True)
class Found:
    file: str
    line: int
    col: int
    message: str
    code: str


def diagnostics(text: str) -> list[Found]:
    return [Found(m["file"], int(m["line"]), int(m["col"]), m["message"], m["code"]) for m in DIAG.finditer(text)]


def copy_pack(tmp_path: Path, file: str = "game.yaml", *replacements: tuple[str, str]) -> Path:
    """A copy of the minimal pack with each `old` snippet (which must occur once) replaced by `new`."""
    pack = tmp_path / PACK
    shutil.copytree(FIXTURE, pack)
    path = pack / file
    text = path.read_text(encoding="utf-8")
    for old, new in replacements:
        assert text.count(old) == 1, f"fixture snippet {old!r} must occur exactly once in {file}"
        text = text.replace(old, new)
    path.write_text(text, encoding="utf-8")
    return pack


def position(pack: Path, file: str, marker: str, skip: int = 0) -> tuple[int, int]:
    """1-based (line, col) of character `skip` of `marker`, which must occur once in the file."""
    text = (pack / file).read_text(encoding="utf-8")
    assert text.count(marker) == 1, f"marker {marker!r} must occur exactly once in {file}"
    offset = text.index(marker) + skip
    line = text.count("\n", 0, offset) + 1
    col = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return line, col


def play(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["play", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def play_pack(capsys: pytest.CaptureFixture[str], pack: Path, *extra: str) -> tuple[int, str, str]:
    return play(capsys, str(pack), "--players", "2", "-q", *extra)


def assert_no_traceback(*texts: str) -> None:
    for text in texts:
        assert "Traceback" not in text
        assert 'File "' not in text


# --- one broken thing per case: (file, replacements, marker, skip, code, message part, hint part) --------------

@dataclass(frozen=True)
class Case:
    file: str
    replacements: tuple[tuple[str, str], ...]
    marker: str            # the offending key / value / token in the broken text
    skip: int              # ... at this character of the marker
    code: str
    message: str           # part of the message
    hint: str | None = None


CASES = {
    # YAML that does not parse: the second ':' on the line
    "yaml_mapping_in_plain_value": Case(
        "game.yaml", (("  star: {name: Star}", "  star: name: Star"),), "star: name: Star", 10,
        "YAML001", "mapping values are not allowed here", "quote a value"),
    # an unclosed flow mapping: reported where the parser notices (the next key's ':'), naming the '{'
    "yaml_unclosed_flow_mapping": Case(
        "game.yaml", (("  star: {name: Star}", "  star: {name: Star"),), "  round:", 7,
        "YAML001", "while parsing a flow mapping at line"),
    # schema: unknown key in a counter, with a did-you-mean
    "schema_unknown_counter_key": Case(
        "game.yaml", (("  star: {name: Star}", "  star: {name: Star, intial: 2}"),), "intial", 0,
        "SCH001", "unknown key 'intial'", "did you mean 'initial'?"),
    # schema: wrong type of a counter value
    "schema_wrong_type": Case(
        "game.yaml", (("initial: 1}", 'initial: "lots"}'),), '"lots"', 0,
        "SCH003", "expected an integer, got string 'lots'"),
    # schema: the manifest's version must be text
    "schema_manifest_version_type": Case(
        "pack.yaml", (("version: 0.1.0", "version: 1"),), "version: 1", 9,
        "SCH003", "expected a string, got integer 1", "quotes"),
    # DSL syntax error inside a procedure's literal block scalar (`turn: |`), third line of the block
    "dsl_syntax_in_procedure_block": Case(
        "game.yaml", (("draw 1 from deck", "draw 1 form deck"),), "form deck", 0,
        "DSL001", "unexpected 'form'", "'from'"),
    # DSL syntax error inside a flow step's `do: |` block scalar
    "dsl_syntax_in_flow_do_block": Case(
        "game.yaml", (("gain 2 star\n", "gain 2 star star\n"),), "star star", 5,
        "DSL001", "unexpected 'star'"),
    # the same inside a folded `do: >` block scalar
    "dsl_syntax_in_folded_block": Case(
        "game.yaml", (("do: |\n          may", "do: >\n          may"), ("gain 2 star\n", "gain 2 star star\n")),
        "star star", 5, "DSL001", "unexpected 'star'"),
    # DSL: an unknown counter, with a did-you-mean
    "dsl_unknown_counter": Case(
        "game.yaml", (('"gain 1 coin"', '"gain 1 cion"'),), "cion", 0,
        "REF001", "unknown counter or wildcard 'cion'", "did you mean 'coin'?"),
    # DSL: an unknown zone name inside a block scalar
    "dsl_unknown_zone": Case(
        "game.yaml", (("deck to hand", "deck to hnad"),), "hnad", 0,
        "REF001", "unknown name 'hnad'", "did you mean 'hand'?"),
    # DSL: an unknown procedure
    "dsl_unknown_procedure": Case(
        "game.yaml", (('do: "call turn"', 'do: "call trun"'),), "trun", 0,
        "REF001", "unknown procedure 'trun'", "did you mean 'turn'?"),
    # a component type's zone that does not exist
    "unknown_zone_of_component_type": Case(
        "game.yaml", (("    zone: deck", "    zone: dekc"),), "dekc", 0,
        "REF001", "unknown zone 'dekc'", "did you mean 'deck'?"),
    # a zone's refill_from that does not exist
    "unknown_zone_in_refill_from": Case(
        "game.yaml", (("refill_from: discard", "refill_from: discrad"),), "discrad", 0,
        "REF001", "unknown zone 'discrad'", "did you mean 'discard'?"),
    # a shared (not per_player) component type whose zone belongs to each player
    "shared_type_in_per_player_zone": Case(
        "game.yaml", (("    zone: deck", "    zone: hand"),), "hand\n    attrs", 0,
        "TYPE002", "'card' is not per_player but its zone 'hand' belongs to each player"),
    # a component attribute the type does not declare
    "unknown_component_attribute": Case(
        "game.yaml", (("copies: 4, points: 1", "copies: 4, pionts: 1"),), "pionts", 0,
        "ATTR001", "'card' has no attribute 'pionts'", "did you mean 'points'?"),
    # a declared int attribute given text
    "component_attribute_type": Case(
        "game.yaml", (("copies: 3, points: 3", "copies: 3, points: three"),), "three", 0,
        "ATTR002", "'points' must be of type int"),
    # a flow repeat counting with an unknown counter
    "unknown_repeat_counter": Case(
        "game.yaml", (("counter: round}", "counter: rounds}"),), "rounds}", 0,
        "REF001", "unknown counter 'rounds'"),
    # a cost naming an unknown counter
    "unknown_cost_counter": Case(
        "game.yaml", (('costs: ["2 coin"]', 'costs: ["2 coins"]'),), "coins", 0,
        "REF001", "unknown counter or wildcard 'coins'", "did you mean 'coin'?"),
    # the same id defined twice (a zone named like a counter)
    "duplicate_id": Case(
        "game.yaml", (("  table: {name: Table}", "  table: {name: Table}\n  star: {name: Star zone}"),),
        "star: {name: Star zone}", 0, "DUP001", "'star' is already defined at minimal/game.yaml:"),
}

COMPONENT_TYPE_CASE = Case(
    "game.yaml", (("components:\n  card:", "components:\n  crad:"),), "crad:", 0,
    "REF001", "unknown component type 'crad'", "did you mean 'card'?")


@pytest.fixture(autouse=True)
def own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Each test gets an empty load cache of its own (engine/packs/cache.py), so a second run hits it."""
    folder = tmp_path / "cache"
    monkeypatch.delenv("COGWORK_NO_CACHE", raising=False)
    monkeypatch.setenv("COGWORK_CACHE_DIR", str(folder))
    return folder


def check_case(case: Case, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pack = copy_pack(tmp_path, case.file, *case.replacements)
    code, out, err = play_pack(capsys, pack)
    assert play_pack(capsys, pack) == (code, out, err), "a second run (from the load cache) must say the same"
    assert_no_traceback(out, err)
    assert code == 2, err
    assert "Winner" not in out
    line, col = position(pack, case.file, case.marker, case.skip)
    found = diagnostics(err)
    assert found, f"no `file:line:col: error: ... [CODE]` line in:\n{err}"
    assert found == [Found(f"{PACK}/{case.file}", line, col, found[0].message, case.code)], err
    assert case.message in found[0].message
    if case.hint is not None:
        assert re.search(r"^  hint: .*" + re.escape(case.hint), err, re.MULTILINE), err


@pytest.mark.parametrize("name", list(CASES))
def test_broken_pack_is_one_positioned_error(name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    check_case(CASES[name], tmp_path, capsys)


def test_unknown_component_type_points_at_the_type_key_once(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    check_case(COMPONENT_TYPE_CASE, tmp_path, capsys)


def test_unknown_component_type_is_still_a_clean_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pack = copy_pack(tmp_path, "game.yaml", *COMPONENT_TYPE_CASE.replacements)
    code, out, err = play_pack(capsys, pack)
    assert_no_traceback(out, err)
    assert code == 2
    found = diagnostics(err)
    assert found and {d.code for d in found} == {"REF001"}
    assert all(d.file == f"{PACK}/game.yaml" and "unknown component type 'crad'" in d.message for d in found)
    assert "did you mean 'card'?" in err


def test_the_fixture_itself_plays(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = play_pack(capsys, copy_pack(tmp_path))
    assert (code, err) == (0, "")
    assert "Winner" in out


def test_every_problem_of_every_file_is_reported(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """One run lists the YAML error of one file and the schema errors of others, in file order."""
    pack = copy_pack(tmp_path, "game.yaml", ("  star: {name: Star}", "  star: {name: Star, intial: 2}"))
    (pack / "extra.yaml").write_text("zones:\n  shelf: {name: Shelf\n  box: {}\n", encoding="utf-8")
    manifest = pack / "pack.yaml"
    text = manifest.read_text(encoding="utf-8")
    manifest.write_text(text.replace("name: Minimal", "name: Minimal\ndescripton: tiny"), encoding="utf-8")
    code, out, err = play_pack(capsys, pack)
    assert_no_traceback(out, err)
    assert code == 2
    found = diagnostics(err)
    assert {(d.file, d.code) for d in found} == {
        (f"{PACK}/extra.yaml", "YAML001"), (f"{PACK}/game.yaml", "SCH001"), (f"{PACK}/pack.yaml", "SCH001")}
    assert Found(f"{PACK}/pack.yaml", *position(pack, "pack.yaml", "descripton"), "unknown key 'descripton'",
                 "SCH001") in found


# --- the runtime: a rule that cannot be carried out ----------------------------------------------------------------

def test_runtime_rule_error_is_positioned(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A procedure that divides by zero when run: RUN001 at the procedure's DSL text, exit 2."""
    pack = copy_pack(tmp_path, "game.yaml",
                     ('"gain 1 coin"', '"gain (1 / star) coin"'), ('do: "call turn"', 'do: "call income"'))
    code, out, err = play_pack(capsys, pack)
    assert_no_traceback(out, err)
    assert code == 2
    assert "Winner" not in out
    line, col = position(pack, "game.yaml", "gain (1 / star) coin")
    assert diagnostics(err) == [Found(f"{PACK}/game.yaml", line, col, "division by zero", "RUN001")], err


def test_runtime_error_in_scoring_is_positioned(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pack = copy_pack(tmp_path, "game.yaml", ('score: "star + ', 'score: "star / star + '))
    code, out, err = play_pack(capsys, pack)
    assert_no_traceback(out, err)
    assert code == 2
    line, col = position(pack, "game.yaml", "star / star")
    assert diagnostics(err) == [Found(f"{PACK}/game.yaml", line, col, "division by zero", "RUN001")], err


# --- command-line mistakes ------------------------------------------------------------------------------------------

def test_unknown_pack_name_suggests_the_built_in(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = play(capsys, "raising-robot", "--players", "2", "-q")
    assert_no_traceback(out, err)
    assert code == 2
    [found] = diagnostics(err)
    assert found.code == "PACK001" and "'raising-robot'" in found.message
    assert "hint: did you mean 'raising-robots'?" in err


def test_folder_without_manifest(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    code, out, err = play(capsys, str(empty), "-q")
    assert_no_traceback(out, err)
    assert code == 2
    [found] = diagnostics(err)
    assert found.code == "PACK001" and "pack.yaml" in found.message


@pytest.mark.parametrize(("pack", "players", "allowed"), [("fixture", "3", ("2",)),
                                                          ("raising-robots", "7", ("1", "6"))])
def test_too_many_players(pack: str, players: str, allowed: tuple[str, ...], tmp_path: Path,
                          capsys: pytest.CaptureFixture[str]) -> None:
    spec = str(copy_pack(tmp_path)) if pack == "fixture" else pack
    code, out, err = play(capsys, spec, "--players", players, "-q")
    assert_no_traceback(out, err)
    assert code == 2
    assert "Winner" not in out
    message = err.strip()
    assert len(message.splitlines()) == 1
    assert f"not {players}" in message and "players" in message
    assert all(re.search(rf"\b{n}\b", message) for n in allowed), message


def test_zero_players_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Not taken as 'not given' (the pack's minimum)."""
    code, out, err = play(capsys, str(copy_pack(tmp_path)), "--players", "0", "-q")
    assert_no_traceback(out, err)
    assert code == 2
    assert "Winner" not in out
    assert "not 0" in err


def test_play_without_a_pack(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = play(capsys, "-q")
    assert_no_traceback(out, err)
    assert code == 2
    assert err.startswith("cogwork: error:") and "PACK" in err


def test_resume_from_a_missing_or_broken_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = play(capsys, "--resume", str(tmp_path / "nope.json"))
    assert_no_traceback(out, err)
    missing = tmp_path / "nope.json"
    assert code == 2 and err == f"{missing}:1:1: error: cannot read log: No such file or directory [LOG001]\n"
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    code, out, err = play(capsys, "--resume", str(bad))
    assert_no_traceback(out, err)
    assert code == 2 and err.startswith(f"{bad}:1:2: error: not valid JSON:") and err.rstrip().endswith("[LOG001]")


def test_resume_with_an_illegal_label(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "game.json"
    assert play(capsys, "raising-robots", "--players", "2", "--stop-after", "5", "--log", str(log), "-q")[0] == 0
    data = json.loads(log.read_text(encoding="utf-8"))
    data["decisions"][2]["label"] = "no such option"
    log.write_text(json.dumps(data), encoding="utf-8")
    code, out, err = play(capsys, "--resume", str(log), "-q")
    assert_no_traceback(out, err)
    assert code == 2
    assert "'no such option' is not a legal option" in err


def test_stop_after_without_log_does_not_suggest_resume_none(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = play(capsys, str(copy_pack(tmp_path)), "--stop-after", "1", "-q")
    assert code == 0
    assert "stopped after 1 " in out
    assert "--resume None" not in out + err
    assert "--log" in out


def test_human_seat_with_closed_stdin_has_no_traceback(tmp_path: Path) -> None:
    pack = copy_pack(tmp_path)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"} | {"PYTHONPATH": str(REPO)}
    script = "import sys; from engine.cli import main; sys.exit(main(sys.argv[1:]))"
    proc = subprocess.run([sys.executable, "-c", script, "play", str(pack), "--players", "2", "--human", "1", "-q"],
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60, cwd=tmp_path, env=env)
    assert "Traceback" not in proc.stderr
    assert proc.returncode == 2
    assert proc.stderr.startswith("cogwork: error:")


def test_resume_from_a_log_of_the_wrong_shape(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "game.json"
    log.write_text('{"format": 1, "pack": "robot-factory",\n "players": "2", "seed": 7, "decisions": []}\n',
                   encoding="utf-8")
    code, out, err = play(capsys, "--resume", str(log))
    assert_no_traceback(out, err)
    assert code == 2 and err.startswith(f"{log}:2:13: error: ") and "[SCH" in err
    log.write_text('{"format": 1, "pack": "robot-factory", "players": 2, "seed": 7.0, "decisions": []}',
                   encoding="utf-8")
    code, out, err = play(capsys, "--resume", str(log))
    assert code == 2 and err == f"{log}:1:62: error: 'seed' must be a whole number, not 7.0 [LOG002]\n"


def test_unknown_option_names_are_errors(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 9: `--option turbo` was accepted and ignored (a different game than asked for)."""
    for command in (["play", "raising-robots", "--players", "2", "--quiet", "--stop-after", "0"],
                    ["simulate", "raising-robots", "--games", "1"]):
        assert main([*command, "--option", "bidings"]) == 2
        err = capsys.readouterr().err
        assert "no such option" in err and "did you mean 'bidding'?" in err and "Traceback" not in err
