"""Work off the UI thread, one way for every worker (napari keeps the same in ``_qt/qthreading``).

- ``Task`` runs one piece of work on a ``QThreadPool`` thread, inside the engine lock, and tells
  the UI thread how it went through a ``Relay`` (queued signals tagged with the task's ticket);
  work nobody wants any more by the time its turn comes is skipped.
- ``WorkerThread`` owns a long-lived ``QObject`` worker in a ``QThread`` of its own (its slots run
  there) and stops it when the window closes or the application quits.

The engine lock: Numba's parallel CPU variants must not be entered from two threads at once, so
the route solver, the simulated day and the layout analysis take turns through ``ENGINE_LOCK``.
"""

from __future__ import annotations

import threading
import traceback
from typing import Any, Callable

from PySide6.QtCore import QCoreApplication, QObject, QRunnable, QThread, Signal

from .collector import collect_on_ui_thread

ENGINE_LOCK = threading.RLock()


class Relay(QObject):
    """Carries a task's news from its worker thread to the UI thread. It has no parent: the task
    holds it, so its owner may close (and be deleted) before the answer comes."""

    started = Signal(object)            # ticket: the task has the engine and is computing
    news = Signal(object, str, object)  # ticket, what (e.g. "compiling"), payload
    done = Signal(object, object)       # ticket, the work's result
    failed = Signal(object, str)        # ticket, the error in one line
    finished = Signal(object)           # ticket: always, last (also when the work was skipped)


class Task(QRunnable):
    """``work(say)`` on a pool thread inside ``lock``, unless ``wanted()`` is false by then (before
    and after waiting for the lock): skipped work says only ``finished``. ``say(what, payload)``
    sends news on the way. An error becomes ``failed`` (with its traceback printed unless it is a
    ValueError, the engine's word for bad input), never a dead thread. ``lock``: any context
    manager (``contextlib.nullcontext()`` for work that stays off the Numba CPU variants)."""

    def __init__(self, ticket: Any, work: Callable[[Callable], Any], relay: Relay,
                 wanted: Callable[[], bool] = lambda: True, lock=ENGINE_LOCK):
        super().__init__()
        collect_on_ui_thread()   # no collection may start on the pool's thread
        self.setAutoDelete(True)
        self._ticket, self._work, self._relay, self._wanted, self._lock = (
            ticket, work, relay, wanted, lock)

    def run(self) -> None:  # worker thread
        ticket, relay = self._ticket, self._relay
        try:
            if not self._wanted():
                return
            with self._lock:
                if not self._wanted():
                    return
                relay.started.emit(ticket)
                result = self._work(lambda what, payload=None: relay.news.emit(ticket, what,
                                                                               payload))
            relay.done.emit(ticket, result)
        except Exception as exc:
            if not isinstance(exc, ValueError):
                traceback.print_exc()
            relay.failed.emit(ticket, f"{exc.__class__.__name__}: {exc}")
        finally:
            relay.finished.emit(ticket)


class WorkerThread(QObject):
    """Owns ``worker`` (a QObject with a thread-safe ``stop()``) and the QThread it lives in."""

    def __init__(self, worker: QObject, name: str, parent: QObject | None = None):
        super().__init__(parent)
        collect_on_ui_thread()   # no collection may start on the worker's thread
        self.worker = worker
        self.thread = QThread()
        self.thread.setObjectName(name)
        worker.moveToThread(self.thread)
        self.thread.start()
        self.closed = False
        app = QCoreApplication.instance()
        if app is not None:   # quitting without closing the window must still stop the thread
            app.aboutToQuit.connect(self.shutdown)

    def shutdown(self, msecs: int = 60000) -> bool:
        """Stop the worker and wait for its thread to end (window closing)."""
        if self.closed:
            return True
        self.closed = True
        self.worker.stop()
        self.thread.quit()
        return self.thread.wait(msecs)
