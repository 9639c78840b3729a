"""The BagRoute window: the live airport map in the middle, docks for the simulated day, the
route finder, the Floyd–Warshall timing and the KPIs.

It owns the loaded airport and the latest all-pairs answer. Loading an airport, switching the
cost model or the variant submits one Floyd–Warshall solve to the worker thread; picking From/To
only reads the route out of the latest answer, so it is instant once that answer is in. The
simulated day runs in its own worker thread (``SimPlayer``); the window only draws its results.
"""

from __future__ import annotations

import html
import os
import platform
import time
from pathlib import Path

from PySide6.QtCore import QSettings, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import (QApplication, QComboBox, QDockWidget, QFileDialog, QFrame,
                               QLabel, QMainWindow, QMessageBox, QScrollArea, QStyle, QToolBar,
                               QWidget)

from engine.apsp import solve as apsp_solve
from engine.gpu_device import gpu_name, gpu_unavailable_reason, simulated
from engine.airport.cost import bag_aware_cost_matrix, travel_time_matrix
from engine.airport.layout_io import LayoutError, bundled_airports, load_airport
from engine.sim import SimConfig

from .bench_window import BenchWindow
from .import_actions import add_import_actions
from .live_plots import KpiPlots, TimingPlot
from .map_view import AirportMapView
from .route_panel import RoutePanel
from .route_summary import BAGS, COST_MODES, TIME, RouteSummary, format_duration, summarise
from .settings import app_settings
from .sim_panel import SimPanel, format_clock
from .sim_player import SPEEDS, STEP_S, SimPlayer
from .solver_worker import SolverWorker
from .tug_layer import TugLayer
from .route_engine_choice import FROM_TUGS, RouteEngineChoice
from .variant_picker import VariantPicker
from .whatif import WhatIf

DEFAULT_AIRPORT = "paper-5"
RECENT_MAX = 8
COMPILING_MESSAGE = "compiling GPU kernels, first use only"
CLOSE_WAIT_MS = 800    # closing waits this long at most for a running solve
KPI_EVERY_S = 60.0          # KPI samples for the live plots: every simulated minute


def default_airport_path() -> Path:
    """The bundled paper-5 example (the first airport a new user sees)."""
    bundled = bundled_airports()
    if DEFAULT_AIRPORT in bundled:
        return bundled[DEFAULT_AIRPORT]
    from engine.airport.layout_io import AIRPORTS_DIR
    return AIRPORTS_DIR / f"{DEFAULT_AIRPORT}.json"


class MainWindow(QMainWindow):
    """``routeShown(summary)`` fires each time a route (or "no route") is shown."""

    routeShown = Signal(object)       # RouteSummary
    airportLoaded = Signal(object)    # Airport
    solveFinished = Signal(object)    # APSPResult (current ones only)
    errorShown = Signal(str)
    simStepped = Signal(object)       # StepResult (current day only), after it is drawn

    def __init__(self, airport_path=None, settings: QSettings | None = None,
                 solve_fn=apsp_solve, variants=None, parent: QWidget | None = None):
        super().__init__(parent)
        self.settings = settings if settings is not None else app_settings()
        self.setWindowTitle("BagRoute")
        self.resize(1280, 800)

        self.airport = None
        self.airport_path: Path | None = None
        self.result = None            # latest APSPResult for the current airport/cost/variant
        self.summary: RouteSummary | None = None
        self.last_error: str | None = None
        self._serial = 0              # bumps on every airport load
        self._next_pick = "from"
        self._error_box: QMessageBox | None = None
        self._last_report = ""        # what the status bar says about the latest solve

        self.map_view = AirportMapView(self)
        self.setCentralWidget(self.map_view)
        self.panel = RoutePanel(variants=variants)
        self.dock = QDockWidget("Route finder", self)
        self.dock.setObjectName("route-dock")
        self.dock.setWidget(self.panel)
        self.dock.setFeatures(QDockWidget.DockWidgetFeature.DockWidgetMovable
                              | QDockWidget.DockWidgetFeature.DockWidgetFloatable)
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.dock)

        # the simulated day: player (worker thread + animation clock), map layer, docks
        self.player = SimPlayer(self)
        self.tug_layer = TugLayer(self.map_view)
        self.tug_layer.leg_source = self.player.leg
        self.map_view.click_filter = self._on_map_click
        self.sim_panel = SimPanel()
        self.sim_dock = self._scroll_dock("Simulation", "sim-dock", self.sim_panel,
                                          Qt.DockWidgetArea.RightDockWidgetArea)
        self.tabifyDockWidget(self.sim_dock, self.dock)
        self.sim_dock.raise_()
        self.timing_plot = TimingPlot()
        self.timing_plot.set_device(self._timing_device())
        self.timing_dock = self._dock("Live timing", "timing-dock", self.timing_plot,
                                      Qt.DockWidgetArea.BottomDockWidgetArea)
        self.timing_plot.setMinimumHeight(150)
        self.kpi_plots = KpiPlots()
        self.kpi_plots.setMinimumHeight(150)
        self.kpi_dock = self._dock("KPIs", "kpi-dock", self.kpi_plots,
                                   Qt.DockWidgetArea.BottomDockWidgetArea)
        self.splitDockWidget(self.timing_dock, self.kpi_dock, Qt.Orientation.Horizontal)
        self.setCorner(Qt.Corner.BottomRightCorner, Qt.DockWidgetArea.RightDockWidgetArea)
        self.resizeDocks([self.timing_dock], [290], Qt.Orientation.Vertical)
        self.sim_facts: dict = {}
        self._last_panel_update = 0.0
        self._auto_selected = False
        self._error_time = -1e9
        self._recompute_line = ""     # what the status bar says about the latest recompute
        self.setAcceptDrops(True)

        self.solver = SolverWorker(self, solve_fn=solve_fn)
        self.solver.solved.connect(self._on_solved)
        self.solver.failed.connect(self._on_failed)
        self.solver.compiling.connect(
            lambda variant: self._set_status(f"{COMPILING_MESSAGE} ({variant})…"))

        self.status_label = QLabel()
        self.status_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.device_label = QLabel(self._device_text())
        self.device_label.setToolTip(gpu_unavailable_reason() or "GPU variants can run here")
        self.device_label.setStyleSheet("color: #5f6b7a; padding-right: 6px;")
        self.statusBar().addWidget(self.status_label, 1)
        self.statusBar().addPermanentWidget(self.device_label)

        self._build_menus()
        self._build_toolbar()
        self._connect_simulation()
        self.whatif = WhatIf(self)        # what-if edits: map clicks, the What-if dock, undo
        self.map_view.nodeClicked.connect(self._on_node_clicked)
        self.panel.fromChanged.connect(lambda node_id: self.set_endpoints(node_id, self.to_id))
        self.panel.toChanged.connect(lambda node_id: self.set_endpoints(self.from_id, node_id))
        self.panel.swapRequested.connect(self.swap_endpoints)
        self.panel.costModeChanged.connect(self._on_cost_mode_changed)
        self.panel.variantChanged.connect(self._on_variant_changed)

        self._restore_settings()
        self._open_first_airport(airport_path)

    # -- public API (menus, command line, tests) -----------------------------------------------

    @property
    def from_id(self) -> str | None:
        return self.panel.from_id()

    @property
    def to_id(self) -> str | None:
        return self.panel.to_id()

    @property
    def variant(self) -> str:
        return self.panel.variant_picker.current_variant()

    @property
    def cost_mode(self) -> str:
        return self.panel.cost_mode()

    def open_airport(self, path) -> bool:
        """Load ``path``; on failure show why (file, item, problem) and keep the current airport."""
        path = Path(path)
        try:
            airport = load_airport(path)
        except Exception as exc:  # LayoutError above all; anything else must not crash the app
            message = str(exc) if isinstance(exc, (LayoutError, OSError)) else \
                f"unexpected {exc.__class__.__name__}: {exc}"
            if str(path) not in message and path.name not in message:
                message = f"{path}: {message}"
            self._show_error(f"Could not open airport {path.name}", message)
            return False
        self._set_airport(airport, path)
        return True

    def set_endpoints(self, from_id: str | None, to_id: str | None) -> None:
        """Choose From and To (node ids) and show the route between them."""
        self.panel.set_from(from_id)
        self.panel.set_to(to_id)
        self.map_view.set_endpoints(self.from_id, self.to_id)
        self._show_route()

    def open_benchmark(self) -> "BenchWindow":
        """Tools ▸ Benchmark…: the benchmark window, its own top-level window."""
        window = BenchWindow(parent=self)
        window.show()
        return window

    def open_layout_analysis(self):
        """Tools ▸ Layout analysis…: minimum service roads and bridges of this airport."""
        from .layout_analysis_view import LayoutAnalysisWindow
        window = LayoutAnalysisWindow(self.airport, parent=self)
        window.show()
        return window

    def open_sweep(self, path=None):
        """File ▸ Open sweep…: a sweep's results (``python main.py sweep``) in their own window,
        which says why if it cannot read them; None if no file was chosen."""
        from .sweep_view import SweepWindow  # pandas and Dask's results: only when asked for
        if path is None:
            path, _ = QFileDialog.getOpenFileName(self, "Open sweep results", "",
                                                  "Sweep tables (runs.parquet runs.csv)")
            if not path:
                return None
        window = SweepWindow(parent=self)
        window.show()
        window.load(path)
        return window

    def swap_endpoints(self) -> None:
        self.set_endpoints(self.to_id, self.from_id)

    def set_cost_mode(self, mode: str) -> None:
        if mode not in COST_MODES:
            raise ValueError(f"unknown cost mode {mode!r}; choose one of {', '.join(COST_MODES)}")
        if mode != self.cost_mode:
            self.panel.set_cost_mode(mode)
            self._on_cost_mode_changed(mode)

    def set_variant(self, name: str) -> bool:
        """Select a variant that can run here (False, with a status message, if it cannot)."""
        picker = self.panel.variant_picker
        if name not in picker.names():
            self._set_status(f"Unknown Floyd–Warshall variant {name!r}; keeping {self.variant}.")
            return False
        if not picker.is_available(name):
            self._set_status(f"{name} unavailable ({picker.reason(name)}); keeping {self.variant}.")
            return False
        picker.set_current_variant(name)  # emits variantChanged -> re-solve when it changed
        return True

    def fit_view(self) -> None:
        self.map_view.fit()

    def solve_report(self) -> str:
        """What the status bar said about the latest route-finder solve."""
        return self._last_report

    def status_text(self) -> str:
        return self.status_label.text()

    # -- airport -------------------------------------------------------------------------------

    def _open_first_airport(self, airport_path) -> None:
        if airport_path is not None:
            if self.open_airport(airport_path):
                return
        else:
            last = self.settings.value("airport/last", "", type=str)
            if last and Path(last).is_file() and self.open_airport(last):
                return
        if self.airport is None and not self.open_airport(default_airport_path()):
            self._set_status("No airport loaded: use File › Open airport…")

    def _set_airport(self, airport, path: Path) -> None:
        keep_from = self.from_id
        keep_to = self.to_id
        self._serial += 1
        self.airport, self.airport_path = airport, path
        self.result, self.summary = None, None
        self.map_view.set_airport(airport)
        self.panel.set_airport(airport, str(path))
        self.setWindowTitle(f"BagRoute — {airport.name}")
        ids = airport.node_ids
        if keep_from not in ids or keep_to not in ids:
            gates = [n.id for n in airport.gates()] or ids
            keep_from, keep_to = gates[0], gates[-1]
        self._next_pick = "from"
        self.panel.set_from(keep_from)
        self.panel.set_to(keep_to)
        self.map_view.set_endpoints(keep_from, keep_to)
        self.settings.setValue("airport/last", str(path.resolve()))
        self._remember_recent(path)
        self.tug_layer.set_airport(airport)
        self.airportLoaded.emit(airport)
        self._request_solve()
        self.restart_simulation()

    # -- solving -------------------------------------------------------------------------------

    def _cost_matrix(self):
        if self.cost_mode == BAGS:
            return bag_aware_cost_matrix(self.airport, self.airport.bag_vector())
        return travel_time_matrix(self.airport)

    def _request_solve(self) -> None:
        if self.airport is None or self.solver.closed:
            return
        self.result = None
        self.map_view.clear_route()
        context = (self._serial, self.cost_mode, self.variant)
        try:
            cost = self._cost_matrix()
        except ValueError as exc:
            self._show_error("Cannot build the cost matrix", str(exc))
            return
        self.solver.submit(cost, self.variant, context)
        n = len(self.airport.nodes)
        self.panel.show_pending(f"Solving all {n}×{n} pairs with {self.variant}…")
        self._set_status(f"Solving {n} nodes ({COST_MODES[self.cost_mode].lower()} cost) with "
                         f"{self.variant} in a worker thread…")

    def _on_solved(self, job, result) -> None:
        if job.context != (self._serial, self.cost_mode, self.variant):
            return  # belt and braces: the worker already drops superseded jobs
        self.result = result
        self._last_report = self._solve_report(result)
        self._set_status(self._last_report)
        self.panel.solver_line.setText(
            f"Last solve: <b>{result.variant}</b> on {html.escape(result.device)}, "
            f"{format_duration(result.seconds)}")
        self.solveFinished.emit(result)
        self._show_route()

    def _on_failed(self, job, message: str) -> None:
        if job.context != (self._serial, self.cost_mode, self.variant):
            return
        self.panel.show_error(message)
        self._show_error(f"{job.variant} failed", message, dialog=False)

    def _solve_report(self, r) -> str:
        n = len(self.airport.nodes)
        what = f"{n} nodes, {COST_MODES[self.cost_mode].lower()} cost"
        if r.note:  # e.g. "gpu-blocked unavailable (…); ran cpu-blocked on the CPU"
            return f"{r.note}: {r.device}, {format_duration(r.seconds)} — {what}"
        text = f"Ran {r.variant} on {r.device} in {format_duration(r.seconds)} — {what}"
        reason = gpu_unavailable_reason()
        if reason is not None:
            text += f"; no GPU ({reason})"
        return text

    def _show_route(self) -> None:
        if self.airport is None:
            return
        if self.from_id is None or self.to_id is None:
            self.map_view.clear_route()
            self.panel.show_pending("Pick From and To.")
            return
        if self.result is None:
            return  # the answer is on its way; _on_solved will call again
        self.summary = summarise(self.airport, self.result, self.from_id, self.to_id)
        self.map_view.set_route(self.summary.nodes)
        names = {n.id: n.name for n in self.airport.nodes}
        kinds = {n.id: n.kind for n in self.airport.nodes}
        self.panel.show_summary(self.summary, names, self.cost_mode, kinds)
        self.routeShown.emit(self.summary)

    # -- reactions -----------------------------------------------------------------------------

    def _on_node_clicked(self, node_id: str) -> None:
        if self._next_pick == "from":
            self._next_pick = "to"
            self.set_endpoints(node_id, self.to_id)
            self._set_status(f"From {self.airport.node(node_id).name}: now click the To node.")
        else:
            self._next_pick = "from"
            self.set_endpoints(self.from_id, node_id)
            self._set_status(self._last_report)

    def _on_cost_mode_changed(self, mode: str) -> None:
        self.settings.setValue("route/cost_mode", mode)
        self._cost_actions[mode].setChecked(True)
        self._request_solve()

    def _on_variant_changed(self, name: str) -> None:
        self.settings.setValue("solver/variant", name)
        self.player.set_variant(self.sim_variant())
        self._request_solve()

    def _show_error(self, title: str, message: str, dialog: bool = True) -> None:
        self.last_error = message
        self._error_time = time.monotonic()   # live status lines leave it a while
        self._set_status(f"{title}: {message.splitlines()[0]}")
        if dialog:
            if self._error_box is not None:
                self._error_box.close()
            box = QMessageBox(QMessageBox.Icon.Warning, title, message,
                              QMessageBox.StandardButton.Ok, self)
            box.setWindowModality(Qt.WindowModality.WindowModal)
            box.open()  # not exec(): the window and the worker keep running
            self._error_box = box
        self.errorShown.emit(message)

    def show_status(self, text: str) -> None:
        """A message the live status lines leave alone a while (what an edit did)."""
        self._set_status(text)
        self._error_time = time.monotonic()

    def _set_status(self, text: str) -> None:
        self.status_label.setText(text)
        self.status_label.setToolTip(text)

    @staticmethod
    def _device_text() -> str:
        reason = gpu_unavailable_reason()
        if reason is not None:
            return "No GPU — CPU variants only"
        if simulated():
            return "GPU: Numba CUDA simulator (no real GPU)"
        return f"GPU: {gpu_name()}"

    # -- menus ---------------------------------------------------------------------------------

    def _add_action(self, menu, text: str, slot, shortcut=None) -> QAction:
        """A menu entry that calls ``slot``, with an optional keyboard shortcut."""
        action = QAction(text, self)
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
        action.triggered.connect(slot)
        menu.addAction(action)
        return action

    def _build_menus(self) -> None:
        file_menu = self.menuBar().addMenu("&File")
        self._add_action(file_menu, "&Open airport…", self._choose_airport_file,
                         QKeySequence.StandardKey.Open)
        bundled_menu = file_menu.addMenu("&Bundled airports")
        for name, path in bundled_airports().items():
            self._add_action(bundled_menu, name, lambda _=False, p=path: self.open_airport(p))
        self.recent_menu = file_menu.addMenu("Open &recent")
        self._fill_recent_menu()
        self._add_action(file_menu, "Open s&weep…", lambda: self.open_sweep())
        add_import_actions(self, file_menu)   # File ▸ Import OpenStreetMap… / schedule…
        file_menu.addSeparator()
        for text, slot, key in (("Export &KPIs as CSV…", self._export_kpis, "Ctrl+E"),
                                ("Export &timings as CSV…", self._export_timings, "Ctrl+Shift+E"),
                                ("Save &map as PNG…", self._export_map, "Ctrl+P")):
            self._add_action(file_menu, text, slot, key)
        file_menu.addSeparator()
        self._add_action(file_menu, "&Quit", self.close, QKeySequence.StandardKey.Quit)

        view_menu = self.menuBar().addMenu("&View")
        self._add_action(view_menu, "&Fit airport in view", self.fit_view, "F")
        for dock in (self.sim_dock, self.dock, self.timing_dock, self.kpi_dock):
            view_menu.addAction(dock.toggleViewAction())

        sim_menu = self.menuBar().addMenu("&Simulation")
        style = self.style()
        self.play_action = QAction(style.standardIcon(QStyle.StandardPixmap.SP_MediaPlay),
                                   "Play", self)
        self.play_action.setShortcut(QKeySequence(Qt.Key.Key_Space))
        self.play_action.setToolTip("Play / pause the simulated day (Space)")
        self.play_action.triggered.connect(self.toggle_play)
        self.step_action = QAction(style.standardIcon(QStyle.StandardPixmap.SP_MediaSkipForward),
                                   "Step", self)
        self.step_action.setShortcuts([QKeySequence("N"), QKeySequence(Qt.Key.Key_Right)])
        self.step_action.setToolTip(f"Advance {STEP_S:g} simulated seconds (N or →)")
        self.step_action.triggered.connect(self.step_simulation)
        self.restart_action = QAction(style.standardIcon(QStyle.StandardPixmap.SP_BrowserReload),
                                      "Restart", self)
        self.restart_action.setShortcut(QKeySequence("R"))
        self.restart_action.setToolTip("Restart the simulated day with the settings in the "
                                       "Simulation dock (R)")
        self.restart_action.triggered.connect(self.restart_simulation)
        self.race_action = QAction("Race variants", self, checkable=True)
        self.race_action.setToolTip("Race mode: on each recompute of the live data, also run "
                                    "every other available variant on the same matrix")
        self.race_action.toggled.connect(self.set_race)
        for action in (self.play_action, self.step_action, self.restart_action):
            sim_menu.addAction(action)
        sim_menu.addSeparator()
        sim_menu.addAction(self.race_action)
        for text, key, delta in (("Previous tug", "[", -1), ("Next tug", "]", 1)):
            self._add_action(sim_menu, text, lambda _=False, d=delta: self.cycle_tug(d), key)
        self._add_action(sim_menu, "Deselect tug", lambda: self.select_tug(None),
                         Qt.Key.Key_Escape)

        route_menu = self.menuBar().addMenu("&Route")
        self._add_action(route_menu, "&Swap From and To", self.swap_endpoints, "S")
        route_menu.addSeparator()
        group = QActionGroup(self)
        self._cost_actions = {}
        for mode, key in ((TIME, "T"), (BAGS, "B")):
            action = QAction(f"{COST_MODES[mode]} cost", self, checkable=True)
            action.setShortcut(QKeySequence(key))
            action.triggered.connect(lambda _=False, m=mode: self.set_cost_mode(m))
            group.addAction(action)
            route_menu.addAction(action)
            self._cost_actions[mode] = action
        self._cost_actions[TIME].setChecked(True)

        tools_menu = self.menuBar().addMenu("&Tools")
        self._add_action(tools_menu, "&Benchmark…", self.open_benchmark)
        self._add_action(tools_menu, "&Layout analysis…", self.open_layout_analysis)

        help_menu = self.menuBar().addMenu("&Help")
        about = QAction("&About BagRoute", self)
        about.triggered.connect(lambda: QMessageBox.about(
            self, "About BagRoute",
            "BagRoute: airport baggage handling on all-pairs shortest paths (Floyd–Warshall), "
            "on the CPU and the GPU.\n\nClick two nodes on the map to see the route between "
            "them; switch the cost between travel time and the paper's bag-aware cost."))
        help_menu.addAction(about)

    def _choose_airport_file(self) -> None:
        start = str(self.airport_path.parent) if self.airport_path else str(Path.cwd())
        path, _ = QFileDialog.getOpenFileName(self, "Open airport", start,
                                              "Airport layouts (*.json);;All files (*)")
        if path:
            self.open_airport(path)

    # -- the simulated day ---------------------------------------------------------------------

    def _dock(self, title: str, name: str, widget, area) -> QDockWidget:
        dock = QDockWidget(title, self)
        dock.setObjectName(name)
        dock.setWidget(widget)
        dock.setFeatures(QDockWidget.DockWidgetFeature.DockWidgetMovable
                         | QDockWidget.DockWidgetFeature.DockWidgetFloatable
                         | QDockWidget.DockWidgetFeature.DockWidgetClosable)
        self.addDockWidget(area, dock)
        return dock

    def _scroll_dock(self, title: str, name: str, widget, area) -> QDockWidget:
        """A dock whose widget scrolls when the dock is shorter than it."""
        scroll = QScrollArea()
        scroll.setWidget(widget)
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        return self._dock(title, name, scroll, area)

    def _build_toolbar(self) -> None:
        bar = QToolBar("Simulation", self)
        bar.setObjectName("sim-toolbar")
        bar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        bar.setMovable(False)
        open_action = QAction(self.style().standardIcon(QStyle.StandardPixmap.SP_DialogOpenButton),
                              "Open", self)
        open_action.setToolTip("Open an airport layout (Ctrl+O), or drop one on the window")
        open_action.triggered.connect(self._choose_airport_file)
        bar.addAction(open_action)
        bar.addSeparator()
        bar.addAction(self.play_action)
        bar.addAction(self.step_action)
        bar.addAction(self.restart_action)
        bar.addSeparator()
        bar.addWidget(QLabel(" Speed "))
        self.speed_combo = QComboBox()
        for speed in SPEEDS:
            self.speed_combo.addItem(f"{speed}×", speed)
        self.speed_combo.setToolTip("Simulated seconds per wall-clock second")
        self.speed_combo.currentIndexChanged.connect(
            lambda _: self.set_speed(self.speed_combo.currentData()))
        bar.addWidget(self.speed_combo)
        bar.addSeparator()
        self.route_engine = RouteEngineChoice()
        self.route_engine.engineChanged.connect(self.set_route_engine)
        self.route_engine.variantChanged.connect(lambda _: self._on_sim_variant_changed())
        bar.addWidget(self.route_engine)
        bar.addWidget(QLabel(" Floyd–Warshall "))
        self.toolbar_variant = VariantPicker(variants=self.panel.variant_picker._variants)
        self.toolbar_variant.setToolTip("The variant the dispatcher's all-pairs recomputes and "
                                        "the route finder use (unavailable ones say why)")
        self.toolbar_variant.variantChanged.connect(
            lambda name: self.panel.variant_picker.set_current_variant(name))
        self.panel.variant_picker.variantChanged.connect(
            lambda name: self.toolbar_variant.set_current_variant(name, silent=True))
        bar.addWidget(self.toolbar_variant)
        bar.addAction(self.race_action)
        bar.addSeparator()
        self.clock_label = QLabel("")
        self.clock_label.setStyleSheet("font-family: monospace; font-size: 15px; "
                                       "font-weight: 600; padding: 0 8px;")
        bar.addWidget(self.clock_label)
        self.addToolBar(Qt.ToolBarArea.TopToolBarArea, bar)
        self.toolbar = bar

    def _connect_simulation(self) -> None:
        p = self.player
        p.loaded.connect(self._on_sim_loaded)
        p.stepped.connect(self._on_sim_stepped)
        p.raced.connect(self.timing_plot.add_race)
        p.frame.connect(self._on_sim_frame)
        p.failed.connect(lambda m: self._show_error("Simulation failed", m, dialog=False))
        p.playingChanged.connect(self._on_playing_changed)
        p.finished.connect(lambda: self._set_status("The simulated day is over: restart (R) "
                                                    "or open another airport."))
        self.sim_panel.restartRequested.connect(self.restart_simulation)
        self.sim_panel.raceToggled.connect(self.race_action.setChecked)
        self.sim_panel.prev_tug.clicked.connect(lambda: self.cycle_tug(-1))
        self.sim_panel.next_tug.clicked.connect(lambda: self.cycle_tug(1))

    def sim_config(self) -> SimConfig:
        panel = self.sim_panel
        fleet = panel.fleet_spin.value()
        return SimConfig(hours=24.0, seed=panel.seed_spin.value(), tugs=fleet or None,
                         variant=self.sim_variant(), route_engine=self.route_engine.engine(),
                         policy=panel.policy(),
                         load=panel.load_spin.value(), kpi_every_s=KPI_EVERY_S,
                         flights=getattr(self, "imported_flights", None))

    def sim_variant(self) -> str:
        """The variant the day solves with: the route engine's family (FW or SSSP)."""
        return self.route_engine.variant_for(self.variant)

    def set_route_engine(self, name: str) -> None:
        """All pairs on key nodes or from the tugs: the day starts again with it (the same day;
        the timing panel and race mode then show that family's variants)."""
        self.route_engine.set_engine(name, silent=True)
        self.settings.setValue("sim/route_engine", name)
        self.restart_simulation()
        self._set_status(f"Route engine: {self.route_engine.combo.currentText()} — the day "
                         "starts again (the same day: both engines are exact)")

    def _on_sim_variant_changed(self) -> None:
        self.settings.setValue("sim/sssp_variant", self.route_engine.sssp_variant())
        self.player.set_variant(self.sim_variant())

    def restart_simulation(self) -> None:
        """Start the simulated day again on the current airport (paused at 00:00)."""
        if self.airport is None or self.player.runner.closed:
            return
        self.player.pause()
        self._save_sim_settings()
        self.sim_facts = {}
        self._auto_selected = False
        self._recompute_line = ""
        self.tug_layer.set_airport(self.airport)
        self.timing_plot.reset(graph="")
        self.kpi_plots.reset()
        self.sim_panel.show_tug(None, self.airport, [])
        self.sim_panel.facts_label.setText("Preparing the simulated day…")
        self.player.load(self.airport, self.sim_config())

    def play(self) -> None:
        self.player.play()

    def pause(self) -> None:
        self.player.pause()

    def toggle_play(self) -> None:
        self.player.toggle()

    def step_simulation(self) -> None:
        self.player.step()

    def set_speed(self, speed: float) -> None:
        self.player.set_speed(speed)
        i = self.speed_combo.findData(speed)
        if i >= 0 and i != self.speed_combo.currentIndex():
            self.speed_combo.setCurrentIndex(i)
        self.settings.setValue("sim/speed", speed)

    def set_race(self, on: bool) -> None:
        """Race mode: every other available variant solves each live recompute too."""
        on = bool(on)
        self.player.set_race(on)
        for w in (self.race_action, self.sim_panel.race_check):
            if w.isChecked() != on:
                w.blockSignals(True)
                w.setChecked(on)
                w.blockSignals(False)
        self.settings.setValue("sim/race", on)
        racers = self.player.runner.worker.race_with
        if on:
            self._set_status(f"Race mode: each recompute also runs {', '.join(racers)} "
                             "on the same matrix, in the simulation's spare time")

    def select_tug(self, tug: int | None) -> None:
        self.tug_layer.select(tug)
        self._show_selected_tug()

    def select_busiest_tug(self) -> int | None:
        """Select the driving tug with the longest way still ahead (demos and screenshots)."""
        result = self.player.shown
        if result is None:
            return None
        best, best_len = None, -1
        for info in result.tugs:
            if info.activity != 1:
                continue
            self.tug_layer.select(info.id)
            if len(self.tug_layer.remaining) > best_len:
                best, best_len = info.id, len(self.tug_layer.remaining)
        self.select_tug(best)
        return best

    def cycle_tug(self, delta: int) -> None:
        result = self.player.shown
        if result is None or not result.tugs:
            return
        n = len(result.tugs)
        current = self.tug_layer.selected
        self.select_tug((delta if delta > 0 else n + delta) % n if current is None
                        else (current + delta) % n)

    def _on_map_click(self, x: float, y: float) -> bool:
        """A click on a tug selects it, unless a node is at least as near (then it picks the node;
        a tug parked on a node is reached with [ and ])."""
        hit = self.tug_layer.nearest_tug(x, y)
        if hit is None or hit[1] > 12 or self.map_view.node_at(x, y, tolerance_px=hit[1]):
            return False
        self.select_tug(hit[0])
        return True

    def _on_sim_loaded(self, facts: dict) -> None:
        self.sim_facts = facts
        n = len(self.airport.nodes)
        from_tugs = facts.get("route_engine") == FROM_TUGS
        self.timing_plot.set_family("SSSP from the tugs" if from_tugs else "Floyd–Warshall")
        self.timing_plot.set_graph(f"all {n:,} road nodes, from {facts['tugs']} tugs" if from_tugs
                                   else f"{facts['key_nodes']} key nodes (of {n:,} road nodes)")
        self.sim_panel.facts_label.setText(
            f"{facts['flights']:,} flights, {facts['bags']:,} bags, {facts['tugs']} tugs over "
            f"{format_clock(facts['end'])}. " + (
                f"Bag-aware shortest paths on all {n:,} road nodes from the tugs"
                if from_tugs else f"Bag-aware all-pairs on the {facts['key_nodes']} key nodes "
                "(gates, sort stations, depots)") +
            f", recomputed {facts['recompute']} as the bags change. Space plays, N steps.")

    def _on_sim_stepped(self, result) -> None:
        self.tug_layer.show_result(result)
        snap = result.snapshot
        if not self._auto_selected and self.tug_layer.selected is None:
            driving = [t for t in result.tugs if t.activity == 1]
            if driving:  # a route on screen from the start: the busiest driving tug
                self._auto_selected = True
                self.tug_layer.select(max(driving, key=lambda t: (t.load, -t.id)).id)
        self.timing_plot.add(result.timings)
        self.kpi_plots.add(result.series, snap.kpis)
        fallbacks = [t.note for t in result.timings if t.note]
        if fallbacks:   # e.g. the GPU failed mid-day: the day goes on, and says on what
            self._error_time = time.monotonic()
            self._set_status(f"The day continues on the CPU: {fallbacks[-1]}")
        self.sim_panel.show_counts(snap.kpis)
        self._show_selected_tug()
        if result.timings:
            t = result.timings[-1]
            self._recompute_line = (
                f" — recompute #{t.round}: {t.variant} {t.seconds * 1000:.2f} ms on {t.n} "
                f"nodes" + self._race_text(t.variant)
                + f"; worker {result.wall_s * 1000:.0f} ms for this step")
        pace = self._pace_text()
        if self.player.playing and time.monotonic() - self._error_time > 8 and (
                result.timings or pace):
            self._set_status(f"Playing at {self.player.speed:g}×{self._recompute_line}{pace}")
        self.simStepped.emit(result)

    def _race_text(self, dispatcher: str) -> str:
        """What the status bar says of race mode: how many variants, on how many recomputes."""
        summary = self.timing_plot.race_summary() if self.player.race else None
        if not summary or not summary[0]:
            return ""
        raced, of = summary
        variants = len(set(self.player.runner.worker.race_with) | {dispatcher})
        return f"; {variants} variants raced" + (f" on {raced} of {of} recomputes"
                                                 if raced < of else "")

    def _pace_text(self) -> str:
        """What the status bar adds when the day plays slower than the chosen speed."""
        behind = self.player.behind()
        if behind is None:
            return ""
        why = "the simulation cannot keep up" if self.player.waited else "drawing cannot keep up"
        return (f"; running at {self.player.achieved:.0f}×, {100 * behind:.0f}% behind "
                f"{self.player.speed:g}×: {why}")

    def _on_sim_frame(self, t: float, xy) -> None:
        self.tug_layer.move_tugs(xy, t)
        now = time.perf_counter()
        if now - self._last_panel_update > 0.1 or not self.player.playing:
            self._last_panel_update = now
            end = self.player.end_time
            self.sim_panel.show_time(t, end)
            self.clock_label.setText(f"{format_clock(t)}")

    def _show_selected_tug(self) -> None:
        k = self.tug_layer.selected
        result = self.player.result_for(k) if k is not None else None
        result = result or self.player.shown
        if result is None or k is None or k >= len(result.tugs):
            self.sim_panel.show_tug(None, self.airport, [])
            return
        self.sim_panel.show_tug(result.tugs[k], self.airport, self.tug_layer.selected_route())

    def _on_playing_changed(self, playing: bool) -> None:
        if not playing:   # the throttled clock labels and plots catch up with the displayed time
            self.timing_plot.flush()
            self.kpi_plots.flush()
            self.sim_panel.show_time(self.player.clock, self.player.end_time)
            self.clock_label.setText(format_clock(self.player.clock))
        icon = QStyle.StandardPixmap.SP_MediaPause if playing else QStyle.StandardPixmap.SP_MediaPlay
        self.play_action.setIcon(self.style().standardIcon(icon))
        self.play_action.setText("Pause" if playing else "Play")

    @staticmethod
    def _timing_device() -> str:
        cpu = platform.processor() or ""
        try:
            with open("/proc/cpuinfo", encoding="utf-8") as fh:
                for line in fh:
                    if line.startswith("model name"):
                        cpu = line.split(":", 1)[1].strip()
                        break
        except OSError:
            pass
        cores = os.cpu_count() or 1
        cpu = f"CPU: {cpu or 'unknown'} ×{cores}"
        if gpu_unavailable_reason() is None:
            return f"GPU: {'CUDA simulator' if simulated() else gpu_name()} · {cpu}"
        return f"{cpu} (no GPU)"

    # -- files: recent, drag and drop, export ---------------------------------------------------

    def recent_files(self) -> list[str]:
        value = self.settings.value("recent/files", [])
        if isinstance(value, str):
            value = [value] if value else []
        return [str(v) for v in (value or [])]

    def _remember_recent(self, path: Path) -> None:
        p = str(Path(path).resolve())
        files = [p] + [f for f in self.recent_files() if f != p]
        self.settings.setValue("recent/files", files[:RECENT_MAX])
        self._fill_recent_menu()

    def _fill_recent_menu(self) -> None:
        menu = getattr(self, "recent_menu", None)
        if menu is None:
            return
        menu.clear()
        files = self.recent_files()
        for f in files:
            action = QAction(Path(f).name, self)
            action.setToolTip(f)
            action.setStatusTip(f)
            action.triggered.connect(lambda _=False, p=f: self.open_airport(p))
            menu.addAction(action)
        menu.setEnabled(bool(files))

    @staticmethod
    def _dropped_file(event) -> str | None:
        md = event.mimeData()
        if md.hasUrls():
            for url in md.urls():
                if url.isLocalFile():
                    return url.toLocalFile()
        return None

    def dragEnterEvent(self, event) -> None:
        if self._dropped_file(event):
            event.acceptProposedAction()
        else:
            event.ignore()

    def dropEvent(self, event) -> None:
        path = self._dropped_file(event)
        if path:
            event.acceptProposedAction()
            self.open_airport(path)

    def _save_path(self, title: str, suffix: str, filt: str) -> str | None:
        name = (self.airport.name if self.airport else "bagroute").replace(" ", "-")
        start = str(Path.cwd() / f"{name}-{suffix}")
        path, _ = QFileDialog.getSaveFileName(self, title, start, filt)
        return path or None

    def export_kpis(self, path) -> Path:
        return self.kpi_plots.write_csv(path)

    def export_timings(self, path) -> Path:
        return self.timing_plot.write_csv(path)

    def export_map(self, path) -> Path:
        path = Path(path)
        if not self.map_view.grab().save(str(path)):
            raise OSError(f"could not write {path}")
        return path

    def _export(self, fn, title, suffix, filt) -> None:
        path = self._save_path(title, suffix, filt)
        if not path:
            return
        try:
            out = fn(path)
        except Exception as exc:
            self._show_error(f"Could not save {Path(path).name}", str(exc))
            return
        self._set_status(f"Saved {out}")

    def _export_kpis(self) -> None:
        self._export(self.export_kpis, "Export KPIs", "kpis.csv", "CSV (*.csv)")

    def _export_timings(self) -> None:
        self._export(self.export_timings, "Export timings", "timings.csv", "CSV (*.csv)")

    def _export_map(self) -> None:
        self._export(self.export_map, "Save map", "map.png", "PNG image (*.png)")

    def _restore_sim_settings(self) -> None:
        s, panel = self.settings, self.sim_panel
        panel.fleet_spin.setValue(s.value("sim/fleet", 0, type=int))
        panel.load_spin.setValue(s.value("sim/load", 1.0, type=float))
        panel.seed_spin.setValue(s.value("sim/seed", 0, type=int))
        panel.set_policy(s.value("sim/policy", "shortest-path", type=str))
        speed = s.value("sim/speed", 60, type=int)
        self.set_speed(speed if speed in SPEEDS else 60)
        self.set_race(s.value("sim/race", False, type=bool))
        self.route_engine.sssp_picker.set_current_variant(
            s.value("sim/sssp_variant", "auto", type=str), silent=True)
        engine = s.value("sim/route_engine", "all-pairs", type=str)
        self.route_engine.set_engine(engine if engine in ("all-pairs", FROM_TUGS) else "all-pairs",
                                     silent=True)
        self.player.set_variant(self.sim_variant())

    def _save_sim_settings(self) -> None:
        s, panel = self.settings, self.sim_panel
        s.setValue("sim/fleet", panel.fleet_spin.value())
        s.setValue("sim/load", panel.load_spin.value())
        s.setValue("sim/seed", panel.seed_spin.value())
        s.setValue("sim/policy", panel.policy())

    # -- settings and closing --------------------------------------------------------------

    def _restore_settings(self) -> None:
        geometry = self.settings.value("window/geometry")
        if geometry is not None:
            self.restoreGeometry(geometry)
        state = self.settings.value("window/state")
        if state is not None:
            self.restoreState(state)
        mode = self.settings.value("route/cost_mode", TIME, type=str)
        if mode in COST_MODES:
            self.panel.set_cost_mode(mode)
            self._cost_actions[mode].setChecked(True)
        variant = self.settings.value("solver/variant", "", type=str)
        if variant and self.panel.variant_picker.is_available(variant):
            self.panel.variant_picker.set_current_variant(variant, silent=True)
        self.player.set_variant(self.variant)
        self.toolbar_variant.set_current_variant(self.variant, silent=True)
        self._restore_sim_settings()

    def closeEvent(self, event) -> None:
        self.settings.setValue("window/geometry", self.saveGeometry())
        self.settings.setValue("window/state", self.saveState())
        self.settings.sync()
        if self.solver.busy:
            self._set_status("Waiting for the running solve to finish…")
            QApplication.processEvents()
        self._save_sim_settings()
        if self.player.busy:
            self._set_status("Waiting for the simulation step to finish…")
            QApplication.processEvents()
        self.player.shutdown()
        self.whatif.shutdown()
        # A solve still running after this is left to end unseen: closing never waits on it.
        self.solver.shutdown(CLOSE_WAIT_MS)
        if self._error_box is not None:
            self._error_box.close()
        super().closeEvent(event)
