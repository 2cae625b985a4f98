"""`cogwork lint` against check-jsonschema on a generated 10,000-card pack.

    python -m pip install -e '.[bench]'        # check-jsonschema and pyinstrument
    python tools/bench/lint.py [--cards 10000] [--repeats 3] [--keep DIR]   # DIR/bench-robots: the pack

The pack is Raising Robots with its 96 robots replaced by `--cards` robot
cards in files of 100 (`robots/robots-NNN.yaml`). Card i is real robot i mod
96, copy k = i div 96, with its four resources permuted (by k) and every
number from 1 up raised by k, in costs, DSL actions, thresholds, triggers and
printed text alike: the cards are valid, their text agrees with their rules,
no two are the same, and about half of their DSL texts are distinct, as on
the real robots (59%); the run prints the count. Texts that repeat are parsed
once, so a pack of copies would flatter Cogwork.

Both tools run as fresh subprocesses of this Python, so both pay interpreter
start-up and imports, and neither is helped by anything a previous run left
in memory:

- cogwork: `python -m engine.cli lint PACK --games 0`: YAML, schemas, ids,
  names, DSL parse and compile, the type pass and the semantic checks; no
  seeded play-test games (check-jsonschema plays none either). Cold runs get
  an empty cache folder (COGWORK_CACHE_DIR), so nothing is cached, not even
  Lark's grammar; the cached run re-lints the unchanged pack with the cache
  the cold run left.
- check-jsonschema: `python -m check_jsonschema --schemafile schemas/X.json
  FILES`, once for pack.yaml (pack.schema.json) and once for every content
  file (content.schema.json); `$ref`s like `defs.schema.json#/...` resolve
  against the schema file's own path, as in Cogwork's registry, and
  `--regex-variant python` makes `pattern` use Python's `re` as Cogwork does.

Each timing is the best of `--repeats` runs. The output ends with
`cogwork/check-jsonschema: X.XXx` (goal <= 0.5x) after `cached/cold: X.XXx`.
Exit 2 if check-jsonschema is not installed, 1 if either tool finds a problem
in the generated pack (then the timings would not compare like with like).
"""

from __future__ import annotations

import argparse
import importlib.util
import itertools
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[2]
SOURCE = ROOT / "content" / "raising-robots"
CARDS_PER_FILE = 100
RESOURCES = ("program", "sensor", "gear", "microchip")
_DSL_RESOURCE = re.compile(r"\b(" + "|".join(RESOURCES) + r")\b")
_TEXT_RESOURCE = re.compile(r"\b(" + "|".join(r.capitalize() for r in RESOURCES) + r")(s?)\b")
_NUMBER = re.compile(r"\b[1-9][0-9]*\b")
_SCHEMA_LINE = "# yaml-language-server: $schema=../../../schemas/content.schema.json\n"


# ---------------------------------------------------------------- the pack


def _variant(text: str, perm: dict[str, str], shift: int, dsl: bool) -> str:
    """`text` with the resources permuted and every number from 1 up shifted by `shift`."""
    if dsl:
        text = _DSL_RESOURCE.sub(lambda m: perm[m[1]], text)
    else:
        text = _TEXT_RESOURCE.sub(lambda m: perm[m[1].lower()].capitalize() + m[2], text)
    return _NUMBER.sub(lambda m: str(int(m[0]) + shift), text)


def _card(template: dict[str, Any], variant: int) -> dict[str, Any]:
    """One robot made from a real one: a new id and name, other resources, other numbers."""
    perms = list(itertools.permutations(RESOURCES))
    perm = dict(zip(RESOURCES, perms[variant % len(perms)], strict=True))
    shift = variant

    def dsl(value: Any) -> Any:
        if isinstance(value, str):
            return _variant(value, perm, shift, dsl=True)
        if isinstance(value, int) and not isinstance(value, bool):
            return value + shift if value >= 1 else value      # as in the text: 0 stays 0
        return {k: dsl(v) for k, v in value.items()} if isinstance(value, dict) else [dsl(v) for v in value]

    card = dict(template, id=f"{template['id']}_{variant}", name=f"{template['name']} Mk {variant + 1}")
    for key in ("vp", "costs", "actions", "triggers"):
        if key in card:
            card[key] = dsl(card[key])
    card["text"] = _variant(template["text"], perm, shift, dsl=False)
    return card


def _scalar(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False) if isinstance(value, str) else str(value).lower() \
        if isinstance(value, bool) else str(value)


def _flow(value: Any) -> str:
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_flow(v) for v in value) + "]"
    return _scalar(value)


def _card_yaml(card: dict[str, Any]) -> str:
    """The layout of content/raising-robots/robots.yaml: block keys, flow lists, one line per action."""
    lines = [f"    - id: {card['id']}"]
    for key, value in card.items():
        if key == "id":
            continue
        if key in ("actions", "triggers"):
            lines.append(f"      {key}:")
            lines += [f"        - {_flow(item)}" for item in value]
        else:
            lines.append(f"      {key}: {_flow(value)}")
    return "\n".join(lines) + "\n"


def make_pack(dest: Path, cards: int) -> tuple[list[Path], int, int]:
    """Write the pack into `dest`; return its content files (all but pack.yaml), and how many
    DSL texts the robots have and how many of them differ."""
    dest.mkdir(parents=True)
    for path in SOURCE.glob("*.yaml"):
        if path.name != "robots.yaml":
            shutil.copy(path, dest / path.name)
    # the real robots' file only as data to vary: PyYAML 1.1 reads the key `on` as True
    templates = yaml.safe_load((SOURCE / "robots.yaml").read_text(encoding="utf-8"))["components"]["robot"]
    for t in templates:
        for trigger in t.get("triggers", []):
            trigger["on"] = trigger.pop(True)
    (dest / "robots").mkdir()
    texts: list[str] = []
    for first in range(0, cards, CARDS_PER_FILE):
        batch = [_card(templates[i % len(templates)], i // len(templates))
                 for i in range(first, min(first + CARDS_PER_FILE, cards))]
        texts += [t for card in batch for t in _dsl_texts(card)]
        out = dest / "robots" / f"robots-{first // CARDS_PER_FILE:03d}.yaml"
        out.write_text(_SCHEMA_LINE + "components:\n  robot:\n" + "".join(map(_card_yaml, batch)), encoding="utf-8")
    return sorted(p for p in dest.rglob("*.yaml") if p.name != "pack.yaml"), len(texts), len(set(texts))


def _dsl_texts(card: dict[str, Any]) -> list[str]:
    rules = [*card.get("actions", []), *card.get("triggers", [])]
    return [*card["costs"], *(str(rule[k]) for rule in rules for k in ("when", "cost", "effect") if k in rule)]


# ---------------------------------------------------------------- timing


def _run(command: list[str], env: dict[str, str]) -> tuple[float, subprocess.CompletedProcess[str]]:
    start = time.perf_counter()
    done = subprocess.run(command, env=env, capture_output=True, text=True, cwd=ROOT)
    return time.perf_counter() - start, done


def _checked(name: str, done: subprocess.CompletedProcess[str]) -> None:
    if done.returncode != 0:
        print(f"{name} exited {done.returncode} on the generated pack:\n{done.stdout[-3000:]}{done.stderr[-3000:]}")
        sys.exit(1)


def time_cogwork(pack: Path, repeats: int) -> tuple[float, float, str]:
    """Best cold and best cached seconds of `cogwork lint`, and its summary line."""
    command = [sys.executable, "-m", "engine.cli", "lint", str(pack), "--games", "0"]
    env = {k: v for k, v in os.environ.items() if k != "COGWORK_NO_CACHE"}
    cold, cached, summary = [], [], ""
    for _ in range(repeats):
        with tempfile.TemporaryDirectory() as cache:
            env["COGWORK_CACHE_DIR"] = cache
            seconds, done = _run(command, env)
            _checked("cogwork lint", done)
            cold.append(seconds)
            seconds, done = _run(command, env)
            _checked("cogwork lint (cached)", done)
            cached.append(seconds)
            summary = done.stderr.strip().splitlines()[-1]
    return min(cold), min(cached), summary


def time_check_jsonschema(pack: Path, files: list[Path], repeats: int) -> float:
    """Best seconds of check-jsonschema over the manifest and every content file (two runs)."""
    runs = [(ROOT / "schemas" / "pack.schema.json", [pack / "pack.yaml"]),
            (ROOT / "schemas" / "content.schema.json", files)]
    best = []
    for _ in range(repeats):
        total = 0.0
        for schema, paths in runs:
            command = [sys.executable, "-m", "check_jsonschema", "--regex-variant", "python",
                       "--schemafile", str(schema), *map(str, paths)]
            seconds, done = _run(command, dict(os.environ))
            _checked("check-jsonschema", done)
            total += seconds
        best.append(total)
    return min(best)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, default=10_000, help="robot cards in the pack (default 10000)")
    parser.add_argument("--repeats", type=int, default=3, help="runs per timing; the best is reported")
    parser.add_argument("--keep", type=Path, metavar="DIR", help="write the pack into DIR and keep it")
    args = parser.parse_args()
    if importlib.util.find_spec("check_jsonschema") is None:
        print("check-jsonschema is not installed: python -m pip install -e '.[bench]'", file=sys.stderr)
        sys.exit(2)
    with tempfile.TemporaryDirectory() as tmp:
        pack = (args.keep or Path(tmp)) / "bench-robots"
        if pack.exists():
            print(f"{pack} already exists: give --keep another folder", file=sys.stderr)
            sys.exit(2)
        files, texts, distinct = make_pack(pack, args.cards)
        size = sum(p.stat().st_size for p in files) + (pack / "pack.yaml").stat().st_size
        print(f"pack: {args.cards} robot cards, {len(files) + 1} files, {size / 1e6:.1f} MB, "
              f"{texts} DSL texts on the robots ({distinct} distinct)")
        reference = time_check_jsonschema(pack, files, args.repeats)
        cold, cached, summary = time_cogwork(pack, args.repeats)
    print(f"check-jsonschema (schemas only): {reference:.2f} s")
    print(f"cogwork lint --games 0 (schemas, names, DSL, types, semantics): cold {cold:.2f} s, "
          f"cached {cached:.2f} s ({summary})")
    print(f"cached/cold: {cached / cold:.2f}x")
    print(f"cogwork/check-jsonschema: {cold / reference:.2f}x")


if __name__ == "__main__":
    main()
