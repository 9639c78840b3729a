"""The benchmark off the UI thread: one ``measure`` per (variant, size), cancellable between points.

Same protocol as ``python main.py bench`` (engine.bench does the timing and the reference check);
this module only sequences the points, stops a variant's ladder at the first point over the
budget (or the first failure), and reports each point by a queued signal. Every run has a
generation id, so a cancelled run's late point is never shown as part of a newer run.
"""

from __future__ import annotations

import shlex
import threading
import traceback
from dataclasses import dataclass, field
from typing import Callable

from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal, Slot

from engine.bench import Point, Report, machine_info, measure, paper_answers
from engine.apsp.random_graph import paper_random_graph


@dataclass(frozen=True)
class BenchPlan:
    """What to run: variants (registry names or peers) in order, over sizes, on each density."""
    variants: tuple[str, ...]
    sizes: tuple[int, ...]
    densities: tuple[int, ...] = (15,)
    budget_s: float = 2.0

    @property
    def total(self) -> int:
        return len(self.variants) * len(self.sizes) * len(self.densities)

    def command(self) -> str:
        """The CLI command that runs the same points (bisection and airports off)."""
        q = lambda xs: " ".join(shlex.quote(str(x)) for x in xs)  # noqa: E731
        return (f"python main.py bench --variants {q(self.variants)} --sizes {q(self.sizes)} "
                f"--density {q(self.densities)} --budget {self.budget_s:g} --no-airports --bisect 0")


@dataclass
class Failure:
    """A point that did not produce a time: a reference mismatch, a GPU error, …"""
    variant: str
    graph: str
    n: int
    message: str


@dataclass
class BenchRun:
    """The points and failures of one run, in the order they were measured."""
    generation: int
    plan: BenchPlan
    points: list[Point] = field(default_factory=list)
    failures: list[Failure] = field(default_factory=list)
    done: int = 0          # points measured, failed or skipped (past the budget)
    cancelled: bool = False


def answers_for(points: list[Point], failures: list[Failure], budget_s: float) -> dict:
    """The paper's answers per variant and graph, as the CLI writes them, plus ``error`` where a
    point failed."""
    out = paper_answers(points, budget_s)
    for f in failures:
        out.setdefault(f.variant, {}).setdefault(f.graph, {})["error"] = f"n={f.n}: {f.message}"
    return out


def report_of(run: BenchRun, machine: dict) -> Report:
    """The run as the same ``Report`` the CLI writes (saved with ``Report.to_json``)."""
    return Report(command=run.plan.command(), machine=machine, budget_s=run.plan.budget_s,
                  points=list(run.points),
                  answers=answers_for(run.points, run.failures, run.plan.budget_s))


class _Relay(QObject):
    """Carries the worker thread's news to the UI thread (queued signals)."""
    started = Signal(int, object)            # generation, machine info
    measuring = Signal(int, str, str, int)   # generation, variant, graph, n
    measured = Signal(int, object)           # generation, Point
    failed = Signal(int, object)             # generation, Failure
    advanced = Signal(int, int)              # generation, points done (incl. skipped)
    finished = Signal(int, bool)             # generation, cancelled


class _BenchTask(QRunnable):
    def __init__(self, generation: int, plan: BenchPlan, relay: _Relay,
                 cancelled: threading.Event, measure_fn: Callable, graph_fn: Callable,
                 machine_fn: Callable):
        super().__init__()
        self.setAutoDelete(True)
        self.generation, self.plan, self.relay, self.cancelled = generation, plan, relay, cancelled
        self.measure_fn, self.graph_fn, self.machine_fn = measure_fn, graph_fn, machine_fn

    def run(self) -> None:  # worker thread
        g, plan, relay = self.generation, self.plan, self.relay
        done = 0
        try:
            try:
                machine = self.machine_fn()
            except Exception as exc:  # machine info is nice to have, never a reason to stop
                machine = {"error": f"{exc.__class__.__name__}: {exc}"}
            relay.started.emit(g, machine)
            for density in plan.densities:
                graph = f"random-{density}%"
                for variant in plan.variants:
                    for i, n in enumerate(plan.sizes):
                        if self.cancelled.is_set():
                            return
                        relay.measuring.emit(g, variant, graph, n)
                        stop = False
                        try:
                            cost = self.graph_fn(n, density, seed=n)
                            p = self.measure_fn(variant, cost, graph, plan.budget_s)
                            relay.measured.emit(g, p)
                            stop = p.kernel_median_ms / 1e3 > plan.budget_s
                        except Exception as exc:  # a mismatch, a GPU failure: shown, not raised
                            if not isinstance(exc, (AssertionError, ValueError, RuntimeError)):
                                traceback.print_exc()
                            relay.failed.emit(g, Failure(variant, graph, n,
                                                         f"{exc.__class__.__name__}: {exc}"))
                            stop = True
                        if stop:  # past the budget or broken: the rest of this ladder is skipped
                            done += len(plan.sizes) - i
                            relay.advanced.emit(g, done)
                            break
                        done += 1
                        relay.advanced.emit(g, done)
        finally:
            relay.finished.emit(g, self.cancelled.is_set())


class BenchWorker(QObject):
    """Runs a ``BenchPlan`` in one worker thread; signals arrive on the UI thread, for the
    current run only.

    ``measure_fn`` (default ``engine.bench.measure``) and ``graph_fn`` (default the paper's
    random graph) can be replaced, e.g. to pause a test between points.
    """

    started = Signal(object)             # BenchRun
    measuring = Signal(str, str, int)    # variant, graph, n
    measured = Signal(object)            # Point
    failed = Signal(object)              # Failure
    progressed = Signal(int, int)        # done, total
    finished = Signal(object)            # BenchRun

    def __init__(self, parent: QObject | None = None, measure_fn: Callable = measure,
                 graph_fn: Callable = paper_random_graph, machine_fn: Callable = machine_info):
        super().__init__(parent)
        self._measure_fn, self._graph_fn, self._machine_fn = measure_fn, graph_fn, machine_fn
        # One thread: Numba's compiled variants and the GPU are not entered twice at once.
        self._pool = QThreadPool(self)
        self._pool.setMaxThreadCount(1)
        self._generation = 0
        self._cancel = threading.Event()
        self._closed = False
        self._finished = True
        self.run: BenchRun | None = None
        self.machine: dict = {}
        self._relay = _Relay()
        self._relay.started.connect(self._on_started)
        self._relay.measuring.connect(self._on_measuring)
        self._relay.measured.connect(self._on_measured)
        self._relay.failed.connect(self._on_failed)
        self._relay.advanced.connect(self._on_advanced)
        self._relay.finished.connect(self._on_finished)

    @property
    def busy(self) -> bool:
        return self.run is not None and not self._finished

    def start(self, plan: BenchPlan) -> BenchRun:
        """Begin a run; a run still going is cancelled (it stops after its current point)."""
        if self._closed:
            raise RuntimeError("the benchmark worker has been shut down")
        self._cancel.set()
        self._cancel = threading.Event()
        self._generation += 1
        self.run = BenchRun(self._generation, plan)
        self._finished = False
        self._pool.start(_BenchTask(self._generation, plan, self._relay, self._cancel,
                                    self._measure_fn, self._graph_fn, self._machine_fn))
        return self.run

    def cancel(self) -> None:
        """Stop after the point being measured (``measure`` itself cannot be interrupted)."""
        self._cancel.set()

    def wait(self, msecs: int = -1) -> bool:
        return self._pool.waitForDone(msecs)

    def shutdown(self, msecs: int = 120_000) -> bool:
        """Cancel and wait for the current point to end (window closing)."""
        self._closed = True
        self._cancel.set()
        self._pool.clear()
        return self._pool.waitForDone(msecs)

    # -- news from the worker thread (UI thread) -------------------------------------------

    def _current(self, generation: int) -> bool:
        return self.run is not None and generation == self.run.generation and not self._closed

    @Slot(int, object)
    def _on_started(self, g: int, machine: dict) -> None:
        if self._current(g):
            self.machine = machine
            self.started.emit(self.run)

    @Slot(int, str, str, int)
    def _on_measuring(self, g: int, variant: str, graph: str, n: int) -> None:
        if self._current(g):
            self.measuring.emit(variant, graph, n)

    @Slot(int, object)
    def _on_measured(self, g: int, point: Point) -> None:
        if self._current(g):
            self.run.points.append(point)
            self.measured.emit(point)

    @Slot(int, object)
    def _on_failed(self, g: int, failure: Failure) -> None:
        if self._current(g):
            self.run.failures.append(failure)
            self.failed.emit(failure)

    @Slot(int, int)
    def _on_advanced(self, g: int, done: int) -> None:
        if self._current(g):
            self.run.done = done
            self.progressed.emit(done, self.run.plan.total)

    @Slot(int, bool)
    def _on_finished(self, g: int, cancelled: bool) -> None:
        if self._current(g):
            self.run.cancelled = cancelled and self.run.done < self.run.plan.total
            self._finished = True
            self.finished.emit(self.run)
