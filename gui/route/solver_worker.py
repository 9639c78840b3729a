"""Floyd–Warshall off the UI thread: one worker thread, newest request wins.

Every request gets a generation id. Submitting a new request makes every older one stale: a
stale request still queued is skipped without solving, and a stale result that finishes anyway
is never delivered as current (``is_current`` says so), so a result computed for a previous
airport, cost model or variant can never be drawn on the new one. One thread only: Numba's
parallel CPU variants must not be entered from two threads at once.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np
from PySide6.QtCore import QObject, QThreadPool, Signal, Slot

from engine import variant_warmup
from engine.apsp import solve as apsp_solve
from engine.apsp.solve import first_use
from engine.gpu_device import simulated

from ..workers import Relay, Task


@dataclass
class SolveJob:
    """What to solve, and an opaque ``context`` handed back with the answer."""
    generation: int
    cost: np.ndarray = field(repr=False)
    variant: str
    context: Any = None


# A 3-node graph solved once per variant before its first real solve, so that Numba's JIT
# compilation is not reported as the variant's solve time.
WARM_UP = np.array([[0, 1, np.inf], [np.inf, 0, 1], [1, np.inf, 0]], dtype=np.float64)


def _solve_work(job: SolveJob, solve: Callable, warmed: set[str] | None,
                background_compile: Callable | None) -> Callable:
    """The task's work: warm the variant up once (saying "compiling"), then solve. With
    ``background_compile`` a GPU variant's kernels, a CPU variant's on a cold Numba cache and
    ``auto``'s first measurements are made in a process of their own for this size while scipy
    answers (``variant_warmup``), else here, before the solve."""
    def work(say):
        if warmed is not None and job.variant not in warmed:
            warmed.add(job.variant)
            say("compiling")   # a cold cache compiles the variant's code: seconds, once
            apart = first_use(job.variant) if background_compile is not None else None
            if apart is not None:
                background_compile(apart, len(job.cost))
                return solve(job.cost, job.variant)
            solve(WARM_UP, job.variant)  # JIT-compile outside the measured solve
        return solve(job.cost, job.variant)
    return work


class SolverWorker(QObject):
    """Runs ``solve(cost, variant)`` in a worker thread and reports back by signals.

    ``solved(job, result)`` and ``failed(job, message)`` are emitted on the UI thread for the
    *current* job only; stale outcomes are dropped here (and counted in ``dropped``);
    ``compiling(variant)`` before a variant's first solve in this process, which compiles it (or
    loads it from the disk cache); a GPU variant's kernels compile in the background on a real
    GPU (a CPU variant's on a cold Numba cache, ``auto``'s first measurements), scipy answering
    meanwhile, and ``compiled(variant, state)`` when that ends.
    """

    solved = Signal(object, object)   # SolveJob, APSPResult
    failed = Signal(object, str)      # SolveJob, message
    compiling = Signal(str)           # variant
    compiled = Signal(str, str)       # variant, variant_warmup state ("ready" or "failed: why")
    busyChanged = Signal(bool)

    def __init__(self, parent: QObject | None = None, solve_fn: Callable = apsp_solve,
                 warm_up: bool | None = None):
        super().__init__(parent)
        self._solve_fn = solve_fn
        # Warm-up (compile) before a variant's first solve: by default only for the real engine.
        self._warmed: set[str] | None = set() if (solve_fn is apsp_solve if warm_up is None
                                                   else warm_up) else None
        self._background_compile = (self._compile_in_background
                                    if self._warmed is not None and not simulated() else None)
        self._pool = QThreadPool(self)
        self._pool.setMaxThreadCount(1)
        self._lock = threading.Lock()
        self._generation = 0
        self._in_flight = 0
        self._closed = False
        self.dropped = 0
        self._relay = Relay()  # lives on the UI thread; emitted from the worker
        self._relay.done.connect(self._on_solved)
        self._relay.failed.connect(self._on_failed)
        self._relay.finished.connect(self._on_done)
        self._relay.news.connect(lambda job, _what, _payload: self.compiling.emit(job.variant))

    # -- requests ---------------------------------------------------------------------------

    def submit(self, cost: np.ndarray, variant: str, context: Any = None) -> SolveJob:
        """Queue a solve; every earlier request becomes stale. Returns the job (its generation)."""
        if self._closed:
            raise RuntimeError("the solver worker has been shut down")
        with self._lock:
            self._generation += 1
            job = SolveJob(self._generation, np.array(cost, dtype=np.float64, copy=True),
                           variant, context)
        self._in_flight += 1
        if self._in_flight == 1:
            self.busyChanged.emit(True)
        self._pool.start(Task(job, _solve_work(job, self._solve_fn, self._warmed,
                                               self._background_compile), self._relay,
                              lambda: self.is_current(job.generation)))
        return job

    def _compile_in_background(self, variant: str, n: int) -> None:
        variant_warmup.start("apsp", variant, (n,), lambda state: self.compiled.emit(variant, state))

    def cancel(self) -> None:
        """Make every outstanding request stale (a solve already running finishes unseen)."""
        with self._lock:
            self._generation += 1

    def is_current(self, generation: int) -> bool:
        with self._lock:
            return generation == self._generation and not self._closed

    @property
    def generation(self) -> int:
        return self._generation

    @property
    def closed(self) -> bool:
        return self._closed

    @property
    def busy(self) -> bool:
        return self._in_flight > 0

    def wait(self, msecs: int = -1) -> bool:
        """Block until the worker thread is idle; False on timeout."""
        return self._pool.waitForDone(msecs)

    def shutdown(self, msecs: int = 30000) -> bool:
        """Drop everything outstanding and wait for a running solve to end (window closing)."""
        with self._lock:
            self._generation += 1
            self._closed = True
        self._pool.clear()
        return self._pool.waitForDone(msecs)

    # -- outcomes (UI thread) ---------------------------------------------------------------

    @Slot(object, object)
    def _on_solved(self, job: SolveJob, result) -> None:
        if self.is_current(job.generation):
            self.solved.emit(job, result)
        else:
            self.dropped += 1

    @Slot(object, str)
    def _on_failed(self, job: SolveJob, message: str) -> None:
        if self.is_current(job.generation):
            self.failed.emit(job, message)
        else:
            self.dropped += 1

    @Slot(object)
    def _on_done(self, job: SolveJob) -> None:
        self._in_flight = max(0, self._in_flight - 1)
        if self._in_flight == 0:
            self.busyChanged.emit(False)
