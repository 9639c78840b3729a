"""Race mode behind the simulation: the other variants solve a recompute's problem in a thread of
their own, in the simulation's spare time, one problem at a time.

The simulation hands each bag-aware recompute over (``submit``) and goes on at once: its step
reaches the screen without waiting for the race. A problem still waiting to race is replaced by a
newer one, and the replaced recompute is reported as not raced, so at high speed the race follows
the newest bags instead of queueing behind them. A problem once started is solved by every race
variant (the same matrix the dispatcher solved), one variant at a time under the engine lock, each
started only while the simulation has no step running or asked for (``SimActivity``): a race holds
a step up by one solve at most, and never changes the day.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from engine.sim.route_engine import warm_up

POLL_S = 0.05           # how often a waiting race looks at the stop flag


class SimActivity:
    """Steps, loads and edits the simulation has been asked for and not finished (asked from the
    UI thread, finished in the simulation's thread)."""

    def __init__(self):
        self._cond = threading.Condition()
        self._wanted = 0

    def ask(self) -> None:
        with self._cond:
            self._wanted += 1

    def done(self) -> None:
        with self._cond:
            self._wanted = max(0, self._wanted - 1)   # a slot called directly was never asked
            if not self._wanted:
                self._cond.notify_all()

    @property
    def idle(self) -> bool:
        with self._cond:
            return not self._wanted

    def wait_idle(self, stopped: Callable[[], bool]) -> bool:
        """Wait until nothing is asked of the simulation; False if ``stopped()`` first."""
        with self._cond:
            while self._wanted and not stopped():
                self._cond.wait(POLL_S)
        return not stopped()


@dataclass
class RaceJob:
    """One recompute to race: ``solve_again(variant)`` solves its problem (``KeyGraph.racer``)."""
    generation: int
    round: int
    t: float                     # simulated seconds
    n: int                       # vertices of the solved graph
    first: str                   # the dispatcher's variant, which already solved it
    dist: np.ndarray = field(repr=False)   # the dispatcher's distances: a raced solve must agree
    solve_again: Callable = field(repr=False)
    engine: str = "all-pairs"
    variants: tuple[str, ...] = ()


class RaceRunner:
    """``submit(job)`` from the simulation's thread; ``deliver(generation, round, timings)`` is
    called from the race thread with one ``Timing`` per raced variant, or from ``submit`` with an
    empty list for a recompute replaced before it raced. ``wanted(generation)``: race this
    generation's jobs at all (race mode still on, the day not replaced)."""

    def __init__(self, activity: SimActivity, engine_lock, wanted: Callable[[int], bool],
                 deliver: Callable[[int, int, list], None], make_timing: Callable):
        self.activity = activity
        self.engine_lock = engine_lock
        self.wanted = wanted
        self.deliver = deliver
        self.make_timing = make_timing
        self._cond = threading.Condition()
        self._queued: RaceJob | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._warmed: set[tuple[str, str]] = set()
        self.busy = False                # a job is being raced (tests look at it)

    def submit(self, job: RaceJob) -> None:
        """Race ``job`` next; a job still waiting is dropped and reported as not raced."""
        with self._cond:
            replaced, self._queued = self._queued, job
            if self._thread is None and not self._stop.is_set():
                self._thread = threading.Thread(target=self._loop, name="bagroute-race",
                                                daemon=True)
                self._thread.start()
            self._cond.notify_all()
        if replaced is not None and self.wanted(replaced.generation):
            self.deliver(replaced.generation, replaced.round, [])

    def stop(self) -> None:
        self._stop.set()
        with self._cond:
            self._cond.notify_all()

    def join(self, timeout: float) -> bool:
        """Wait for the race thread to end (after ``stop``); True if it did."""
        thread = self._thread
        if thread is not None:
            thread.join(timeout)
            return not thread.is_alive()
        return True

    @property
    def queued(self) -> RaceJob | None:
        with self._cond:
            return self._queued

    # -- the race thread ------------------------------------------------------------------------
    def _loop(self) -> None:
        while True:
            with self._cond:
                while self._queued is None and not self._stop.is_set():
                    self._cond.wait()
                if self._stop.is_set():
                    return
                job, self._queued = self._queued, None
                self.busy = True
            try:
                if self.wanted(job.generation):
                    timings = self._race(job)
                    if timings is not None:
                        self.deliver(job.generation, job.round, timings)
            finally:
                self.busy = False

    def _race(self, job: RaceJob) -> list | None:
        """Every race variant on ``job`` but the dispatcher's own; None if stopped or no longer
        wanted part way (nothing of it is shown then)."""
        out = []
        for name in job.variants:
            if name == job.first:
                continue
            if not self._take_turn():
                return None
            try:
                if not self.wanted(job.generation):
                    return None
                out.append(self._solve(job, name))
            finally:
                self.engine_lock.release()
        return out

    def _take_turn(self) -> bool:
        """The engine lock, taken while the simulation asks for nothing; False when stopped."""
        stopped = self._stop.is_set
        while self.activity.wait_idle(stopped):
            if self.engine_lock.acquire(timeout=POLL_S):
                return True
        return False

    def _solve(self, job: RaceJob, name: str):
        try:
            if (job.engine, name) not in self._warmed:   # JIT compile outside the timed solve
                warm_up(job.engine, name)
                self._warmed.add((job.engine, name))
            r = job.solve_again(name)
        except Exception as exc:   # one failing variant must not stop the race or the day
            print(f"race: {name} failed: {exc}")
            return self.make_timing(job.round, job.t, name, float("nan"), job.n, True, False)
        same = bool(np.array_equal(r.dist, job.dist))
        return self.make_timing(job.round, job.t, r.variant, r.seconds, job.n, True, same)
