"""Python's garbage collector, paced while a day plays.

A full collection walks every tracked object: on the hub (about 250,000 objects once the day is
built) it stopped both the UI's and the simulation's thread for 20–80 ms every few seconds,
anywhere in a frame, and the young collections (a few milliseconds each, several a second) landed
anywhere too. Instead, once a day is built what lives is frozen (``gc.freeze``: the permanent
generation, never walked again), automatic collections are off while the day plays, and the live
day asks for one at a quiet moment — just after the map has painted a step — at most every
``COLLECT_EVERY_S``: it walks only what was made since the last one (a few milliseconds) and
freezes what survives. A frozen object still goes when nothing refers to it; only a reference
cycle among frozen objects waits for the next day (``settle`` unfreezes and collects everything).
Automatic collection is off for the app's life (collections run on the UI thread only,
``gui/collector.py``): "off while the day plays" means the UI's timed collector is held.
A step shown while the map does not paint (the window hidden or minimised) still gets its moment,
``AfterPaint``'s wait running out; where no step is shown for ``OVERDUE_S`` (the clock waiting for
the simulation, a slow speed), a timer collects anyway: garbage never piles up while the day plays.
Paused, the collector runs as usual.
"""

from __future__ import annotations

import gc
import math
import time
from typing import Callable

from PySide6.QtCore import QObject, QTimer

from .. import collector

COLLECT_EVERY_S = 1.0       # wall seconds between two paced collections while playing
OVERDUE_S = 1.5             # ...and one anyway once this long passes without one


class GcPacer(QObject):
    """``settle()`` when a day is built; ``playing(on)``; ``collect_if_due()`` at quiet moments.
    ``clock``: wall seconds (a test's own clock drives it)."""

    def __init__(self, parent: QObject | None = None, clock: Callable[[], float] = time.perf_counter):
        super().__init__(parent)
        self._playing = False
        self._clock = clock
        self._last = 0.0
        self.collections = 0                               # paced collections so far
        self.fallback = QTimer(self)                       # wakes when no quiet moment came
        self.fallback.setSingleShot(True)
        self.fallback.timeout.connect(self._collect_if_overdue)

    def settle(self) -> None:
        """A new day is built: collect everything (the last day's frozen cycles too) and freeze
        what is left."""
        gc.unfreeze()
        gc.collect()
        gc.freeze()

    def collect_now(self) -> None:
        """A full collection here, on the UI thread (the day's worker dropped the last day: its
        cycles hold hundreds of MB on a hub). The worker never collects itself: Qt objects that
        a collection there destroys can deadlock with this thread."""
        gc.collect()

    def release(self) -> None:
        """The day is closed: the collector as it was, everything walkable again (what the
        closed day leaves in cycles is collected as usual)."""
        self.playing(False)
        gc.unfreeze()

    def playing(self, on: bool) -> None:
        if on and not self._playing:
            self._playing = True
            collector.hold(True)    # no timed collection (the UI's timer comes back on pause):
            self._last = self._clock()   # this pacer's come instead
            self._wake_in(OVERDUE_S)
        elif not on and self._playing:
            self._playing = False
            collector.hold(False)
            self.fallback.stop()

    def collect_if_due(self) -> bool:
        """While playing, collect what was made since the last collection, at most every
        ``COLLECT_EVERY_S``, and freeze what survives; True when it did."""
        if not self._playing or self._clock() - self._last < COLLECT_EVERY_S:
            return False
        self._collect()
        return True

    def _collect_if_overdue(self) -> None:
        """The timer's wake-up: collect if no collection came for ``OVERDUE_S`` (decided by
        ``clock``, not by when the timer fired), else sleep until then."""
        if not self._playing:
            return
        left = self._last + OVERDUE_S - self._clock()
        if left > 0:
            self._wake_in(left)
        else:
            self._collect()

    def _collect(self) -> None:
        self._last = self._clock()
        gc.collect()
        gc.freeze()
        self.collections += 1
        self._wake_in(OVERDUE_S)

    def _wake_in(self, seconds: float) -> None:
        self.fallback.start(math.ceil(seconds * 1000))
