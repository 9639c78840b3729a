"""Plays the simulation: a simulated clock on the UI thread, kept just behind the worker.

The worker computes ahead in chunks; an animation timer (about 60 frames a second) moves the
displayed clock at the chosen speed and places every tug on its road at that instant, from the
last few ``TugFrame``s (the newest one whose description of the tug already holds). The clock
never passes the newest result, so a slow worker slows the picture instead of making tugs jump.
"""

from __future__ import annotations

import sys
import time
from collections import deque

import numpy as np

from PySide6.QtCore import QObject, QTimer, Signal

from engine.sim import SimConfig


from .live_gc import GcPacer
from .worker import SimThread, StepResult

FRAME_MS = 16            # animation timer interval (≈ 60 fps; each frame is cheap)
LOOKAHEAD_WALL_S = 0.3   # keep this much wall time of simulation computed ahead
CHUNK_WALL_S = 0.15      # one request: this much wall time of simulation
MIN_CHUNK_S = 2.0        # simulated seconds: the smallest request (slow speeds)
STEP_S = 60.0            # simulated seconds of one single step (N / →)
SPEEDS = (1, 5, 10, 30, 60, 120, 300, 600)
HISTORY = 4              # TugFrames kept for interpolation
RATE_WINDOW_S = 1.5      # wall seconds over which the achieved speed is measured
KEEPS_UP = 0.95          # achieved / chosen speed at or above this counts as keeping up
GIL_SWITCH_S = 0.00025   # Python's thread switch interval while a day plays (default 5 ms)


class SimPlayer(QObject):
    """``stepped(StepResult)``: new data (bags, routes, KPIs, timings). ``frame(t, xy)``: tug
    positions at displayed time ``t``, every animation tick that moved the clock."""

    loaded = Signal(object)           # facts dict
    stepped = Signal(object)          # StepResult (current generation only)
    raced = Signal(int, object)       # recompute round, [Timing] of the race ([]: not raced)
    frame = Signal(float, object)     # displayed simulated time, tugs × 2 positions
    failed = Signal(str)
    waiting = Signal(str)             # what loading the day waits for (the loop's first compile)
    playingChanged = Signal(bool)
    finished = Signal()

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self.runner = SimThread(self, eager=True)   # new routes come before the step's end
        self.runner.worker.loaded.connect(self._on_loaded)
        self.runner.worker.stepped.connect(self._on_stepped)
        self.runner.worker.failed.connect(self._on_failed)
        self.runner.worker.raced.connect(self._on_raced)
        self.runner.worker.waiting.connect(self._on_waiting)
        self.generation = 0
        self.speed = 60.0
        self.playing = False
        self.ready = False
        self.clock = 0.0                 # displayed simulated time
        self.target = 0.0                # where the clock may go while paused (single step)
        self.end_time = 0.0
        self.latest: StepResult | None = None
        self.history: deque = deque(maxlen=HISTORY)
        self.pending = False             # an advance request is with the worker
        self.shown: StepResult | None = None   # the newest result the clock has reached
        self._unshown: deque = deque()   # results computed ahead of the displayed clock
        self._races: list = []           # race outcomes of recomputes not shown yet
        self._round_shown = 0            # the last recompute whose step has been shown
        self.frames = 0                  # animation frames drawn (for frame-rate measurement)
        self.results = 0
        self.play_when_ready = False
        self.achieved: float | None = None   # simulated s per wall s over the last window
        self.waited = False                  # the clock was held back by the simulation then
        self._rate = [0.0, 0.0, False]       # wall, simulated, waited since the window began
        self._primed = False                 # the first window after play or a new speed is
                                             # left out: nothing was computed ahead yet
        self._last_tick = time.perf_counter()
        self.gc = GcPacer(self)              # no long collection in the middle of a frame
        self.runner.worker.released.connect(self.gc.collect_now)   # queued: on this (UI) thread
        self._settled = -1                   # the generation whose day the collector settled
        self.timer = QTimer(self)
        self.timer.setInterval(FRAME_MS)
        self.timer.timeout.connect(self._tick)
        # The simulation's thread runs Python beside the UI's: each time the UI thread comes back
        # from Qt (every Python paint and bounds call of a frame) it waits for the interpreter
        # lock up to the switch interval. 1 ms instead of 5 keeps a frame with new routes from
        # waiting tens of milliseconds behind a step; on the GPU host a map paint still took 13-18
        # ms instead of 4 while the worker ran (about 85 such entries a frame), hence 0.25 ms
        # (docs/live-latency.md).
        sys.setswitchinterval(min(sys.getswitchinterval(), GIL_SWITCH_S))

    # -- commands ---------------------------------------------------------------------------
    def load(self, airport, config: SimConfig, plan=None) -> None:
        """Start a new simulated day (results from an earlier one are dropped from now on)."""
        self.generation += 1
        self.ready, self.pending, self.latest, self.shown = False, False, None, None
        self.history.clear()
        self._unshown.clear()
        self._races, self._round_shown = [], 0
        self.clock = self.target = 0.0
        self.end_time = config.hours * 3600.0
        self.runner.worker.variant = config.variant
        self.runner.load(self.generation, airport, config, plan)

    def play(self) -> None:
        if not self.ready:               # still preparing the day: play as soon as it is ready
            self.play_when_ready = not self.runner.closed
            return
        if not self.playing and not self.runner.closed:
            if self.latest is not None and self.latest.snapshot.finished and self.clock >= self.latest.snapshot.t:
                return
            self.playing = True
            if self._settled != self.generation:   # the day is built: what lives now is not
                self._settled = self.generation    # walked again (not before the first route)
                self.gc.settle()
            self.gc.playing(True)
            self._last_tick = time.perf_counter()
            self._rate, self._primed = [0.0, 0.0, False], False
            self.timer.start()
            self.playingChanged.emit(True)

    def pause(self) -> None:
        self.play_when_ready = False
        if self.playing:
            self.playing = False
            self.gc.playing(False)
            self.target = self.clock
            self.playingChanged.emit(False)

    def hold_for_edit(self) -> tuple[int, float, float]:
        """An edit is about to apply at the time on screen: what the worker computed past it is
        dropped (a new generation; the worker goes back to that time), and the clock waits for
        the edited day. Returns (generation, simulated time on screen, time of the result
        shown) for the edit."""
        self.generation += 1
        self.runner.worker.set_generation(self.generation)
        self.pending = False
        self._unshown.clear()
        keep = [r for r in self.history if r.snapshot.t <= self.clock + 1e-9]
        self.history.clear()
        self.history.extend(keep)
        self.latest = self.shown
        if self.latest is not None:
            self.target = min(self.target, self.clock)
        return self.generation, self.clock, self.shown.snapshot.t if self.shown else 0.0

    def toggle(self) -> None:
        self.pause() if self.playing else self.play()

    def step(self, seconds: float = STEP_S) -> None:
        """Pause and advance ``seconds`` of simulated time (the tugs glide there)."""
        self.pause()
        if not self.ready:
            return
        self.target = min(self.end_time, max(self.target, self.clock) + seconds)
        self._request(self.target)
        self._last_tick = time.perf_counter()
        self.timer.start()

    def set_speed(self, speed: float) -> None:
        self.speed = max(0.1, float(speed))
        self.achieved, self._rate, self._primed = None, [0.0, 0.0, False], False

    def behind(self) -> float | None:
        """How far (0–1) the displayed day ran below the chosen speed over the last window while
        playing, when that is more than a few percent; else None."""
        if not self.playing or self.achieved is None or self.achieved >= KEEPS_UP * self.speed:
            return None
        return 1.0 - self.achieved / self.speed

    def set_variant(self, name: str) -> None:
        self.runner.worker.variant = name

    def set_race(self, on: bool) -> None:
        self.runner.worker.race = bool(on)

    @property
    def race(self) -> bool:
        return self.runner.worker.race

    @property
    def busy(self) -> bool:
        return self.pending or not self.ready

    def shutdown(self) -> bool:
        self.timer.stop()
        self.playing = False
        self.gc.release()
        self.generation += 1
        return self.runner.shutdown()

    def positions(self, t: float | None = None):
        """Every tug's position at simulated time ``t`` (default: the displayed clock)."""
        t = self.clock if t is None else t
        if not self.history:
            return None
        hist = list(self.history)
        best = hist[-1].frame.positions(t)
        # An older frame describes a tug until its newer description starts (e.g. a new leg).
        need = np.flatnonzero(hist[-1].frame.valid_from > t)
        for older in reversed(hist[:-1]):
            need = need[need < len(older.frame.valid_from)]   # tugs added since by an edit
            if not len(need):
                break
            best[need] = older.frame.positions(t, need)
            need = need[older.frame.valid_from[need] > t]
        return best

    def leg(self, tug: int, t: float | None = None):
        """(route node indices, arrival times) of the leg ``tug`` drives at simulated time ``t``
        (from the same frame its drawn position comes from), or None when it is not driving."""
        result = self.result_for(tug, t)
        if result is None:
            return None
        times = result.frame.leg_times(tug)
        if times is None:
            return None
        return np.asarray(result.snapshot.routes[tug]), times

    def result_for(self, tug: int, t: float | None = None):
        """The newest result whose description of ``tug`` holds at ``t``: the one its drawn
        position, route and job come from."""
        t = self.clock if t is None else t
        hist = list(self.history)
        for result in reversed(hist):
            f = result.frame
            if tug >= len(f.valid_from):
                return None
            if f.valid_from[tug] <= t or result is hist[0]:
                return result
        return None

    # -- worker outcomes ----------------------------------------------------------------------
    def _on_loaded(self, generation: int, facts: dict) -> None:
        if generation == self.generation:
            self.end_time = facts["end"]
            self.loaded.emit(facts)

    def _on_stepped(self, result: StepResult) -> None:
        if result.generation != self.generation:
            return  # a previous airport's (or day's) result: never drawn
        result.received = time.perf_counter()
        self.pending = result.partial     # the rest of the request is still with the worker
        self.results += 1
        self.latest = result
        self.history.append(result)
        self._unshown.append(result)
        if not self.ready:
            self.ready = True
            self.clock = self.target = result.snapshot.t
            self._show_reached()
            self.frame.emit(self.clock, self.positions())
            if self.play_when_ready:
                self.play_when_ready = False
                self.play()
        elif result.snapshot.t <= self.clock + 1e-9:
            self._show_reached()   # a result at the paused clock (a what-if edit): drawn at once
            self.frame.emit(self.clock, self.positions())
        if self.playing:
            self._maybe_request()

    def _show_reached(self) -> None:
        """Hand the UI every result whose time the displayed clock has reached (bags, KPIs,
        routes and timings then match the tugs on the map)."""
        while self._unshown and self._unshown[0].snapshot.t <= self.clock + 1e-9:
            result = self._unshown.popleft()
            if self._unshown and self._unshown[0].snapshot.t <= self.clock + 1e-9:
                # the next one is reached too: fold this one's timings and KPI samples into it
                nxt = self._unshown[0]
                nxt.timings[:0] = result.timings
                nxt.series[:0] = result.series
                continue
            self.shown = result
            self._round_shown = max([self._round_shown] + [t.round for t in result.timings])
            result.shown = time.perf_counter()
            self.stepped.emit(result)
            self._show_races()

    def _on_raced(self, generation: int, round_: int, timings: list) -> None:
        """A race's outcome, shown once the recompute it raced is (timings match the map)."""
        if generation == self.generation:
            self._races.append((round_, timings))
            self._show_races()

    def _show_races(self) -> None:
        ready = [r for r in self._races if r[0] <= self._round_shown]
        if ready:
            self._races = [r for r in self._races if r[0] > self._round_shown]
            for round_, timings in ready:
                self.raced.emit(round_, timings)

    def _on_waiting(self, generation: int, text: str) -> None:
        if generation == self.generation:
            self.waiting.emit(text)

    def _on_failed(self, generation: int, message: str) -> None:
        if generation == self.generation:
            self.pending = False
            self.play_when_ready = False
            self.pause()
            self.failed.emit(message)

    # -- the animation ------------------------------------------------------------------------
    def _request(self, target: float) -> None:
        if self.pending or self.latest is None:
            return
        if target <= self.latest.snapshot.t or self.latest.snapshot.finished:
            return
        self.pending = True
        self.runner.advance(self.generation, target)

    def _maybe_request(self) -> None:
        if self.latest is None:
            return
        # at slow speeds a request covers seconds of wall time: ask for the next one at once
        ahead = max(self.speed * LOOKAHEAD_WALL_S, MIN_CHUNK_S)
        if self.latest.snapshot.t - self.clock < ahead:
            chunk = max(self.speed * CHUNK_WALL_S, MIN_CHUNK_S)
            self._request(min(self.end_time, max(self.latest.snapshot.t, self.clock) + chunk))

    def _tick(self) -> None:
        now = time.perf_counter()
        wall = now - self._last_tick
        dt, self._last_tick = min(wall, 0.25), now
        if not self.ready or self.latest is None:
            return
        newest = self.latest.snapshot.t
        if self.playing:
            self._maybe_request()
            goal = newest
            rate = self.speed
        else:
            goal = min(self.target, newest)
            rate = max(self.speed, STEP_S / 0.4)   # a single step glides in about 0.4 s
        before = self.clock
        if self.clock < goal:
            self.clock = min(goal, self.clock + rate * dt)
        if self.playing and not self.latest.snapshot.finished:
            self._measure_rate(wall, self.clock - before, self.clock >= newest)
        if before < goal:
            self.frames += 1
            self._show_reached()
            self.frame.emit(self.clock, self.positions())
        elif not self.playing and self.clock >= self.target and not self.pending:
            self.timer.stop()
        self._end_of_day(newest)

    def _measure_rate(self, wall: float, advanced: float, waiting: bool) -> None:
        rate = self._rate
        rate[0] += wall
        rate[1] += advanced
        rate[2] = rate[2] or waiting
        if rate[0] >= RATE_WINDOW_S:
            if self._primed:
                self.achieved, self.waited = rate[1] / rate[0], rate[2]
            self._rate, self._primed = [0.0, 0.0, False], True

    def _end_of_day(self, newest: float) -> None:
        if self.latest.snapshot.finished and self.clock >= newest:
            if self.playing:
                self.pause()
                self.finished.emit()
            self.timer.stop()
