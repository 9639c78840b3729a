"""The live simulated day in the window: play, pause, step, tugs moving, KPIs and timings."""

import numpy as np
from PySide6.QtCore import Qt

from engine.sim import SimConfig, Simulation
from engine.airport.layout_io import load_airport
from gui.day.panel import format_clock
from gui.day.player import STEP_S
from engine.sim.frame import tug_frame
from tests.gui.conftest import SIM_TIMEOUT_MS, play_until


def bags_add_up(kpis):
    return kpis["created"] == (kpis["waiting"] + kpis["on_tug"] + kpis["delivered"]
                               + kpis["misconnected"])


def test_day_opens_paused_with_every_tug_at_its_depot(sim_window):
    w = sim_window
    assert not w.player.playing
    assert w.player.clock == 0.0
    tugs = w.airport.tugs()                    # the layout's own fleet
    assert tugs > 1 and w.sim_facts["tugs"] == tugs and w.sim_facts["key_nodes"] == 30
    depot = next(n for n in w.airport.nodes if n.kind == "depot")
    xy = w.tug_layer.positions
    assert xy.shape == (tugs, 2)
    assert np.allclose(xy, [depot.x, depot.y])
    assert "30 key nodes" in w.timing_plot.plot.titleLabel.text


def test_playing_moves_tugs_along_the_roads_and_updates_kpis(qtbot, sim_window):
    w = sim_window
    assert w.map_view._bag_items, "at 00:00 the file's waiting bags are drawn"
    start = w.tug_layer.positions.copy()
    frames = w.player.frames
    play_until(qtbot, w, 900)
    assert not w.player.playing
    assert w.player.frames - frames > 5, "the animation timer drew no frames"
    moved = np.hypot(*(w.tug_layer.positions - start).T) > 1.0
    assert moved.any(), "no tug left the depot"
    x, y = w.tug_layer.tugs.getData()                # what is drawn is where the tugs are
    assert np.allclose(x, w.tug_layer.positions[:, 0]) and np.allclose(y, w.tug_layer.positions[:, 1])
    assert np.allclose(w.tug_layer.positions, w.player.positions())
    kpis = w.player.shown.snapshot.kpis
    assert kpis["created"] > 0 and bags_add_up(kpis)
    assert w.kpi_plots.series and w.kpi_plots.series[-1]["t"] >= 840
    assert w.kpi_plots.curves["waiting"].getData()[0] is not None
    assert "created" in w.sim_panel.counts_label.text()
    # once the day runs, the live counts replace the file's badges: one halo per node with bags
    assert w.map_view._bag_items == []
    waiting = np.flatnonzero(w.player.shown.snapshot.bags_per_node)
    assert len(w.tug_layer.bags.data) == len(waiting)
    hall = int(w.player.shown.snapshot.bags_per_node[w.airport.index("SORT")])
    assert f"{hall} bag" in w.map_view._tip(0, 0, "SORT")   # the live count, not the file's
    # every bag-aware recompute of the live data was timed, with the dispatcher's variant
    assert w.timing_plot.rows and {t.variant for t in w.timing_plot.rows} == {"cpu-blocked"}
    assert all(t.n == 30 and t.seconds > 0 for t in w.timing_plot.rows)
    assert "cpu-blocked" in w.timing_plot.legend.items[0][1].text
    # the map shows the displayed clock's tugs: every tug on a road segment or node
    assert w.player.clock >= 900
    assert w.sim_panel.clock_label.text().startswith(format_clock(w.player.clock))
    assert w.day.clock_label.text() == format_clock(w.player.clock)


def test_kpi_panels_fit_their_dock_with_values_in_their_titles(qtbot, sim_window):
    # pyqtgraph sizes a panel to at least its title: long titles once widened the layout past
    # the dock, cutting the right-hand panels off at the window's default size.
    w = sim_window
    w.resize(1400, 900)
    play_until(qtbot, w, 900)
    kpi = w.kpi_plots
    assert "%)" in kpi.plots["delivered"].titleLabel.text
    minimum = kpi.ci.effectiveSizeHint(Qt.SizeHint.MinimumSize).width()
    assert minimum <= kpi.viewport().width()


def test_tug_positions_between_steps_follow_the_road_timetable():
    airport = load_airport("airports/regional.json")
    sim = Simulation(airport, SimConfig(hours=2, seed=3, variant="cpu-blocked"))
    sim.run_until(1200)
    frame = tug_frame(sim)
    x, y = sim.net.x, sim.net.y
    on_timetable = [(np.interp(1200, t.times, x[t.path]), np.interp(1200, t.times, y[t.path]))
                    if t.activity == 1 else (x[t.node], y[t.node]) for t in sim.tugs]
    assert np.allclose(frame.positions(1200), on_timetable)
    legs_end = {t.id: float(t.times[-1]) for t in sim.tugs if t.activity == 1}
    sim.run_until(1207)
    now = tug_frame(sim).positions(1207)
    later = frame.positions(1207)
    still = [k for k, end in legs_end.items() if end > 1207]
    assert still, "no tug was mid-leg"
    assert np.allclose(later[still], now[still])


def test_single_step_advances_one_step_and_keys_toggle_play(qtbot, sim_window):
    w = sim_window
    w.activateWindow()
    qtbot.keyClick(w, Qt.Key.Key_N)
    qtbot.waitUntil(lambda: w.player.shown is not None and w.player.shown.snapshot.t >= STEP_S
                    and w.player.clock >= STEP_S, timeout=SIM_TIMEOUT_MS)
    assert w.player.clock == STEP_S and not w.player.playing
    qtbot.keyClick(w, Qt.Key.Key_Right)
    qtbot.waitUntil(lambda: w.player.clock >= 2 * STEP_S, timeout=SIM_TIMEOUT_MS)
    assert w.player.shown.snapshot.t == 2 * STEP_S
    qtbot.keyClick(w, Qt.Key.Key_Space)
    assert w.player.playing and w.play_action.text() == "Pause"
    qtbot.keyClick(w, Qt.Key.Key_Space)
    assert not w.player.playing and w.play_action.text() == "Play"


def test_switching_variant_mid_day_changes_the_recomputes(qtbot, sim_window):
    w = sim_window
    play_until(qtbot, w, 600)
    picker = w.toolbar_variant                       # the toolbar's picker, as a user would
    with qtbot.waitSignal(w.solveFinished, timeout=SIM_TIMEOUT_MS):
        picker.setCurrentIndex(picker.names().index("cpu-linear"))
    assert w.variant == "cpu-linear" and w.result.variant == "cpu-linear"
    seen = len(w.timing_plot.rows)
    # The simulation runs ahead of the clock shown (its look-ahead was computed with the old
    # variant): play until a recompute with the new one arrives, then no later one goes back.
    later = lambda: [t.variant for t in w.timing_plot.rows[seen:] if not t.raced]  # noqa: E731
    w.set_speed(2400)
    w.play()
    qtbot.waitUntil(lambda: "cpu-linear" in later(), timeout=SIM_TIMEOUT_MS)
    play_until(qtbot, w, w.player.shown.snapshot.t + 600)
    rows = later()
    switched = rows[rows.index("cpu-linear"):]
    assert set(switched) == {"cpu-linear"} and len(switched) >= 2
    assert "cpu-linear" in w.timing_plot.variants_seen()


def test_race_mode_times_every_available_variant_on_the_same_recomputes(qtbot, sim_window):
    w = sim_window
    assert w.player.runner.worker.race_with == ["cpu-linear", "cpu-blocked"]  # simulator: no GPU
    w.sim_panel.race_check.setChecked(True)
    assert w.race_action.isChecked() and w.player.race
    play_until(qtbot, w, 900)
    # races run after their steps, in the simulation's spare time: paused, it has plenty
    qtbot.waitUntil(lambda: len(w.timing_plot.variants_seen()) == 2, timeout=SIM_TIMEOUT_MS)
    assert set(w.timing_plot.variants_seen()) == {"cpu-linear", "cpu-blocked"}
    rounds = {}
    for t in w.timing_plot.rows:
        rounds.setdefault(t.round, set()).add(t.variant)
    assert any(len(v) == 2 for v in rounds.values())
    raced = [t for t in w.timing_plot.rows if t.raced]
    assert raced and all(t.agrees for t in raced)   # same distances as the dispatcher's solve
    labels = [label.text for _, label in w.timing_plot.legend.items]
    assert len(labels) == 2 and all("median" in text for text in labels)
    assert w.settings.value("sim/race", type=bool) is True


def test_restart_with_another_fleet_and_policy(qtbot, sim_window):
    w = sim_window
    play_until(qtbot, w, 300)
    w.sim_panel.fleet_spin.setValue(3)
    w.sim_panel.set_policy("baseline")
    w.sim_panel.seed_spin.setValue(5)
    qtbot.mouseClick(w.sim_panel.restart_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: w.player.ready and w.player.shown is not None, timeout=SIM_TIMEOUT_MS)
    assert w.player.clock == 0.0 and w.sim_facts["tugs"] == 3
    assert len(w.player.shown.tugs) == 3 and w.tug_layer.positions.shape == (3, 2)
    assert w.kpi_plots.series == [] or w.kpi_plots.series[-1]["t"] == 0
    assert w.settings.value("sim/policy") == "baseline"
    assert w.settings.value("sim/fleet", type=int) == 3
