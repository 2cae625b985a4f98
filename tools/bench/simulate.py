"""Simulation throughput on 1 and 2 worker processes, and on Ray on the same cores.

    python tools/bench/simulate.py [--pack raising-robots] [--games 2000] [--no-ray]

Plays the same games (seeds 1..N, every player count in turn, replay check off) with `--workers 1`,
`--workers 2` and `--backend ray` with 2 CPUs, in one run, timing each whole run wall-clock (process
or Ray start-up included). Prints `workers2/workers1: X.XXx` (the goal on a 2-core machine is <= 0.60)
and `ray2/workers2: X.XXx` (goal <= 1.3), and checks that every run played the same games. No
assertion on time: numbers to quote. On a machine shared with other work the ratios say little: Linux
schedules by session (autogroup), so a session's processes share one slice of the cores however many
there are; the "cores used" and CPU-time lines show what the run actually got.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import resource
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))  # workers

from engine.commands.common import player_counts  # noqa: E402
from engine.compile.loading import load_pack  # noqa: E402
from engine.play import parallel  # noqa: E402


def cpu_seconds() -> float:
    """CPU time of this process and its finished children (a process pool's workers, once joined)."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def timed(plan: parallel.Plan, workers: int, backend: str = "processes") -> tuple[float, float, list[str]]:
    """Wall-clock seconds, CPU seconds (not counting Ray's workers, which are not our children), hashes."""
    cpu = cpu_seconds()
    run = parallel.run(plan, workers=workers, backend=backend)
    assert not run.interrupted and len(run.records) == plan.games
    return run.seconds, cpu_seconds() - cpu, [g.hash for g in run.records]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pack", default="raising-robots")
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--no-ray", action="store_true", help="skip the Ray run")
    args = ap.parse_args()
    pack = load_pack(args.pack)
    plan = parallel.Plan(args.pack, args.games, player_counts(None, pack), check_replay=False)
    print(f"{pack.name}: {args.games} games, players {plan.players}, {os.cpu_count()} cores"
          f" (affinity {parallel.default_workers()}); load average {os.getloadavg()[0]:.1f} (other work on the cores)")
    one, cpu1, hashes = timed(plan, 1)
    print(f"workers 1: {one:.1f} s ({args.games / one:.1f} games/s), {cpu1:.1f} CPU s ({cpu1 / one:.2f} cores used)")
    two, cpu2, hashes2 = timed(plan, 2)
    print(f"workers 2: {two:.1f} s ({args.games / two:.1f} games/s), {cpu2:.1f} CPU s ({cpu2 / two:.2f} cores used);"
          f" same games: {hashes2 == hashes}")
    print(f"load average now {os.getloadavg()[0]:.1f}; CPU time 2 workers / 1 worker: {cpu2 / cpu1:.2f}x"
          " (near 1: the work splits without overhead, and wall time is bound by the cores we get)")
    print(f"workers2/workers1: {two / one:.2f}x")
    if args.no_ray:
        return
    if importlib.util.find_spec("ray") is None:
        print("ray: not installed (pip install 'cogwork[ray]'); skipped")
        return
    ray, _, hashes3 = timed(plan, 2, backend="ray")
    print(f"ray 2 CPUs: {ray:.1f} s ({args.games / ray:.1f} games/s); same games: {hashes3 == hashes}")
    print(f"ray2/workers2: {ray / two:.2f}x")


if __name__ == "__main__":
    main()
