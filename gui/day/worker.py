"""The simulated day off the UI thread: a QObject worker in its own QThread steps ``Simulation``.

The UI asks for "advance to simulated time T" and gets back a ``StepResult``: the engine's
``Snapshot``, a ``TugFrame`` (every tug's current leg with its timetable, so the map can place a
tug on its road at any instant near T), the all-pairs timings of the recomputes that ran, and
the new KPI samples. Every request carries a generation id; the UI bumps it on each new airport
or restart, and the worker skips stale requests, so a previous airport's results are never drawn
on a new one. A stop flag is checked between sub-steps, so closing waits a few milliseconds.

Race mode: each bag-aware recompute of the live data is handed to a ``RaceRunner``, which solves
the same cost matrix with every other race variant after the step, while nothing else is asked of
the worker, and reports each one's time (and whether it agreed) with ``raced``; the step itself
does not wait for it.

A day loaded while the app's first-use compile of the day's loop runs (``engine.loop_warmup``,
a cold Numba cache) waits for it in this thread, saying so with ``waiting``, instead of compiling
the loop a second time beside it.
"""

from __future__ import annotations

import functools
import threading
import time
import traceback
from contextlib import contextmanager
from dataclasses import dataclass, field

from PySide6.QtCore import QObject, Signal, Slot

from engine import loop_warmup, variant_warmup
from engine.apsp.solve import first_use
from engine.gpu_device import simulated
from engine.sim import SimConfig, Simulation
from engine.sim.checkpoint import Checkpoints
from engine.sim.edit_io import EditPlan, TimedEdit
from engine.sim.edits import EditError, apply_edit, edited_layout
from engine.sim.frame import TugFrame, TugInfo, day_facts, tug_frame, tug_infos
from engine.sim.race import RaceJob, RaceRunner, SimActivity, Timing, race_variants
from engine.sim.route_engine import solve_sizes, variants_of
from ..workers import ENGINE_LOCK, WorkerThread

WAITING_FOR_LOOP = ("Compiling the simulation for this machine (first use only, a minute or "
                    "more; then cached): the day starts when it is ready")
REMIND_S = 3.0          # wall seconds between two "waiting" signals of one wait
SUBSTEP_S = 10.0        # simulated seconds between two looks at the stop flag (and, for an
                        # eager worker, at whether a recompute gave new routes to hand over)
CHECKPOINT_SHARE = 0.1  # checkpoints take at most about this share of the worker's time (a
                        # hub's fork takes ~0.2 s: one every ~2 s of wall time, not every step)


@dataclass
class StepResult:
    generation: int
    snapshot: object             # engine.sim.Snapshot
    frame: TugFrame
    tugs: list[TugInfo]
    timings: list[Timing] = field(default_factory=list)
    series: list[dict] = field(default_factory=list)   # KPI samples new since the last result
    wall_s: float = 0.0          # wall time the worker spent on this request
    key_nodes: int = 0
    partial: bool = False        # more of the same request follows (new routes handed over early)
    sent: float = 0.0            # time.perf_counter() when the worker handed it over
    received: float = 0.0        # time.perf_counter() when the UI thread got it
    shown: float = 0.0           # time.perf_counter() when the displayed clock reached it


class Stopped(Exception):
    """The worker was stopped while waiting for the engine: drop the request quietly."""


def _asked(work):
    """A slot for work the UI asked of the worker (``SimActivity``): counted done when it ends,
    however it ends; then race mode gets its turn."""
    @functools.wraps(work)
    def slot(self, *args) -> None:
        try:
            work(self, *args)
        finally:
            self.activity.done()
        self._race_turn()
    return slot


class SimWorker(QObject):
    """Lives in a QThread. ``load`` builds a Simulation, ``advance`` steps it; both answer with
    ``stepped(StepResult)`` or ``failed(generation, message)``. An ``eager`` worker also hands
    over the day as it is right after a recompute, before the rest of the request (``partial``):
    new routes reach the screen without waiting for the whole step."""

    loaded = Signal(int, object)       # generation, dict of facts
    stepped = Signal(object)           # StepResult
    raced = Signal(int, int, object)   # generation, round, [Timing] ([]: replaced, not raced)
    failed = Signal(int, str)
    edited = Signal(int, object, object)   # generation, [engine.sim.edits.Applied], edited layout
    replayed = Signal(int, object, object)  # the same, for edits a day's plan applied itself
    editRefused = Signal(int, str)         # generation, why (nothing changed)
    waiting = Signal(int, str)             # generation, what loading the day waits for
    released = Signal()                    # the previous day was dropped: collect it (UI thread)

    def __init__(self, checkpoints: bool = True, eager: bool = False):
        super().__init__()
        self.eager = eager
        self.sim: Simulation | None = None
        self.plan: EditPlan | None = None   # timed edits to replay on the way (restart, scenario)
        self._reported = 0                  # the plan's edits reported with ``replayed``
        self._fork_s, self._saved_at = 0.0, -1e9   # the last checkpoint's cost and wall time
        # the day as handed over after each step, so an edit can apply at the time on screen
        self.marks: Checkpoints | None = Checkpoints(keep=8) if checkpoints else None
        self._generation = 0
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._timings: list[Timing] = []
        self._looked_up: set[str] = set()   # CPU variants whose cache was looked at (``first_use``)
        self._round = 0
        self._series_sent = 0
        self.race = False                # read by the worker at each recompute
        self.race_with: list[str] = race_variants()
        self.variant = "cpu-blocked"     # the dispatcher's variant for the next recompute
        self.activity = SimActivity()    # what the UI asked of this worker and it has not done
        self.native_id: int | None = None   # its thread's id in the OS (frame-rate reads it)
        self.races = RaceRunner(lambda generation: self.race and self.current(generation),
                                self.raced.emit)

    # -- called from the UI thread (thread-safe) ----------------------------------------------
    def set_generation(self, generation: int) -> None:
        with self._lock:
            self._generation = generation

    def current(self, generation: int) -> bool:
        with self._lock:
            return generation == self._generation and not self._stop.is_set()

    def stop(self) -> None:
        self._stop.set()

    @contextmanager
    def _engine(self):
        """The engine lock; waiting for it (a long route solve holds it) ends with ``Stopped``
        as soon as the worker is stopped, so closing the window never waits on that solve."""
        while not ENGINE_LOCK.acquire(timeout=0.05):
            if self._stop.is_set():
                raise Stopped()
        try:
            yield
        finally:
            ENGINE_LOCK.release()

    # -- slots (worker thread) ----------------------------------------------------------------
    @Slot(int, object, object, object)
    @_asked
    def load(self, generation: int, airport, config: SimConfig, plan=None) -> None:
        self.native_id = threading.get_native_id()
        if not self.current(generation):
            return
        try:
            if self.sim is not None:
                # The previous day's reference cycles (its route tables and hooks) hold hundreds
                # of MB on a hub, and full collections are rare in a process this size: the UI
                # thread collects them while the new day is built. Never here: a collection on
                # this thread can destroy Qt objects (a closed window's cycles) beside the UI
                # thread and deadlock with it (seen with PySide6 6.11).
                self.sim = None
                self.released.emit()
            if not self._loop_compiled(generation):
                return
            start = time.perf_counter()
            with self._engine():
                sim = Simulation(airport, config)
            self.sim = sim      # (the variant was set with the request: a later pick stands)
            self.plan, self._reported = plan, 0
            if self.marks is not None:
                self.marks.marks.clear()
            self.race_with = race_variants(config.route_engine)
            self._timings, self._round, self._series_sent = [], 0, 0
            sim.on_recompute = self._recomputed
            facts = {**day_facts(sim), "build_s": time.perf_counter() - start,
                     "gate_flights": [(f.id, airport.nodes[f.gate].id, f.arrival, f.departure)
                                      for f in sim.schedule.flights]}
            if not self.current(generation):
                return
            self.loaded.emit(generation, facts)
            self._hand_over(generation, 0.0)
        except Stopped:
            return
        except Exception as exc:
            traceback.print_exc()
            self.sim = None
            self.failed.emit(generation, f"{exc.__class__.__name__}: {exc}")

    def _loop_compiled(self, generation: int) -> bool:
        """Wait (saying so) while the app's first-use compile of the day's loop runs; False
        where the worker was stopped or the request superseded meanwhile."""
        if not loop_warmup.compiling():
            return True
        said = -REMIND_S
        while not loop_warmup.wait(0.05):
            if not self.current(generation):
                return False
            if time.monotonic() - said >= REMIND_S:   # (the route finder's lines replace it)
                self.waiting.emit(generation, WAITING_FOR_LOOP)
                said = time.monotonic()
        if loop_warmup.failed is not None:
            self.waiting.emit(generation, f"The background compile failed ({loop_warmup.failed})"
                                          ": compiling the simulation here (about a minute)")
        return True

    @Slot(int, float)
    @_asked
    def advance(self, generation: int, target_t: float) -> None:
        sim = self.sim
        if sim is None or not self.current(generation):
            return
        start = time.perf_counter()
        try:
            while sim.t < target_t and not sim.finished:
                if not self.current(generation):
                    return  # stopping or superseded: drop the partial step
                sim.set_variant(self.variant)
                self._compile_in_background(sim)
                with self._engine():
                    self._run_until(generation, min(target_t, sim.t + SUBSTEP_S))
                if self.eager and self._timings and sim.t < target_t and not sim.finished:
                    self._hand_over(generation, time.perf_counter() - start, partial=True)
            self._hand_over(generation, time.perf_counter() - start)
        except Stopped:
            return
        except Exception as exc:
            traceback.print_exc()
            self.failed.emit(generation, f"{exc.__class__.__name__}: {exc}")

    def _compile_in_background(self, sim: Simulation) -> None:
        """On a real GPU, a GPU variant's first use compiles its kernels for this day's sizes in
        a process of their own; so does a Floyd–Warshall CPU variant's on a cold Numba cache
        (``auto``'s: its first measurements), once. The CPU solves meanwhile (scipy's solvers,
        exact: the day is the same), each recompute's note says so."""
        if simulated():
            return
        family, sizes = solve_sizes(sim.tables.engine, sim.tables.keys)
        if self.variant not in self._gpu_variants(sim.tables.engine):
            if family != "apsp" or self.variant in self._looked_up:
                return
            self._looked_up.add(self.variant)   # (a warm cache stays warm; a cold one warms)
            if variant_warmup.state(self.variant) is not None or first_use(self.variant) is None:
                return   # (started by the route finder already, or warm)
        variant_warmup.start(family, self.variant, sizes)

    @staticmethod
    @functools.cache
    def _gpu_variants(engine: str) -> frozenset:
        return frozenset(v.name for v in variants_of(engine) if v.family == "gpu")

    @Slot(int, object, float, float)
    @_asked
    def apply_edit(self, generation: int, edit, at_t: float, shown_t: float) -> None:
        """A what-if edit (``engine.sim.edits``, a tuple of them, or anything with
        ``resolve(sim)`` giving a list of them), applied between two steps of the day at
        simulated time ``at_t`` (the time on screen): a day computed past it goes back to its
        checkpoint and on to ``at_t`` first (``shown_t``: the time of the last result the
        window showed, whose KPI samples it has). One that cannot apply changes nothing."""
        if self.sim is None or not self.current(generation):
            return
        try:
            with ENGINE_LOCK:
                sim = self._at(generation, at_t, shown_t)
                edits = edit.resolve(sim) if hasattr(edit, "resolve") else \
                    list(edit) if isinstance(edit, tuple) else [edit]
                if not edits:
                    raise EditError(f"{edit.text}: nothing to change")
                done = []
                try:
                    for e in edits:
                        done.append(apply_edit(sim, e))
                except EditError:
                    for a in reversed(done):     # all or nothing
                        apply_edit(sim, a.inverse)
                    raise
        except EditError as exc:
            self.editRefused.emit(generation, str(exc))
            return
        self.edited.emit(generation, done, edited_layout(sim))
        self._hand_over(generation, 0.0, checkpoint=True)

    # -- inside ---------------------------------------------------------------------------------
    def _race_turn(self) -> None:
        """Race mode's turn, after a step has been handed over: variant solves one at a time
        while nothing else is asked of the simulation (``engine.sim.race``)."""
        if not self.races.pending:
            return
        try:
            self.races.run(lambda: self.activity.idle and not self._stop.is_set(), self._engine)
        except Stopped:
            return
        except Exception as exc:   # never let the race take the day down
            traceback.print_exc()
            print(f"race: {exc}")

    def _run_until(self, generation: int, t: float) -> None:
        """Step the day to ``t``, applying the edits its plan holds on the way (each reported
        once with ``replayed``, although a rewind may apply it again)."""
        plan = self.plan
        if plan is None or not plan.pending:
            self.sim.run_until(t)
            return
        plan.run_until(self.sim, t)
        if len(plan.applied) > self._reported:
            self.replayed.emit(generation, plan.applied[self._reported:], edited_layout(self.sim))
            self._reported = len(plan.applied)

    def _at(self, generation: int, t: float, shown_t: float) -> Simulation:
        """The day at simulated time ``t`` (its current time when no checkpoint is old enough):
        what was computed past it is dropped with its timings and KPI samples, and the plan's
        edits since the checkpoint apply again on the way to ``t``."""
        times = [m for m in self.marks.times() if m <= t] if self.marks is not None else []
        if t < self.sim.t and times:
            sim = self.marks.rewind(times[-1])
            sim.on_recompute = self._recomputed
            self.sim, self._timings = sim, []
            plan = self.plan
            if plan is not None:
                again = [TimedEdit(a.t, a.edit) for a in plan.applied if a.t > sim.t]
                plan.applied = [a for a in plan.applied if a.t <= sim.t]
                plan.pending = sorted(again + plan.pending, key=lambda e: e.t)
            if t > self.sim.t:
                self._run_until(generation, t)
            # the window has the samples up to the result it showed last
            self._series_sent = sum(1 for row in self.sim.series if row["t"] <= shown_t)
        elif t > self.sim.t:
            self._run_until(generation, t)
        return self.sim

    def _hand_over(self, generation: int, wall_s: float, checkpoint: bool = False,
                   partial: bool = False) -> None:
        """Send the day as it is now to the UI, then checkpoint it (when due): the fork takes
        tens of milliseconds on a hub, and the new routes need not wait for it."""
        sim = self.sim
        timings, self._timings = self._timings, []
        series = [dict(row) for row in sim.series[self._series_sent:]]
        self._series_sent = len(sim.series)
        result = StepResult(generation, sim.snapshot(), tug_frame(sim), tug_infos(sim), timings,
                            series, wall_s, len(sim.tables.keys.key_nodes), partial)
        result.sent = time.perf_counter()
        self.stepped.emit(result)
        if self.marks is not None and (checkpoint or not self.marks.marks or time.perf_counter()
                                       - self._saved_at >= self._fork_s / CHECKPOINT_SHARE):
            self._checkpoint(sim)

    def _checkpoint(self, sim: Simulation) -> None:
        start = time.perf_counter()
        hook, sim.on_recompute = sim.on_recompute, None   # the worker is not copied
        try:
            self.marks.save(sim)
        finally:
            sim.on_recompute = hook
        self._saved_at = time.perf_counter()
        self._fork_s = self._saved_at - start

    def _recomputed(self, keys, r, started: float) -> None:
        """``Simulation.on_recompute``: record every bag-aware recompute (and hand it to the race
        in race mode)."""
        sim = self.sim
        self._round += 1
        n = keys.solved_n
        self._timings.append(Timing(self._round, sim.t, r.variant, r.seconds, n,
                                    started=started, note=r.note))
        if self.race:
            with self._lock:
                generation = self._generation
            self.races.submit(RaceJob(generation, self._round, sim.t, n, r.variant, r.dist,
                                      keys.racer(), sim.tables.engine, tuple(self.race_with)))


class SimThread(WorkerThread):
    """Owns the worker and its QThread; the UI talks to it through these queued signals."""

    _load = Signal(int, object, object, object)
    _advance = Signal(int, float)
    _edit = Signal(int, object, float, float)

    def __init__(self, parent: QObject | None = None, checkpoints: bool = True,
                 eager: bool = False):
        super().__init__(SimWorker(checkpoints, eager), "bagroute-sim", parent)
        self._load.connect(self.worker.load)
        self._advance.connect(self.worker.advance)
        self._edit.connect(self.worker.apply_edit)

    def load(self, generation: int, airport, config: SimConfig, plan: EditPlan | None = None
             ) -> None:
        self.worker.set_generation(generation)
        self.worker.activity.ask()
        self._load.emit(generation, airport, config, plan)

    def advance(self, generation: int, target_t: float) -> None:
        self.worker.activity.ask()
        self._advance.emit(generation, float(target_t))

    def apply_edit(self, generation: int, edit, at_t: float, shown_t: float = 0.0) -> None:
        """Queue a what-if edit into the simulation's thread, to apply at simulated time
        ``at_t`` (after any step already asked for); ``shown_t``: the time of the result on
        screen."""
        self.worker.activity.ask()
        self._edit.emit(generation, edit, float(at_t), float(shown_t))
