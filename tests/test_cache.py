"""The load cache must never serve a stale file."""

import shutil
from pathlib import Path

import pytest

from engine import cache
from engine.diagnostics import PackError
from engine.loading import load_pack
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
    core.write_text(core.read_text().replace("battery: {name: Battery, resource: true, initial: 3}",
                                             "battery: {name: Battery, resource: true, initial: 5}"))
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
