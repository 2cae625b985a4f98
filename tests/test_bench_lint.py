"""The lint benchmark's generated pack stays a valid pack whose cards agree with their text."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from engine.lint.run import lint_pack

BENCH = Path(__file__).resolve().parents[1] / "tools" / "bench" / "lint.py"


def test_the_generated_pack_lints_clean(tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location("bench_lint", BENCH)
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    files, texts, distinct = bench.make_pack(tmp_path / "bench-robots", 250)
    assert len(files) == 12 and 0.3 * texts < distinct < texts      # 9 copied files, 3 files of robots
    assert lint_pack(tmp_path / "bench-robots", games=0)[0] == []
