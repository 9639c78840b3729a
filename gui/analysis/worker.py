"""Layout analyses off the UI thread, one wanted at a time, cancellable.

An ``AnalysisRunner`` starts each run as a task on the global thread pool. The engine cannot be
interrupted mid-solve, so cancelling means: a run that has not yet got the engine skips its
work, and a run already computing finishes but its answer is dropped. Starting a new run (another
variant, or the same again) drops the current one the same way. Only the current run's answer
reaches ``finished``; the window never waits on the worker.
"""

from __future__ import annotations

import threading

from PySide6.QtCore import QObject, QThreadPool, Signal

from engine.airport import analysis as engine_analysis

from ..workers import Relay, Task


class AnalysisRunner(QObject):
    """Runs analyses of one airport; ``started``, ``finished`` and ``failed`` speak only of the
    current run (a cancelled or replaced run stays silent)."""

    started = Signal(str)            # variant: the current run is computing
    finished = Signal(object)        # LayoutAnalysis of the current run
    failed = Signal(str)             # the current run's error

    def __init__(self, airport, parent: QObject | None = None):
        super().__init__(parent)
        self.airport = airport
        self.relay = Relay()
        self.relay.started.connect(self._on_started)
        self.relay.done.connect(self._on_done)
        self.relay.failed.connect(self._on_failed)
        self._run_id = 0
        self._current: tuple[int, str, threading.Event] | None = None  # id, variant, cancel flag

    @property
    def busy(self) -> bool:
        """True from ``start`` until the current run's answer comes, or it is cancelled."""
        return self._current is not None

    @property
    def variant(self) -> str | None:
        """The variant of the run under way, or None."""
        return self._current[1] if self._current else None

    def start(self, variant: str) -> None:
        """Analyse with ``variant``; a run still under way is cancelled first."""
        self.cancel()
        self._run_id += 1
        cancelled = threading.Event()
        self._current = (self._run_id, variant, cancelled)
        airport = self.airport
        QThreadPool.globalInstance().start(Task(
            self._run_id, lambda _say: engine_analysis.analyze_layout(airport, variant),
            self.relay, lambda: not cancelled.is_set()))

    def cancel(self) -> bool:
        """Drop the current run's answer (and skip its work if it has not begun); False if no
        run was under way."""
        if self._current is None:
            return False
        self._current[2].set()
        self._current = None
        return True

    def _is_current(self, run_id: int) -> bool:
        return self._current is not None and self._current[0] == run_id

    def _on_started(self, run_id: int) -> None:
        if self._is_current(run_id):
            self.started.emit(self._current[1])

    def _on_done(self, run_id: int, result) -> None:
        if self._is_current(run_id):
            self._current = None
            self.finished.emit(result)

    def _on_failed(self, run_id: int, message: str) -> None:
        if self._is_current(run_id):
            self._current = None
            self.failed.emit(message)
