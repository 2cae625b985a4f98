"""cogwork new pack: a scaffold that lints clean, plays, is formatted, and is wired to the schemas."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine.authoring.scaffold import schemas_near
from engine.cli import main

SCHEMA_LINE = re.compile(r"^# yaml-language-server: \$schema=(\S+)\n")
REPO = Path(__file__).resolve().parent.parent


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def schema_targets(root: Path) -> dict[str, Path]:
    found = {}
    for path in sorted(root.glob("*.yaml")):
        line = SCHEMA_LINE.match(path.read_text())
        assert line, path
        found[path.name] = (path.parent / line.group(1)).resolve()
    return found


def test_new_pack_lints_plays_and_is_formatted(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # normally no schemas/ sits above the temp folder, so they are written next to the pack
    schemas = schemas_near(tmp_path) or tmp_path / "schemas"
    code, out, _ = run(capsys, "new", "pack", "my-game", "--dir", str(tmp_path))
    root = tmp_path / "my-game"
    assert code == 0 and f"created {root}" in out
    assert sorted(p.name for p in root.iterdir()) == ["README.md", "game.yaml", "pack.yaml"]
    targets = schema_targets(root)
    assert targets == {"game.yaml": schemas / "content.schema.json", "pack.yaml": schemas / "pack.schema.json"}
    assert all(t.is_file() for t in targets.values()) and (schemas / "defs.schema.json").is_file()
    code, _, err = run(capsys, "lint", "--strict", str(root))
    assert code == 0, err
    for players in ("2", "4"):
        code, out, _ = run(capsys, "play", str(root), "--players", players, "-q")
        assert code == 0 and "Winner" in out
    assert run(capsys, "fmt", "--check", str(root))[0] == 0


def test_new_pack_uses_the_schemas_above_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "schema", "--out", str(tmp_path / "schemas"))[0] == 0
    assert run(capsys, "new", "pack", "deep-one", "--dir", str(tmp_path / "packs"))[0] == 0
    pack_yaml = (tmp_path / "packs" / "deep-one" / "pack.yaml").read_text()
    assert pack_yaml.startswith("# yaml-language-server: $schema=../../schemas/pack.schema.json\n")
    assert not (tmp_path / "packs" / "schemas").exists()


def test_new_pack_refuses_bad_names_and_existing_folders(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "new", "pack", "My_Game", "--dir", str(tmp_path))
    assert code == 2 and "not a valid pack id" in err
    (tmp_path / "taken").mkdir()
    (tmp_path / "taken" / "notes.txt").write_text("mine")
    code, _, err = run(capsys, "new", "pack", "taken", "--dir", str(tmp_path))
    assert code == 2 and "already exists" in err and (tmp_path / "taken" / "notes.txt").read_text() == "mine"


def test_new_pack_never_overwrites_without_force(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 9: `new pack --dir D` kept the user's files only if the pack folder was not there."""
    (tmp_path / "schemas").mkdir()
    (tmp_path / "schemas" / "pack.schema.json").write_text("my own schema")
    assert main(["new", "pack", "mine", "--dir", str(tmp_path)]) == 2
    assert "already exists" in capsys.readouterr().err
    assert (tmp_path / "schemas" / "pack.schema.json").read_text() == "my own schema"
    assert not (tmp_path / "mine").exists()
    assert main(["new", "pack", "mine", "--dir", str(tmp_path), "--force"]) == 0
    assert (tmp_path / "schemas" / "pack.schema.json").read_text() != "my own schema"
    (tmp_path / "mine" / "game.yaml").write_text("my game")
    assert main(["new", "pack", "mine", "--dir", str(tmp_path)]) == 2
    assert (tmp_path / "mine" / "game.yaml").read_text() == "my game"


def test_new_pack_never_follows_links(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "mine").mkdir()
    (tmp_path / "d" / "mine" / "README.md").symlink_to(victim)
    assert main(["new", "pack", "mine", "--dir", str(tmp_path / "d"), "--force"]) == 2
    assert "symbolic link" in capsys.readouterr().err
    assert victim.read_text() == "precious"
    (tmp_path / "e").mkdir()
    (tmp_path / "e" / "mine").symlink_to(tmp_path / "elsewhere", target_is_directory=True)
    assert main(["new", "pack", "mine", "--dir", str(tmp_path / "e"), "--force"]) == 2
    assert not (tmp_path / "elsewhere").exists()
