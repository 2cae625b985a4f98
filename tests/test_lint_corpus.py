"""The lint corpus: every broken case reports exactly its expected codes at the exact line and column.

Each folder of tests/lint_corpus/ holds one minimal broken pack in `pack/` and its `expected.yaml`
(see the corpus README.md).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from engine.cli import main
from engine.lint.run import RULES

CORPUS = Path(__file__).parent / "lint_corpus"
CASES = sorted(p for p in CORPUS.iterdir() if p.is_dir())
NOT_IN_CORPUS = {"YAML008", "FLOW001", "LOG001", "LOG002", "SCEN001"}     # why: tests/lint_corpus/README.md


def expected(case: Path) -> dict:
    return yaml.safe_load((case / "expected.yaml").read_text(encoding="utf-8"))


def materialize(case: Path, tmp: Path) -> Path:
    """A copy of the case's pack (and the packs beside it that it needs), with its generated files."""
    shutil.copytree(case, tmp / case.name, symlinks=True, ignore=shutil.ignore_patterns("expected.yaml"))
    dest = tmp / case.name / "pack"
    spec = expected(case).get("generate")
    if spec is None:
        return dest
    if "bytes" in spec:
        (dest / spec["file"]).write_text('pad: "' + "x" * spec["bytes"] + '"\n', encoding="utf-8")
    elif "count" in spec:
        for n in range(spec["count"]):
            path = dest / spec["file"].format(n=n)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(spec["text"], encoding="utf-8")
    else:
        statements = "gain 1 coin; " * (spec["dsl"] // 13 + 1)
        (dest / spec["file"]).write_text(f'procedures:\n  long: "{statements}"\n', encoding="utf-8")
    return dest


def lint_json(path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, list[dict], str]:
    code = main(["lint", "--format", "json", str(path)])
    out, err = capsys.readouterr()
    return code, json.loads(out or "[]"), err


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_case(case: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = expected(case)
    pack = materialize(case, tmp_path)
    code, records, err = lint_json(pack, capsys)
    assert "Traceback" not in err
    found = sorted((r["code"], os.path.relpath(r["filename"], pack), r["location"]["row"], r["location"]["column"])
                   for r in records)
    want = sorted((e["code"], str(e["file"]), e["line"], e["col"]) for e in spec["expect"])
    assert found == want
    errors = any(r["severity"] == "error" for r in records)
    assert code == spec.get("exit", 1 if errors else 0)


def test_case_names_start_with_their_code() -> None:
    """`CODE-...` shows CODE; `quiet-CODE-...` is a correct pack that check must stay silent about."""
    known = {r.code.lower() for r in RULES}
    for case in CASES:
        codes = {e["code"].lower() for e in expected(case)["expect"]}
        first, second = case.name.split("-")[:2]
        if first == "quiet":
            assert not codes and second in known, case.name
        else:
            assert first in codes, case.name


def test_corpus_covers_every_code() -> None:
    covered = {e["code"] for case in CASES for e in expected(case)["expect"]}
    assert len(CASES) >= 80
    assert {r.code for r in RULES} - covered == NOT_IN_CORPUS
    readme = (CORPUS / "README.md").read_text(encoding="utf-8")
    assert all(f"`{code}`" in readme for code in NOT_IN_CORPUS)


def test_whole_corpus_from_the_command_line() -> None:
    """The console entry point over every case at once (as kept, nothing generated): no traceback."""
    packs = [str(case / "pack") for case in CASES]
    proc = subprocess.run([sys.executable, "-c", "from engine.cli import run; run()", "lint", "--format", "json",
                           *packs], capture_output=True, text=True, cwd=CORPUS.parent.parent, timeout=300)
    assert proc.returncode == 2                      # the case without a pack.yaml is unreadable input
    assert "Traceback" not in proc.stderr
    kept = {e["code"] for case in CASES if "generate" not in expected(case) for e in expected(case)["expect"]}
    assert {r["code"] for r in json.loads(proc.stdout)} == kept
