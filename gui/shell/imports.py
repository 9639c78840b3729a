"""File ▸ Import OpenStreetMap… and File ▸ Import schedule…: pick a file, import it off the UI
thread (a busy dialog with Cancel), show the import report, then open the layout or run the day
on the imported flights. A bad file gets its "file: item: problem" lines; nothing changes.
Each file dialog starts where its last file came from, else in the user's Documents
(``files.OpenFolder``), never in the folder the app was started from.

The main window declares them with ``import_actions(window)``; imported flights become the
day's (``window.day.day_extra``), until another airport opens.
"""

from __future__ import annotations

import contextlib
from pathlib import Path

from PySide6.QtCore import QObject, QThreadPool, Signal
from PySide6.QtWidgets import QFileDialog, QInputDialog, QMessageBox, QProgressDialog

from ..workers import Relay, Task
from .actions import ActionSpec
from .files import OpenFolder

OSM_FILTER = "OpenStreetMap (*.json *.osm *.xml *.pbf);;All files (*)"
SCHEDULE_FILTER = "Flight schedules (*.csv);;All files (*)"
OSM_FOLDER = "imports/osm_folder"            # the settings' keys of the folders each dialog
SCHEDULE_FOLDER = "imports/schedule_folder"  # last opened a file from


class ImportJob(QObject):
    """Runs ``work()`` on the thread pool; ``done(result)`` or ``failed(message)`` on the UI
    thread, unless ``cancel()`` came first (the work then finishes unseen)."""
    done = Signal(object)
    failed = Signal(str)
    ended = Signal()     # the work is over, cancelled or not

    def __init__(self, work, parent):
        super().__init__(parent)
        self.cancelled = self.over = False
        self.result = self.error = None
        self.relay = Relay()   # the app's one worker helper (gui/workers.py); no engine lock:
        self.relay.done.connect(lambda _, result: self._finished(result, None))   # reading files
        self.relay.failed.connect(lambda _, message: self._finished(None, _one_line(message)))
        QThreadPool.globalInstance().start(Task(None, lambda say: work(), self.relay,
                                                lock=contextlib.nullcontext()))

    def cancel(self) -> None:
        self.cancelled = True

    def _finished(self, result, error) -> None:
        self.result, self.error, self.over = result, error, True
        self.ended.emit()
        if not self.cancelled:
            self.failed.emit(error) if error is not None else self.done.emit(result)


def _one_line(message: str) -> str:
    """A bad file's own message ("file: item: problem"), not its exception's class name."""
    name, _, rest = message.partition(": ")
    return rest if name.endswith("Error") and rest else message


def _start(window, label: str, work, on_done) -> ImportJob:
    """``work`` off the UI thread behind a busy dialog; ``on_done(result)`` when it succeeds."""
    job = ImportJob(work, window)
    busy = QProgressDialog(label, "Cancel", 0, 0, window)
    busy.setMinimumDuration(300)
    busy.canceled.connect(lambda: (job.cancel(), window.show_status(f"{label.rstrip('…')}: cancelled")))
    job.ended.connect(busy.reset)
    job.done.connect(on_done)
    job.failed.connect(lambda message: _tell(window, "Import failed", message, QMessageBox.Icon.Warning))
    return job


def _tell(window, title: str, text: str, icon=QMessageBox.Icon.Information, details: str = ""):
    """A non-modal message box (the app keeps running) and the first line in the status bar."""
    window.show_status(f"{title}: {text.splitlines()[0]}")
    box = QMessageBox(icon, title, text, QMessageBox.StandardButton.Ok, window)
    if details:
        box.setDetailedText(details)
    box.open()
    window.import_message = box
    return box


def import_osm_file(window, source, out) -> ImportJob:
    """Import the OSM file ``source`` to the layout ``out`` (and ``out``.import.txt), then open it."""
    from engine.airport.layout_io import save_airport
    from engine.airport.osm_import import import_osm
    out = Path(out)

    def work():
        airport, report = import_osm(source)
        save_airport(airport, out)
        out.with_suffix(".import.txt").write_text("\n".join(report.lines()) + "\n", encoding="utf-8")
        return report

    def opened(report):
        window.open_airport(out)
        _tell(window, "OpenStreetMap imported", f"{out.name}: {len(report.inferred)} inferred "
              f"choices, {len(report.dropped)} left out; every one is in the details and in "
              f"{out.with_suffix('.import.txt').name}.", details="\n".join(report.lines()))

    return _start(window, f"Importing {Path(source).name}…", work, opened)


def import_schedule_file(window, path, code: str | None = None) -> ImportJob:
    """Read the flights in ``path`` (the project's CSV or BTS On-Time) for the open airport
    and start its day on them."""
    from engine.sim.bts import read_schedule
    airport = window.airport

    def use(result):
        flights, report = result
        if window.airport is not airport:
            return   # another airport opened meanwhile: these stands are not its
        window.day.day_extra["flights"] = flights
        window.restart_simulation()
        _tell(window, "Schedule imported", f"{Path(path).name}: {len(flights)} turns on "
              f"{airport.name}", details="\n".join(report.lines()))

    return _start(window, f"Reading {Path(path).name}…", lambda: read_schedule(path, airport, code), use)


def choose_osm_file(window) -> ImportJob | None:
    source = OpenFolder(window.settings, OSM_FOLDER).ask(window, "Import OpenStreetMap", OSM_FILTER)
    if not source:
        return None
    name = Path(source).name.split(".")[0] + ".json"
    out, _ = QFileDialog.getSaveFileName(window, "Save the imported layout as",
                                         str(Path(source).with_name(name)), "Airport layouts (*.json)")
    return import_osm_file(window, source, out) if out else None


def choose_schedule_file(window) -> ImportJob | None:
    from engine.sim.bts import is_bts
    if window.airport is None:
        return None
    path = OpenFolder(window.settings, SCHEDULE_FOLDER).ask(window, "Import schedule", SCHEDULE_FILTER)
    if not path:
        return None
    code = None
    if is_bts(path):
        code, ok = QInputDialog.getText(window, "Import schedule", "Airport code whose flights "
                                        "to keep (empty: the one in most rows):")
        if not ok:
            return None
    return import_schedule_file(window, path, code or None)


def import_actions(window) -> list:
    """The two File menu entries (after Open sweep, before the exports)."""
    return [ActionSpec("file.import-osm", "Import &OpenStreetMap…", lambda: choose_osm_file(window),
                       "file"),
            ActionSpec("file.import-schedule", "Import &schedule…",
                       lambda: choose_schedule_file(window), "file")]
