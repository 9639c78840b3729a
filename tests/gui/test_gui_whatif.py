"""What-if edits in the live window: a road closed and reopened by clicking it, a gate closed from
its right-click menu, the tug editor, undo and redo from the keyboard, the edited layout saved,
refused edits, and the compare panel against the unedited twin of the day."""

import json

import numpy as np
from PySide6.QtCore import QPointF, Qt

from engine.airport.layout_io import airport_to_dict, bundled_airports, load_airport
from engine.sim import SimConfig, Simulation
from engine.sim.edits import CloseGate, CloseRoad, OpenGate, RetireTugs
from tests.gui.conftest import SIM_TIMEOUT_MS, play_until

EDIT_TIMEOUT_MS = 60_000


def widget_point(w, x, y):
    vb = w.map_view.getPlotItem().vb
    return w.map_view.mapFromScene(vb.mapViewToScene(QPointF(float(x), float(y))))


def clear_road(w):
    """A road whose middle is drawn away from every node (a click there is on the road only)."""
    w.fit_view()
    for k in range(len(w.airport.roads)):
        x, y = w.whatif.layer.midpoint(k)
        if w.map_view.node_at(x, y, tolerance_px=24) is None and w.whatif.layer.road_at(x, y) == k:
            return k, x, y
    raise AssertionError("no road clear of the nodes")


def edit_and_wait(qtbot, w, edit):
    with qtbot.waitSignal(w.whatif.applied, timeout=EDIT_TIMEOUT_MS) as blocker:
        w.whatif.edit(edit)
    return blocker.args[0]


def test_clicking_a_road_closes_it_and_clicking_it_again_reopens_it(qtbot, sim_window):
    w = sim_window
    play_until(qtbot, w, 1800)
    k, x, y = clear_road(w)
    road = w.airport.roads[k]
    with qtbot.waitSignal(w.whatif.applied, timeout=EDIT_TIMEOUT_MS) as blocker:
        qtbot.mouseClick(w.map_view.viewport(), Qt.MouseButton.LeftButton,
                         pos=widget_point(w, x, y))
    applied = blocker.args[0]
    assert isinstance(applied.edit, CloseRoad) and road not in w.whatif.layout.roads
    assert len(w.whatif.layer.items) == 2          # the dashes and the cross
    status = w.status_text()
    assert "junction all-pairs (247 nodes) cpu-blocked" in status and " ms" in status
    assert w.whatif.history() == [f"close road {road.a}–{road.b}"]
    with qtbot.waitSignal(w.whatif.applied, timeout=EDIT_TIMEOUT_MS):
        qtbot.mouseClick(w.map_view.viewport(), Qt.MouseButton.LeftButton,
                         pos=widget_point(w, x, y))
    assert w.whatif.layout.roads == w.airport.roads     # back where it was in the list
    assert w.whatif.layer.items == []
    assert w.from_id is not None                        # road clicks leave From/To alone


def test_right_clicking_a_gate_closes_it_to_the_nearest_free_or_a_chosen_gate(qtbot, sim_window):
    w = sim_window
    play_until(qtbot, w, 1800)
    gate = "G5"
    qtbot.mouseClick(w.map_view.viewport(), Qt.MouseButton.RightButton,
                     pos=w.map_view.widget_pos(gate))
    menu = w.whatif.menu
    assert menu is not None
    nearest, pick = menu.actions()[:2]
    assert "nearest free gate" in nearest.text()
    with qtbot.waitSignal(w.whatif.applied, timeout=EDIT_TIMEOUT_MS) as blocker:
        nearest.trigger()
    closed = blocker.args[0].edit
    assert closed.gate == gate and closed.to not in (None, gate)
    assert w.whatif.moved_gates == {gate: closed.to}
    assert w.whatif.layout.node(gate).kind == "junction"
    menu.close()                                   # as a click on the entry does
    with qtbot.waitSignal(w.whatif.applied, timeout=EDIT_TIMEOUT_MS) as blocker:
        qtbot.keyClick(w, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert blocker.args[0].edit == OpenGate(gate) and w.whatif.moved_gates == {}
    qtbot.mouseClick(w.map_view.viewport(), Qt.MouseButton.RightButton,
                     pos=w.map_view.widget_pos(gate))
    choices = w.whatif.menu.actions()[1].menu().actions()
    chosen = choices[2]
    with qtbot.waitSignal(w.whatif.applied, timeout=EDIT_TIMEOUT_MS) as blocker:
        chosen.trigger()
    assert blocker.args[0].edit == CloseGate(gate, chosen.data())
    w.whatif.menu.close()
    qtbot.mouseClick(w.map_view.viewport(), Qt.MouseButton.RightButton,
                     pos=w.map_view.widget_pos(gate))
    assert w.whatif.menu.actions()[0].text() == f"Reopen gate {gate}"
    assert pick.text().startswith("Close gate G5: flights to")


def test_undo_and_redo_from_the_keyboard_restore_each_state(qtbot, sim_window):
    w = sim_window
    play_until(qtbot, w, 1200)
    r = w.airport.roads[30]
    edit_and_wait(qtbot, w, CloseRoad(r.a, r.b))
    closed = list(w.whatif.layout.roads)
    with qtbot.waitSignal(w.whatif.applied, timeout=EDIT_TIMEOUT_MS):
        qtbot.keyClick(w, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert w.whatif.layout.roads == w.airport.roads and w.whatif.history() == []
    with qtbot.waitSignal(w.whatif.applied, timeout=EDIT_TIMEOUT_MS):
        qtbot.keyClick(w, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier
                       | Qt.KeyboardModifier.ShiftModifier)
    assert w.whatif.layout.roads == closed
    assert w.whatif.history() == [f"close road {r.a}–{r.b}"]


def two_depot_layout(tmp_path):
    """Regional with a second tug fleet at the sort station."""
    doc = airport_to_dict(load_airport(bundled_airports()["regional"]))
    doc["fleets"].append({"depot": "SORT", "count": 2, "capacity": 20, "speed_mps": 5})
    path = tmp_path / "regional-2depots.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def test_the_tug_editor_moves_adds_retires_and_sets_speed_and_capacity(qtbot, make_window,
                                                                       tmp_path):
    w = make_window(two_depot_layout(tmp_path))
    qtbot.waitUntil(lambda: w.player.ready, timeout=SIM_TIMEOUT_MS)
    n = load_airport(bundled_airports()["regional"]).tugs()    # the DEPOT fleet, as bundled
    w.step_simulation()
    panel = w.whatif.panel
    assert [panel.depot_combo.itemData(i) for i in range(2)] == ["DEPOT", "SORT"]
    panel.depot_combo.setCurrentIndex(0)
    panel.count_spin.setValue(3)
    with qtbot.waitSignal(w.whatif.applied, timeout=EDIT_TIMEOUT_MS):
        qtbot.mouseClick(panel.move_button, Qt.MouseButton.LeftButton)
    assert {f.depot: f.count for f in w.whatif.layout.fleets} == {"DEPOT": n - 3, "SORT": 5}
    assert panel.depot_combo.itemText(1) == "Terminal bag hall (SORT): 5 tugs"   # as the map names it
    panel.count_spin.setValue(2)
    with qtbot.waitSignal(w.whatif.applied, timeout=EDIT_TIMEOUT_MS):
        qtbot.mouseClick(panel.add_button, Qt.MouseButton.LeftButton)
    with qtbot.waitSignal(w.whatif.applied, timeout=EDIT_TIMEOUT_MS):
        qtbot.mouseClick(panel.retire_button, Qt.MouseButton.LeftButton)
    assert {f.depot: f.count for f in w.whatif.layout.fleets} == {"DEPOT": n - 3, "SORT": 5}
    qtbot.waitUntil(lambda: len(w.player.shown.tugs) == n + 4, timeout=EDIT_TIMEOUT_MS)
    panel.depot_combo.setCurrentIndex(1)
    assert panel.capacity_spin.value() == 20
    panel.capacity_spin.setValue(12)
    with qtbot.waitSignal(w.whatif.applied, timeout=EDIT_TIMEOUT_MS):
        qtbot.mouseClick(panel.capacity_button, Qt.MouseButton.LeftButton)
    panel.speed_spin.setValue(4.0)   # slower than every fleet: the roads are timed again
    with qtbot.waitSignal(w.whatif.applied, timeout=EDIT_TIMEOUT_MS) as blocker:
        qtbot.mouseClick(panel.speed_button, Qt.MouseButton.LeftButton)
    assert {r.kind for r in blocker.args[0].solves} == {"junctions", "travel-time"}
    assert "junction all-pairs" in w.status_text()
    sort = next(f for f in w.whatif.layout.fleets if f.depot == "SORT")
    assert (sort.capacity, sort.speed_mps) == (12, 4.0)
    assert w.whatif.history() == ["move 3 tugs from DEPOT to SORT", "add 2 tugs at DEPOT",
                                  "retire 2 tugs at DEPOT", "tugs at SORT carry 12 bags",
                                  "tugs at SORT drive 4 m/s"]
    play_until(qtbot, w, 2400)       # the day runs on with the edited fleets


def test_save_edited_layout_writes_a_file_that_opens_as_an_airport(qtbot, sim_window, tmp_path):
    w = sim_window
    assert not w.whatif.save_action.isEnabled()
    assert "Save &edited layout as…" in [a.text() for a in w.menuBar().actions()[0].menu().actions()]
    r = w.airport.roads[60]
    edit_and_wait(qtbot, w, CloseRoad(r.a, r.b))
    edit_and_wait(qtbot, w, CloseGate("G2"))
    assert w.whatif.save_action.isEnabled()
    path = w.whatif.save_layout(tmp_path / "edited.json")
    assert path is not None and "Saved the edited layout (2 edits)" in w.status_text()
    saved = load_airport(path)
    assert len(saved.roads) == len(w.airport.roads) - 1 and saved.node("G2").kind == "junction"
    assert "What-if edits: close road" in saved.description
    w.whatif.confirm_leave = lambda opening, save: True    # the question: test_gui_whatif_truth
    with qtbot.waitSignal(w.airportLoaded, timeout=SIM_TIMEOUT_MS):
        assert w.open_airport(path)
    qtbot.waitUntil(lambda: w.player.ready, timeout=SIM_TIMEOUT_MS)
    assert w.whatif.history() == []            # a new day starts unedited


def test_an_edit_that_cannot_apply_is_reported_and_leaves_no_trace(qtbot, sim_window):
    w = sim_window
    with qtbot.waitSignal(w.whatif.refused, timeout=EDIT_TIMEOUT_MS):
        w.whatif.edit(RetireTugs("DEPOT", w.airport.tugs() + 1))
    assert "Edit not applied" in w.status_text()
    assert f"cannot take {w.airport.tugs() + 1}" in w.status_text()
    assert w.whatif.stack.count() == 0 and w.whatif.layout is None


def test_compare_panel_sets_the_edited_day_beside_its_unedited_twin(qtbot, sim_window):
    w = sim_window
    play_until(qtbot, w, 3600)
    edit_and_wait(qtbot, w, RetireTugs("DEPOT", w.airport.tugs() - 2))   # while paused
    w.set_speed(1200)
    w.play()
    seen = []
    w.whatif.compared.connect(seen.append)
    qtbot.waitUntil(lambda: bool(seen) and seen[-1] >= 4 * 3600, timeout=120_000)
    w.pause()
    t = seen[-1]
    panel = w.whatif.panel
    # the unedited column is the same day run headless with no edit, at the same instant
    twin = Simulation(w.airport, SimConfig(**{**w.whatif.base[1].__dict__}))
    twin.run_until(t)
    kpis = twin.snapshot().kpis
    assert panel.value("tug_km", 1) == f"{kpis['tug_km']:,.1f}"
    assert panel.value("waiting", 1) == f"{kpis['waiting']:,.0f}"
    assert panel.value("mbr", 1) == f"{kpis['mbr']:.1f}"
    # two tugs do less driving than the whole fleet
    edited_km = float(panel.value("tug_km", 0).replace(",", ""))
    assert edited_km < kpis["tug_km"] and panel.value("tug_km", 2).startswith("-")
    assert len(seen) >= 2 and np.all(np.diff(seen) > 0)   # it kept up as the day ran
