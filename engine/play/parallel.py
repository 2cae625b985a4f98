"""Running a simulation's games on every core, or as Ray tasks on one machine or a cluster.

The work is a `Plan`: plain data naming the pack (a built-in name or a folder), the seeds, the
player counts and the bots (spec texts). Each worker loads the pack itself from that name, so nothing
but the plan and the records (plain data too) crosses a process boundary, and the design is the same under `spawn`,
`fork` or a remote machine. Game i always gets seed `seed + i` and the same player count, and the
records are put back in that order, so a run's statistics do not depend on how many workers played.
"""

from __future__ import annotations

import logging
import math
import multiprocessing
import os
import signal
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from engine.compile.loading import keep_packs_out_of_collections, load_pack
from engine.play.bots import BotSpec
from engine.play.simulate import GameRecord, play_one
from engine.runtime.defs import Pack

BACKENDS = ("processes", "ray")
MAX_CHUNK = 20      # games per task: small enough for a live progress bar and little lost work on Ctrl-C


@dataclass
class Plan:
    """Games `seed .. seed+games-1`; game i plays with `players[i % len(players)]` seats."""

    pack: str
    games: int
    players: list[int]
    seed: int = 1
    options: dict[str, bool] = field(default_factory=dict)
    check_replay: bool = True
    bots: dict[int, str] = field(default_factory=dict)    # seat index -> bot spec text; random elsewhere

    def chunks(self, workers: int) -> list[tuple[int, int]]:
        """(start, stop) game indexes: about four tasks per worker, for balance (game lengths vary a lot)."""
        size = max(1, min(MAX_CHUNK, math.ceil(self.games / (4 * max(1, workers)))))
        return [(start, min(start + size, self.games)) for start in range(0, self.games, size)]


@dataclass
class Run:
    """The records of the games that finished (in game order) and whether the run was cut short."""

    records: list[GameRecord]
    interrupted: bool
    seconds: float


_PACKS: dict[str, Pack] = {}    # per process: a worker loads each pack once


def _pack(spec: str) -> Pack:
    if spec not in _PACKS:
        _PACKS[spec] = load_pack(spec)
    return _PACKS[spec]


def play_chunk(plan: Plan, start: int, stop: int) -> list[tuple[int, GameRecord]]:
    """Games start..stop-1 of the plan, each with its index; runs wherever the task was sent."""
    pack = _pack(plan.pack)
    seats = {seat: BotSpec.parse(text) for seat, text in plan.bots.items()}
    return [(i, play_one(pack, plan.players[i % len(plan.players)], plan.seed + i, plan.options, plan.check_replay,
                         seats))
            for i in range(start, stop)]


def _play_chunk_args(args: tuple[Plan, int, int]) -> list[tuple[int, GameRecord]]:
    return play_chunk(*args)


def _ray_play_chunk(plan: Plan, start: int, stop: int) -> list[tuple[int, GameRecord]]:
    """`play_chunk` as a Ray task: a Ray worker is a process of its own playing many games, so, as `simulate`'s
    pool workers do, it keeps the pack it loads out of the collector's full collections."""
    keep_packs_out_of_collections()
    return play_chunk(plan, start, stop)


def _start_worker() -> None:
    """Workers leave Ctrl-C to the parent, which stops them and keeps the games already finished; a worker's
    process is the engine's, so the pack it loads is kept out of the collector's full collections."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    keep_packs_out_of_collections()


def default_workers() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def run(plan: Plan, workers: int | None = None, backend: str = "processes", ray_address: str | None = None,
        loaded: Pack | None = None, progress: Callable[[int], None] | None = None) -> Run:
    """Play the plan; `progress(games_done)` is called as tasks finish. Ctrl-C ends the run early, cleanly.

    `loaded` is the plan's pack when the caller has it already (used when everything runs in this process).
    """
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend '{backend}'; use one of {', '.join(BACKENDS)}")
    workers = workers or default_workers()
    if loaded is not None:
        _PACKS.setdefault(plan.pack, loaded)
    start = time.perf_counter()
    done: dict[int, GameRecord] = {}
    interrupted = False
    chunks = plan.chunks(workers)
    if backend == "ray":
        results = _ray_results(plan, chunks, workers, ray_address)
    elif workers == 1:
        results = (play_chunk(plan, a, b) for a, b in chunks)
    else:
        results = _process_results(plan, chunks, workers)
    try:
        for chunk in results:
            done.update(chunk)
            if progress is not None:
                progress(len(done))
    except KeyboardInterrupt:
        interrupted = True
    finally:
        close = getattr(results, "close", None)
        if close is not None:
            close()        # a generator's `finally` stops its pool or cancels its Ray tasks
    return Run([done[i] for i in sorted(done)], interrupted, time.perf_counter() - start)


def _process_results(plan: Plan, chunks: list[tuple[int, int]], workers: int
                     ) -> Iterator[list[tuple[int, GameRecord]]]:
    # spawn: a fresh interpreter per worker on every platform (no inherited threads or locks)
    pool = multiprocessing.get_context("spawn").Pool(min(workers, len(chunks)), initializer=_start_worker)
    finished = False
    try:
        yield from pool.imap_unordered(_play_chunk_args, [(plan, a, b) for a, b in chunks])
        finished = True
    finally:
        if finished:
            pool.close()
        else:
            pool.terminate()
        pool.join()


def _ray_results(plan: Plan, chunks: list[tuple[int, int]], workers: int, address: str | None
                 ) -> Iterator[list[tuple[int, GameRecord]]]:
    try:
        import ray
    except ImportError:
        raise RuntimeError("--backend ray needs Ray: pip install 'cogwork[ray]'") from None
    started_here = not ray.is_initialized()
    if started_here:
        if address is None:     # a private local instance with as many CPUs as workers
            ray.init(num_cpus=workers, include_dashboard=False, logging_level=logging.ERROR, log_to_driver=False)
        else:
            try:
                ray.init(address=address, logging_level=logging.ERROR)
            except Exception as exc:   # Ray's own errors vary by version; the command line reports an OSError
                raise ConnectionError(f"cannot reach the Ray cluster at '{address}': {exc}") from exc
    task = ray.remote(_ray_play_chunk)
    plan_ref = ray.put(plan)
    pending = [task.remote(plan_ref, a, b) for a, b in chunks]
    try:
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            yield ray.get(ready[0])
    finally:
        for ref in pending:
            ray.cancel(ref, force=True)
        if started_here:
            ray.shutdown()
