"""One experiment on Dask, off the UI thread: the days of a sweep on a local cluster or at a
scheduler's address, progress as days finish, Cancel keeping the finished days, and the results
written into a folder (``engine.sweep.save``)."""

from __future__ import annotations

import contextlib
import itertools
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QThreadPool, Signal

from engine.sweep.scenario import Sweep

from ..workers import Relay, Task

if TYPE_CHECKING:   # pandas only when an experiment runs: not at the app's start
    import pandas as pd


@dataclass
class Where:
    """Where the days run: ``scheduler`` (an address) or a local cluster of ``workers``."""
    scheduler: str | None = None
    workers: int | None = None
    timeout: float = 10.0

    def text(self) -> str:
        return (f"the Dask scheduler {self.scheduler}" if self.scheduler else
                f"a local Dask cluster of {self.workers or 'one per core'} worker(s)")


@dataclass
class Finished:
    """What an experiment left: its folder, table (one row per finished day) and manifest."""
    out: Path
    table: pd.DataFrame
    manifest: dict

    @property
    def cancelled(self) -> bool:
        return bool(self.manifest["interrupted"])


class ExperimentRun(QObject):
    """``progressed(done, total)`` as days finish (failed days count as done), ``finished``
    (``Finished``) at the end, cancelled or not, ``failed(message)`` if the cluster could not be
    used. ``cancel()`` is safe from any thread."""

    progressed = Signal(int, int)
    finished = Signal(object)
    failed = Signal(str)

    _tickets = itertools.count(1)

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self.relay = Relay()
        self.relay.news.connect(self._on_news)
        self.relay.done.connect(lambda _t, result: self._end(result))
        self.relay.failed.connect(lambda _t, why: self._fail(why))
        self._cancel = threading.Event()
        self.busy = False
        self.total = 0

    def start(self, sweep: Sweep, where: Where, out: Path) -> None:
        """Run every day of ``sweep`` on ``where``; the results go to ``out``."""
        if self.busy:
            raise RuntimeError("an experiment is already running")
        runs = sweep.runs()
        self.busy, self.total = True, len(runs)
        self._cancel.clear()

        def work(say):
            from engine.sweep.runner import open_client, run_sweep   # Dask: when first used
            from engine.sweep.save import save_outcome
            started = time.perf_counter()
            with open_client(where.scheduler, where.workers, where.timeout) as client:
                workers = len(client.scheduler_info()["workers"])
                done = itertools.count(1)
                outcome = run_sweep(client, sweep, runs, stop=self._cancel.is_set,
                                    on_result=lambda *_: say("day", next(done)))
                table, manifest = save_outcome(out, sweep, runs, outcome, workers,
                                               where.scheduler, time.perf_counter() - started)
            return Finished(Path(out), table, manifest)

        # the days run in Dask's processes: nothing here enters Numba, so no engine lock
        task = Task(next(self._tickets), work, self.relay, lock=contextlib.nullcontext())
        QThreadPool.globalInstance().start(task)

    def cancel(self) -> None:
        self._cancel.set()

    def _on_news(self, _ticket, what: str, done) -> None:
        if what == "day":
            self.progressed.emit(done, self.total)

    def _end(self, result: Finished) -> None:
        self.busy = False
        self.finished.emit(result)

    def _fail(self, why: str) -> None:
        self.busy = False
        self.failed.emit(why)
