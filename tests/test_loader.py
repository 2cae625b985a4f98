"""The content-loading front end: every problem is a positioned Diagnostic, never a traceback."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from jsonschema import Draft7Validator

from engine.diagnostics import Diagnostic, PackError, did_you_mean
from engine.packs import files as pack_files
from engine.packs import schema_check
from engine.packs.files import find_pack, load_pack_files
from engine.packs.schema_check import validate
from engine.packs.source import MAX_FILE_BYTES, SourceFile, load_yaml
from engine.resources import data_dir

FIXTURES = Path(__file__).parent / "fixtures" / "loader"
PACKS = FIXTURES / "packs"


def where(diagnostics: list[Diagnostic]) -> list[tuple[str, int, int]]:
    return [(d.code, d.line, d.col) for d in diagnostics]


def load_error(path: Path) -> list[Diagnostic]:
    with pytest.raises(PackError) as caught:
        load_yaml(path, path.name)
    return caught.value.diagnostics


def pack_error(root: Path) -> list[Diagnostic]:
    with pytest.raises(PackError) as caught:
        load_pack_files(root)
    return caught.value.diagnostics


# --- diagnostics ---------------------------------------------------------------------------

def test_format_and_pack_error_text() -> None:
    plain = Diagnostic("SCH003", "expected an integer", "p/a.yaml", 3, 7)
    hinted = Diagnostic("SCH001", "unknown key 'nmae'", "p/a.yaml", 4, 5, hint="did you mean 'name'?")
    assert plain.format() == "p/a.yaml:3:7: error: expected an integer [SCH003]"
    assert hinted.format() == "p/a.yaml:4:5: error: unknown key 'nmae' [SCH001]\n  hint: did you mean 'name'?"
    assert str(PackError([plain, hinted])) == plain.format() + "\n" + hinted.format()


def test_did_you_mean() -> None:
    assert did_you_mean("gaer", ["gear", "vp"]) == "did you mean 'gear'?"
    assert did_you_mean("GEAR", ["gear"]) == "did you mean 'gear'?"
    assert did_you_mean("zzz", ["gear", "vp"]) is None


# --- load_yaml -----------------------------------------------------------------------------

@pytest.mark.parametrize(("name", "expected"), [
    ("yaml001_syntax.yaml", [("YAML001", 2, 2)]),
    ("yaml001_bad_date.yaml", [("YAML001", 1, 7)]),
    ("yaml002_duplicate.yaml", [("YAML002", 4, 3)]),
    ("yaml004_empty.yaml", [("YAML004", 1, 1)]),
    ("yaml004_list.yaml", [("YAML004", 2, 1)]),
    ("yaml005_laughs.yaml", [("YAML005", 4, 4)]),
    ("yaml005_recursive.yaml", [("YAML005", 2, 9)]),
    ("yaml006_key.yaml", [("YAML006", 2, 3)]),
    ("yaml007_tag.yaml", [("YAML007", 2, 9)]),
])
def test_yaml_problems(name: str, expected: list[tuple[str, int, int]]) -> None:
    found = load_error(FIXTURES / name)
    assert where(found) == expected
    assert all(d.file == name for d in found)


def test_duplicate_key_names_the_first() -> None:
    [diag] = load_error(FIXTURES / "yaml002_duplicate.yaml")
    assert diag.message == "duplicate key 'c' (first at line 3, col 3)"


def test_too_large_file(tmp_path: Path) -> None:
    big = tmp_path / "big.yaml"
    big.write_text("a: " + "x" * MAX_FILE_BYTES)
    assert where(load_error(big)) == [("YAML003", 1, 1)]


def test_unreadable_file(tmp_path: Path) -> None:
    assert where(load_error(tmp_path / "missing.yaml")) == [("YAML008", 1, 1)]
    assert where(load_error(tmp_path)) == [("YAML008", 1, 1)]


def test_invalid_utf8(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_bytes(b"a: 1\nb: caf\xe9\n")
    assert where(load_error(bad)) == [("YAML001", 2, 7)]


def test_deep_nesting(tmp_path: Path) -> None:
    deep = tmp_path / "deep.yaml"
    deep.write_text("a: " + "[" * 150 + "]" * 150 + "\n")
    assert [d.code for d in load_error(deep)] == ["YAML005"]


def test_all_problems_of_a_file_are_reported(tmp_path: Path) -> None:
    both = tmp_path / "both.yaml"
    both.write_text("a: !custom 1\nb: 1\nb: 2\n")
    assert where(load_error(both)) == [("YAML007", 1, 4), ("YAML002", 3, 1)]


def test_mutated_input_never_raises_anything_else(tmp_path: Path) -> None:
    """Truncations and stray YAML punctuation anywhere: a clean load or a PackError."""
    text = (PACKS / "good" / "core.yaml").read_text()
    variants = [text[:i] for i in range(0, len(text), 5)]
    variants += [text[:i] + ch + text[i:] for i in range(0, len(text), 13) for ch in "[{:&*!|>'\"\t-%@`"]
    target = tmp_path / "fuzz.yaml"
    for variant in variants:
        target.write_text(variant)
        try:
            validate(load_yaml(target), "content.schema.json")
        except PackError as exc:
            assert exc.diagnostics


# --- positions -----------------------------------------------------------------------------

@pytest.fixture(scope="module")
def dsl_src() -> SourceFile:
    return load_yaml(FIXTURES / "dsl.yaml")


@pytest.mark.parametrize(("path", "offset", "expected"), [
    (("plain",), 5, (1, 13)),
    (("plain",), 18, (1, 19)),                  # the end: just after the last character
    (("single",), 5, (2, 16)),                  # after an escaped '' quote
    (("single",), 9, (2, 21)),
    (("double",), 5, (3, 16)),                  # after \"
    (("double",), 14, (3, 26)),                 # the \t escape itself
    (("double",), 15, (3, 28)),
    (("anchored",), 0, (4, 16)),                # past the &eff anchor
    (("literal",), 0, (6, 3)),
    (("literal",), 14, (7, 5)),                 # more-indented line keeps its extra spaces
    (("literal",), 28, (9, 3)),                 # after a blank line
    (("literal",), 33, (9, 7)),                 # the end, not past the final newline
    (("folded",), 12, (11, 15)),                # the folded line break
    (("folded",), 13, (12, 3)),
    (("folded",), 26, (14, 3)),
    (("multiline",), 13, (16, 3)),              # plain scalar continued on the next line
    (("nested", 0, "effect"), 5, (18, 19)),
])
def test_dsl_pos(dsl_src: SourceFile, path: tuple, offset: int, expected: tuple[int, int]) -> None:
    assert dsl_src.dsl_pos(path, offset) == expected


def test_dsl_pos_points_at_the_character(dsl_src: SourceFile) -> None:
    for key in ("plain", "single", "literal", "folded", "multiline"):
        value = dsl_src.data[key]
        for offset, ch in enumerate(value):
            line, col = dsl_src.dsl_pos((key,), offset)
            if ch not in " \n":
                assert dsl_src.lines[line - 1][col - 1] == ch, (key, offset)


def test_pos_and_key_pos(dsl_src: SourceFile) -> None:
    assert dsl_src.pos(()) == (1, 1)
    assert dsl_src.pos(("nested", 0, "effect")) == (18, 13)
    assert dsl_src.key_pos(("nested", 0, "effect")) == (18, 5)
    assert dsl_src.pos(("nested", 0, "effect", "deeper")) == (18, 13)   # too deep: deepest known
    assert dsl_src.pos(("nested", 5)) == (18, 3)                           # missing item: its list
    assert dsl_src.key_pos(("plain",)) == (1, 1)


def test_empty_value_points_at_its_key(tmp_path: Path) -> None:
    path = tmp_path / "empty.yaml"
    path.write_text("a:\nb: 1\n")
    assert load_yaml(path).pos(("a",)) == (1, 1)


def test_alias_points_at_its_use_and_anchored_booleans_are_booleans(tmp_path: Path) -> None:
    path = tmp_path / "alias.yaml"
    path.write_text("counters:\n  gear: {name: Gear, resource: &yes true, initial: *yes}\n")
    src = load_yaml(path)
    assert src.pos(("counters", "gear", "initial")) == (2, 43)     # its key, not the anchor
    assert where(validate(src, "content.schema.json")) == [("SCH003", 2, 43)]


def test_a_comment_ruamel_cannot_place_is_yaml001(tmp_path: Path) -> None:
    """ruamel.yaml (needed here for the alias) gives up on this comment; libyaml reads the same without it."""
    path = tmp_path / "c.yaml"
    path.write_text("b: #2\n     two\n  \nc: x\n")
    assert load_yaml(path).data == {"b": "two", "c": "x"}
    path.write_text("a: &x [1]\nb: #2\n     two\n  \nc: *x\n")
    assert where(load_error(path)) == [("YAML001", 2, 4)]


# --- schemas -------------------------------------------------------------------------------

def test_content_schema_diagnostics() -> None:
    src = load_yaml(FIXTURES / "schema_content.yaml", "schema_content.yaml")
    assert where(validate(src, "content.schema.json")) == [
        ("SCH003", 3, 31),      # initial: abc
        ("SCH001", 3, 36),      # nmae
        ("SCH004", 4, 3),       # Bad_Id is not snake_case
        ("SCH004", 6, 22),      # visibility: secret
        ("SCH002", 10, 11),     # attr without type
        ("SCH002", 15, 11),     # action without effect
        ("SCH005", 17, 5),      # step with no kind
        ("SCH005", 18, 5),      # step with two kinds
        ("SCH002", 22, 5),      # repeat without steps
        ("SCH003", 24, 9),      # if: 3
        ("SCH001", 26, 1),      # countres
    ]


def test_schema_messages_are_human() -> None:
    src = load_yaml(FIXTURES / "schema_content.yaml", "schema_content.yaml")
    by_line = {d.line: d for d in validate(src, "content.schema.json")}
    assert by_line[4].message == "invalid key: 'Bad_Id' is not a valid snake_case id"
    assert by_line[6].hint is None and "got string 'secret'" in by_line[6].message
    assert by_line[22].message == "'repeat' needs key 'steps'"
    assert by_line[26].hint == "did you mean 'counters'?"
    unknown = [d for d in validate(src, "content.schema.json") if d.code == "SCH001" and d.line == 3]
    assert unknown[0].message == "unknown key 'nmae'" and unknown[0].hint == "did you mean 'name'?"
    initial = [d for d in validate(src, "content.schema.json") if d.code == "SCH003" and d.line == 3]
    assert initial[0].message == "expected an integer, got string 'abc'"


def test_pack_schema_diagnostics() -> None:
    src = load_yaml(FIXTURES / "schema_pack.yaml", "schema_pack.yaml")
    found = validate(src, "pack.schema.json")
    assert where(found) == [("SCH004", 2, 5), ("SCH003", 4, 10), ("SCH004", 6, 16)]
    assert found[1].message == "expected a string, got number 1.0"


def test_validators_are_cached() -> None:
    assert schema_check._validator("content.schema.json") is schema_check._validator("content.schema.json")


def _schemas() -> dict[str, dict]:
    return {p.name: json.loads(p.read_text()) for p in data_dir("schemas").glob("*.json")}


def _walk(node: object) -> list[dict]:
    found: list[dict] = []
    if isinstance(node, dict):
        found.append(node)
        for value in node.values():
            found += _walk(value)
    elif isinstance(node, list):
        for value in node:
            found += _walk(value)
    return found


@pytest.mark.parametrize("name", ["defs.schema.json", "pack.schema.json", "content.schema.json"])
def test_schemas_are_draft7_with_hover_help(name: str) -> None:
    schema = _schemas()[name]
    assert schema["$schema"] == "http://json-schema.org/draft-07/schema#"
    Draft7Validator.check_schema(schema)
    later_keywords = {"$defs", "dependentRequired", "dependentSchemas", "unevaluatedProperties", "prefixItems"}
    for node in _walk(schema):
        assert not later_keywords & set(node)
        for prop_name, prop in node.get("properties", {}).items():
            if isinstance(prop, dict):
                assert prop.get("title") and prop.get("description"), f"{name}: property '{prop_name}'"


# --- packs ---------------------------------------------------------------------------------

def test_good_pack_loads() -> None:
    raw = load_pack_files(PACKS / "good")
    assert [f.display for f in raw.files] == ["good/pack.yaml", "good/core.yaml", "good/robots/robots.yml"]
    assert raw.manifest["id"] == "good-pack"
    assert list(raw.counters) == ["gear", "round"] and list(raw.zones) == ["deck", "hand"]
    assert list(raw.procedures) == ["draw"] and list(raw.component_types) == ["robot"]
    nugget = raw.components["nugget"]
    assert (nugget.section, nugget.ctype, nugget.path) == ("components", "robot", ("components", "robot", 0))
    assert nugget.src.pos((*nugget.path, "vp")) == (12, 11)
    assert [(t.id, t.path) for t in raw.triggers] == [("trigger_1", ("triggers", 0)), ("bonus", ("triggers", 1))]
    assert raw.flow is not None and raw.flow.path == ("flow",) and raw.flow.data[0]["id"] == "setup"
    assert raw.scoring is not None and raw.scoring.data["score"] == "gear"


def test_duplicates_across_files() -> None:
    found = pack_error(PACKS / "dup")
    assert [(d.file, *where([d])[0]) for d in found] == [
        ("dup/a.yaml", "DUP001", 3, 3),         # counter 'fast' vs option 'fast'
        ("dup/b.yaml", "DUP001", 2, 3),         # zone 'gear' vs counter 'gear'
        ("dup/b.yaml", "DUP001", 5, 11),        # component 'gear'
        ("dup/b.yaml", "DUP003", 7, 10),        # trigger id 'bonus'
        ("dup/b.yaml", "DUP002", 8, 1),         # a second flow
    ]
    assert found[1].message == "'gear' is already defined at dup/a.yaml:2:3"
    assert found[4].message == "'flow' is already defined at dup/a.yaml:6:1"


def test_every_file_is_checked_before_failing() -> None:
    found = pack_error(PACKS / "broken")
    assert [(d.file, *where([d])[0]) for d in found] == [
        ("broken/pack.yaml", "SCH001", 5, 27),
        ("broken/a.yaml", "YAML001", 3, 1),
        ("broken/b.yaml", "SCH003", 2, 20),
    ]


def test_find_pack(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pack_files, "data_dir", lambda name: PACKS)
    assert find_pack(str(PACKS / "good")) == PACKS / "good"
    assert find_pack(str(PACKS / "good" / "pack.yaml")) == PACKS / "good"
    assert find_pack("dup") == PACKS / "dup"
    with pytest.raises(PackError) as caught:
        find_pack("godo")
    [diag] = caught.value.diagnostics
    assert (diag.code, diag.file, diag.line, diag.col, diag.hint) == ("PACK001", "godo", 1, 1, "did you mean 'good'?")


def test_folder_without_manifest(tmp_path: Path) -> None:
    with pytest.raises(PackError) as caught:
        find_pack(str(tmp_path))
    assert where(caught.value.diagnostics) == [("PACK001", 1, 1)]
    assert where(pack_error(tmp_path)) == [("PACK001", 1, 1)]


def test_size_limits(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pack_files, "MAX_FILES", 2)
    assert where(pack_error(PACKS / "good")) == [("PACK002", 1, 1)]
    monkeypatch.setattr(pack_files, "MAX_FILES", 500)
    monkeypatch.setattr(pack_files, "MAX_TOTAL_BYTES", 100)
    [diag] = pack_error(PACKS / "good")
    assert (diag.code, diag.file) == ("PACK002", "good")
