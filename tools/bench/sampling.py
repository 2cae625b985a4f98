"""A small sampling profiler that sees inside the game's greenlet.

cProfile and pyinstrument follow one call stack per thread, so they lose
track when the session switches into the greenlet that runs the flow (the
interpreter's own time vanishes or lands on the thread). A CPU-time timer
signal interrupts whatever frame is running, the flow's included, and the
handler records that frame: the share of samples is the share of time.
Unix only (SIGPROF).
"""

from __future__ import annotations

import signal
from collections import Counter
from collections.abc import Callable
from types import FrameType
from typing import Any


def sample(work: Callable[[], Any], interval: float = 0.0005) -> Counter[tuple[str, str]]:
    """Run `work`; (file name, qualified function name) of the innermost running frame, once per sample."""
    counts: Counter[tuple[str, str]] = Counter()

    def record(signum: int, frame: FrameType | None) -> None:
        if frame is not None:
            code = frame.f_code
            counts[(code.co_filename, code.co_qualname)] += 1

    previous = signal.signal(signal.SIGPROF, record)
    signal.setitimer(signal.ITIMER_PROF, interval, interval)
    try:
        work()
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0, 0)
        signal.signal(signal.SIGPROF, previous)
    return counts


def sample_stacks(work: Callable[[], Any], interval: float = 0.0005
                  ) -> tuple[Counter[tuple[str, str]], Counter[tuple[str, str]], int]:
    """Run `work`; per (file name, qualified function name): samples with it anywhere on the stack
    (inclusive, counted once per sample), samples with it innermost (self), and the number of samples."""
    inclusive: Counter[tuple[str, str]] = Counter()
    own: Counter[tuple[str, str]] = Counter()
    samples = 0

    def record(signum: int, frame: FrameType | None) -> None:
        nonlocal samples
        if frame is None:
            return
        samples += 1
        code = frame.f_code
        own[(code.co_filename, code.co_qualname)] += 1
        seen = set()
        while frame is not None:
            code = frame.f_code
            seen.add((code.co_filename, code.co_qualname))
            frame = frame.f_back
        inclusive.update(seen)

    previous = signal.signal(signal.SIGPROF, record)
    signal.setitimer(signal.ITIMER_PROF, interval, interval)
    try:
        work()
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0, 0)
        signal.signal(signal.SIGPROF, previous)
    return inclusive, own, samples
