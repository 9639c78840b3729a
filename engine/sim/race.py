"""Race mode behind the simulation: the other variants solve a recompute's problem after the step
that ran it has been handed over, in the simulation's spare time, one problem at a time (no Qt:
the GUI's day worker drives it).

The simulation hands each bag-aware recompute over (``submit``) and finishes its step: the step
reaches the screen without waiting for the race. Between steps the worker gives the race a turn
(``run``): one variant solve at a time, for as long as no step, load or edit is asked of it
(``SimActivity``), so a race holds a step up by one solve at most, and never changes the day. A
problem still waiting to race is replaced by a newer one, and the replaced recompute is reported
as not raced: at high speed the race follows the newest bags instead of queueing behind them. A
problem once started is solved by every race variant (the same matrix the dispatcher solved).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from ..gpu_device import simulated
from .route_engine import ALL_PAIRS, variants_of, warm_up


def race_variants(engine: str = ALL_PAIRS) -> list[str]:
    """Concrete variants of the route engine's family that can race here. Simulated GPU variants
    are left out: the CUDA simulator runs each GPU thread as a Python thread, far too slow."""
    return [v.name for v in variants_of(engine)
            if v.available and not (v.family == "gpu" and simulated())]


@dataclass
class Timing:
    round: int           # which recompute (1, 2, …); raced variants share the round
    t: float             # simulated seconds
    variant: str
    seconds: float       # wall time of the solve
    n: int               # vertices of the solved graph
    raced: bool = False  # an extra solve of race mode (not the one the dispatcher used)
    agrees: bool = True  # raced solve gave the same distances as the dispatcher's
    started: float = 0.0  # time.perf_counter() when the bags' change started this recompute
    note: str | None = None  # why another variant ran (a GPU that failed: the CPU took over)



class SimActivity:
    """Steps, loads and edits asked of the simulation and not finished yet (asked from the UI
    thread, finished in the simulation's thread)."""

    def __init__(self):
        self._lock = threading.Lock()
        self._wanted = 0

    def ask(self) -> None:
        with self._lock:
            self._wanted += 1

    def done(self) -> None:
        with self._lock:
            self._wanted = max(0, self._wanted - 1)   # a slot called directly was never asked

    @property
    def idle(self) -> bool:
        with self._lock:
            return not self._wanted


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
    timings: list = field(default_factory=list)   # the variants raced so far

    def left(self) -> list[str]:
        """The race variants still to solve it (never the dispatcher's own)."""
        done = len(self.timings)
        return [v for v in self.variants if v != self.first][done:]


class RaceRunner:
    """Races recomputes in the simulation's thread, between its steps. ``deliver(generation,
    round, timings)``: one ``Timing`` per raced variant, or an empty list for a recompute replaced
    before it raced. ``wanted(generation)``: race this generation's jobs at all (race mode still
    on, the day not replaced)."""

    def __init__(self, wanted: Callable[[int], bool], deliver: Callable[[int, int, list], None]):
        self.wanted = wanted
        self.deliver = deliver
        self.current: RaceJob | None = None   # started: every variant solves it
        self.queued: RaceJob | None = None    # waiting; a newer recompute replaces it
        self._warmed: set[tuple[str, str]] = set()

    def submit(self, job: RaceJob) -> None:
        """Race ``job`` next; a job still waiting is dropped and reported as not raced."""
        replaced, self.queued = self.queued, job
        if replaced is not None and self.wanted(replaced.generation):
            self.deliver(replaced.generation, replaced.round, [])

    @property
    def pending(self) -> bool:
        return self.current is not None or self.queued is not None

    def run(self, may_solve: Callable[[], bool], engine) -> None:
        """Solve variants one at a time while ``may_solve()`` (nothing else is asked of the
        simulation), each inside the ``engine()`` context (the engine lock); a job is delivered
        as soon as its last variant has solved, and the queued one is started."""
        while True:
            job = self.current
            if job is None:
                if self.queued is None:
                    return
                job, self.current, self.queued = self.queued, self.queued, None
            left = job.left() if self.wanted(job.generation) else None
            if not left:
                self.current = None
                if left is not None:    # nothing left to race: done (else: no longer wanted)
                    self.deliver(job.generation, job.round, job.timings)
                continue
            if not may_solve():
                return
            with engine():
                job.timings.append(self._solve(job, left[0]))

    def _solve(self, job: RaceJob, name: str):
        try:
            if (job.engine, name) not in self._warmed:   # JIT compile outside the timed solve
                warm_up(job.engine, name)
                self._warmed.add((job.engine, name))
            r = job.solve_again(name)
        except Exception as exc:   # one failing variant must not stop the race or the day
            print(f"race: {name} failed: {exc}")
            return Timing(job.round, job.t, name, float("nan"), job.n, True, False)
        same = bool(np.array_equal(r.dist, job.dist))
        return Timing(job.round, job.t, r.variant, r.seconds, job.n, True, same)
