"""Run the deal sets of an arena inline, on a process pool, or as Ray tasks.

The work is cut into chunks of consecutive deal sets; a chunk's games depend
only on the configuration and the deal indices (see ``arena.play``), so the
merged result is the same whether one process or twenty played it, in any
order.  The chunks are small enough that a progress bar moves smoothly and
the last worker to finish is not left with a long tail.
"""

from __future__ import annotations

import math
import multiprocessing
import os
import signal
import time
from collections.abc import Callable, Generator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from itertools import islice
from typing import Any

from callbreak.arena import play
from callbreak.arena.play import (
    MAX_ILLEGAL_EXAMPLES,
    ArenaConfig,
    ArenaError,
    ChunkResult,
    ChunkTask,
    DealSetResult,
    play_chunk,
)

Progress = Callable[[int], None]
"""Called with the number of deal sets just finished (each one is ``players`` games)."""

RAY_MISSING = "Ray is not installed: pip install 'callbreak[ray]' (or run without --ray)"


@dataclass
class ArenaRun:
    """Every game of a run, in deal order, with the measurements taken while playing."""

    config: ArenaConfig
    sets: list[DealSetResult]
    times_ms: list[list[float]]
    """Every decision's time in milliseconds, by lineup entry."""
    illegal: list[int]
    illegal_examples: list[str]
    """The run's first faults in deal order (at most ``MAX_ILLEGAL_EXAMPLES``), each labelled
    with its kind: ``illegal: ``, ``unusable answer: ``, ``bot error: `` or ``timeout: ``."""
    workers: int
    backend: str
    """``inline``, ``processes`` or ``ray``."""
    wall_s: float
    timeouts: list[int] = field(default_factory=list)
    """Answers that came too late (remote seats), by lineup entry; replaced like illegal ones."""
    fallbacks: list[int] = field(default_factory=list)
    """Answers a bot took from a stand-in (``fell_back``: the expert out of time), by entry."""


def default_workers() -> int:
    return os.cpu_count() or 1


def chunk_tasks(config: ArenaConfig, workers: int) -> list[ChunkTask]:
    """Consecutive ranges of deal sets: about four chunks per worker, at most 50 deal sets each."""
    size = max(1, min(50, math.ceil(config.deals / (workers * 4))))
    return [
        ChunkTask.of(config, start, min(start + size, config.deals))
        for start in range(0, config.deals, size)
    ]


Finished = Generator[tuple[int, ChunkResult], None, None]
"""Chunks as they finish, each with its task's index in the list handed out."""


def _inline(tasks: Sequence[ChunkTask]) -> Finished:
    for index, task in enumerate(tasks):
        yield index, play_chunk(task)


IN_FLIGHT_PER_WORKER = 2
"""Chunks handed to the pool per worker at a time: enough that no worker waits for the
next, few enough that an interrupted run has little queued work to throw away."""


STOP_GRACE_S = 3.0
"""How long a stopped run waits for its workers to give up at their next decision before it
ends them the hard way (a bot stuck in one decision)."""


def _start_worker(stop: Any) -> None:
    """A worker's initializer: Ctrl-C reaches every process of the terminal's group, and a
    worker that took it would return KeyboardInterrupt as its chunk's result and go on to
    the next chunk, so it is left to the parent, which stops the run through ``stop`` (the
    shared flag that ``play.play_game`` reads at each decision; see ``_end``)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    play.STOP = stop


def _processes(tasks: Sequence[ChunkTask], workers: int) -> Finished:
    """The chunks on a pool of ``workers`` processes, handed out a few at a time.

    Stopped early (Ctrl-C, an error, the consumer closing the generator), it cancels the
    chunks not started and has the workers give up the ones they play (``_end``), rather
    than wait for every queued chunk to be played for nothing.
    """
    context = multiprocessing.get_context()
    stop = context.RawValue("b", 0)
    pool = ProcessPoolExecutor(
        max_workers=workers, mp_context=context, initializer=_start_worker, initargs=(stop,)
    )
    queue = iter(enumerate(tasks))
    running: dict[Future[ChunkResult], int] = {}
    try:
        while True:
            for index, task in islice(queue, workers * IN_FLIGHT_PER_WORKER - len(running)):
                running[pool.submit(play_chunk, task)] = index
            if not running:
                break
            done, _ = wait(running, return_when=FIRST_COMPLETED)
            for future in done:
                yield running.pop(future), future.result()
    except BaseException:
        _end(pool, stop)
        raise
    pool.shutdown()


def _end(pool: ProcessPoolExecutor, stop: Any) -> None:
    """Stop a run now: cancel the chunks not started, raise the ``stop`` flag so that each
    worker gives up its chunk at its next decision and exits, and end any worker still
    there after ``STOP_GRACE_S``.

    A worker is ended by force only as the last resort: one killed while it writes its
    result leaves half a message in the pool's pipe, and the pool's thread waits for the
    rest for ever (the interpreter then hangs at exit)."""
    stop.value = 1
    processes = list((pool._processes or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    deadline = time.monotonic() + STOP_GRACE_S
    for process in processes:
        process.join(max(0.0, deadline - time.monotonic()))
    for process in processes:
        if process.is_alive():
            process.terminate()
            process.join(timeout=5)


def _ray(tasks: Sequence[ChunkTask], address: str, workers: int) -> Finished:
    """The same chunks as Ray tasks on a cluster (``address``) or a local Ray (``local``).

    Ray has no in-process "local mode" any more, so ``local`` starts a private
    Ray with ``workers`` CPUs on this machine and shuts it down afterwards.
    """
    try:
        import ray
    except ImportError:
        raise ArenaError(RAY_MISSING) from None
    started = not ray.is_initialized()
    if started:
        if address == "local":
            ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
        else:
            ray.init(address=address, log_to_driver=False)
    try:
        remote = ray.remote(play_chunk)
        refs = {remote.remote(task): index for index, task in enumerate(tasks)}
        pending = list(refs)
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                result: ChunkResult = ray.get(ref)
                yield refs[ref], result
    finally:
        if started:
            ray.shutdown()


def run_arena(
    config: ArenaConfig,
    workers: int | None = None,
    *,
    ray_address: str | None = None,
    progress: Progress | None = None,
) -> ArenaRun:
    """Play every deal set of ``config`` in every rotation and gather the games in deal order.

    ``workers = 1`` plays in this process (no pickling, easy to debug, and a
    bot registered only in this process works); more use a process pool, or
    Ray tasks when ``ray_address`` is given.
    """
    return run_arenas([config], workers, ray_address=ray_address, progress=progress)[0]


def run_arenas(
    configs: Sequence[ArenaConfig],
    workers: int | None = None,
    *,
    ray_address: str | None = None,
    progress: Progress | None = None,
) -> list[ArenaRun]:
    """``run_arena`` for several configurations at once, on one pool of workers.

    The chunks of every configuration go to the same process pool (or Ray),
    so a run of many short lineups (``arena.pool``: one per mix) keeps every
    worker busy and starts the workers once.  Each run's ``wall_s`` is the
    wall time of the whole batch.
    """
    workers = default_workers() if workers is None else workers
    if workers < 1:
        raise ArenaError(f"workers must be at least 1, not {workers}")
    owners: list[int] = []
    tasks: list[ChunkTask] = []
    for number, config in enumerate(configs):
        chunks = chunk_tasks(config, workers)
        tasks.extend(chunks)
        owners.extend([number] * len(chunks))
    started = time.perf_counter()
    if ray_address is not None:
        backend, results = "ray", _ray(tasks, ray_address, workers)
    elif workers == 1:
        backend, results = "inline", _inline(tasks)
    else:
        backend, results = "processes", _processes(tasks, workers)
    finished: list[list[ChunkResult]] = [[] for _ in configs]
    try:
        for index, chunk in results:
            finished[owners[index]].append(chunk)
            if progress is not None:
                progress(len(chunk.sets))
    finally:
        results.close()  # at once, even on Ctrl-C in ``progress``: it ends the workers
    wall_s = time.perf_counter() - started
    return [
        _gather(config, chunks, workers, backend, wall_s)
        for config, chunks in zip(configs, finished, strict=True)
    ]


def _gather(
    config: ArenaConfig, chunks: list[ChunkResult], workers: int, backend: str, wall_s: float
) -> ArenaRun:
    """One configuration's chunks merged in deal order."""
    chunks.sort(key=lambda c: c.start)
    players = config.players
    times: list[list[float]] = [[] for _ in range(players)]
    illegal = [0] * players
    timeouts = [0] * players
    fallbacks = [0] * players
    examples: list[str] = []
    sets: list[DealSetResult] = []
    for chunk in chunks:
        sets.extend(chunk.sets)
        for entry in range(players):
            times[entry].extend(chunk.times_ms[entry])
            illegal[entry] += chunk.illegal[entry]
            timeouts[entry] += chunk.timeouts[entry] if chunk.timeouts else 0
            fallbacks[entry] += chunk.fallbacks[entry] if chunk.fallbacks else 0
        examples.extend(chunk.illegal_examples)
    # Each chunk keeps its own first few: the run's first few, in deal order, are among them,
    # and the same whatever the number of chunks (that is, of workers).
    del examples[MAX_ILLEGAL_EXAMPLES:]
    return ArenaRun(
        config, sets, times, illegal, examples, workers, backend, wall_s, timeouts, fallbacks
    )
