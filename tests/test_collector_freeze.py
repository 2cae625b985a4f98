"""Loading the first pack of a process moves what is alive to the collector's permanent generation (so full
collections while games are played do not walk the pack); later loads leave the collector alone."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

_PROBE = """
import gc
from engine.compile.loading import load_pack
before = gc.get_freeze_count()
load_pack("tic-tac-toe")
first = gc.get_freeze_count()
load_pack("connect-four")
print(before, first > 0, gc.get_freeze_count() == first)
"""


def test_the_first_pack_loaded_freezes_what_is_alive_and_later_loads_do_not() -> None:
    done = subprocess.run([sys.executable, "-c", _PROBE], cwd=ROOT, capture_output=True, text=True, check=True,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert done.stdout.split() == ["0", "True", "True"]
