"""The load cache and the lint result cache must never serve a stale result."""

import shutil
from pathlib import Path

import pytest

from engine.compile.loading import load_pack
from engine.diagnostics import PackError
from engine.lint import run as lint_module
from engine.lint.run import lint_pack
from engine.packs import cache
from engine.packs.files import RawPack
from engine.resources import data_dir


@pytest.fixture
def pack_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("COGWORK_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("COGWORK_NO_CACHE", raising=False)
    dest = tmp_path / "pack"
    shutil.copytree(data_dir("content") / "raising-robots", dest)
    return dest


def test_clean_files_are_cached_and_reused(pack_copy: Path, tmp_path: Path) -> None:
    load_pack(str(pack_copy))
    entries = list((tmp_path / "cache").glob("*.pickle"))
    assert len(entries) >= 5
    load_pack(str(pack_copy))  # served from the cache
    assert sorted((tmp_path / "cache").glob("*.pickle")) == sorted(entries)


def test_an_edited_file_is_read_again(pack_copy: Path) -> None:
    load_pack(str(pack_copy))
    procedures = pack_copy / "procedures.yaml"
    good = procedures.read_text()
    procedures.write_text(good.replace("gain 4 battery", "gain 4 batery"))
    with pytest.raises(PackError) as exc:
        load_pack(str(pack_copy))
    assert any(d.code == "REF001" and "batery" in d.message for d in exc.value.diagnostics)
    procedures.write_text(good)
    assert load_pack(str(pack_copy)).procedures["inspiration"] is not None


def test_an_edited_value_changes_the_pack(pack_copy: Path) -> None:
    assert load_pack(str(pack_copy)).counters["battery"].initial == 3
    core = pack_copy / "core.yaml"
    core.write_text(core.read_text().replace("battery: {name: Battery, initial: 3, resource: true}",
                                             "battery: {name: Battery, initial: 5, resource: true}"))
    assert load_pack(str(pack_copy)).counters["battery"].initial == 5


def test_files_with_findings_are_not_cached(pack_copy: Path, tmp_path: Path) -> None:
    (pack_copy / "broken.yaml").write_text("counters:\n  x: {initial: many}\n")
    with pytest.raises(PackError):
        load_pack(str(pack_copy))
    broken_key = cache.file_key((pack_copy / "broken.yaml").read_bytes(), "pack/broken.yaml", "content.schema.json")
    assert cache.get(broken_key) is None


def test_cache_can_be_turned_off(pack_copy: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COGWORK_NO_CACHE", "1")
    load_pack(str(pack_copy))
    assert not list((tmp_path / "cache").glob("*.pickle"))


# ---------------------------------------------------------------- whole lint results


@pytest.fixture
def packs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Raising Robots and its expansion side by side (the expansion needs the base game)."""
    monkeypatch.setenv("COGWORK_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("COGWORK_NO_CACHE", raising=False)
    for name in ("raising-robots", "raising-robots-expansion"):
        shutil.copytree(data_dir("content") / name, tmp_path / name)
    return tmp_path


def _codes(root: Path) -> list[str]:
    return [d.code for d in lint_pack(root, games=0)[0]]


def _counting_loads(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    calls: list[Path] = []
    real = lint_module.load_pack_files

    def counted(root: Path) -> RawPack:
        calls.append(root)
        return real(root)
    monkeypatch.setattr(lint_module, "load_pack_files", counted)
    return calls


def test_an_unchanged_pack_is_not_linted_again(packs: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    loads = _counting_loads(monkeypatch)
    first = lint_pack(packs / "raising-robots", games=0)
    assert lint_pack(packs / "raising-robots", games=0) == first
    assert len(loads) == 1
    lint_pack(packs / "raising-robots", games=1)        # other options: another result
    assert len(loads) == 2


def test_an_edited_file_is_linted_again(packs: Path) -> None:
    procedures = packs / "raising-robots" / "procedures.yaml"
    good = procedures.read_text()
    assert _codes(packs / "raising-robots") == []
    procedures.write_text(good.replace("gain 4 battery", "gain 4 batery"))
    assert _codes(packs / "raising-robots") == ["REF001"]
    procedures.write_text(good)
    assert _codes(packs / "raising-robots") == []


def test_a_new_file_is_linted(packs: Path) -> None:
    assert _codes(packs / "raising-robots") == []
    (packs / "raising-robots" / "more.yaml").write_text("counters:\n  x: {initial: many}\n")
    assert _codes(packs / "raising-robots") == ["SCH003"]


def test_an_edited_dependency_is_seen(packs: Path) -> None:
    assert _codes(packs / "raising-robots-expansion") == []
    core = packs / "raising-robots" / "core.yaml"
    core.write_text(core.read_text().replace("zone: robot_deck", "zone: robot_dek", 1))
    assert "REF001" in _codes(packs / "raising-robots-expansion")


def test_another_engine_or_schema_is_another_result(packs: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    loads = _counting_loads(monkeypatch)
    lint_pack(packs / "raising-robots", games=0)
    monkeypatch.setattr(cache, "engine_digest", lambda: b"another engine")
    lint_pack(packs / "raising-robots", games=0)
    assert len(loads) == 2


def test_the_engine_digest_covers_the_schemas(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("schemas", "grammar"):
        shutil.copytree(data_dir(name), tmp_path / name)
    monkeypatch.setattr(cache, "data_dir", lambda name: tmp_path / name)
    cache.engine_digest.cache_clear()
    try:
        before = cache.engine_digest()
        schema = tmp_path / "schemas" / "defs.schema.json"
        schema.write_text(schema.read_text().replace('"minimum": 1', '"minimum": 2', 1))
        cache.engine_digest.cache_clear()
        assert cache.engine_digest() != before
    finally:
        monkeypatch.undo()
        cache.engine_digest.cache_clear()
