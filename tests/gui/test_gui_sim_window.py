"""The live window's behaviour: selecting tugs, bad files, stale results, closing mid-step,
exports, drag and drop, recent files, names by zoom, remembered settings."""

import csv
import threading
import time

import numpy as np
from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QDropEvent, QImage
from PySide6.QtWidgets import QMessageBox

import gui.map.map_view as map_view_module
from gui.main_window import MainWindow
from tests.gui.conftest import SIM_TIMEOUT_MS, SOLVE_TIMEOUT_MS, play_until


def test_clicking_a_driving_tug_selects_it_and_shows_its_route_and_load(qtbot, sim_window):
    w = sim_window
    play_until(qtbot, w, 600)
    vb = w.map_view.getPlotItem().vb

    def between_nodes():
        # driving tugs drawn away from every node, so a click on one is unambiguous
        return [t.id for t in w.player.shown.tugs if t.activity == 1
                and w.map_view.node_at(*w.tug_layer.positions[t.id], tolerance_px=3) is None]

    for _ in range(30):          # a few single steps until one is mid-road
        if between_nodes():
            break
        t = w.player.clock
        w.step_simulation()
        qtbot.waitUntil(lambda: w.player.clock > t and not w.player.timer.isActive(),
                        timeout=SIM_TIMEOUT_MS)
    candidates = between_nodes()
    assert candidates, "no driving tug between nodes"
    k = candidates[0]
    w.select_tug(None)
    qtbot.mouseClick(w.map_view.viewport(), Qt.MouseButton.LeftButton,
                     pos=w.tug_layer.widget_pos(k))
    assert w.tug_layer.selected == k
    route = w.tug_layer.selected_route()
    # the leg the tug is drawn on right now (possibly begun after the newest shown result)
    path, times = w.player.leg(k)
    assert len(route) >= 2 and route == [int(i) for i in path]
    assert times[0] <= w.player.clock <= times[-1] + 1e-6
    # the highlighted route is what is still ahead: from the tug to the end of its leg
    xs, ys = w.tug_layer.route_line.getData()
    ahead = w.tug_layer.remaining
    assert len(ahead) >= 1 and list(ahead) == route[len(route) - len(ahead):]
    assert np.allclose(xs[1:], [w.airport.nodes[i].x for i in ahead])
    assert np.isclose(xs[0], w.tug_layer.positions[k, 0])
    assert f"Tug {k + 1}" in w.sim_panel.tug_title.text()
    capacity = w.airport.fleets[0].capacity           # the layout's tugs
    label = w.sim_panel.tug_label.text()
    assert "Load" in label and f"/ {capacity} bags" in label
    ring_x, _ = w.tug_layer.ring.getData()
    assert np.isclose(ring_x[0], w.tug_layer.positions[k, 0])
    assert vb is not None
    w.activateWindow()
    qtbot.keyClick(w, Qt.Key.Key_BracketRight)
    assert w.tug_layer.selected == (k + 1) % len(w.player.shown.tugs)   # (k may be the last)
    qtbot.keyClick(w, Qt.Key.Key_Escape)
    assert w.tug_layer.selected is None and "Click a tug" in w.sim_panel.tug_title.text()


def test_click_two_nodes_still_routes_while_the_day_runs(qtbot, sim_window):
    w = sim_window
    play_until(qtbot, w, 300)
    with qtbot.waitSignal(w.routeShown, timeout=SOLVE_TIMEOUT_MS):
        w.map_view.pick("SORT")
    with qtbot.waitSignal(w.routeShown, timeout=SOLVE_TIMEOUT_MS):
        w.map_view.pick("G3")
    assert (w.from_id, w.to_id) == ("SORT", "G3")
    assert w.map_view.route[0] == "SORT" and w.map_view.route[-1] == "G3"


def test_bad_file_keeps_the_airport_and_its_running_day(qtbot, sim_window, tmp_path):
    w = sim_window
    play_until(qtbot, w, 300)
    generation, t = w.player.generation, w.player.clock
    bad = tmp_path / "broken.json"
    bad.write_text("{ not json", encoding="utf-8")
    with qtbot.waitSignal(w.errorShown):
        assert w.open_airport(bad) is False
    assert "broken.json" in w.status_text() and "malformed JSON" in w.last_error
    box = w.findChild(QMessageBox)
    assert box is not None and box.isVisible()
    box.accept()
    assert w.airport.name != "broken" and len(w.airport.nodes) == 277
    assert w.player.generation == generation and w.player.clock == t
    play_until(qtbot, w, t + 300)   # the old day goes on
    assert w.player.shown.snapshot.t >= t + 300


def test_a_previous_airports_results_are_never_drawn_on_the_new_one(qtbot, sim_window, paper5):
    w = sim_window
    w.set_speed(600)
    w.play()
    qtbot.waitUntil(lambda: w.player.pending, timeout=SIM_TIMEOUT_MS)
    old = w.player.generation
    stale = w.player.latest
    assert w.open_airport(paper5)     # while the regional day is mid-step
    qtbot.waitUntil(lambda: w.player.ready, timeout=SIM_TIMEOUT_MS)
    qtbot.wait(300)
    assert w.player.generation == old + 1
    assert len(w.player.shown.tugs) == 1 and w.tug_layer.positions.shape == (1, 2)
    # a late result of the old day arriving now is dropped
    shown = w.player.shown
    w.player.runner.worker.stepped.emit(stale)
    qtbot.wait(50)
    assert w.player.shown is shown and w.player.latest.generation == w.player.generation


def test_closing_while_the_worker_is_mid_step_is_clean(qtbot, make_window, regional):
    w = make_window(regional)
    qtbot.waitUntil(lambda: w.player.ready, timeout=SIM_TIMEOUT_MS)
    sim = w.player.runner.worker.sim
    inside, calls = threading.Event(), []
    original = sim.run_until

    def slow_run_until(t, check=False):
        calls.append(t)
        inside.set()
        time.sleep(0.3)
        return original(t, check)

    sim.run_until = slow_run_until
    stepped = []
    w.player.stepped.connect(stepped.append)
    w.player.step(600)               # twenty sub-steps of 30 s: about 6 s of work
    assert inside.wait(10), "the worker never started the step"
    start = time.perf_counter()
    w.close()
    took = time.perf_counter() - start
    assert w.player.runner.thread.isFinished()
    assert took < 3.0, f"close waited {took:.1f} s"
    assert len(calls) < 20, "the stop flag was not checked between sub-steps"
    qtbot.wait(100)
    assert stepped == []


def test_exports_write_kpis_timings_and_the_map(qtbot, sim_window, tmp_path):
    w = sim_window
    w.set_race(True)
    play_until(qtbot, w, 900)
    qtbot.waitUntil(lambda: any(t.raced for t in w.timing_plot.rows), timeout=SIM_TIMEOUT_MS)
    kpis = w.export_kpis(tmp_path / "kpis.csv")
    rows = list(csv.DictReader(kpis.open(encoding="utf-8")))
    assert rows and float(rows[-1]["t"]) >= 840 and "mbr" in rows[0]
    assert all(int(r["created"]) == int(r["waiting"]) + int(r["on_tug"]) + int(r["delivered"])
               + int(r["misconnected"]) for r in rows)
    timings = w.export_timings(tmp_path / "timings.csv")
    rows = list(csv.DictReader(timings.open(encoding="utf-8")))
    assert {r["variant"] for r in rows} == {"cpu-linear", "cpu-blocked"}
    assert all(float(r["ms"]) > 0 and r["vertices"] == "30" for r in rows)
    png = w.export_map(tmp_path / "map.png")
    image = QImage(str(png))
    assert image.width() == w.map_view.width() and image.height() == w.map_view.height()


def test_dropping_a_layout_file_opens_it_and_it_joins_the_recent_files(qtbot, window, regional):
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(regional))])
    event = QDropEvent(QPointF(50, 50), Qt.DropAction.CopyAction, mime,
                       Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier)
    with qtbot.waitSignal(window.airportLoaded, timeout=SOLVE_TIMEOUT_MS):
        window.dropEvent(event)
    assert len(window.airport.nodes) == 277
    assert window.recent_files()[0] == str(regional.resolve())
    names = [a.text() for a in window.recent_menu.actions()]
    assert names[:2] == ["regional.json", "paper-5.json"]
    qtbot.waitUntil(lambda: window.player.ready, timeout=SIM_TIMEOUT_MS)
    assert window.sim_facts["tugs"] == window.airport.tugs() > 1


def test_large_airports_name_nodes_only_when_zoomed_in(qtbot, make_window, regional, monkeypatch):
    monkeypatch.setattr(map_view_module, "NAME_LABELS_UP_TO", 100)   # treat regional as large
    monkeypatch.setattr(map_view_module, "ZOOM_LABELS_UP_TO", 8)
    w = make_window(regional)
    mv = w.map_view
    mv.fit()
    qtbot.wait(200)
    assert mv.visible_names() == []            # 30 named nodes in view: too many to label
    g = {n.id: n for n in w.airport.nodes}
    mv.getPlotItem().vb.setRange(xRange=(g["G1"].x - 20, g["G4"].x + 20),
                                 yRange=(g["G1"].y - 60, g["G1"].y + 60), padding=0)
    qtbot.waitUntil(lambda: mv.visible_names() != [], timeout=3000)
    names = mv.visible_names()
    assert "G1" in names and "G4" in names and "G20" not in names and len(names) <= 8
    mv.fit()
    qtbot.waitUntil(lambda: mv.visible_names() == [], timeout=3000)


def test_simulation_settings_are_remembered(qtbot, settings, regional):
    first = MainWindow(regional, settings=settings)
    qtbot.addWidget(first)
    first.sim_panel.seed_spin.setValue(42)
    first.sim_panel.load_spin.setValue(1.5)
    first.sim_panel.set_policy("baseline")
    first.set_speed(300)
    first.set_race(True)
    first.close()
    second = MainWindow(None, settings=settings)
    qtbot.addWidget(second)
    p = second.sim_panel
    assert (p.seed_spin.value(), p.load_spin.value(), p.policy()) == (42, 1.5, "baseline")
    assert second.player.speed == 300 and second.day.speed_combo.currentData() == 300
    assert second.player.race and p.race_check.isChecked()
    config = second.sim_config()
    assert (config.seed, config.load, config.policy) == (42, 1.5, "baseline")
    second.close()


def test_a_failing_simulation_is_reported_not_raised(qtbot, make_window, regional, monkeypatch):
    import gui.day.worker as sim_worker

    def broken(airport, config):
        raise ValueError("no tug can reach gate G7")

    monkeypatch.setattr(sim_worker, "Simulation", broken)
    w = make_window(regional)
    qtbot.waitUntil(lambda: "Simulation failed" in w.status_text(), timeout=SIM_TIMEOUT_MS)
    assert "no tug can reach gate G7" in w.status_text()
    assert not w.player.ready
    w.play()                              # nothing to play: no crash, nothing moves
    assert not w.player.playing and w.player.clock == 0.0
    assert w.airport is not None and w.map_view.airport is w.airport
