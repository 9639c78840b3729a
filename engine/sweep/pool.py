"""Run a sweep's days on worker processes (``multiprocessing``, fork or spawn): for a machine
without Dask, such as the GPU host. The same days (``day.run_day``) and the same ``Outcome`` as
``runner.run_sweep``, so ``save.save_outcome`` writes the same files.

    outcome = run_pool(sweep, runs, workers=16, stop=lambda: time.monotonic() > deadline)

Each worker holds one day at a time, handed out in the order of ``runs``: a sweep stopped early
has the first ones (order them seed-major, and every scenario gets its first seeds). The pool
knows which day each worker holds, so a worker that dies (killed, a crash, out of memory) is a
``Failure`` of that day, at once, and a new worker takes the next day. The days in flight when
the sweep stops are killed with their workers. On a cold Numba cache the day's loop compiles
once, in a child process, before the workers start (``engine.loop_warmup``), not once in each.
Not here: a day run in this process starts GNU OpenMP's threads, and every forked worker that
then solved on the CPU would be ended by OpenMP ("fork() called from a process already using
GNU OpenMP"). A caller that has run Numba's parallel code itself passes
``start_method="spawn"``.
"""

from __future__ import annotations

import multiprocessing as mp
import signal
from multiprocessing.connection import wait
from typing import Callable

from .. import loop_warmup
from .common import Failure, Outcome, threads_per_worker
from .day import run_day
from .scenario import Run, Sweep

POLL_S = 0.2     # how often ``stop()`` is asked while no day finishes
JOIN_S = 5.0     # how long a worker told to end gets before it is killed


def worker_threads(workers: int) -> int:
    """Numba threads for each of ``workers`` pool processes: the cores shared out, within the
    most this process's Numba allows (``NUMBA_NUM_THREADS``)."""
    import numba
    return min(threads_per_worker(workers), numba.config.NUMBA_NUM_THREADS)


def _serve(conn, sweep: Sweep, day: Callable, threads: int) -> None:
    """A worker: run each day sent until told to end (None); send (row, wall, error) back."""
    import numba
    signal.signal(signal.SIGINT, signal.SIG_IGN)   # a terminal's Ctrl-C is the sweep's to handle
    numba.set_num_threads(threads)
    while (run := conn.recv()) is not None:
        try:
            row, wall = day(sweep.airports[run.scenario.layout], run, sweep.variant,
                            sweep.edit_sets[run.scenario.edits])
            conn.send((row, wall, None))
        except Exception as exc:  # an edit that cannot apply: the sweep goes on, the day is reported
            conn.send((None, 0.0, f"{type(exc).__name__}: {exc}"))


class _Worker:
    """One worker process, its end of the pipe, and the day it holds (None: idle)."""

    def __init__(self, ctx, sweep: Sweep, day: Callable, threads: int):
        self.conn, there = ctx.Pipe()
        self.process = ctx.Process(target=_serve, args=(there, sweep, day, threads), daemon=True)
        self.process.start()
        there.close()
        self.run: Run | None = None

    def give(self, run: Run) -> None:
        self.run = run
        try:
            self.conn.send(run)
        except OSError:      # it has just died: reading its answer says so
            pass

    def death(self) -> str:
        """What ended the process, in words."""
        self.process.join(JOIN_S)
        code = self.process.exitcode
        if code is not None and code < 0:
            return f"killed by {signal.Signals(-code).name}"
        return f"exit status {code}"

    def end(self, kill: bool) -> None:
        if kill:
            self.process.kill()
        else:
            try:
                self.conn.send(None)
            except OSError:
                pass
        self.process.join(JOIN_S)
        if self.process.is_alive():
            self.process.kill()
            self.process.join()
        self.conn.close()


def run_pool(sweep: Sweep, runs: list[Run] | None = None, workers: int = 1,
             stop: Callable[[], bool] | None = None,
             on_result: Callable[[Run, dict | None, float], None] | None = None,
             start_method: str | None = None, day: Callable = run_day) -> Outcome:
    """Run ``runs`` (default: all of the sweep's, in their order) on ``workers`` processes and
    collect their rows. ``on_result`` hears of each finished day (row None if it failed, or its
    worker died); ``stop()`` returning True (asked after each day and every ``POLL_S``) ends the
    sweep there, marked ``interrupted`` if days were left. ``start_method``: multiprocessing's
    (default: the platform's); with "spawn", ``day`` must be importable by name (a module's
    function), as ``run_day`` is."""
    runs = sweep.runs() if runs is None else runs
    outcome = Outcome()
    if not runs:
        return outcome
    loop_warmup.compile_in_child()   # once, before the workers: they load it from the cache
    ctx = mp.get_context(start_method)
    threads = worker_threads(workers)
    todo = iter(runs)
    left = len(runs)
    pool = [_Worker(ctx, sweep, day, threads) for _ in range(min(workers, left))]
    try:
        for w in pool:
            w.give(next(todo))
        while left:
            if stop and stop():
                outcome.interrupted = True
                break
            w = _with_news(pool)
            if w is None:
                continue
            run, w.run = w.run, None
            try:
                row, wall, error = w.conn.recv()
            except (EOFError, OSError):     # it died holding the day: a new one goes on
                row, wall, error = None, 0.0, (
                    f"the worker process died ({w.death()}) while running day {run.index} "
                    f"({run.scenario.label()}, seed {run.seed})")
                w.end(kill=True)
                pool.remove(w)
                w = None
            left -= 1
            if error is None:
                outcome.rows[run.index], outcome.wall_s[run.index] = row, wall
            else:
                outcome.failures.append(Failure(run, error))
            if on_result:
                on_result(run, row, wall)
            nxt = next(todo, None)
            if nxt is not None:
                if w is None:
                    w = _Worker(ctx, sweep, day, threads)
                    pool.append(w)
                w.give(nxt)
    finally:
        for w in pool:
            w.end(kill=w.run is not None)
    return outcome


def _with_news(pool: list[_Worker]) -> _Worker | None:
    """A busy worker with an answer or dead, waiting up to ``POLL_S``; None if none."""
    busy = [w for w in pool if w.run is not None]
    ready = set(wait([w.conn for w in busy] + [w.process.sentinel for w in busy], POLL_S))
    return next((w for w in busy if w.conn in ready or w.process.sentinel in ready), None)


def seed_major(runs: list[Run]) -> list[Run]:
    """``runs`` ordered by seed, then scenario: stopped early, every scenario has its first seeds."""
    return sorted(runs, key=lambda r: (r.seed, r.scenario.index))
