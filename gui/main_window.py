"""The BagRoute window: composes the parts — the airport map in the middle, the route finder
(``route.finder``), the live day (``day.live_day``), what-if edits (``whatif``), the status line,
the docks, the declared actions of the menus and toolbar, recent files — and owns the loaded
airport. Each part does its own job; the window only wires them together and keeps the public
API that the command line, the tools and the tests drive."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings, Qt, QTimer, Signal
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import (QApplication, QFileDialog, QLabel, QMainWindow, QMessageBox,
                               QStyle, QToolBar, QWidget)

from engine.airport.layout_io import AIRPORTS_DIR, LayoutError, bundled_airports, load_airport
from engine.apsp import solve as apsp_solve

from .bench import BenchWindow
from .day.live_day import LiveDay
from .experiment.controller import Experiments
from .map.map_view import AirportMapView
from .route.finder import RouteFinder
from .route.variant_picker import VariantPicker
from .settings import app_settings
from .shell.actions import ActionRegistry, ActionSpec
from .shell.device import device_text, device_tip
from .shell.docks import Area, Docks
from .shell.imports import import_actions
from .shell.files import RecentFiles, SaveFolder, dropped_file, export_to_chosen_file, save_grab
from .shell.status import StatusLine
from engine.sim.edits import SetPolicy

from .whatif.controller import FleetTotal, WhatIf
from .whatif.scenario import ScenarioFiles

DEFAULT_AIRPORT = "paper-5"
CLOSE_WAIT_MS = 800    # closing waits this long at most for a running solve
ABOUT = ("<b>BagRoute</b>: a simulated day of airport baggage handling on shortest paths, on the "
         "CPU and the GPU."
         "<ul><li><b>Simulation</b>: tugs carry transfer and check-in bags between gates, sort "
         "stations and depots; each time the waiting bags change, the dispatcher's shortest paths "
         "are recomputed (Floyd–Warshall on the key nodes, or SSSP from the tugs) and the live "
         "plots show each variant's time and the day's KPIs. Space plays, N steps.</li>"
         "<li><b>What-if</b>: close roads, move or add tugs mid-day and compare with the day as "
         "planned.</li>"
         "<li><b>Route finder</b>: click two nodes to see the route between them, by travel time "
         "or the paper's bag-aware cost.</li>"
         "<li><b>Tools</b>: the benchmark of every algorithm family, and the layout analysis "
         "(minimum service roads, bridges).</li>"
         "<li><b>File ▸ Open sweep</b>: the results of many simulated days "
         "(<tt>python main.py sweep</tt>).</li></ul>")


def default_airport_path() -> Path:
    """The bundled paper-5 example (the first airport a new user sees)."""
    return bundled_airports().get(DEFAULT_AIRPORT, AIRPORTS_DIR / f"{DEFAULT_AIRPORT}.json")


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

        self.map_view = AirportMapView(self)
        self.setCentralWidget(self.map_view)
        self.status = StatusLine(self)
        self.device_label = QLabel(device_text())
        self.device_label.setToolTip(device_tip())
        self.device_label.setStyleSheet("color: #5f6b7a; padding-right: 6px;")
        self.statusBar().addPermanentWidget(self.device_label)
        self.actions = ActionRegistry(self)
        self.save_folder = SaveFolder(self.settings, lambda: self.airport_path)
        self._declare_file_actions()
        self.route = RouteFinder(self.map_view, self.status, self.settings, self.actions,
                                 solve_fn, variants, self)
        self.day = LiveDay(self.map_view, self.status, self.settings, self.actions,
                           lambda: self.route.variant, self)
        self.panel, self.solver = self.route.panel, self.route.solver
        self.player, self.tug_layer = self.day.player, self.day.tug_layer
        self.sim_panel, self.route_engine = self.day.panel, self.day.route_engine
        self.timing_plot, self.kpi_plots = self.day.timing_plot, self.day.kpi_plots

        docks = Docks(self)
        self.dock = docks.add("Route finder", "route-dock", self.panel, closable=False)
        self.sim_dock = docks.add("Simulation", "sim-dock", self.sim_panel, scroll=True)
        self.tabifyDockWidget(self.sim_dock, self.dock)
        self.sim_dock.raise_()
        self.timing_dock = docks.add("Live timing", "timing-dock", self.timing_plot,
                                     Area.BottomDockWidgetArea)
        self.kpi_dock = docks.add("KPIs", "kpi-dock", self.kpi_plots, Area.BottomDockWidgetArea)
        self.splitDockWidget(self.timing_dock, self.kpi_dock, Qt.Orientation.Horizontal)
        self.setCorner(Qt.Corner.BottomRightCorner, Area.RightDockWidgetArea)
        self.resizeDocks([self.timing_dock], [290], Qt.Orientation.Vertical)
        self._declare_other_actions()
        self._build_toolbar()
        self.whatif = WhatIf(self.player, self.map_view, self.status, self.actions, docks,
                             self.sim_dock, lambda: (self.airport, self.sim_config()), self,
                             ask_save_path=lambda *a: self.save_folder.ask(self, *a))
        self.scenarios = ScenarioFiles(self)
        self.day.before_restart = self.whatif.confirm_restart
        self.day.fleetChosen.connect(lambda total: self.whatif.edit(FleetTotal(total)))
        self.day.policyChosen.connect(lambda policy: self.whatif.edit(SetPolicy(policy)))
        self.whatif.applied.connect(self._show_settings_in_effect)
        self.experiments = Experiments(self, self.actions, self.status, self.settings,
                                       self.whatif, lambda: self.airport_path, self.open_sweep)

        self.route.routeShown.connect(self.routeShown)
        self.route.solveFinished.connect(self.solveFinished)
        self.route.variantChanged.connect(lambda _: self.day.use_variant())
        self.day.stepped.connect(self.simStepped)
        # the route finder's route, beside the tugs, would read as one of theirs: it shows
        # before the day starts, and when the route finder is in front (a click on a node
        # brings it there)
        self.player.playingChanged.connect(lambda _: self._show_route_finder_route())
        self.player.loaded.connect(lambda _: self._show_route_finder_route())
        self.dock.visibilityChanged.connect(   # (its tab is chosen once the signal is out)
            lambda _: QTimer.singleShot(0, self._show_route_finder_route))
        self.map_view.nodeClicked.connect(lambda _: self.dock.raise_())
        self.status.errorShown.connect(self.errorShown)
        self.setAcceptDrops(True)
        QApplication.instance().aboutToQuit.connect(self.shutdown_workers)
        try:
            self._restore_settings()
            self._open_first_airport(airport_path)
        except BaseException:
            self.shutdown_workers()   # no thread outlives a window that failed to open
            raise

    # -- actions, menus, toolbar -----------------------------------------------------------------

    def _declare_file_actions(self) -> None:
        a = self.actions
        a.register(ActionSpec("file.open", "&Open airport…", self._choose_airport_file, "file",
                              (QKeySequence.StandardKey.Open,)))
        a.add_menu("file.bundled", "&Bundled airports", "file")
        for name, path in bundled_airports().items():
            a.register(ActionSpec(f"file.bundled.{name}", name,
                                  lambda p=path: self.open_airport(p), "file.bundled"))
        self.recent = RecentFiles(self.settings, a.add_menu("file.recent", "Open &recent", "file"),
                                  self.open_airport)
        self.recent_menu = self.recent.menu
        a.register_all([
            ActionSpec("file.open-sweep", "Open s&weep…", lambda: self.open_sweep(), "file"),
            *import_actions(self),
            ActionSpec("file.export-kpis", "Export &KPIs as CSV…", lambda: self._export(
                self.export_kpis, "Export KPIs", "kpis.csv", "CSV (*.csv)"), "file",
                ("Ctrl+E",), separator=True),
            ActionSpec("file.export-timings", "Export &timings as CSV…", lambda: self._export(
                self.export_timings, "Export timings", "timings.csv", "CSV (*.csv)"), "file",
                ("Ctrl+Shift+E",)),
            ActionSpec("file.save-map", "Save &map as PNG…", lambda: self._export(
                self.export_map, "Save map", "map.png", "PNG image (*.png)"), "file", ("Ctrl+P",)),
            ActionSpec("file.quit", "&Quit", self.close, "file", (QKeySequence.StandardKey.Quit,),
                       separator=True),
            ActionSpec("toolbar.open", "Open", self._choose_airport_file,
                       icon=QStyle.StandardPixmap.SP_DialogOpenButton,
                       tooltip="Open an airport layout (Ctrl+O), or drop one on the window"),
        ])

    def _declare_other_actions(self) -> None:
        a = self.actions
        a.register(ActionSpec("view.fit", "&Fit airport in view", self.fit_view, "view", ("F",)))
        for dock in (self.sim_dock, self.dock, self.timing_dock, self.kpi_dock):
            a.add(f"view.{dock.objectName()}", dock.toggleViewAction(), "view")
        a.register_all([
            ActionSpec("tools.benchmark", "&Benchmark…", self.open_benchmark, "tools"),
            ActionSpec("tools.layout-analysis", "&Layout analysis…", self.open_layout_analysis,
                       "tools"),
            ActionSpec("help.about", "&About BagRoute",
                       lambda: QMessageBox.about(self, "About BagRoute", ABOUT), "help"),
        ])

    def _build_toolbar(self) -> None:
        bar = QToolBar("Simulation", self)
        bar.setObjectName("sim-toolbar")
        bar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        bar.setMovable(False)
        action = self.actions.action
        bar.addAction(action("toolbar.open"))
        bar.addSeparator()
        for name in ("sim.play", "sim.step", "sim.restart"):
            bar.addAction(action(name))
        bar.addSeparator()
        bar.addWidget(QLabel(" Speed "))
        bar.addWidget(self.day.speed_combo)
        bar.addWidget(self.day.clock_label)
        bar.addAction(action("sim.race"))
        bar.addSeparator()
        self.toolbar_variant = VariantPicker(variants=self.panel.variant_picker._variants)
        self.toolbar_variant.setToolTip("The variant the dispatcher's all-pairs recomputes and "
                                        "the route finder use (unavailable ones say why)")
        self.toolbar_variant.variantChanged.connect(
            lambda name: self.panel.variant_picker.set_current_variant(name))
        self.panel.variant_picker.variantChanged.connect(
            lambda name: self.toolbar_variant.set_current_variant(name, silent=True))
        self.toolbar_variant.fit_to_current()
        self.route_engine.show_with_all_pairs(QLabel(" Floyd–Warshall "), self.toolbar_variant)
        bar.addWidget(self.route_engine)
        self.addToolBar(Qt.ToolBarArea.TopToolBarArea, bar)
        self.toolbar = bar

    @property
    def play_action(self):
        return self.actions.action("sim.play")

    @property
    def race_action(self):
        return self.actions.action("sim.race")

    def _show_route_finder_route(self) -> None:
        started = self.player.playing or self.player.clock > 0
        in_front = self.dock.isVisible() and not self.dock.visibleRegion().isEmpty()
        self.map_view.show_route(not started or in_front)

    # -- the airport -----------------------------------------------------------------------------

    def open_airport(self, path, airport=None, replay=None, extra=None) -> bool:
        """Load ``path`` (or take ``airport``, read from it); on failure show why (file, item,
        problem) and keep the current airport. ``replay``: timed edits the day applies as it
        plays; ``extra``: SimConfig fields the dock does not hold (an opened scenario's)."""
        path = Path(path)
        try:
            airport = airport or load_airport(path)
        except Exception as exc:  # LayoutError above all; anything else must not crash the app
            if isinstance(exc, LayoutError):   # the first cause and a count; all behind Details
                self.status.error(f"Could not open airport {path.name}",
                                  exc.brief("Show Details… lists them all"), exc.details())
                return False
            message = str(exc) if isinstance(exc, OSError) else \
                f"unexpected {exc.__class__.__name__}: {exc}"
            if str(path) not in message and path.name not in message:
                message = f"{path}: {message}"
            self.status.error(f"Could not open airport {path.name}", message)
            return False
        if (self.airport is not None and not self.scenarios.edits_saved()
                and not self.whatif.confirm_leave(path.name, self.scenarios.save)):
            self.status.hold(f"Kept {self.airport.name} and its what-if edits open.")
            return False
        self.airport, self.airport_path = airport, path
        self.map_view.set_airport(airport)
        self.route.set_airport(airport, path)
        self.setWindowTitle(f"BagRoute — {airport.name}")
        self.settings.setValue("airport/last", str(path.resolve()))
        self.recent.remember(path)
        self.day.set_airport(airport)
        self.airportLoaded.emit(airport)
        self.route.request_solve()
        self.day.day_extra = dict(extra or {})
        if extra is None:
            self.scenarios.flights_file = None
        self.day.restart(replay)
        return True

    def _open_first_airport(self, airport_path) -> None:
        if airport_path is not None:
            if self.open_airport(airport_path):
                return
        else:
            last = self.settings.value("airport/last", "", type=str)
            if last and Path(last).is_file() and self.open_airport(last):
                return
        if self.airport is None and not self.open_airport(default_airport_path()):
            self.status.set("No airport loaded: use File › Open airport…")

    def _choose_airport_file(self) -> None:
        start = str(self.airport_path.parent if self.airport_path else self.save_folder.folder())
        path, _ = QFileDialog.getOpenFileName(self, "Open airport", start,
                                              "Airport layouts (*.json);;All files (*)")
        if path:
            self.open_airport(path)

    def recent_files(self) -> list[str]:
        return self.recent.files()

    def dragEnterEvent(self, event) -> None:
        if dropped_file(event):
            event.acceptProposedAction()
        else:
            event.ignore()

    def dropEvent(self, event) -> None:
        path = dropped_file(event)
        if path:
            event.acceptProposedAction()
            self.open_airport(path)

    # -- other windows ---------------------------------------------------------------------------

    def open_benchmark(self) -> BenchWindow:
        """Tools ▸ Benchmark…: the benchmark window, its own top-level window."""
        window = BenchWindow(parent=self, settings=self.settings)
        window.show()
        return window

    def open_layout_analysis(self):
        """Tools ▸ Layout analysis…: minimum service roads and bridges of this airport."""
        from .analysis.view import LayoutAnalysisWindow
        window = LayoutAnalysisWindow(self.airport, parent=self)
        window.show()
        return window

    def open_sweep(self, path=None):
        """File ▸ Open sweep…: a sweep's results (``python main.py sweep``) in their own window;
        None if no file was chosen or it cannot be read (then this window says why)."""
        from .sweep.view import ResultsError, SweepWindow  # pandas: only when asked for
        if path is None:
            path, _ = QFileDialog.getOpenFileName(self, "Open sweep results",
                                                  str(self.save_folder.folder()),
                                                  "Sweep tables (runs.parquet runs.csv)")
            if not path:
                return None
        window = SweepWindow(parent=self)
        try:
            window.show_results(path)
        except ResultsError as exc:   # no empty window: the message where the user asked
            window.deleteLater()
            self.status.error("Could not open the sweep", exc.brief(), exc.details())
            return None
        window.show()
        return window

    # -- exports ---------------------------------------------------------------------------------

    def export_kpis(self, path) -> Path:
        return self.kpi_plots.write_csv(path)

    def export_timings(self, path) -> Path:
        return self.timing_plot.write_csv(path)

    def export_map(self, path) -> Path:
        return save_grab(self.map_view, path)

    def _export(self, write, title: str, suffix: str, filt: str) -> None:
        name = (self.airport.name if self.airport else "bagroute").replace(" ", "-")
        export_to_chosen_file(self, self.status, self.save_folder, write, title,
                              f"{name}-{suffix}", filt)

    # -- the route finder's and the day's API, for menus, the command line, tools and tests ------

    from_id = property(lambda self: self.route.from_id)
    to_id = property(lambda self: self.route.to_id)
    variant = property(lambda self: self.route.variant)
    cost_mode = property(lambda self: self.route.cost_mode)
    result = property(lambda self: self.route.result)
    summary = property(lambda self: self.route.summary)
    sim_facts = property(lambda self: self.day.facts)
    last_error = property(lambda self: self.status.last_error)

    def set_endpoints(self, from_id: str | None, to_id: str | None) -> None:
        self.route.set_endpoints(from_id, to_id)

    def swap_endpoints(self) -> None:
        self.route.swap_endpoints()

    def set_cost_mode(self, mode: str) -> None:
        self.route.set_cost_mode(mode)

    def set_variant(self, name: str) -> bool:
        return self.route.set_variant(name)

    def solve_report(self) -> str:
        """What the status bar said about the latest route-finder solve."""
        return self.route.last_report

    def fit_view(self) -> None:
        self.map_view.fit(clear_of_legend=True)

    def play(self) -> None:
        self.player.play()

    def pause(self) -> None:
        self.player.pause()

    def toggle_play(self) -> None:
        self.player.toggle()

    def step_simulation(self) -> None:
        self.player.step()

    def restart_simulation(self) -> None:
        """A plain restart (no question, no edits replayed): the soak test's and tools'."""
        self.day.restart()

    def _show_settings_in_effect(self, applied) -> None:
        """Fleet and Dispatch in the dock follow the edits (and their undos)."""
        layout = self.whatif.layout
        self.day.show_settings_in_effect(
            tugs=sum(f.count for f in layout.fleets) if layout is not None else None,
            policy=applied.edit.policy if isinstance(applied.edit, SetPolicy) else None)

    def set_speed(self, speed: float) -> None:
        self.day.set_speed(speed)

    def set_race(self, on: bool) -> None:
        self.day.set_race(on)

    def set_route_engine(self, name: str) -> None:
        self.day.set_route_engine(name)

    def sim_config(self):
        """The running day's settings (the dock's, once the day restarts)."""
        return self.day.running or self.day.config()

    def sim_variant(self) -> str:
        return self.day.variant()

    def select_tug(self, tug: int | None) -> None:
        self.day.select_tug(tug)

    def select_busiest_tug(self) -> int | None:
        return self.day.select_busiest_tug()

    def cycle_tug(self, delta: int) -> None:
        self.day.cycle_tug(delta)

    def status_text(self) -> str:
        return self.status.text()

    def show_status(self, text: str) -> None:
        """A message the live status lines leave alone a while (what an edit did)."""
        self.status.hold(text)

    # -- settings and closing ----------------------------------------------------------------------

    def _restore_settings(self) -> None:
        geometry = self.settings.value("window/geometry")
        if geometry is not None:
            self.restoreGeometry(geometry)
        state = self.settings.value("window/state")
        if state is not None:
            self.restoreState(state)
        self.route.restore()
        self.toolbar_variant.set_current_variant(self.variant, silent=True)
        self.day.restore_settings()

    def closeEvent(self, event) -> None:
        self.settings.setValue("window/geometry", self.saveGeometry())
        self.settings.setValue("window/state", self.saveState())
        self.settings.sync()
        if self.solver.busy:
            self.status.set("Waiting for the running solve to finish…")
            QApplication.processEvents()
        self.day.save_settings()
        if self.player.busy:
            self.status.set("Waiting for the simulation step to finish…")
            QApplication.processEvents()
        self.shutdown_workers()
        self.status.close()
        super().closeEvent(event)

    def shutdown_workers(self) -> None:
        """Stop the simulation threads and the solver pool before their Qt objects go (closing,
        the application quitting, or a window that failed to open); safe to call again."""
        self.player.shutdown()
        self.whatif.shutdown()
        self.experiments.shutdown()
        # A solve still running after this is left to end unseen: closing never waits on it.
        self.solver.shutdown(CLOSE_WAIT_MS)
