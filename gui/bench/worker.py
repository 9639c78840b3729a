"""The benchmark off the UI thread: a problem's ``benchmark`` (engine.bench.problems) in a
worker thread, its news carried to the UI thread by queued signals, cancellable between points.

The engine sequences the points exactly as ``python main.py bench`` does and times and checks
each; here a failed point is shown and the run goes
on. Every run has a generation id, so a cancelled run's late news is never shown as part of a
newer run.
"""

from __future__ import annotations

import shlex
import threading
import traceback
from dataclasses import dataclass, field

from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal, Slot

from engine.bench.problems import DEFAULT, problem
from engine.bench.report import Report
from engine.bench.run import BenchHooks, Failure

from ..collector import collect_on_ui_thread

# A mismatch, a GPU error: its message says it all; anything else also prints its traceback.
EXPECTED_FAILURES = (AssertionError, ValueError, RuntimeError)


@dataclass(frozen=True)
class BenchPlan:
    """What to run: a ``problem``'s (engine.bench.problems) variants (registry names or peers)
    in order, up the sizes, then on each named bundled airport, with the problem's ``options``
    ((name, value) pairs of its ``benchmark`` keywords, e.g. densities for apsp, families and
    sources for sssp)."""
    variants: tuple[str, ...]
    sizes: tuple[int, ...]
    budget_s: float = 2.0
    airports: tuple[str, ...] = ()
    problem: str = DEFAULT
    options: tuple = ()

    def keywords(self) -> dict:
        """The problem's own keyword arguments of ``benchmark`` and ``plan_size``."""
        return dict(self.options)

    @property
    def total(self) -> int:
        """The most points the run measures."""
        return problem(self.problem).plan_size(self.variants, self.sizes, list(self.airports),
                                               **self.keywords())

    def command(self) -> str:
        """The CLI command that runs the same points."""
        q = lambda xs: " ".join(shlex.quote(str(x)) for x in xs)  # noqa: E731
        airports = f"--airports {q(self.airports)}" if self.airports else "--no-airports"
        common = f"--variants {q(self.variants)} --sizes {q(self.sizes)}"
        flags = problem(self.problem).OPTION_FLAGS
        own = " ".join(f"{flags[k]} {q(v if isinstance(v, (tuple, list)) else [v])}"
                       for k, v in self.options)
        chosen = "" if self.problem == DEFAULT else f"--problem {self.problem} "  # the CLI's default
        return (f"python main.py bench {chosen}{common} "
                f"--budget {self.budget_s:g} {airports} {own}").strip()


@dataclass
class BenchRun:
    """The news of one run as it came: points and failures in order, progress, and at the end
    the engine's report or, where the run could not go through (machine info, an airport file),
    the error instead."""
    generation: int
    plan: BenchPlan
    points: list = field(default_factory=list)
    failures: list[Failure] = field(default_factory=list)
    done: int = 0          # points measured or failed
    total: int = 0         # the most points: drops as ladders stop past the budget
    cancelled: bool = False
    report: Report | None = None
    error: str | None = None


class _Relay(QObject):
    """Carries the worker thread's news to the UI thread (queued signals)."""
    started = Signal(int, object)                 # generation, machine info
    measuring = Signal(int, str, str, int)        # generation, variant, graph, n
    measured = Signal(int, object)                # generation, Point
    failed = Signal(int, object)                  # generation, Failure
    advanced = Signal(int, int, int)              # generation, done, total
    finished = Signal(int, object, bool, object)  # generation, Report | None, cancelled, error


class _Hooks(BenchHooks):
    """``run_benchmark``'s news as relay signals tagged with the run's generation; a failed point
    is reported and the run goes on; Cancel stops it before the next point."""

    def __init__(self, generation: int, relay: _Relay, cancelled: threading.Event):
        self.generation, self.relay, self.cancelled = generation, relay, cancelled

    def started(self, report):
        self.relay.started.emit(self.generation, report.machine)

    def measuring(self, variant, graph, n):
        self.relay.measuring.emit(self.generation, variant, graph, n)

    def measured(self, report, point):
        self.relay.measured.emit(self.generation, point)

    def failed(self, failure, error):
        if not isinstance(error, EXPECTED_FAILURES):
            traceback.print_exception(error)
        self.relay.failed.emit(self.generation, failure)
        return True

    def advanced(self, done, total):
        self.relay.advanced.emit(self.generation, done, total)

    def should_stop(self):
        return self.cancelled.is_set()


class _BenchTask(QRunnable):
    def __init__(self, generation: int, plan: BenchPlan, relay: _Relay,
                 cancelled: threading.Event, extra: dict):
        super().__init__()
        self.setAutoDelete(True)
        self.generation, self.plan, self.relay, self.cancelled = generation, plan, relay, cancelled
        self.extra = extra

    def run(self) -> None:  # worker thread
        plan, report, error = self.plan, None, None
        try:
            hooks = _Hooks(self.generation, self.relay, self.cancelled)
            keywords = plan.keywords() | self.extra
            report = problem(plan.problem).benchmark(plan.variants, plan.sizes, plan.budget_s,
                                                     list(plan.airports), plan.command(), hooks,
                                                     **keywords)
        except Exception as exc:  # outside any one point (machine info, an airport): shown
            traceback.print_exc()
            error = f"{exc.__class__.__name__}: {exc}"
        finally:
            self.relay.finished.emit(self.generation, report, self.cancelled.is_set(), error)


class BenchWorker(QObject):
    """Runs a ``BenchPlan`` in one worker thread; signals arrive on the UI thread, for the
    current run only.

    ``extra`` keywords go to every run's ``benchmark``: e.g. a ``measure_fn`` that pauses a
    test between points or gives it synthetic times.
    """

    started = Signal(object)             # BenchRun
    measuring = Signal(str, str, int)    # variant, graph, n
    measured = Signal(object)            # Point
    failed = Signal(object)              # Failure
    progressed = Signal(int, int)        # done, total
    finished = Signal(object)            # BenchRun

    def __init__(self, parent: QObject | None = None, **extra):
        super().__init__(parent)
        self._extra = extra
        collect_on_ui_thread()   # no collection may start on the benchmark's thread
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
        self.run = BenchRun(self._generation, plan, total=plan.total)
        self._finished = False
        self._pool.start(_BenchTask(self._generation, plan, self._relay, self._cancel,
                                    self._extra))
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
    def _on_measured(self, g: int, point) -> None:
        if self._current(g):
            self.run.points.append(point)
            self.measured.emit(point)

    @Slot(int, object)
    def _on_failed(self, g: int, failure: Failure) -> None:
        if self._current(g):
            self.run.failures.append(failure)
            self.failed.emit(failure)

    @Slot(int, int, int)
    def _on_advanced(self, g: int, done: int, total: int) -> None:
        if self._current(g):
            self.run.done, self.run.total = done, total
            self.progressed.emit(done, total)

    @Slot(int, object, bool, object)
    def _on_finished(self, g: int, report: Report | None, cancelled: bool,
                     error: str | None) -> None:
        if self._current(g):
            self.run.report, self.run.error = report, error
            self.run.cancelled = cancelled and self.run.done < self.run.total
            self._finished = True
            self.finished.emit(self.run)
