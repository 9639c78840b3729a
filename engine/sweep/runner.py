"""Run a sweep's days on Dask: a ``LocalCluster`` of worker processes here, or an existing cluster.

Each day is one task (``day.run_day``); each airport is sent to the cluster once. Results come
back as they finish, to a callback, so an interrupted sweep keeps every finished day. Nothing
here knows about files or terminals: ``engine.commands.sweep`` does that. On a cold Numba cache
the day's loop compiles once here before a local cluster starts (``engine.loop_warmup``), not
once in each worker.
"""

from __future__ import annotations

import logging
import signal
import threading
import time
import uuid
from contextlib import contextmanager
from typing import Callable, Iterator

import dask
from distributed import Client, LocalCluster, as_completed

from .. import loop_warmup
from .common import Failure, Outcome, default_workers, threads_per_worker
from .day import run_day
from .scenario import Run, Sweep

POLL_S = 0.2     # how often ``stop()`` is asked while no day finishes


@contextmanager
def open_client(scheduler: str | None = None, workers: int | None = None,
                timeout: float = 10.0) -> Iterator[Client]:
    """A client of the cluster at ``scheduler``, or of a new local one with ``workers`` processes
    (one thread each: a day is single-threaded Python; Numba's threads are shared out)."""
    if scheduler:
        with Client(scheduler, timeout=f"{timeout}s") as client:
            yield client
        return
    loop_warmup.compile_here()   # a cold cache: once, here; the local workers load it
    workers = workers or default_workers()
    threads = threads_per_worker(workers)
    pre_spawn = {**dask.config.get("distributed.nanny.pre-spawn-environ", {}),
                 "NUMBA_NUM_THREADS": str(threads)}
    # Worker processes ignore Ctrl-C: the terminal sends it to the whole process group, and the
    # sweep (not each worker) decides how to stop. They inherit SIG_IGN while they start; SIGINT is
    # blocked meanwhile, so a Ctrl-C then stays pending (Linux keeps a blocked signal even while
    # ignored) and reaches this process as KeyboardInterrupt once the handler is back.
    main = threading.current_thread() is threading.main_thread()
    cluster = None
    try:
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        # only the main thread may set handlers; elsewhere (the app's worker thread) the blocked
        # mask alone keeps a terminal's Ctrl-C from the starting workers
        handler = signal.signal(signal.SIGINT, signal.SIG_IGN) if main else None
        try:
            with dask.config.set({"distributed.nanny.pre-spawn-environ": pre_spawn}):
                cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                       dashboard_address=":0", silence_logs=logging.CRITICAL)
        finally:
            if main:
                signal.signal(signal.SIGINT, handler)
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
        with Client(cluster) as client:
            yield client
    finally:
        if cluster is not None:
            cluster.close()

def run_sweep(client: Client, sweep: Sweep, runs: list[Run] | None = None,
              on_result: Callable[[Run, dict | None, float], None] | None = None,
              stop: Callable[[], bool] | None = None) -> Outcome:
    """Run ``runs`` (default: all of the sweep's) and collect their rows. ``on_result`` hears of
    each finished day (row None if it failed); ``stop()`` returning True (asked after each day and
    every ``POLL_S`` while none finishes), or Ctrl-C, cancels the days not yet finished and
    returns what finished, marked ``interrupted``."""
    runs = sweep.runs() if runs is None else runs
    outcome = Outcome()
    if not runs:
        return outcome
    # hash=False: a key of its own, which a previous sweep's release of the same airport cannot drop
    airports = {name: client.scatter(a, hash=False) for name, a in sweep.airports.items()}
    token = uuid.uuid4().hex[:12]
    futures = {client.submit(run_day, airports[r.scenario.layout], r, sweep.variant,
                             sweep.edit_sets[r.scenario.edits],
                             key=f"day-{r.index}-{token}", pure=False): r
               for r in runs}
    ctrl_c = _CtrlC()
    finished = as_completed(futures)
    try:
        while not finished.is_empty():
            batch = finished.next_batch(block=False)
            if not batch:       # nothing new: ask stop() now and then, not only after a day
                if stop and stop():
                    outcome.interrupted = True
                    break
                time.sleep(POLL_S)
                continue
            if _collect(batch, futures, outcome, on_result, ctrl_c, stop, len(runs)):
                break
    except KeyboardInterrupt:
        outcome.interrupted = True
    finally:
        ctrl_c.restore()
        client.cancel([f for f in futures if not f.done()])
    return outcome


def _collect(batch, futures, outcome: Outcome, on_result, ctrl_c, stop, total: int) -> bool:
    """Take in a batch of finished days; True when the sweep is to stop (Ctrl-C or ``stop()``)."""
    for future in batch:
        run = futures[future]
        try:
            row, wall = future.result()
        except Exception as exc:   # the day raised (an edit that cannot apply), or was lost
            outcome.failures.append(Failure(run, f"{type(exc).__name__}: {exc}"))
            row, wall = None, 0.0
        else:
            outcome.rows[run.index], outcome.wall_s[run.index] = row, wall
        if on_result:
            on_result(run, row, wall)
        if ctrl_c.pressed:
            outcome.interrupted = True
            return True
        if stop and stop():
            outcome.interrupted = len(outcome.rows) + len(outcome.failures) < total
            return True
    return False


class _CtrlC:
    """Ctrl-C during the days, heard even where Python swallows the KeyboardInterrupt it raises
    (it can land in a weakref callback, where exceptions are ignored): the handler also sets
    ``pressed``, which the loop reads after each finished day. Only in the main thread, and only
    where Ctrl-C raises KeyboardInterrupt (not where it is ignored)."""

    def __init__(self):
        self.pressed, self._previous = False, None
        if (threading.current_thread() is threading.main_thread()
                and signal.getsignal(signal.SIGINT) is signal.default_int_handler):
            self._previous = signal.signal(signal.SIGINT, self._heard)

    def _heard(self, signum, frame):
        self.pressed = True
        raise KeyboardInterrupt

    def restore(self) -> None:
        if self._previous is not None:
            signal.signal(signal.SIGINT, self._previous)
