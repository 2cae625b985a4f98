"""The JSON Schemas: Draft-07 only (so VS Code and the CLI agree), hover help everywhere, wired into every file."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft7Validator

from engine.cli import main
from engine.resources import data_dir

REPO = Path(__file__).resolve().parent.parent
SCHEMAS = REPO / "schemas"
CONTENT = REPO / "content"
SCHEMA_LINE = re.compile(r"^# yaml-language-server: \$schema=(\S+)$")
LATER_KEYWORDS = {"$defs", "dependentRequired", "dependentSchemas", "unevaluatedProperties", "unevaluatedItems",
                  "prefixItems", "$dynamicRef", "$anchor"}


def schema_files() -> list[Path]:
    return sorted(SCHEMAS.glob("*.json"))


def nodes(node: Any, where: str = "") -> list[tuple[str, dict]]:
    """Every schema object inside `node`, with a readable JSON path."""
    found: list[tuple[str, dict]] = []
    if isinstance(node, dict):
        found.append((where or "$", node))
        for key, value in node.items():
            found += nodes(value, f"{where}/{key}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            found += nodes(value, f"{where}/{index}")
    return found


def test_there_are_schemas() -> None:
    assert {p.name for p in schema_files()} >= {"pack.schema.json", "content.schema.json", "defs.schema.json",
                                                 "scenario.schema.json"}


@pytest.mark.parametrize("path", schema_files(), ids=lambda p: p.name)
def test_schema_is_draft7(path: Path) -> None:
    schema = json.loads(path.read_text(encoding="utf-8"))
    assert schema["$schema"] == "http://json-schema.org/draft-07/schema#"
    Draft7Validator.check_schema(schema)
    used = [(where, sorted(LATER_KEYWORDS & set(node))) for where, node in nodes(schema) if LATER_KEYWORDS & set(node)]
    assert not used, f"keywords newer than Draft-07: {used}"


@pytest.mark.parametrize("path", schema_files(), ids=lambda p: p.name)
def test_every_property_and_definition_has_title_and_description(path: Path) -> None:
    """Editors show `title` and `description` on hover and completion: none may be missing."""
    schema = json.loads(path.read_text(encoding="utf-8"))
    missing = [f"{where}/{section}/{name}"
               for where, node in nodes(schema)
               for section in ("properties", "definitions")
               for name, sub in (node.get(section) or {}).items()
               if isinstance(node.get(section), dict) and not (isinstance(sub, dict) and sub.get("title")
                                                               and sub.get("description"))]
    assert not missing, f"{path.name}: no title or description at {missing}"
    assert schema.get("title") and schema.get("description")


def content_yaml() -> list[Path]:
    return sorted(p for p in CONTENT.rglob("*") if p.suffix in (".yaml", ".yml"))


def expected_schema(path: Path) -> str:
    pack = next(p for p in path.parents if (p / "pack.yaml").is_file())
    if path.name == "pack.yaml" and path.parent == pack:
        return "pack.schema.json"
    return "scenario.schema.json" if "scenarios" in path.relative_to(pack).parts else "content.schema.json"


@pytest.mark.parametrize("path", content_yaml(), ids=lambda p: p.relative_to(CONTENT).as_posix())
def test_content_file_names_its_schema(path: Path) -> None:
    """The first line points, by a relative path that stays inside the repo, at the right schema."""
    first = path.read_text(encoding="utf-8").split("\n", 1)[0]
    found = SCHEMA_LINE.match(first)
    assert found, f"{path}: first line is not '# yaml-language-server: $schema=...': {first!r}"
    target = (path.parent / found.group(1)).resolve()
    assert target.is_relative_to(REPO), f"{path}: {found.group(1)} leaves the repository"
    assert target.is_file(), f"{path}: {found.group(1)} does not exist"
    assert target.parent == SCHEMAS.resolve() and target.name == expected_schema(path)


def test_schema_command_writes_every_schema(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "nested" / "schemas"
    assert main(["schema", "--out", str(out)]) == 0
    written = {p.name: p.read_bytes() for p in out.glob("*.json")}
    assert written == {p.name: p.read_bytes() for p in data_dir("schemas").glob("*.json")}
    assert capsys.readouterr().out.count("wrote ") == len(written)


def test_schema_command_onto_the_checkouts_own_schemas(capsys: pytest.CaptureFixture[str]) -> None:
    before = {p.name: p.read_bytes() for p in schema_files()}
    assert main(["schema", "--out", str(SCHEMAS)]) == 0
    assert {p.name: p.read_bytes() for p in schema_files()} == before
    capsys.readouterr()
