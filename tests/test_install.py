"""A real (non-editable) install runs outside the checkout, with content/schemas/grammar from the wheel.

The venv sees the system site-packages, so the runtime dependencies are already importable and
`pip install --no-deps` fetches nothing for them. The build itself needs setuptools>=68 and a
`bdist_wheel` command (the `wheel` package, or setuptools>=70.1): when the venv already has them
the install runs with --no-build-isolation (no network); otherwise pip builds in its usual isolated
environment, fetching just those build requirements from the package index, as `.ci/run`'s
`pip install -e .` does too.

The checkout is copied first, because building writes build/ and *.egg-info next to setup.py.
When pytest itself runs inside a venv, the new venv is also shown that venv's site-packages.
"""

from __future__ import annotations

import os
import shutil
import site
import subprocess
import sys
from pathlib import Path

import pytest

from engine.compile.loading import load_pack
from engine.play.agents import RandomAgent
from engine.play.match import Match

REPO = Path(__file__).resolve().parent.parent
FIXTURE = Path(__file__).resolve().parent / "fixtures" / "packs" / "minimal"
NOT_SHIPPED = shutil.ignore_patterns(".git", ".venv", "venv", "build", "dist", "*.egg-info", "__pycache__", "*.pyc",
                                     ".pytest_cache", ".ruff_cache", ".benchmarks", "tests", "tools")
HAS_BUILD_DEPS = """
from importlib.metadata import version, PackageNotFoundError
def v(name):
    try:
        return tuple(int(p) for p in version(name).split(".")[:2])
    except (PackageNotFoundError, ValueError):
        return None
tools = v("setuptools")
ok = tools is not None and tools >= (68, 0) and (tools >= (70, 1) or v("wheel") is not None)
raise SystemExit(0 if ok else 1)
"""


def clean_env(tmp_path: Path) -> dict[str, str]:
    """No PYTHONPATH (the checkout must not leak in), quiet pip, a load cache of the test's own."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}
    env.update(PIP_DISABLE_PIP_VERSION_CHECK="1", PIP_NO_INPUT="1", COGWORK_CACHE_DIR=str(tmp_path / "cache"))
    return env


def run(args: list[str], cwd: Path, env: dict[str, str], timeout: int = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout,
                          stdin=subprocess.DEVNULL)


def test_installed_cogwork_runs_outside_the_checkout(tmp_path: Path) -> None:
    env = clean_env(tmp_path)
    venv = tmp_path / "venv"
    try:
        made = run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], tmp_path, env, timeout=120)
    except (OSError, subprocess.TimeoutExpired) as exc:
        pytest.skip(f"cannot create a virtual environment here: {exc}")
    python, cogwork = venv / "bin" / "python", venv / "bin" / "cogwork"
    if made.returncode != 0 or not python.exists():
        pytest.skip(f"cannot create a virtual environment here (python -m venv failed): {made.stderr.strip()}")

    if sys.prefix != sys.base_prefix:
        # pytest itself runs in a venv: --system-site-packages reaches only the base interpreter's packages,
        # so let the new venv also see this one's (after its own: the installed copy still comes first)
        purelib = run([str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"], tmp_path, env)
        Path(purelib.stdout.strip(), "outer-env.pth").write_text("\n".join(site.getsitepackages()) + "\n")

    src = tmp_path / "src"
    shutil.copytree(REPO, src, ignore=NOT_SHIPPED)
    isolation = ["--no-build-isolation"] if run([str(python), "-c", HAS_BUILD_DEPS], tmp_path, env).returncode == 0 \
        else []
    installed = run([str(python), "-m", "pip", "install", "--no-deps", *isolation, str(src)], tmp_path, env,
                    timeout=240)
    assert installed.returncode == 0, installed.stdout[-3000:] + installed.stderr[-3000:]
    assert cogwork.exists()

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    where = run([str(python), "-c", "import engine, engine.resources as r;"
                 " print(engine.__file__); print(r.data_dir('content')); print(r.data_dir('grammar'))"],
                elsewhere, env)
    assert where.returncode == 0, where.stderr
    for line in where.stdout.splitlines():
        assert Path(line).resolve().is_relative_to(venv.resolve()), f"not the installed copy: {line}"

    page = run([str(python), "-c", "from importlib import resources as r; s = r.files('engine.serve') / 'static';"
                " print(sorted(p.name for p in s.iterdir()))"], elsewhere, env)
    assert page.returncode == 0 and "'table.html', 'table.js'" in page.stdout, page.stderr   # the web table ships

    helped = run([str(cogwork), "--help"], elsewhere, env)
    assert helped.returncode == 0, helped.stderr
    assert all(word in helped.stdout for word in ("usage: cogwork", "play", "replay"))

    played = run([str(cogwork), "play", "raising-robots", "--players", "2", "-q"], elsewhere, env)
    assert played.returncode == 0, played.stderr
    assert "Winner" in played.stdout
    assert "Traceback" not in played.stdout + played.stderr
    same = Match(load_pack("raising-robots"), 2, 1)          # the checkout's engine, default seed 1
    same.run([RandomAgent(1, seat) for seat in range(2)])
    assert f"state hash {same.outcome().hash}" in played.stdout

    pack = elsewhere / "minimal"
    shutil.copytree(FIXTURE, pack)
    assert run([str(cogwork), "play", str(pack), "--players", "2", "-q"], elsewhere, env).returncode == 0
    game = pack / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8").replace('"gain 1 coin"', '"gain 1 cion"'), encoding="utf-8")
    broken = run([str(cogwork), "play", str(pack), "--players", "2", "-q"], elsewhere, env)
    assert broken.returncode == 2
    assert "minimal/game.yaml:" in broken.stderr and "[REF001]" in broken.stderr
    assert "Traceback" not in broken.stderr

    typo = run([str(cogwork), "play", "raising-robot", "-q"], elsewhere, env)
    assert typo.returncode == 2 and "did you mean 'raising-robots'?" in typo.stderr
