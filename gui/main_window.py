"""The BagRoute window: the airport map in the middle, the route panel docked at the side.

It owns the loaded airport and the latest all-pairs answer. Loading an airport, switching the
cost model or the variant submits one Floyd–Warshall solve to the worker thread; picking From/To
only reads the route out of the latest answer, so it is instant once that answer is in.
"""

from __future__ import annotations

import html
from pathlib import Path

from PySide6.QtCore import QSettings, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import (QApplication, QDockWidget, QFileDialog, QLabel, QMainWindow,
                               QMessageBox, QWidget)

from engine.apsp import solve as apsp_solve
from engine.apsp.gpu_device import gpu_name, gpu_unavailable_reason, simulated
from engine.cost import bag_aware_cost_matrix, travel_time_matrix
from engine.layout_io import LayoutError, bundled_airports, load_airport

from .map_view import AirportMapView
from .route_panel import RoutePanel
from .route_summary import BAGS, COST_MODES, TIME, RouteSummary, format_duration, summarise
from .settings import app_settings
from .solver_worker import SolverWorker

DEFAULT_AIRPORT = "paper-5"


def default_airport_path() -> Path:
    """The bundled paper-5 example (the first airport a new user sees)."""
    bundled = bundled_airports()
    if DEFAULT_AIRPORT in bundled:
        return bundled[DEFAULT_AIRPORT]
    from engine.layout_io import AIRPORTS_DIR
    return AIRPORTS_DIR / f"{DEFAULT_AIRPORT}.json"


class MainWindow(QMainWindow):
    """``routeShown(summary)`` fires each time a route (or "no route") is shown."""

    routeShown = Signal(object)       # RouteSummary
    airportLoaded = Signal(object)    # Airport
    solveFinished = Signal(object)    # APSPResult (current ones only)
    errorShown = Signal(str)

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

        self.solver = SolverWorker(self, solve_fn=solve_fn)
        self.solver.solved.connect(self._on_solved)
        self.solver.failed.connect(self._on_failed)

        self.status_label = QLabel()
        self.status_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.device_label = QLabel(self._device_text())
        self.device_label.setToolTip(gpu_unavailable_reason() or "GPU variants can run here")
        self.device_label.setStyleSheet("color: #5f6b7a; padding-right: 6px;")
        self.statusBar().addWidget(self.status_label, 1)
        self.statusBar().addPermanentWidget(self.device_label)

        self._build_menus()
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
        self.airportLoaded.emit(airport)
        self._request_solve()

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
        self._request_solve()

    def _show_error(self, title: str, message: str, dialog: bool = True) -> None:
        self.last_error = message
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

    def _build_menus(self) -> None:
        file_menu = self.menuBar().addMenu("&File")
        open_action = QAction("&Open airport…", self)
        open_action.setShortcut(QKeySequence.StandardKey.Open)
        open_action.triggered.connect(self._choose_airport_file)
        file_menu.addAction(open_action)
        bundled_menu = file_menu.addMenu("&Bundled airports")
        for name, path in bundled_airports().items():
            action = QAction(name, self)
            action.triggered.connect(lambda _=False, p=path: self.open_airport(p))
            bundled_menu.addAction(action)
        file_menu.addSeparator()
        quit_action = QAction("&Quit", self)
        quit_action.setShortcut(QKeySequence.StandardKey.Quit)
        quit_action.triggered.connect(self.close)
        file_menu.addAction(quit_action)

        view_menu = self.menuBar().addMenu("&View")
        fit_action = QAction("&Fit airport in view", self)
        fit_action.setShortcut(QKeySequence("F"))
        fit_action.triggered.connect(self.fit_view)
        view_menu.addAction(fit_action)
        view_menu.addAction(self.dock.toggleViewAction())

        route_menu = self.menuBar().addMenu("&Route")
        swap_action = QAction("&Swap From and To", self)
        swap_action.setShortcut(QKeySequence("S"))
        swap_action.triggered.connect(self.swap_endpoints)
        route_menu.addAction(swap_action)
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

    def closeEvent(self, event) -> None:
        self.settings.setValue("window/geometry", self.saveGeometry())
        self.settings.setValue("window/state", self.saveState())
        self.settings.sync()
        if self.solver.busy:
            self._set_status("Waiting for the running solve to finish…")
            QApplication.processEvents()
        self.solver.shutdown()
        if self._error_box is not None:
            self._error_box.close()
        super().closeEvent(event)
