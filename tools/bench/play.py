"""Interpreter speed on random-bot games, and pack load time cold vs cached.

    python tools/bench/play.py [--pack raising-robots] [--games 50] [--players 4]

Prints games per second, mean time per decision, and the load time of the
pack in a fresh process with an empty cache (cold) and again with the cache
warm, ending with the line `cached/cold: X.XXx`. No assertion: numbers to
quote and compare between commits.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from engine.compile.loading import load_pack  # noqa: E402
from engine.play.agents import RandomAgent  # noqa: E402
from engine.play.match import Match  # noqa: E402

LOAD_SNIPPET = """
import time
t = time.perf_counter()
from engine.compile.loading import load_pack
load_pack({pack!r})
print(time.perf_counter() - t)
"""


def games(pack_name: str, n: int, players: int) -> tuple[float, int]:
    pack = load_pack(pack_name)
    decisions = 0
    start = time.perf_counter()
    for seed in range(n):
        session = Match(pack, players, seed)
        session.run([RandomAgent(seed, s) for s in range(players)])
        decisions += session.answered
    return time.perf_counter() - start, decisions


def load_seconds(pack_name: str, cache_dir: str) -> float:
    env = dict(os.environ, COGWORK_CACHE_DIR=cache_dir, PYTHONPATH=str(ROOT))
    env.pop("COGWORK_NO_CACHE", None)
    out = subprocess.run([sys.executable, "-c", LOAD_SNIPPET.format(pack=pack_name)], env=env, check=True,
                         capture_output=True, text=True, cwd=ROOT)
    return float(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pack", default="raising-robots")
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--repeats", type=int, default=5, help="load timings per mode (median reported)")
    args = parser.parse_args()

    seconds, decisions = games(args.pack, args.games, args.players)
    print(f"{args.pack}: {args.games} random {args.players}-player games in {seconds:.2f} s")
    print(f"games/s: {args.games / seconds:.1f}")
    print(f"decisions/game: {decisions / args.games:.0f}")
    print(f"mean time per decision: {seconds / decisions * 1e6:.1f} us")

    cold, warm = [], []
    for _ in range(args.repeats):
        with tempfile.TemporaryDirectory() as cache:
            cold.append(load_seconds(args.pack, cache))
            warm.append(load_seconds(args.pack, cache))
    c, w = statistics.median(cold), statistics.median(warm)
    print(f"pack load (import + load, fresh process): cold {c * 1000:.0f} ms, cached {w * 1000:.0f} ms")
    print(f"cached/cold: {w / c:.2f}x")


if __name__ == "__main__":
    main()
