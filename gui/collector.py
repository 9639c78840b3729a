"""Python's garbage collector runs only on the UI thread.

An automatic collection starts on whichever thread happens to allocate when a generation fills
up, and frees every reference cycle that is due there, closed windows' Qt objects among them. On a
worker thread (the simulated day, a route solve, a benchmark) that destroys QObjects and
QGraphicsItems while the UI thread lays out or paints: seen as a deadlock (``~QObject`` waiting
for the GIL while the UI thread waits for Qt's mutex) and as an abort inside pyqtgraph's layout
(CI, 2026-11-27). So once the app starts any worker, automatic collection is off for its life and a
timer on the UI thread collects instead, by the same generation thresholds: pyqtgraph's
``GarbageCollector``, which exists for exactly this. The live day holds it while it plays (its
paced collections come at quiet moments instead, ``gui/day/live_gc.py``).
"""

from __future__ import annotations

import gc

from PySide6.QtCore import QCoreApplication, QThread
from pyqtgraph.util.garbage_collector import GarbageCollector

INTERVAL_S = 0.5                        # the timer's period: garbage waits at most this long

_collector: GarbageCollector | None = None
_holds = 0                              # live days playing: the timer waits while any does


def collect_on_ui_thread() -> None:
    """Turn automatic collection off and collect on the UI thread's timer instead (once; a no-op
    off the UI thread or without an application: the first worker is started from the UI)."""
    global _collector
    app = QCoreApplication.instance()
    if _collector is not None or app is None or QThread.currentThread() is not app.thread():
        return
    _collector = GarbageCollector(interval=INTERVAL_S)
    _collector.timer.setParent(app)     # dies with the application, never before
    app.aboutToQuit.connect(gc.enable)


def collect_due() -> None:
    """Collect now, on this (the UI) thread, the generations that are due: what the timer does
    when it fires (for callers that run no event loop, e.g. between two tests)."""
    if _collector is not None:
        _collector.check()


def hold(on: bool) -> None:
    """A live day starts (True) or stops (False) pacing its own collections."""
    global _holds
    _holds = max(0, _holds + (1 if on else -1))
    if _collector is not None:
        if _holds:
            _collector.timer.stop()
        else:
            _collector.timer.start()


def installed() -> bool:
    return _collector is not None


def timed() -> bool:
    """Whether the UI thread's timer collects now (installed, and no live day holds it)."""
    return _collector is not None and _collector.timer.isActive()
