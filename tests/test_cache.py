"""The load cache and the lint result cache must never serve a stale result."""

import json
import os
import pickle
import shutil
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.compile.loading import load_pack
from engine.diagnostics import PackError
from engine.lint import run as lint_module
from engine.lint.run import lint_pack
from engine.packs import cache
from engine.packs.raw import RawPack
from engine.resources import data_dir


def own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An empty cache folder and a signing key of this test's own."""
    monkeypatch.setenv("COGWORK_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.delenv("COGWORK_NO_CACHE", raising=False)


@pytest.fixture(autouse=True)
def _forget_the_key() -> Iterator[None]:
    """The signing key is read once per process: each test reads its own."""
    cache._secret.cache_clear()
    yield
    cache._secret.cache_clear()


@pytest.fixture
def pack_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    own_cache(tmp_path, monkeypatch)
    dest = tmp_path / "pack"
    shutil.copytree(data_dir("content") / "raising-robots", dest)
    return dest


def test_clean_files_are_cached_and_reused(pack_copy: Path, tmp_path: Path) -> None:
    load_pack(str(pack_copy))
    entries = list((tmp_path / "cache").glob("*.json"))
    assert len(entries) >= 5
    load_pack(str(pack_copy))  # served from the cache
    assert sorted((tmp_path / "cache").glob("*.json")) == sorted(entries)


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
    assert not list((tmp_path / "cache").glob("*.json"))


# ---------------------------------------------------------------- whole lint results


@pytest.fixture
def packs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Raising Robots and its expansion side by side (the expansion needs the base game)."""
    own_cache(tmp_path, monkeypatch)
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


# ---------------------------------------------------------------- an attacker who can write the cache folder


def _entries(tmp_path: Path) -> list[Path]:
    return sorted((tmp_path / "cache").glob("*.json"))


def test_entries_are_private_and_never_pickles(pack_copy: Path, tmp_path: Path) -> None:
    load_pack(str(pack_copy))
    folder = tmp_path / "cache"
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert all(stat.S_IMODE(p.stat().st_mode) == 0o600 for p in folder.iterdir())
    assert not [p for p in folder.iterdir() if p.suffix != ".json"]
    key_file = cache.key_file()
    assert key_file.parent != folder and not key_file.is_relative_to(folder)
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600


def test_a_forged_entry_is_ignored_and_rebuilt(pack_copy: Path, tmp_path: Path) -> None:
    load_pack(str(pack_copy))
    core = pack_copy / "core.yaml"
    key = cache.file_key(core.read_bytes(), "pack/core.yaml", "content.schema.json")
    entry = tmp_path / "cache" / f"{key}.json"
    good = cache.get(key)
    assert good is not None
    forged = json.dumps({**good, "data": {"counters": {}}}).encode()
    tag = entry.read_bytes().partition(b"\n")[0]
    entry.write_bytes(tag + b"\n" + forged)          # the old tag, a new body
    assert cache.get(key) is None
    assert load_pack(str(pack_copy)).counters["battery"].initial == 3
    assert cache.get(key) == good                    # rebuilt


def test_an_entry_signed_with_another_key_is_ignored(pack_copy: Path, tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """A cache restored from elsewhere (another user, another CI run) carries another key's tags."""
    load_pack(str(pack_copy))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "another-config"))
    cache._secret.cache_clear()
    assert all(cache.get(p.stem) is None for p in _entries(tmp_path))


def test_a_pickle_in_the_cache_folder_never_runs(pack_copy: Path, tmp_path: Path) -> None:
    """The attack of issue 9: a pickle at a name anyone can compute, that runs code when loaded."""
    load_pack(str(pack_copy))
    marker = tmp_path / "pwned"
    payload = pickle.dumps(_Exploit(str(marker)))
    for entry in _entries(tmp_path):
        entry.write_bytes(payload)
        entry.with_suffix(".pickle").write_bytes(payload)
    assert load_pack(str(pack_copy)).counters["battery"].initial == 3
    assert lint_pack(pack_copy, games=0)[0] == []
    assert not marker.exists()


class _Exploit:
    def __init__(self, path: str) -> None:
        self.path = path

    def __reduce__(self) -> tuple:
        return (open, (self.path, "w"))


def test_a_lint_result_cannot_be_forged(packs: Path, tmp_path: Path) -> None:
    procedures = packs / "raising-robots" / "procedures.yaml"
    procedures.write_text(procedures.read_text().replace("gain 4 battery", "gain 4 batery"))
    assert _codes(packs / "raising-robots") == ["REF001"]
    for entry in _entries(tmp_path):
        body = entry.read_bytes().partition(b"\n")[2]
        if b'"diagnostics"' in body:
            entry.write_bytes(b"0" * 64 + b"\n" + json.dumps({"diagnostics": [], "files": {}}).encode())
    assert _codes(packs / "raising-robots") == ["REF001"]


def test_a_folder_of_another_user_is_not_used(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    own_cache(tmp_path, monkeypatch)
    folder = tmp_path / "cache"
    folder.mkdir()
    monkeypatch.setattr(os, "getuid", lambda: folder.stat().st_uid + 1)
    cache.put("k", {"a": 1})
    assert cache.get("k") is None and not list(folder.iterdir())


def test_a_folder_open_to_others_is_closed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    own_cache(tmp_path, monkeypatch)
    folder = tmp_path / "cache"
    folder.mkdir(mode=0o777)
    folder.chmod(0o777)
    cache.put("k", {"a": 1})
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert cache.get("k") == {"a": 1}


def test_a_key_file_others_can_read_turns_the_cache_off(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    own_cache(tmp_path, monkeypatch)
    cache.put("k", {"a": 1})
    cache.key_file().chmod(0o644)
    cache._secret.cache_clear()
    assert cache.get("k") is None


def test_an_entry_that_is_a_link_is_not_followed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    own_cache(tmp_path, monkeypatch)
    cache.put("k", {"a": 1})
    (tmp_path / "cache" / "k.json").rename(tmp_path / "elsewhere.json")
    (tmp_path / "cache" / "k.json").symlink_to(tmp_path / "elsewhere.json")
    assert cache.get("k") is None


def test_the_grammar_cache_is_exact_json() -> None:
    """Lark's tables survive the JSON form unchanged (tuples and number keys included)."""
    from lark.grammar import Rule
    from lark.lexer import TerminalDef

    from engine.dsl import grammar_cache
    from engine.dsl.parse import parser
    data, memo = parser().memo_serialize([TerminalDef, Rule])
    stored = json.loads(json.dumps({"data": grammar_cache.encode(data), "memo": grammar_cache.encode(memo)}))
    assert grammar_cache.decode(stored["data"]) == data
    assert grammar_cache.decode(stored["memo"]) == memo
