"""The live day's logic: the player (worker thread + animation clock), the tugs on the map, the
Simulation dock, the live timing and KPI plots, and the Simulation menu's actions.

The simulated day runs in its own worker thread (``SimPlayer``); this part only draws its results
and turns the user's choices (fleet, load, seed, policy, speed, route engine, race mode) into the
next day's ``SimConfig``."""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Callable

from PySide6.QtCore import QObject, QSettings, Qt, QTimer, Signal
from PySide6.QtWidgets import QComboBox, QLabel, QStyle

from engine.sim import SimConfig
from engine.sim.dispatch import DEFAULT_POLICY
from engine.sim.edit_io import EditPlan
from engine.words import counted

from ..shell.actions import ActionRegistry, ActionSpec
from ..shell.device import timing_device
from ..map.painted import AfterPaint
from ..map.tug_layer import TugLayer
from .live_plots import KpiPlots, TimingPlot
from .panel import SimPanel, format_clock
from .player import SPEEDS, STEP_S, SimPlayer
from .route_engine_choice import FROM_TUGS, RouteEngineChoice

KPI_EVERY_S = 60.0          # KPI samples for the live plots: every simulated minute
SETTLE_MS = 700             # a Fleet setting applies once the spin box has rested this long
Icon = QStyle.StandardPixmap


class LiveDay(QObject):
    """``stepped(StepResult)``: a result of the current day, after it is drawn. ``fw_variant()``:
    the Floyd–Warshall variant picked for the route finder (the day uses it too).
    ``fleetChosen(total)``, ``policyChosen(name)``: the user changed the Fleet or Dispatch
    setting while a day runs (the what-if part applies it as an edit). ``before_restart()``,
    when set, says what a restart keeps: None (cancel), or the timed edits to replay."""

    stepped = Signal(object)
    fleetChosen = Signal(int)
    policyChosen = Signal(str)

    def __init__(self, map_view, status, settings: QSettings, actions: ActionRegistry,
                 fw_variant: Callable[[], str], parent: QObject | None = None):
        super().__init__(parent)
        self.map_view, self.status, self.settings, self.actions = map_view, status, settings, actions
        self.fw_variant = fw_variant
        self.airport = None
        self.facts: dict = {}
        self.player = SimPlayer(self)
        self.tug_layer = TugLayer(map_view)
        self.tug_layer.leg_source = self.player.leg
        # a step's routes are painted first; the labels and plots it changes come a turn later
        self.after_map_paint = AfterPaint(map_view.viewport(), self)
        self._recomputed = False      # a step waiting for the map's paint brought a recompute
        map_view.click_filter = self._on_map_click
        self.panel = SimPanel()
        self.timing_plot = TimingPlot()
        self.timing_plot.set_device(timing_device())
        self.timing_plot.setMinimumHeight(150)
        self.kpi_plots = KpiPlots()
        self.kpi_plots.setMinimumHeight(150)
        self.speed_combo = QComboBox()
        for speed in SPEEDS:
            self.speed_combo.addItem(f"{speed}×", speed)
        self.speed_combo.setToolTip("Simulated seconds per wall-clock second")
        self.speed_combo.currentIndexChanged.connect(
            lambda _: self.set_speed(self.speed_combo.currentData()))
        self.route_engine = RouteEngineChoice()
        self.route_engine.engineChanged.connect(self.set_route_engine)
        self.route_engine.variantChanged.connect(lambda _: self._on_sim_variant_changed())
        self.clock_label = QLabel("")
        self.clock_label.setStyleSheet("font-family: monospace; font-size: 15px; "
                                       "font-weight: 600; padding: 0 8px;")
        self._last_panel_update = 0.0
        self._auto_selected = False
        self._recompute_line = ""     # what the status bar says about the latest recompute
        self._waited = False          # the status bar says the day waits for its loop's compile
        self.running: SimConfig | None = None   # the settings the running day started with
        self.day_extra: dict = {}     # SimConfig fields of an opened scenario the dock lacks
        self.before_restart: Callable[[], list | None] | None = None
        self._fleet_timer = QTimer(self)
        self._fleet_timer.setSingleShot(True)
        self._fleet_timer.setInterval(SETTLE_MS)
        self._fleet_timer.timeout.connect(self._fleet_settled)
        self._declare_actions()
        self._connect()

    def _declare_actions(self) -> None:
        a = self.actions
        a.register_all([
            ActionSpec("sim.play", "Play", self.toggle_play, "sim", (Qt.Key.Key_Space,),
                       Icon.SP_MediaPlay, "Play / pause the simulated day (Space)"),
            ActionSpec("sim.step", "Step", self.step, "sim", ("N", Qt.Key.Key_Right),
                       Icon.SP_MediaSkipForward,
                       f"Advance {STEP_S:g} simulated seconds (N or →)"),
            ActionSpec("sim.restart", "Restart", self.request_restart, "sim", ("R",),
                       Icon.SP_BrowserReload, "Restart the simulated day with the settings in "
                       "the Simulation dock (R)"),
            ActionSpec("sim.race", "Race variants", self.set_race, "sim",
                       tooltip="Race mode: on each recompute of the live data, also run every "
                       "other available variant on the same matrix", checkable=True,
                       separator=True),
            ActionSpec("sim.previous-tug", "Previous tug", lambda: self.cycle_tug(-1), "sim",
                       ("[",)),
            ActionSpec("sim.next-tug", "Next tug", lambda: self.cycle_tug(1), "sim", ("]",)),
            ActionSpec("sim.deselect-tug", "Deselect tug", lambda: self.select_tug(None), "sim",
                       (Qt.Key.Key_Escape,)),
            ActionSpec("sim.centre-tug", "Centre on tug", self.centre_on_tug, "sim", ("C",),
                       tooltip="Pan the map to the selected tug (C)"),
            ActionSpec("sim.follow-tug", "Follow selected tug", None, "sim", checkable=True,
                       checked=True, tooltip="Keep the selected tug in view as it drives"),
        ])

    def _connect(self) -> None:
        p = self.player
        p.loaded.connect(self._on_loaded)
        p.stepped.connect(self._on_stepped)
        p.raced.connect(self.timing_plot.add_race)
        self.kpi_plots.drawn.connect(self.panel.show_counts)   # the plots' frame, not a newer one
        p.frame.connect(self._on_frame)
        p.failed.connect(lambda m: self.status.error("Simulation failed", m, dialog=False))
        p.waiting.connect(self._on_waiting)
        p.playingChanged.connect(self._on_playing_changed)
        p.finished.connect(lambda: self.status.set("The simulated day is over: restart (R) or "
                                                   "open another airport."))
        self.panel.restartRequested.connect(self.request_restart)
        self.panel.fleet_spin.valueChanged.connect(lambda _: self._fleet_timer.start())
        self.panel.policy_combo.currentIndexChanged.connect(self._policy_changed)
        self.panel.raceToggled.connect(self.actions.action("sim.race").setChecked)
        self.panel.prev_tug.clicked.connect(lambda: self.cycle_tug(-1))
        self.panel.next_tug.clicked.connect(lambda: self.cycle_tug(1))

    # -- commands --------------------------------------------------------------------------------

    def set_airport(self, airport) -> None:
        """The day's airport (``restart`` starts a day on it)."""
        self.airport = airport
        self.tug_layer.set_airport(airport)

    def config(self) -> SimConfig:
        panel = self.panel
        fleet = panel.fleet_spin.value()
        return SimConfig(hours=float(panel.hours_spin.value()), seed=panel.seed_spin.value(),
                         tugs=fleet or None, variant=self.variant(),
                         route_engine=self.route_engine.engine(), policy=panel.policy(),
                         load=panel.load_spin.value(), kpi_every_s=KPI_EVERY_S,
                         **self.day_extra)

    def variant(self) -> str:
        """The variant the day solves with: the route engine's family (FW or SSSP)."""
        return self.route_engine.variant_for(self.fw_variant())

    def use_variant(self) -> None:
        """The Floyd–Warshall pick changed: the next recomputes use it."""
        self.player.set_variant(self.variant())

    def set_route_engine(self, name: str) -> None:
        """All pairs on key nodes or from the tugs: the day starts again with it (the same day;
        the timing panel and race mode then show that family's variants)."""
        self.route_engine.set_engine(name, silent=True)
        if not self.request_restart():
            self.route_engine.set_engine(self.running.route_engine if self.running else
                                         "all-pairs", silent=True)
            return
        self.settings.setValue("sim/route_engine", name)
        self.status.hold(f"Route engine: {self.route_engine.combo.currentText()} — the day "
                         "starts again (the same day: both engines are exact)")

    def _on_sim_variant_changed(self) -> None:
        self.settings.setValue("sim/sssp_variant", self.route_engine.sssp_variant())
        self.player.set_variant(self.variant())

    def request_restart(self) -> bool:
        """R, Restart, a new route engine: start the day again, replaying its what-if edits or
        not as ``before_restart`` says (False: cancelled)."""
        replay = self.before_restart() if self.before_restart is not None else []
        if replay is None:
            return False
        self.restart(replay)
        n = len(replay)
        self.status.hold(f"The day starts again with {n} edit{'s' if n != 1 else ''} replayed"
                         if n else "The day starts again, as planned")
        return True

    def restart(self, replay: list | None = None) -> None:
        """Start the simulated day again on the current airport (paused at 00:00), with the
        dock's settings; ``replay``: timed edits (``TimedEdit``) applied again at their times,
        on a day that starts with the fleet and dispatcher the edited one started with (the
        edits brought it to what the dock shows)."""
        if self.airport is None or self.player.runner.closed:
            return
        self.player.pause()
        self._fleet_timer.stop()
        self.save_settings()
        self.facts = {}
        self._auto_selected = False
        self._recompute_line = ""
        self.tug_layer.set_airport(self.airport)
        self.timing_plot.reset(graph="")
        self.kpi_plots.reset()
        self.panel.show_tug(None, self.airport, [])
        self.panel.facts_label.setText("Preparing the simulated day…")
        config = self.config()
        if replay and self.running is not None:
            config = replace(config, tugs=self.running.tugs, policy=self.running.policy)
        self.running = config
        self.panel.set_running(config)
        self.player.load(self.airport, config, EditPlan(list(replay)) if replay else None)

    def _fleet_settled(self) -> None:
        if self.running is not None and self.player.ready:
            total = self.panel.fleet_spin.value() or sum(f.count for f in self.airport.fleets)
            self.fleetChosen.emit(total)

    def _policy_changed(self, _index: int) -> None:
        if self.running is not None and self.player.ready:
            self.policyChosen.emit(self.panel.policy())

    def show_settings(self, config: SimConfig) -> None:
        """The dock shows ``config``'s settings (an opened scenario's), asking for no edit."""
        panel = self.panel
        widgets = (panel.hours_spin, panel.seed_spin, panel.load_spin)
        for widget in widgets:
            widget.blockSignals(True)
        panel.hours_spin.setValue(round(config.hours))
        panel.seed_spin.setValue(config.seed)
        panel.load_spin.setValue(config.load)
        for widget in widgets:
            widget.blockSignals(False)
        self.show_settings_in_effect(config.tugs or 0, config.policy)
        self.route_engine.set_engine(config.route_engine, silent=True)

    def show_settings_in_effect(self, tugs: int | None = None, policy: str | None = None) -> None:
        """Fleet and Dispatch as the edited day has them (after an edit or its undo), without
        asking for another edit."""
        panel = self.panel
        for widget, value, set_ in ((panel.fleet_spin, tugs, panel.fleet_spin.setValue),
                                    (panel.policy_combo, policy, panel.set_policy)):
            if value is not None:
                widget.blockSignals(True)
                set_(value)
                widget.blockSignals(False)

    def toggle_play(self) -> None:
        self.player.toggle()

    def step(self) -> None:
        self.player.step()

    def set_speed(self, speed: float) -> None:
        self.player.set_speed(speed)
        i = self.speed_combo.findData(speed)
        if i >= 0 and i != self.speed_combo.currentIndex():
            self.speed_combo.setCurrentIndex(i)
        self.settings.setValue("sim/speed", speed)
        self._show_play_state()

    def _show_play_state(self) -> None:
        """The status line says whether the day plays, at what speed, or is paused (a held
        message, an error or what an edit did, stays its while)."""
        if self.status.held() or not self.player.ready:
            return
        if self.player.playing:
            self.status.set(f"Playing at {self.player.speed:g}×{self._recompute_line}")
        else:
            self.status.set(f"Paused at {format_clock(self.player.clock)} "
                            f"({self.player.speed:g}×){self._recompute_line}. Space plays, "
                            "N steps")

    def set_race(self, on: bool) -> None:
        """Race mode: every other available variant solves each live recompute too."""
        on = bool(on)
        self.player.set_race(on)
        for w in (self.actions.action("sim.race"), self.panel.race_check):
            if w.isChecked() != on:
                w.blockSignals(True)
                w.setChecked(on)
                w.blockSignals(False)
        self.settings.setValue("sim/race", on)
        racers = self.player.runner.worker.race_with
        if on:
            self.status.set(f"Race mode: each recompute also runs {', '.join(racers)} "
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

    def tug_position(self) -> tuple[float, float] | None:
        """Where the selected tug is drawn, None if none is selected."""
        k, xy = self.tug_layer.selected, self.tug_layer.positions
        return None if k is None or k >= len(xy) else (float(xy[k, 0]), float(xy[k, 1]))

    def centre_on_tug(self) -> None:
        where = self.tug_position()
        if where is None:
            self.status.set("Select a tug first: click one on the map, or [ and ].")
        else:
            self.map_view.centre_on(*where)

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

    # -- settings --------------------------------------------------------------------------------

    def restore_settings(self) -> None:
        s, panel = self.settings, self.panel
        panel.fleet_spin.setValue(s.value("sim/fleet", 0, type=int))
        panel.load_spin.setValue(s.value("sim/load", 1.0, type=float))
        panel.seed_spin.setValue(s.value("sim/seed", 0, type=int))
        panel.hours_spin.setValue(s.value("sim/hours", 24, type=int))
        panel.set_policy(s.value("sim/policy", DEFAULT_POLICY, type=str))
        speed = s.value("sim/speed", 60, type=int)
        self.set_speed(speed if speed in SPEEDS else 60)
        self.set_race(s.value("sim/race", False, type=bool))
        self.route_engine.sssp_picker.set_current_variant(
            s.value("sim/sssp_variant", "auto", type=str), silent=True)
        engine = s.value("sim/route_engine", "all-pairs", type=str)
        self.route_engine.set_engine(engine if engine in ("all-pairs", FROM_TUGS) else "all-pairs",
                                     silent=True)
        self.use_variant()

    def save_settings(self) -> None:
        s, panel = self.settings, self.panel
        s.setValue("sim/fleet", panel.fleet_spin.value())
        s.setValue("sim/load", panel.load_spin.value())
        s.setValue("sim/seed", panel.seed_spin.value())
        s.setValue("sim/hours", panel.hours_spin.value())
        s.setValue("sim/policy", panel.policy())

    # -- the player's news -----------------------------------------------------------------------

    def _on_loaded(self, facts: dict) -> None:
        self.facts = facts
        n = len(self.airport.nodes)
        from_tugs = facts.get("route_engine") == FROM_TUGS
        self.timing_plot.set_family("SSSP from the tugs" if from_tugs else "Floyd–Warshall")
        self.timing_plot.set_graph(f"all {n:,} road nodes, from {counted(facts['tugs'], 'tug')}" if from_tugs
                                   else f"{facts['key_nodes']} key nodes (of {n:,} road nodes)")
        self.panel.facts_label.setText(
            f"{counted(facts['flights'], 'flight')}, {counted(facts['bags'], 'bag')}, "
            f"{counted(facts['tugs'], 'tug')} over "
            f"{format_clock(facts['end'])}. " + (
                f"Bag-aware shortest paths on all {n:,} road nodes from the tugs"
                if from_tugs else f"Bag-aware all-pairs on the {facts['key_nodes']} key nodes "
                "(gates, sort stations, depots)") +
            f", recomputed {facts['recompute']} as the bags change. Space plays, N steps.")

    def _on_waiting(self, text: str) -> None:
        """Loading the day waits (the loop's first compile): the status bar says so until the
        day is ready (a held message stays its while)."""
        self._waited = True
        if not self.status.held():
            self.status.set(text)

    def _on_stepped(self, result) -> None:
        """A step reached the displayed clock: its bags, tugs and routes go on the map now; the
        dock, the status bar and the plots follow once the map has painted them."""
        if self._waited:   # the day is ready: the status bar stops saying it waits
            self._waited = False
            self._show_play_state()
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
            self.status.hold(f"The day continues on the CPU: {fallbacks[-1]}")
        if result.timings:
            t = result.timings[-1]
            self._recomputed = True
            self._recompute_line = (
                f" — recompute #{t.round}: {t.variant} {t.seconds * 1000:.2f} ms on {t.n} "
                f"nodes" + self._race_text(t.variant)
                + f"; worker {result.wall_s * 1000:.0f} ms for this step")
        if not self.after_map_paint.waiting:
            self.after_map_paint.call(self._after_step)
        self.stepped.emit(result)

    def _after_step(self) -> None:
        """The map has painted a step: the dock's labels and the status bar now, the plots when
        their redraw is due, and a paced garbage collection when due (docs/live-latency.md)."""
        self._show_labels(self.player.clock)
        pace = self._pace_text()
        if self.player.playing and not self.status.held() and (self._recomputed or pace):
            self.status.set(f"Playing at {self.player.speed:g}×{self._recompute_line}{pace}")
        self._recomputed = False
        for plot in (self.timing_plot, self.kpi_plots):
            plot.throttle.draw_if_due()
        self.player.gc.collect_if_due()

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

    def _on_frame(self, t: float, xy) -> None:
        self.tug_layer.move_tugs(xy, t)
        where = self.tug_position()
        if where is not None and self.actions.action("sim.follow-tug").isChecked():
            self.map_view.keep_in_view(*where)
        if self.after_map_paint.waiting:
            return                        # a step's labels follow the map's paint (_after_step)
        if time.perf_counter() - self._last_panel_update > 0.1 or not self.player.playing:
            self._show_labels(t)

    def _show_labels(self, t: float) -> None:
        """The clocks and the selected tug's panel at displayed time ``t``."""
        self._last_panel_update = time.perf_counter()
        self.panel.show_time(t, self.player.end_time)
        self.clock_label.setText(f"{format_clock(t)}")
        self._show_selected_tug()     # its next node changes as it drives

    def _show_selected_tug(self) -> None:
        k = self.tug_layer.selected
        result = self.player.result_for(k) if k is not None else None
        result = result or self.player.shown
        if result is None or k is None or k >= len(result.tugs):
            self.panel.show_tug(None, self.airport, [])
            return
        self.panel.show_tug(result.tugs[k], self.airport,
                            [int(i) for i in self.tug_layer.remaining])

    def _on_playing_changed(self, playing: bool) -> None:
        if not playing:   # the throttled clock labels and plots catch up with the displayed time
            self.timing_plot.flush()
            self.kpi_plots.flush()
            self.panel.show_time(self.player.clock, self.player.end_time)
            self.clock_label.setText(format_clock(self.player.clock))
        play = self.actions.action("sim.play")
        play.setIcon(self.actions.window.style().standardIcon(
            Icon.SP_MediaPause if playing else Icon.SP_MediaPlay))
        play.setText("Pause" if playing else "Play")
        self._show_play_state()
