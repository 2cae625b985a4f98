"""cogwork fmt: canonical key order and indentation, idempotent, comments kept, meaning unchanged."""

from __future__ import annotations

import shutil
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import yaml

from engine.authoring.formatter import FormatError, format_text, schema_of
from engine.cli import COMMANDS, main
from engine.compile.build import build_pack
from engine.packs.files import load_pack_files
from engine.packs.raw import RawPack

REPO = Path(__file__).resolve().parent.parent
CONTENT = REPO / "content"
HEADER = "# yaml-language-server: $schema=../schemas/content.schema.json\n"


def content_files() -> list[Path]:
    return sorted(p for p in CONTENT.rglob("*.yaml"))


def comments(text: str) -> Counter[str]:
    """Comment lines, and blank lines (as ""), however they are placed."""
    return Counter(line.strip() for line in text.splitlines() if not line.strip() or line.strip().startswith("#"))


def fmt(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["fmt", *argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("path", content_files(), ids=lambda p: p.relative_to(CONTENT).as_posix())
def test_idempotent_and_comments_survive(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    schema_id = schema_of(path, text)
    assert schema_id is not None
    once = format_text(text, schema_id)
    assert format_text(once, schema_id) == once
    assert comments(once) == comments(text)


def definitions(raw: RawPack) -> dict[str, Any]:
    """Everything a pack means, as plain data (dict equality ignores key order, as YAML does)."""
    def plain(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: plain(v) for k, v in value.items()}
        return [plain(v) for v in value] if isinstance(value, list) else value
    sections = ("counters", "wildcards", "zones", "component_types", "procedures", "components")
    found: dict[str, Any] = {s: {i: plain(e.data) for i, e in getattr(raw, s).items()} for s in sections}
    found["triggers"] = [(t.id, plain(t.data)) for t in raw.triggers]
    found["flow"] = plain(raw.flow.data) if raw.flow else None
    found["scoring"] = plain(raw.scoring.data) if raw.scoring else None
    found["manifest"] = plain(raw.manifest)
    return found


def test_formatting_all_content_keeps_its_meaning(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    copy = tmp_path / "content"
    shutil.copytree(CONTENT, copy)
    packs = sorted(p.parent.name for p in copy.glob("*/pack.yaml"))
    before = {name: definitions(load_pack_files(copy / name)) for name in packs}
    assert fmt(capsys, str(copy))[0] == 0
    for name in packs:
        raw = load_pack_files(copy / name)
        assert definitions(raw) == before[name], name
        build_pack(raw)
    assert fmt(capsys, "--check", str(copy))[0] == 0
    for path in copy.rglob("*.yaml"):
        original = CONTENT / path.relative_to(copy)
        assert comments(path.read_text()) == comments(original.read_text())


def test_key_order(tmp_path: Path) -> None:
    text = HEADER + """\
counters:
  zed: {max: 9, name: Zed, initial: 1}
  alpha: {resource: true, name: Alpha}
components:
  card:
    - copies: 2            # how many
      power: 3
      name: Big            # display name
      costs: ["1 alpha"]
      id: big
      actions:
        - {effect: "gain 1 zed", when: "true", threshold: 2}
"""
    assert format_text(text, "content.schema.json") == HEADER + """\
counters:
  zed: {name: Zed, initial: 1, max: 9}
  alpha: {name: Alpha, resource: true}
components:
  card:
    - id: big
      name: Big            # display name
      power: 3
      copies: 2            # how many
      costs: ["1 alpha"]
      actions:
        - {threshold: 2, when: "true", effect: "gain 1 zed"}
"""


def test_comment_lines_move_with_the_key_below_them() -> None:
    text = HEADER + """\
components:
  card:
    - id: one
      # what it costs
      costs: ["1 alpha"]
      # printed
      text: One

    # --- the second card
    - id: two
      text: Two
"""
    assert format_text(text, "content.schema.json") == HEADER + """\
components:
  card:
    - id: one
      # printed
      text: One
      # what it costs
      costs: ["1 alpha"]

    # --- the second card
    - id: two
      text: Two
"""


def test_indentation_and_layout_are_canonical() -> None:
    text = "id: x\nname: X\nplayers:\n    min: 1\n    max: 2\nauthors:\n- A\n- B\ndescription: |\n   Two\n   lines\n"
    assert format_text(text, "pack.schema.json") == (
        "id: x\nname: X\nplayers:\n  min: 1\n  max: 2\ndescription: |\n  Two\n  lines\nauthors:\n  - A\n  - B\n")


def test_empty_files_stay_as_they_are() -> None:
    assert format_text("", "content.schema.json") == ""
    assert format_text(HEADER + "# nothing yet\n", "content.schema.json") == HEADER + "# nothing yet\n"


def test_check_reports_and_writes_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pack = tmp_path / "pack"
    pack.mkdir()
    (pack / "pack.yaml").write_text("name: P\nid: p\n")
    (pack / "ok.yaml").write_text(HEADER + "counters:\n  a: {name: A}\n")
    code, out, err = fmt(capsys, "--check", str(pack))
    assert (code, out.strip()) == (1, f"would reformat {pack / 'pack.yaml'}")
    assert "2 files checked, 1 would be reformatted" in err
    assert (pack / "pack.yaml").read_text() == "name: P\nid: p\n"
    code, out, _ = fmt(capsys, str(pack / "pack.yaml"))
    assert (code, out.strip()) == (0, f"reformatted {pack / 'pack.yaml'}")
    assert (pack / "pack.yaml").read_text() == "id: p\nname: P\n"
    assert fmt(capsys, "--check", str(pack))[0] == 0


def test_other_yaml_is_skipped_and_broken_yaml_reported(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    workflow = tmp_path / "ci.yaml"
    workflow.write_text("on: push\njobs: {b: 1, a: 2}\n")
    broken = tmp_path / "broken.yaml"
    broken.write_text(HEADER + "counters: [\n")
    code, _, err = fmt(capsys, str(tmp_path))
    assert code == 2 and f"{broken}:3:1: error:" in err and "[YAML001]" in err and "1 file checked" in err
    assert workflow.read_text() == "on: push\njobs: {b: 1, a: 2}\n"
    laughs = (REPO / "tests" / "fixtures" / "loader" / "yaml005_laughs.yaml").read_text()
    broken.write_text(HEADER + laughs)                  # refused like the loader does, never expanded
    code, _, err = fmt(capsys, "--check", str(broken))
    assert code == 2 and "[YAML005]" in err
    with pytest.raises(FormatError):
        format_text("a: [\n", "content.schema.json")
    assert fmt(capsys, str(tmp_path / "missing"))[0] == 2


def test_shipped_content_is_formatted(capsys: pytest.CaptureFixture[str]) -> None:
    """Every shipped pack and scenario file is in canonical form (run `cogwork fmt content` after editing)."""
    code, out, _ = fmt(capsys, "--check", str(CONTENT))
    assert (code, out) == (0, "")


def test_pre_commit_hooks_run_existing_commands() -> None:
    hooks = {hook["id"]: hook for hook in yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text())}
    assert set(hooks) == {"cogwork-lint", "cogwork-fmt"}
    for hook in hooks.values():
        assert hook["language"] == "python" and hook["types_or"] == ["yaml"] and hook["name"] and hook["description"]
        program, command = hook["entry"].split()
        assert program == "cogwork" and command in {module.NAME for module in COMMANDS}


def test_fmt_never_writes_through_a_link(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 9: a pack file linked to a file outside the pack must not be rewritten."""
    outside = tmp_path / "outside.yaml"
    outside.write_text("counters:\n    coin:   {name: Coin}\n")
    pack = tmp_path / "pack"
    pack.mkdir()
    (pack / "linked.yaml").symlink_to(outside)
    code = main(["fmt", str(pack)])
    err = capsys.readouterr().err
    assert code == 2 and "symbolic link: not formatted" in err
    assert outside.read_text() == "counters:\n    coin:   {name: Coin}\n"
    assert main(["fmt", str(pack / "linked.yaml")]) == 2
    assert outside.read_text() == "counters:\n    coin:   {name: Coin}\n"


def test_wrapped_flow_lists_become_blocks_and_null_stays_null() -> None:
    """Issue 9: a flow list wrapped over lines came back as one 420-character line; `null` as nothing."""
    text = ("counters:\n  coin: {name: Coin}\nzones:\n  x: ~\n  y: null\n  z:\n"
            "flow:\n  - {id: turns, each_player: [{id: earn, do: \"gain 1 coin\"},\n"
            "                              {id: more, do: \"gain 1 coin\"}]}\n")
    out = format_text(text, "content.schema.json")
    assert "  x: ~\n  y: null\n  z:\n" in out
    assert "      - {id: earn, do: \"gain 1 coin\"}\n      - {id: more, do: \"gain 1 coin\"}\n" in out
    assert max(len(line) for line in out.splitlines()) < 60


def test_an_apostrophe_in_plain_text_is_not_a_quote() -> None:
    """`{name: Bob's turn}` on one line stays a one-line flow mapping: the scan for its closing brace once
    took the apostrophe for a quote, read on to the next line's, and unfolded it (then `fmt --check` failed
    after `fmt`). Real quotes still hide braces: `'it''s {x'`, `"q\\" {"`."""
    text = ("counters:\n  pos: {name: Your robot's place}\n  loc: {name: The vault's place, scope: global}\n"
            "  a: {name: 'it''s {x', scope: global}\n  b: {name: \"q\\\" {\"}\n")
    assert format_text(text, "content.schema.json") == text
