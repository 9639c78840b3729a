"""Run a sweep's days on a process pool (``multiprocessing``, forked): for a machine without Dask,
such as the GPU host. The same days (``day.run_day``) and the same ``Outcome`` as
``runner.run_sweep``, so ``save.save_outcome`` writes the same files.

    outcome = run_pool(sweep, runs, workers=16, stop=lambda: time.monotonic() > deadline)

Days are handed out one at a time in the order of ``runs``: a sweep stopped early has the first
ones (order them seed-major, and every scenario gets its first seeds). The days in flight when it
stops are killed with the pool.
"""

from __future__ import annotations

import multiprocessing as mp
from typing import Callable

from .common import Failure, Outcome, threads_per_worker
from .day import run_day
from .scenario import Run, Sweep

POLL_S = 0.2     # how often ``stop()`` is asked while no day finishes
_SWEEP: Sweep | None = None     # the sweep, as each forked worker inherits it


def worker_threads(workers: int) -> int:
    """Numba threads for each of ``workers`` pool processes: the cores shared out, within the
    most this process's Numba allows (``NUMBA_NUM_THREADS``)."""
    import numba
    return min(threads_per_worker(workers), numba.config.NUMBA_NUM_THREADS)


def _start(threads: int) -> None:
    import numba
    numba.set_num_threads(threads)


def _day(run: Run):
    """(run index, row, wall seconds, error): a day that raises comes back as its error."""
    try:
        row, wall = run_day(_SWEEP.airports[run.scenario.layout], run, _SWEEP.variant,
                            _SWEEP.edit_sets[run.scenario.edits])
    except Exception as exc:   # an edit that cannot apply: the sweep goes on, the day is reported
        return run.index, None, 0.0, f"{type(exc).__name__}: {exc}"
    return run.index, row, wall, None


def run_pool(sweep: Sweep, runs: list[Run] | None = None, workers: int = 1,
             stop: Callable[[], bool] | None = None,
             on_result: Callable[[Run, dict | None, float], None] | None = None) -> Outcome:
    """Run ``runs`` (default: all of the sweep's, in their order) on ``workers`` processes and
    collect their rows. ``on_result`` hears of each finished day (row None if it failed);
    ``stop()`` returning True (asked after each day and every ``POLL_S``) ends the sweep there,
    marked ``interrupted`` if days were left."""
    global _SWEEP
    runs = sweep.runs() if runs is None else runs
    by_index = {r.index: r for r in runs}
    outcome = Outcome()
    if not runs:
        return outcome
    _SWEEP = sweep
    with mp.get_context("fork").Pool(workers, _start, (worker_threads(workers),)) as pool:
        pending = pool.imap_unordered(_day, runs)
        done = 0
        while done < len(runs):
            if stop and stop():
                outcome.interrupted = True
                break
            try:
                index, row, wall, error = pending.next(timeout=POLL_S)
            except mp.TimeoutError:
                continue
            done += 1
            run = by_index[index]
            if error is None:
                outcome.rows[index], outcome.wall_s[index] = row, wall
            else:
                outcome.failures.append(Failure(run, error))
            if on_result:
                on_result(run, row, wall)
        pool.terminate()
    _SWEEP = None
    return outcome


def seed_major(runs: list[Run]) -> list[Run]:
    """``runs`` ordered by seed, then scenario: stopped early, every scenario has its first seeds."""
    return sorted(runs, key=lambda r: (r.seed, r.scenario.index))
