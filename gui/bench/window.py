"""The benchmark window: time chosen variants over chosen sizes, plot them, save or open results.

Runs the same benchmark as ``python main.py bench`` (any problem of engine.bench.problems:
warm-up outside the clock, median of repeats, every result checked against scipy) in a worker
thread, and saves and opens the same JSON, so a run made on a GPU machine with the CLI can be
shown on a laptop. Everything a problem shows (its options, columns, curves and summary) comes
from its module (``BenchProblem``): no problem is named here.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (QCheckBox, QComboBox, QDoubleSpinBox, QFileDialog, QFormLayout, QGroupBox,
                               QHBoxLayout, QLabel, QLayout, QLineEdit, QMainWindow, QMessageBox, QProgressBar,
                               QPushButton, QSplitter, QVBoxLayout, QWidget)

from engine.airport.layout_io import bundled_airports
from engine.bench.options import parse_sizes
from engine.bench.problems import DEFAULT, PROBLEMS, load_report, problem
from engine.bench.report import Report, machine_words, own_devices
from engine.bench.run import Failure, failures_in
from engine.input_error import InputError

from ..settings import app_settings
from .folder import ResultsFolder
from .lists import ResultsTable, VariantList
from .options import OptionControls
from .plot import BenchPlot
from .worker import BenchPlan, BenchRun, BenchWorker

CLOSE_WAIT_MS = 1500   # closing waits this long at most for the point being measured

DEFAULT_SIZES = "64 128 256 500 1024"
def _box(title: str, *parts) -> QGroupBox:
    """A titled group of widgets and layouts, one under the other."""
    box = QGroupBox(title)
    layout = QVBoxLayout(box)
    for part in parts:
        (layout.addLayout if isinstance(part, QLayout) else layout.addWidget)(part)
    return box


def _row(*widgets) -> QHBoxLayout:
    row = QHBoxLayout()
    for w in widgets:
        row.addWidget(w)
    return row


def _selectable_label() -> QLabel:
    label = QLabel()
    label.setWordWrap(True)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    return label


class BenchWindow(QMainWindow):
    """Benchmark window. ``BenchWindow(parent=main_window).show()`` opens it beside the app."""

    def __init__(self, parent: QWidget | None = None, settings: QSettings | None = None,
                 worker: BenchWorker | None = None):
        super().__init__(parent)
        if parent is not None:  # opened from a menu: each opening is its own window
            self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
            self.setWindowFlag(Qt.WindowType.Window)
        self.settings = settings if settings is not None else app_settings()
        self.worker = worker if worker is not None else BenchWorker(self)
        self.worker.setParent(self)
        self.report: Report | None = None      # what is shown: a finished run or an opened file
        self.failures: list[Failure] = []
        self.source = "no results yet"          # "this machine" or the opened file's name
        self._results_problem: str | None = None  # the problem the shown results are of
        self._kept_results: dict[str, tuple] = {}  # other problems' report, failures, source, progress
        self.last_error: str | None = None
        self.error_box: QMessageBox | None = None
        self._build()
        self._connect()
        self._restore_settings()
        self._show()
        self._set_running(False)
        self.set_status("Choose variants and sizes, then Run — or Open a bench.json "
                        "measured elsewhere (e.g. on a GPU machine).")

    # -- layout ----------------------------------------------------------------------------

    def _build(self) -> None:
        self.setWindowTitle(f"BagRoute — {problem(DEFAULT).NAME} benchmark")
        self.resize(1280, 820)

        self.problem_box = QComboBox()
        for name, module in PROBLEMS.items():
            self.problem_box.addItem(problem(name).NAME, name)
            self.problem_box.setItemData(self.problem_box.count() - 1, module.split(".")[-1],
                                         Qt.ItemDataRole.ToolTipRole)
        self.problem_box.setToolTip("What to benchmark: the variants, graphs and peers follow")
        self.variant_list = VariantList()
        self.variant_list.fill(problem(DEFAULT))

        self.sizes_edit = QLineEdit(DEFAULT_SIZES)
        self.sizes_edit.setToolTip("Vertex counts, separated by spaces. Each variant runs them "
                                   "in increasing order and stops at the first past the budget, "
                                   "then bisects between it and the last size that fit.")
        self.budget_spin = QDoubleSpinBox()
        self.budget_spin.setRange(0.01, 600.0)
        self.budget_spin.setDecimals(2)
        self.budget_spin.setValue(2.0)
        self.budget_spin.setSuffix(" s")
        self.budget_spin.setToolTip("A variant stops its ladder once a solve takes longer; the "
                                    "paper asks how many vertices fit in 2 s")

        self.airports_check = QCheckBox("Then time the bundled airports")
        self.airports_check.setToolTip("Each variant once on each bundled airport's bag-aware "
                                       f"cost ({', '.join(bundled_airports())})")

        form = self.form = QFormLayout()
        form.addRow("Sizes (n):", self.sizes_edit)
        self.controls = OptionControls({name: problem(name) for name in PROBLEMS}, form)
        form.addRow("Budget:", self.budget_spin)
        form.addRow(self.airports_check)

        self.run_button = QPushButton("Run")
        self.run_button.setDefault(True)
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setToolTip("Stop after the point being measured")
        self.progress = QProgressBar()
        self._set_progress("no run yet")
        self.open_button = QPushButton("Open results…")
        self.save_button = QPushButton("Save results…")
        self.folder = ResultsFolder(self.settings)

        left = QWidget()
        lv = QVBoxLayout(left)
        lv.setContentsMargins(0, 0, 0, 0)
        lv.addWidget(self.problem_box)
        lv.addWidget(_box("Variants", self.variant_list))
        lv.addWidget(_box("Run", form, _row(self.run_button, self.cancel_button), self.progress))
        lv.addWidget(_box("Results file", _row(self.open_button, self.save_button), self.folder))
        lv.addStretch(1)
        left.setFixedWidth(300)

        self.source_label = _selectable_label()
        self.plot = BenchPlot()
        self.answers_label = _selectable_label()
        self.table = ResultsTable(problem(DEFAULT).COLUMNS)

        top = QWidget()
        tv = QVBoxLayout(top)
        tv.setContentsMargins(0, 0, 0, 0)
        tv.addWidget(self.source_label)
        tv.addWidget(self.plot, 1)
        tv.addWidget(self.answers_label)
        splitter = QSplitter(Qt.Orientation.Vertical)
        splitter.addWidget(top)
        splitter.addWidget(self.table)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 2)

        central = QWidget()
        h = QHBoxLayout(central)
        h.addWidget(left)
        h.addWidget(splitter, 1)
        self.setCentralWidget(central)

        self.status_line = QLabel()
        self.status_line.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.statusBar().addWidget(self.status_line, 1)

        menu = self.menuBar().addMenu("&File")
        self.open_action = QAction("&Open results…", self, shortcut=QKeySequence.StandardKey.Open)
        self.save_action = QAction("&Save results…", self, shortcut=QKeySequence.StandardKey.Save)
        close = QAction("&Close", self, shortcut=QKeySequence.StandardKey.Close)
        close.triggered.connect(self.close)
        for a in (self.open_action, self.save_action):
            menu.addAction(a)
        menu.addSeparator()
        menu.addAction(close)

    @property
    def problem(self) -> str:
        return self.problem_box.currentData()

    def set_problem(self, name: str) -> None:
        """Show ``name``'s variants (the default choice of them) and options."""
        if name != self.problem:
            self.problem_box.setCurrentIndex(self.problem_box.findData(name))
        self._on_problem(self.problem_box.currentIndex())

    def _on_problem(self, _index: int) -> None:
        name = self.problem
        self.variant_list.fill(problem(name))
        self.set_selected_variants(self._default_variants(name))
        self.controls.show_for(name)
        self.setWindowTitle(f"BagRoute — {problem(name).NAME} benchmark")
        self._show_results_of(name)

    def _show_results_of(self, name: str) -> None:
        """Keep the shown results with their problem and show ``name``'s — none yet, or what
        was shown when it was last chosen: the chart, table and title always belong to the
        chosen problem, and switching problems loses no unsaved run."""
        if self._results_problem not in (None, name):
            bar = self.progress
            self._kept_results[self._results_problem] = (self.report, self.failures, self.source,
                                                         (bar.format(), bar.maximum(), bar.value()))
            self.report, self.failures, self.source, progress = self._kept_results.pop(
                name, (None, [], "no results yet", ("no run yet", 1, 0)))
            self._set_progress(*progress)
            self._set_running(self.running)
            self._show()
        self._results_problem = name

    @staticmethod
    def _default_variants(name: str) -> list[str]:
        """Every variant that runs here, and scipy."""
        return [v.name for v in problem(name).registry() if v.available] + ["scipy"]

    def _connect(self) -> None:
        self.problem_box.currentIndexChanged.connect(self._on_problem)
        self.run_button.clicked.connect(self.start_run)
        self.cancel_button.clicked.connect(self.cancel_run)
        self.open_button.clicked.connect(self._choose_open)
        self.open_action.triggered.connect(self._choose_open)
        self.save_button.clicked.connect(self._choose_save)
        self.save_action.triggered.connect(self._choose_save)
        w = self.worker
        w.started.connect(self._on_started)
        w.measuring.connect(self._on_measuring)
        w.measured.connect(self._on_measured)
        w.failed.connect(self._on_failed)
        w.progressed.connect(self._on_progressed)
        w.finished.connect(self._on_finished)

    # -- choices ---------------------------------------------------------------------------

    def selected_variants(self) -> list[str]:
        return self.variant_list.selected()

    def set_selected_variants(self, names) -> list[str]:
        """Check exactly ``names`` (those that can run here); returns what is checked."""
        return self.variant_list.select(names)

    def set_plan(self, variants, sizes, budget_s: float = 2.0, airports: bool = False,
                 problem_name: str = DEFAULT, **options) -> None:
        """Fill the controls (tests, scripts); ``options`` give the problem's own options as
        their controls show them, by keyword (e.g. ``densities="15%"``, ``families="R-MAT"``)."""
        if problem_name != self.problem:
            self.set_problem(problem_name)
        self.controls.set_texts(options)
        self.set_selected_variants(variants)
        self.sizes_edit.setText(" ".join(str(n) for n in sizes))
        self.budget_spin.setValue(budget_s)
        self.airports_check.setChecked(airports)

    def plan(self) -> BenchPlan:
        """The plan the controls describe; ValueError saying what to fix."""
        chosen = self.selected_variants()
        if not chosen:
            raise ValueError("tick at least one variant")
        airports = tuple(bundled_airports()) if self.airports_check.isChecked() else ()
        return BenchPlan(tuple(chosen), parse_sizes(self.sizes_edit.text()), self.budget_spin.value(),
                         airports, self.problem, self.controls.values(self.problem))

    # -- running ---------------------------------------------------------------------------

    @property
    def running(self) -> bool:
        return self.worker.busy

    def start_run(self) -> BenchRun | None:
        if self.running:
            return None
        try:
            plan = self.plan()
        except ValueError as exc:
            self.set_status(f"Cannot run: {exc}.", error=True)
            return None
        self._save_settings()
        self.report = Report(command=plan.command(), machine={}, budget_s=plan.budget_s)
        self.failures = []
        self.source = "this machine, measuring now"
        self._show()
        self._set_progress("%v / %m points", plan.total)
        self._set_running(True)
        self.set_status(f"Running up to {plan.total} points "
                        f"({len(plan.variants)} variants × {len(plan.sizes)} sizes"
                        f"{' + airports' if plan.airports else ''}); the first "
                        "point of each variant includes compiling it.")
        return self.worker.start(plan)

    def cancel_run(self) -> None:
        if self.running:
            self.worker.cancel()
            self.cancel_button.setEnabled(False)
            self.set_status("Cancelling: stopping after the point being measured…")

    def _on_started(self, run: BenchRun) -> None:
        self.report.machine = self.worker.machine
        self._show()

    def _on_measuring(self, variant: str, graph: str, n: int) -> None:
        self.set_status(f"Measuring {variant} on {graph}, n = {n}…")

    def _on_measured(self, point) -> None:
        self.report.points.append(point)
        self._show()

    def _on_failed(self, failure: Failure) -> None:
        self.failures.append(failure)
        self._show()
        self.set_status(f"{failure.variant} failed on {failure.graph} at n = {failure.n}: "
                        f"{failure.message} (the run goes on)", error=True)

    def _on_progressed(self, done: int, total: int) -> None:
        self.progress.setRange(0, total)
        self.progress.setValue(done)

    def _on_finished(self, run: BenchRun) -> None:
        self.report = run.report or self.report  # the engine's, answers and errors included
        self.failures = list(run.failures)
        self.source = "this machine" + (" (cancelled part-way)" if run.cancelled else "")
        self._set_running(False)
        self._show()
        measured = len(run.points)
        if run.error:
            self.set_status(f"The run stopped: {run.error}.", error=True)
        elif run.cancelled:
            self.set_status(f"Cancelled after {run.done} of up to {run.total} points "
                            f"({measured} measured). Save keeps what was measured.")
        else:
            failed = f", {len(run.failures)} failed" if run.failures else ""
            self.set_status(f"Done: {measured} points measured{failed}; every result "
                            "checked against scipy.", error=bool(run.failures))

    def _set_progress(self, words: str, total: int = 1, done: int = 0) -> None:
        self.progress.setFormat(words)
        self.progress.setRange(0, total)
        self.progress.setValue(done)

    def _set_running(self, running: bool) -> None:
        self.run_button.setEnabled(not running)
        self.cancel_button.setEnabled(running)
        has = self.report is not None and bool(self.report.points or self.failures)
        for w in (self.save_button, self.save_action):
            w.setEnabled(not running and has)
        for w in (self.open_button, self.open_action, self.variant_list, self.sizes_edit,
                  self.budget_spin, self.airports_check, self.problem_box,
                  *self.controls.widgets.values()):
            w.setEnabled(not running)

    # -- files -----------------------------------------------------------------------------

    def _choose_open(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Open benchmark results",
                                              str(self.folder.ready()),
                                              "Benchmark results (*.json);;All files (*)")
        if path:
            self.load_file(path)

    def _choose_save(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, "Save benchmark results",
                                              str(self.folder.ready() / "bench.json"),
                                              "Benchmark results (*.json)")
        if path:
            self.save_file(path)

    def save_file(self, path) -> bool:
        """Write what is shown as the CLI's JSON (``Report.to_json``)."""
        path = Path(path)
        if self.report is None or not (self.report.points or self.failures):
            self.set_status("Nothing to save yet: run a benchmark or open one.", error=True)
            return False
        try:
            path.write_text(self.report.to_json(), encoding="utf-8")
        except OSError as exc:
            self._error(f"Could not save {path}: {exc.strerror or exc}.")
            return False
        self.folder.set_path(path.parent)
        self.set_status(f"Saved {len(self.report.points)} points to {path}.")
        return True

    def load_file(self, path) -> bool:
        """Show a saved benchmark; on a bad file, say which and why, and keep what was shown."""
        path = Path(path)
        if self.running:
            self.set_status("Cancel the run before opening results.", error=True)
            return False
        try:
            report = load_report(path)
        except InputError as exc:  # "FILE: ITEM: PROBLEM" for each problem
            self._error(f"Could not open {exc}\nThe results shown are unchanged.")
            return False
        if report.problem != self.problem:
            self.set_problem(report.problem)
        self.report = report
        self.failures = failures_in(report.answers)
        self.source = path.name
        self.folder.set_path(path.parent)
        self._set_progress("opened from a file")
        self._set_running(False)
        self._show()
        self.set_status(f"Opened {path}: {len(report.points)} points measured on "
                        f"{machine_words(report.machine)}.")
        return True

    def _error(self, message: str) -> None:
        self.last_error = message
        self.set_status(message, error=True)
        if self.error_box is not None:
            self.error_box.close()
        self.error_box = QMessageBox(QMessageBox.Icon.Warning, "Benchmark results", message,
                                     QMessageBox.StandardButton.Ok, self)
        self.error_box.open()  # window-modal, does not block the event loop

    # -- showing ---------------------------------------------------------------------------

    def set_status(self, text: str, error: bool = False) -> None:
        self.status_line.setText(text)
        self.status_line.setStyleSheet("color: #B00000;" if error else "")

    def _show(self) -> None:
        report, bench = self.report, problem(self.problem)
        points = report.points if report else []
        budget = report.budget_s if report else self.budget_spin.value()
        devices = own_devices(points) if bench.NAMES_DEVICES else []
        where = " / ".join(devices) if devices else (
            machine_words(report.machine) if report and report.machine else "")
        self.plot.show_points(points, budget, f"{bench.NAME} solve time" + (f" on {where}" if where else ""),
                              ladder_of=bench.ladder_of, order=bench.variants())
        self.table.show_rows(bench, points, self.failures, follow=self.running)
        if report is None:
            self.source_label.setText("<b>Results:</b> none yet")
            self.answers_label.setText("")
            self.setWindowTitle(f"BagRoute — {bench.NAME} benchmark")
            return
        machine = machine_words(report.machine) if report.machine else "this machine"
        self.source_label.setText(
            f"<b>Results:</b> {self.source} — <b>{machine}</b><br>"
            f"<span style='color:#555'>{report.command}</span>")
        self.setWindowTitle(f"BagRoute — {bench.NAME} benchmark — {self.source}"
                            + (f" ({where})" if where else ""))
        self.answers_label.setText(bench.summary_html(report))

    def table_rows(self) -> list[list[str]]:
        """The table's text, row by row (tests, copy)."""
        return self.table.rows()

    # -- settings and closing --------------------------------------------------------------

    def _restore_settings(self) -> None:
        s = self.settings
        geometry = s.value("bench/geometry")
        if geometry is not None:
            self.restoreGeometry(geometry)
        name = s.value("bench/problem", DEFAULT, type=str)
        self.set_problem(name if name in PROBLEMS else DEFAULT)
        chosen = s.value(self._variants_key())
        if chosen:
            self.set_selected_variants([chosen] if isinstance(chosen, str) else list(chosen))
        self.controls.restore(s)
        self.sizes_edit.setText(s.value("bench/sizes", DEFAULT_SIZES, type=str))
        try:
            self.budget_spin.setValue(float(s.value("bench/budget", 2.0)))
        except (TypeError, ValueError):
            pass
        self.airports_check.setChecked(s.value("bench/airports", False, type=bool))

    def _save_settings(self) -> None:
        s = self.settings
        s.setValue("bench/problem", self.problem)
        s.setValue(self._variants_key(), self.selected_variants())
        self.controls.save(s)
        s.setValue("bench/sizes", self.sizes_edit.text())
        s.setValue("bench/budget", self.budget_spin.value())
        s.setValue("bench/airports", self.airports_check.isChecked())

    def _variants_key(self) -> str:
        return "bench/variants" if self.problem == DEFAULT else f"bench/{self.problem}/variants"

    def closeEvent(self, event) -> None:  # noqa: N802 (Qt naming)
        """Cancel a run and give its current point up to ``CLOSE_WAIT_MS`` to end (one that
        runs longer ends unseen: closing never waits on it)."""
        if self.running:
            self.set_status("Closing: waiting for the point being measured…")
        self.worker.cancel()
        self.worker.wait(CLOSE_WAIT_MS)  # the worker stays usable: a window shown again can run
        self.settings.setValue("bench/geometry", self.saveGeometry())
        self._save_settings()
        super().closeEvent(event)
