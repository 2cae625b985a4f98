"""Hostile inputs end in a diagnostic and an exit status, within CPU and memory bounds (README.md)."""

from __future__ import annotations

import os
import resource
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
CASES = sorted(p.parent for p in HERE.glob("*/case.yaml"))
WALL_SECONDS = 120


def _limits(cpu_seconds: int, memory_mb: int):
    def apply() -> None:
        resource.setrlimit(resource.RLIMIT_CPU, (cpu_seconds, cpu_seconds))
        resource.setrlimit(resource.RLIMIT_AS, (memory_mb << 20, memory_mb << 20))
    return apply


def _make(root: Path, entries: list[dict]) -> None:
    for entry in entries:
        path = root / entry["path"]
        path.parent.mkdir(parents=True, exist_ok=True)
        if "symlink" in entry:
            path.unlink(missing_ok=True)
            path.symlink_to(entry["symlink"])
        elif "sparse" in entry:          # that size on paper, no disk used: reading it all would be the bug
            with open(path, "wb") as f:
                f.truncate(entry["sparse"])
        elif "bytes" in entry:
            line = b"# padding to make the file large\n"
            path.write_bytes(line * (entry["bytes"] // len(line) + 1))
        else:
            path.write_text(entry["text"] * entry.get("repeat", 1), encoding="utf-8")


def run_case(case: Path, tmp_path: Path) -> tuple[dict, subprocess.CompletedProcess[str]]:
    spec = yaml.safe_load((case / "case.yaml").read_text(encoding="utf-8"))
    work = tmp_path / case.name
    shutil.copytree(case, work, symlinks=True)
    _make(work, spec.get("make", []))
    env = dict(os.environ, PYTHONPATH=str(REPO), COGWORK_CACHE_DIR=str(tmp_path / "cache"))
    done = subprocess.run([sys.executable, "-m", "engine.cli", *map(str, spec["run"])], cwd=work, env=env,
                          capture_output=True, text=True, timeout=WALL_SECONDS, stdin=subprocess.DEVNULL,
                          preexec_fn=_limits(spec.get("cpu_seconds", 10), spec.get("memory_mb", 1024)))
    return spec, done


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_hostile_case(case: Path, tmp_path: Path) -> None:
    spec, done = run_case(case, tmp_path)
    output = done.stdout + done.stderr
    assert "Traceback" not in output, output[-3000:]
    assert done.returncode == spec.get("exit", 2), f"exit {done.returncode}:\n{output[-3000:]}"
    if spec["code"] != "none":          # `none`: an attack that must simply finish, with no diagnostic
        assert f"[{spec['code']}]" in output, output[-3000:]
    for text in spec.get("contains", []):
        assert text in output, output[-3000:]
    for text in spec.get("forbid", []):
        assert text not in output, output[-3000:]


def test_every_case_says_what_it_attacks() -> None:
    assert CASES
    for case in CASES:
        spec = yaml.safe_load((case / "case.yaml").read_text(encoding="utf-8"))
        assert spec.get("about") and spec.get("run") and spec.get("code"), case.name
