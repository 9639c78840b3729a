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
Paused, the collector runs as usual.
"""

from __future__ import annotations

import gc
import time

COLLECT_EVERY_S = 1.0       # wall seconds between two paced collections while playing


class GcPacer:
    """``settle()`` when a day is built; ``playing(on)``; ``collect_if_due()`` at quiet moments."""

    def __init__(self):
        self._saved: tuple[int, int, int] | None = None   # thresholds before play
        self._last = 0.0
        self.collections = 0                               # paced collections so far

    def settle(self) -> None:
        """A new day is built: collect everything (the last day's frozen cycles too) and freeze
        what is left."""
        gc.unfreeze()
        gc.collect()
        gc.freeze()

    def release(self) -> None:
        """The day is closed: the collector as it was, everything walkable again (what the
        closed day leaves in cycles is collected as usual)."""
        self.playing(False)
        gc.unfreeze()

    def playing(self, on: bool) -> None:
        if on and self._saved is None:
            self._saved = gc.get_threshold()
            gc.set_threshold(0)     # no automatic collection (the thresholds come back on pause)
            self._last = time.perf_counter()
        elif not on and self._saved is not None:
            gc.set_threshold(*self._saved)
            self._saved = None

    def collect_if_due(self) -> bool:
        """While playing, collect what was made since the last collection, at most every
        ``COLLECT_EVERY_S``, and freeze what survives; True when it did."""
        now = time.perf_counter()
        if self._saved is None or now - self._last < COLLECT_EVERY_S:
            return False
        self._last = now
        gc.collect()
        gc.freeze()
        self.collections += 1
        return True
