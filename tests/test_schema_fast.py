"""The quick schema check (engine/packs/schema_fast.py) says "valid" exactly when jsonschema does.

Every schema-checked YAML file of the repository, and seeded random breakages
of the shipped content (a value of another type, a key removed, renamed or
added, a list emptied), are checked both ways.
"""

from __future__ import annotations

import copy
import random
from pathlib import Path
from typing import Any

import pytest
from ruamel.yaml.scalarbool import ScalarBoolean

from engine.diagnostics import PackError
from engine.packs import schema_check
from engine.packs.source import load_yaml
from tests.test_fast_yaml import FILES, REPO

REPLACEMENTS: list[Any] = [0, 7, -1, 2.5, 3.0, True, False, None, "", "x", "gain 1 gear", "Some Name", [], ["x"], [1],
                           {}, {"x": 1}, {"name": "N"}]


def _schema_id(path: Path) -> str:
    if path.name == "pack.yaml":
        return "pack.schema.json"
    return "scenario.schema.json" if "scenarios" in path.parts else "content.schema.json"


def _agree(data: Any, schema_id: str) -> None:
    """Exactly alike on plain data; on ruamel's (anchors, ...) the quick check may only say "not sure"."""
    errors = [e.message for e in schema_check._validator(schema_id).iter_errors(data)]
    assert schema_check._fast_check(schema_id)(_plain(data)) == (not errors), errors[:3]
    assert not schema_check._fast_check(schema_id)(data) or not errors
    quick = schema_check._quick_yes(data, schema_id)      # on ruamel's data too
    assert not quick or not errors
    assert quick or errors or _unsure(data)


def _unsure(data: Any) -> bool:
    """Whether ruamel's data holds a value the quick check leaves to jsonschema (an anchored boolean, a date)."""
    return schema_check._plain(data) is schema_check._NOT_PLAIN


def _plain(data: Any) -> Any:
    if isinstance(data, dict):
        return {k: _plain(v) for k, v in data.items()}
    if isinstance(data, list):
        return [_plain(v) for v in data]
    if isinstance(data, bool | ScalarBoolean):
        return bool(data)
    for kind in (int, float, str):
        if isinstance(data, kind):
            return kind(data)
    return data


def _loaded(path: Path) -> Any:
    try:
        return load_yaml(path).data
    except PackError:
        return None


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(REPO)))
def test_repository_files_check_alike(path: Path) -> None:
    data = _loaded(path)
    if data is not None:
        _agree(data, _schema_id(path))


@pytest.mark.parametrize("path", sorted((REPO / "content").rglob("*.yaml")), ids=lambda p: str(p.relative_to(REPO)))
def test_broken_content_checks_alike(path: Path) -> None:
    data = _loaded(path)
    rng = random.Random(path.name)
    for _ in range(25):
        broken = copy.deepcopy(data)
        _break(broken, rng)
        _agree(broken, _schema_id(path))


def _break(data: Any, rng: random.Random) -> None:
    """One random change somewhere in `data`."""
    parent, step = _pick(data, rng)
    how = rng.random()
    if isinstance(parent, dict) and how < 0.2:
        del parent[step]
    elif isinstance(parent, dict) and how < 0.35:
        parent[step + "x"] = parent.pop(step)
    elif isinstance(parent, dict) and how < 0.5:
        parent[rng.choice(["zzz", "name", "id", "when", "cost", "effect", "scope"])] = rng.choice(REPLACEMENTS)
    else:
        parent[step] = copy.deepcopy(rng.choice(REPLACEMENTS))


def _pick(data: Any, rng: random.Random) -> tuple[Any, Any]:
    """A random container inside `data` and one of its keys or indexes."""
    parent, step = data, rng.choice(list(data))
    while isinstance(parent[step], dict | list) and parent[step] and rng.random() < 0.75:
        parent = parent[step]
        step = rng.choice(list(parent)) if isinstance(parent, dict) else rng.randrange(len(parent))
    return parent, step
