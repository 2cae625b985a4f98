"""The fast YAML path (engine/packs/fast_yaml.py) reads exactly what ruamel reads, or steps aside.

Every YAML file of the repository and a list of awkward snippets are loaded
both ways: wherever the fast path accepts a file, its data (types included)
and the position of every key and value must equal ruamel's; wherever ruamel
reports a problem, the fast path must have refused the file.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from ruamel.yaml.scalarbool import ScalarBoolean

from engine.diagnostics import PackError
from engine.packs import fast_yaml, source
from engine.packs.source import SourceFile, load_yaml

REPO = Path(__file__).resolve().parents[1]
FOLDERS = ("content", "tests/lint_corpus", "tests/fixtures")
FILES = sorted(p for folder in FOLDERS for p in (REPO / folder).rglob("*.y*ml"))      # every YAML file there is

PLAIN = [
    "a: on\nb: yes\nc: no\nd: off\ne: y\n",                     # YAML 1.1 booleans are text in 1.2
    "a: 17\nb: -3\nc: 0\nd: 1.5\ne: -0.25\nf: true\ng: False\nh: TRUE\n",
    "a: ~\nb: null\nc: Null\nd:\ne: ''\nf: \"\"\n",
    "a: 'it''s'\nb: \"tab\\tx \\u00e9 \\x41\"\nc: |\n  line1\n   line2\nd: >\n  folded\n  text\n\n  para\n",
    "a: |-\n  x\n\nb: >+\n  y\n\nc: |2\n   z\n",
    "a: [1, {b: c}, [d]]\nb: {c: , d: [e,]}\n",
    "a:\n- x\n- y\nb:\n  - z\n  -\n    - w\nc: v\n",
    "a: b\n  c\n  d\ne: 'multi\n  line'\nf: \"escaped \\\n  break\"\n",
    "a: b # comment\n# between\nc: d    \n",
    "a: é\nb: [é, ü, 日本]\nc: {é: ü}\n",
    "\"quoted key\": v\n'single': w\nkey with spaces: x\n? complex\n: value\n",
    "a: b\r\nc: [d,\r\n  e]\r\n",
    "text: \"Cost 2 energy: gain 1 gear. 3 VP.\"\neffect: \"choose { gain 1 a | gain 2 b }\"\n",
    "a: -.nan\ng: |\n x\n  y\n z\n",
]
ODD = [
    "a: 017\n", "a: 0o17\n", "a: 0x1F\n", "a: 1_000\n", "a: +5\n", "a: -0\n", "a: 1.50\n", "a: .5\n",
    "a: 1e3\n", "a: .inf\n", "a: .nan\n", "a: 2024-01-01\n", "a: 2024-13-45\n", "a: 2001-12-14t21:59:43.10-05:00\n",
    "a: &x [1, 2]\nb: *x\n", "a: &x 1\n", "a: !!str 3\n", "a: !x b\n", "a: !!binary aGk=\n",
    "<<: {a: 1}\nb: 2\n", "a: 1\na: 2\n", "1: a\n", "~: a\n", "true: a\n", "[a]: b\n", "{a: b}: c\n",
    "%YAML 1.1\n---\na: yes\n", "%TAG !e! tag:example.com,2000:\n---\na: 1\n", "a: 1\n---\nb: 2\n",
    "- a\n", "", "# only a comment\n", "a\n", "a: b: c\n", "a:\n  - b\n - c\n", "a: [\n", "a: \"\\q\"\n",
    "a: @x\n", "a: `x\n", "a: x\x7fy\n", "a: x\x85y\n", "a: x\u2028y\nb: 1\n",
    "a: 1\nb:\tc\n", "a: b\t# c\n", "a: |#\n  x\n", "a: >\n \n  x\n", "a: |\n  \n", "a: \ufeffx\n",
    "\ta: b\n", "a: 'x\n", "a: \"x\n", "a: *nothing\n", "=: a\n", "a: =\n",
    "a: " + "[" * 60 + "]" * 60 + "\n", "a: " + "[" * 200 + "]" * 200 + "\n",
]


def _ruamel(path: Path, monkeypatch: pytest.MonkeyPatch) -> SourceFile | PackError:
    with monkeypatch.context() as m:
        m.setattr(fast_yaml, "load", lambda text: None)
        try:
            return load_yaml(path)
        except PackError as exc:
            return exc


def _same(fast: Any, slow: Any) -> bool:
    """Equal values of the same kinds (True is not 1; ruamel's subclasses count as their base)."""
    if isinstance(slow, dict):
        return (type(fast) is dict and list(fast) == list(slow)
                and all(_same(fast[k], slow[k]) for k in slow))
    if isinstance(slow, list):
        return type(fast) is list and len(fast) == len(slow) and all(map(_same, fast, slow))
    if isinstance(slow, bool | ScalarBoolean):
        return type(fast) is bool and fast == bool(slow)
    for kind in (int, float, str):
        if isinstance(slow, kind):
            return type(fast) is kind and fast == slow
    return fast is None and slow is None


def _check(path: Path, monkeypatch: pytest.MonkeyPatch) -> bool:
    """Both loaders agree on `path`; True if the fast path took it."""
    try:
        text = path.read_bytes().decode("utf-8-sig")
    except UnicodeDecodeError:
        return False                    # refused before either loader runs
    fast = fast_yaml.load(text)
    slow = _ruamel(path, monkeypatch)
    if fast is None:
        return False
    assert isinstance(slow, SourceFile), f"fast path accepted what ruamel refuses: {slow}"
    assert _same(fast[0], slow.data)
    assert fast[1] == slow.layout
    return True


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(REPO)))
def test_repository_files_load_alike(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _check(path, monkeypatch)


def test_most_repository_files_take_the_fast_path(monkeypatch: pytest.MonkeyPatch) -> None:
    assert sum(_check(p, monkeypatch) for p in FILES) > 0.8 * len(FILES)


@pytest.mark.parametrize("text", PLAIN)
def test_plain_yaml_takes_the_fast_path_and_loads_alike(text: str, tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "a.yaml"
    path.write_bytes(text.encode())
    assert _check(path, monkeypatch)


@pytest.mark.parametrize("text", ODD)
def test_anything_else_is_left_to_ruamel(text: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "a.yaml"
    path.write_bytes(text.encode())
    assert not _check(path, monkeypatch)


@pytest.mark.parametrize("source", [*PLAIN, *FILES], ids=str)
def test_what_the_fast_path_reads_is_json_data_exactly(source: str | Path) -> None:
    """The file cache stores the fast path's data without reading it back (engine/packs/files.py)."""
    try:
        text = source.read_bytes().decode("utf-8-sig") if isinstance(source, Path) else source
    except UnicodeDecodeError:      # a corpus case of a file that is not UTF-8
        return
    loaded = fast_yaml.load(text)
    if loaded is not None:
        data = loaded[0]
        assert type(data) is dict
        assert json.loads(json.dumps(data)) == data
        assert repr(json.loads(json.dumps(data))) == repr(data)     # types too: no True read back as 1


def test_very_deep_nesting_is_refused_without_crashing() -> None:
    assert fast_yaml.load("a: " + "[" * 100_000 + "]" * 100_000) is None   # libyaml's composer would overflow


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(REPO)))
def test_one_line_strings_are_found_as_the_full_walk_finds_them(path: Path) -> None:
    """`_verbatim` (one slice comparison) agrees with the character-by-character walk."""
    try:
        src = load_yaml(path)
    except PackError:
        return
    for value, (line, col) in _strings(src.data, src.layout):
        if line >= len(src.lines) or col >= len(src.lines[line]):
            continue
        quick = source._verbatim(src.lines[line], line, col, value)
        if quick is not None:
            assert list(quick) == source._flow_positions(src.lines, line, col, value)


def _strings(data: Any, layout: Any) -> list[tuple[str, tuple[int, int]]]:
    found = []
    stack = [(data, layout[1])]
    while stack:
        node, kids = stack.pop()
        for step, (_, loc, sub) in (kids.items() if isinstance(kids, dict) else enumerate(kids or [])):
            value = node[step]
            if isinstance(value, str):
                found.append((value, loc))
            stack.append((value, sub))
    return found
