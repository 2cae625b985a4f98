"""The hand-written yes/no schema check (engine/packs/schema_fast.py) against fastjsonschema and jsonschema-rs.

    python -m pip install -e '.[bench]'        # fastjsonschema and jsonschema-rs
    python tools/bench/schema.py [--rounds 200] [--repeat 3]

All three answer "is this content file valid?" for every content file of the
shipped packs (content/*/ except pack.yaml), read once with the engine's YAML
reader (plain dicts and lists, as `cogwork lint` checks them), `--rounds`
times; the best of `--repeat` runs counts (CPU time). Each checker is built
once from the same schemas (the engine's registry: cross-file `$ref`s and
ECMA-style pattern ends), and its build time is printed apart. The run first
checks that the three agree on every file, and on each file made invalid by
one wrong value, so the race is between equals. Ends with
`schema_fast/fastjsonschema: X.XXx  schema_fast/jsonschema-rs: Y.YYx` (ratios
of time, lower is better for schema_fast).
"""

from __future__ import annotations

import argparse
import copy
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import fastjsonschema  # noqa: E402
import jsonschema_rs  # noqa: E402

from engine.packs import schema_check  # noqa: E402
from engine.packs.fast_yaml import load  # noqa: E402

SCHEMA = "content.schema.json"


def content_files() -> list[Any]:
    found = []
    for path in sorted(ROOT.glob("content/*/*.yaml")):
        if path.name != "pack.yaml":
            loaded = load(path.read_text(encoding="utf-8"))
            if loaded is not None:
                found.append(loaded[0])
    return found


def schemas() -> dict[str, Any]:
    """Every schema file's contents, as the engine's registry holds them, by file name."""
    registry = schema_check._registry()
    return {path.name: registry.contents(path.name) for path in sorted((ROOT / "schemas").glob("*.json"))}


def build_checkers() -> dict[str, tuple[Callable[[Any], bool], float]]:
    """Each checker and the CPU seconds its build took."""
    files = schemas()
    built: dict[str, tuple[Callable[[Any], bool], float]] = {}

    start = time.process_time()
    fast = schema_check._fast_check(SCHEMA)
    built["schema_fast"] = (fast, time.process_time() - start)

    start = time.process_time()
    handlers = {"": lambda uri: files[uri.rsplit("/", 1)[-1]]}
    fjs = fastjsonschema.compile(files[SCHEMA], handlers=handlers, use_formats=False)

    def fjs_valid(data: Any) -> bool:
        try:
            fjs(data)
        except fastjsonschema.JsonSchemaException:
            return False
        return True
    built["fastjsonschema"] = (fjs_valid, time.process_time() - start)

    start = time.process_time()
    registry = jsonschema_rs.Registry([(f"file:///{name}", contents) for name, contents in files.items()])
    rs = jsonschema_rs.Draft7Validator(files[SCHEMA], registry=registry, base_uri=f"file:///{SCHEMA}")
    built["jsonschema-rs"] = (rs.is_valid, time.process_time() - start)
    return built


def broken(data: Any) -> Any:
    """A copy with one wrong value: the first counter's `initial` made text."""
    bad = copy.deepcopy(data)
    for section in ("counters", "zones", "component_types", "procedures", "flow"):
        if isinstance(bad.get(section), dict) and bad[section]:
            key = next(iter(bad[section]))
            bad[section][key] = 12345
            return bad
        if isinstance(bad.get(section), list) and bad[section]:
            bad[section][0] = 12345
            return bad
    bad["counters"] = 3
    return bad


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    data = content_files()
    checkers = build_checkers()
    for item in data:
        for value, want in ((item, True), (broken(item), False)):
            answers = {name: check(value) for name, (check, _) in checkers.items()}
            if set(answers.values()) != {want}:
                print(f"the checkers disagree ({answers}, expected {want}) on {json.dumps(value)[:200]}")
                return 1
    best = {name: float("inf") for name in checkers}
    for _ in range(args.repeat):
        for name, (check, _) in checkers.items():
            start = time.process_time()
            for _ in range(args.rounds):
                for item in data:
                    check(item)
            best[name] = min(best[name], time.process_time() - start)
    checks = args.rounds * len(data)
    print(f"{len(data)} content files x {args.rounds} rounds = {checks} checks (best of {args.repeat}, CPU time)")
    for name, (_, build) in checkers.items():
        print(f"  {name:15} {best[name]:7.3f} s  {best[name] / checks * 1e6:8.1f} µs per file   build {build:.3f} s")
    fast = best["schema_fast"]
    print(f"schema_fast/fastjsonschema: {fast / best['fastjsonschema']:.2f}x  "
          f"schema_fast/jsonschema-rs: {fast / best['jsonschema-rs']:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
