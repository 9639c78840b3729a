"""Issue 33, "the screen tells the truth": Fleet and Dispatch apply at once as edits and the
settings a new day needs say so; Restart asks before it drops the edits and can replay them; an
edit applies at the clock on screen although the worker ran ahead; busy gates and overlapping
moves are named; the dock and the KPI plots show the same sample; the compare table's deltas add
up as shown."""

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QMessageBox

from engine.sim.dispatch import DEFAULT_POLICY
from engine.sim import Simulation
from engine.sim.edit_io import apply_at
from engine.sim.edits import AddTugs, CloseRoad, RetireTugs, SetPolicy
from gui.day.panel import format_clock
from gui.whatif import controller
from gui.whatif.panel import WhatIfPanel
from tests.gui.conftest import SIM_TIMEOUT_MS, play_until
from tests.gui.test_gui_whatif import EDIT_TIMEOUT_MS, edit_and_wait


def answer_restart(qtbot, button: str) -> list:
    """Press ``button`` ("replay", "save", "discard" or "cancel") in the question (restart, or
    open another airport) once it is up; the list gets the question's text."""
    seen = []

    def press():
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox):
            QTimer.singleShot(20, press)
            return
        seen.append(box.text() + "\n" + box.informativeText())
        getattr(box, button).click()

    QTimer.singleShot(0, press)
    return seen


def test_fleet_and_dispatch_apply_at_once_and_restart_settings_say_so(qtbot, sim_window):
    w = sim_window
    panel = w.sim_panel
    play_until(qtbot, w, 1200)
    in_service = sum(f.count for f in w.airport.fleets)
    with qtbot.waitSignal(w.whatif.applied, timeout=EDIT_TIMEOUT_MS) as blocker:
        panel.fleet_spin.setValue(in_service + 3)
    added = blocker.args[0]
    assert added.edit == AddTugs(w.airport.fleets[0].depot, 3, added.edit.tugs)
    assert added.t == w.player.clock
    assert sum(f.count for f in w.whatif.layout.fleets) == in_service + 3
    with qtbot.waitSignal(w.whatif.applied, timeout=EDIT_TIMEOUT_MS) as blocker:
        panel.set_policy("baseline")
    assert blocker.args[0].edit == SetPolicy("baseline")
    assert w.whatif.history() == [added.edit.text, "dispatch by baseline"]
    assert [type(e.edit) for e in w.whatif.timed_edits()] == [AddTugs, SetPolicy]
    # an undo puts the dock back to what the day now has
    with qtbot.waitSignal(w.whatif.applied, timeout=EDIT_TIMEOUT_MS):
        w.whatif.stack.undo()
    assert panel.policy() == DEFAULT_POLICY
    with qtbot.waitSignal(w.whatif.applied, timeout=EDIT_TIMEOUT_MS) as blocker:
        panel.fleet_spin.setValue(in_service - 2)
    assert isinstance(blocker.args[0].edit, RetireTugs) and blocker.args[0].edit.count == 5
    # seed, bag arrivals and hours wait for a restart, and say so where they are changed
    assert panel.pending() == []
    panel.seed_spin.setValue(panel.seed_spin.value() + 7)
    panel.hours_spin.setValue(6)
    assert panel.pending() == ["hours", "seed"]
    assert panel.markers["seed"].text() == "↺ on restart" and not panel.markers["load"].isVisible()
    assert panel.restart_button.text().endswith("to apply")
    assert w.sim_config().seed != panel.seed_spin.value()     # the running day keeps its seed
    panel.seed_spin.setValue(panel.seed_spin.value() - 7)
    assert panel.pending() == ["hours"]


def test_restart_asks_and_replays_the_edits_at_their_times(qtbot, sim_window):
    w = sim_window
    play_until(qtbot, w, 1500)
    road = w.airport.roads[5]
    applied = edit_and_wait(qtbot, w, CloseRoad(road.a, road.b))
    assert "close road" in w.status_text()
    generation = w.player.generation
    seen = answer_restart(qtbot, "cancel")
    w.actions.action("sim.restart").trigger()
    assert seen and "1 what-if edit" in seen[0] and road.a in seen[0]
    assert w.player.generation == generation and w.whatif.log    # cancelled: nothing changed
    answer_restart(qtbot, "replay")
    with qtbot.waitSignal(w.whatif.applied, timeout=SIM_TIMEOUT_MS) as blocker:
        w.actions.action("sim.restart").trigger()
        assert "close road" not in w.status_text()           # no stale report of the old edit
        assert "1 edit replayed" in w.status_text()
        play_until(qtbot, w, 1600)
    again = blocker.args[0]
    assert again.edit == applied.edit and again.t == applied.t
    assert w.whatif.history() == [applied.edit.text]
    answer_restart(qtbot, "discard")
    with qtbot.waitSignal(w.player.loaded, timeout=SIM_TIMEOUT_MS):
        w.actions.action("sim.restart").trigger()
    assert w.whatif.log == [] and "as planned" in w.status_text()


def test_opening_another_airport_asks_before_it_drops_the_edits(qtbot, sim_window, paper5,
                                                                 tmp_path):
    w = sim_window
    road = w.airport.roads[5]
    edit_and_wait(qtbot, w, CloseRoad(road.a, road.b))
    name = w.airport.name
    seen = answer_restart(qtbot, "cancel")
    assert w.open_airport(paper5) is False
    assert seen and "1 what-if edit" in seen[0] and paper5.name in seen[0] and road.a in seen[0]
    assert w.airport.name == name and w.whatif.log and "Kept" in w.status_text()
    saved = []                       # "Save scenario…" saves first; a cancelled save keeps all
    w.scenarios.save = lambda: saved.append(1)
    answer_restart(qtbot, "save")
    assert w.open_airport(paper5) is False and saved and w.whatif.log
    w.scenarios.save = lambda: saved.append(tmp_path / "kept.toml") or saved[-1]
    answer_restart(qtbot, "save")
    with qtbot.waitSignal(w.airportLoaded, timeout=SIM_TIMEOUT_MS):
        assert w.open_airport(paper5)
    assert saved[-1] == tmp_path / "kept.toml" and w.airport.name != name
    qtbot.waitUntil(lambda: w.player.ready, timeout=SIM_TIMEOUT_MS)
    assert w.whatif.log == []


def test_an_edit_applies_at_the_clock_on_screen_though_the_day_ran_ahead(qtbot, sim_window):
    w = sim_window
    play_until(qtbot, w, 2400, speed=600)
    clock = w.player.clock
    # the worker computes ahead of the screen (as it does while playing fast): ten minutes more
    w.player.runner.advance(w.player.generation, clock + 600)
    qtbot.waitUntil(lambda: w.player.latest.snapshot.t >= clock + 600, timeout=SIM_TIMEOUT_MS)
    assert w.player.runner.worker.sim.t >= clock + 600 and w.player.clock == clock
    road = w.airport.roads[5]
    applied = edit_and_wait(qtbot, w, CloseRoad(road.a, road.b))
    assert applied.t == clock
    assert f"at {format_clock(clock)}" in w.status_text()
    qtbot.waitUntil(lambda: w.player.shown.snapshot.t == clock, timeout=EDIT_TIMEOUT_MS)
    assert w.player.clock == clock                         # the clock never jumped ahead
    # the day goes on from there: one step later it is the day edited at that time
    w.step_simulation()
    qtbot.waitUntil(lambda: w.player.shown.snapshot.t >= clock + 60, timeout=SIM_TIMEOUT_MS)
    reference = Simulation(w.airport, w.sim_config())
    apply_at(reference, CloseRoad(road.a, road.b), clock)
    reference.run_until(w.player.shown.snapshot.t)
    assert w.player.shown.snapshot.kpis == reference.snapshot().kpis
    shown = [row["t"] for row in w.kpi_plots.series]
    assert shown == sorted(set(shown))                     # no KPI sample twice or lost
    assert shown == [row["t"] for row in reference.series]


def test_gate_menu_marks_busy_gates_and_a_move_onto_overlapping_flights_is_named(
        qtbot, sim_window, monkeypatch):
    w = sim_window
    play_until(qtbot, w, 3600)
    t, gates = w.player.clock, w.whatif.gates
    busy = next(g.id for g in w.airport.gates() if gates.busy(g.id, t, {}))
    menu = w.whatif.gate_menu(busy)
    assert "busy: " in menu.actions()[0].text() and "nearest free gate" in menu.actions()[0].text()
    gate, target = next((g.id, a) for g in w.airport.gates()
                        for a in w.whatif.gate_menu(g.id).actions()[1].menu().actions()
                        if "overlap" in a.text())
    overlaps = gates.overlaps(gate, target.data(), t, {})
    assert overlaps and " with " in overlaps[0]
    asked = []
    monkeypatch.setattr(controller, "confirm_overlap",
                        lambda parent, g, to, o: asked.append((g, to, o)) or False)
    target.trigger()
    assert asked == [(gate, target.data(), overlaps)]
    assert w.whatif.log == [] and overlaps[0] in w.status_text() and "not closed" in w.status_text()
    monkeypatch.setattr(controller, "confirm_overlap", lambda *a: True)
    with qtbot.waitSignal(w.whatif.applied, timeout=EDIT_TIMEOUT_MS) as blocker:
        target.trigger()
    assert blocker.args[0].edit.to == target.data()


def test_the_dock_and_the_kpi_plots_show_the_same_sample_while_playing(qtbot, sim_window):
    w = sim_window
    checked = []

    def same(row):
        text = w.sim_panel.counts_label.text()
        checked.append(f"<b>{row['waiting']:,}</b> waiting" in text
                       and f"{row['delivered']:,} delivered" in text)

    w.kpi_plots.drawn.connect(same)
    play_until(qtbot, w, 3 * 3600, speed=600)
    assert len(checked) > 3 and all(checked)
    titles = w.kpi_plots.plots["waiting"].titleLabel.text
    waiting = w.sim_panel.counts_label.text().split("<b>")[1].split("</b>")[0]
    assert f"<b>{waiting}</b>" in titles


def test_compare_deltas_are_the_difference_of_the_figures_shown(qtbot):
    panel = WhatIfPanel(controller.QUndoStack())
    qtbot.addWidget(panel)
    kpis = dict(created=1000, delivered=996, misconnected=4, waiting=10, on_tug=0, tug_km=12.04)
    panel.show_compare("01:00:00", {**kpis, "mbr": 99.64}, {**kpis, "mbr": 99.56})
    assert [panel.value("mbr", c) for c in range(3)] == ["99.6", "99.6", "0.0"]
    panel.show_compare("01:00:00", {**kpis, "mbr": 99.66, "tug_km": 12.06},
                       {**kpis, "mbr": 99.54, "tug_km": 12.04})
    assert [panel.value("mbr", c) for c in range(3)] == ["99.7", "99.5", "+0.2"]
    assert [panel.value("tug_km", c) for c in range(3)] == ["12.1", "12.0", "+0.1"]
