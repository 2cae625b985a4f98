"""In a process that opts in (the console script, `simulate`'s workers, the benches), loading the first pack moves
what is alive to the collector's permanent generation (so full collections while games are played do not walk
the pack); later loads leave the collector alone, and so does a load in a process that did not opt in (a program
embedding the engine owns its heap)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

_PROBE = """
import gc
from engine.compile.loading import keep_packs_out_of_collections, load_pack
load_pack("goofspiel")
assert gc.get_freeze_count() == 0
keep_packs_out_of_collections()
before = gc.get_freeze_count()
load_pack("tic-tac-toe")
first = gc.get_freeze_count()
load_pack("connect-four")
print(before, first > 0, gc.get_freeze_count() == first)
"""


def test_an_opted_in_process_freezes_at_its_first_pack_and_no_other_load_does() -> None:
    done = subprocess.run([sys.executable, "-c", _PROBE], cwd=ROOT, capture_output=True, text=True, check=True,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert done.stdout.split() == ["0", "True", "True"]
