"""The app window on the paper's 5-gate example: pick two gates, see the route and its cost."""

import json
import threading
import time

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QMessageBox

from engine.apsp import solve
from gui.main_window import MainWindow
from tests.gui.conftest import SOLVE_TIMEOUT_MS


def choose(combo, node_id):
    """Pick ``node_id`` in a From/To combo box the way a user's selection does."""
    index = combo.findData(node_id)
    assert index >= 0, f"{node_id} not offered"
    combo.setCurrentIndex(index)


def route_shown(window, nodes):
    return window.summary is not None and window.summary.nodes == nodes


def test_window_opens_on_paper5_with_every_node_drawn(window):
    assert window.airport.name == "paper-5"
    assert window.airport.node_ids == ["A1", "A2", "A3", "A4", "A5"]
    assert window.panel.from_combo.count() == 5 and window.panel.to_combo.count() == 5
    assert "paper-5" in window.windowTitle()
    assert window.result.dist.shape == (5, 5)


def test_the_layouts_bags_are_labelled_as_the_route_cost_not_as_live_waiting_bags(window):
    labels = [label.text for _, label in window.map_view._legend.items]
    assert "Layout's bags (route cost)" in labels and "Bags waiting" not in labels
    assert "7 bags in the layout (route cost)" in window.map_view._tip(0, 0, "A4")


def test_picking_two_gates_in_the_combos_draws_the_quickest_route_and_its_cost(qtbot, window):
    choose(window.panel.from_combo, "A1")
    choose(window.panel.to_combo, "A5")
    qtbot.waitUntil(lambda: route_shown(window, ["A1", "A5"]), timeout=SOLVE_TIMEOUT_MS)
    assert window.map_view.route == ["A1", "A5"]
    assert window.summary.cost == 30  # deciseconds: the direct 3 s road
    assert "A1" in window.panel.answer_title.text() and "A5" in window.panel.answer_title.text()
    assert "3 s" in window.panel.cost_label.text()
    assert "cpu-blocked" in window.status_text()


def test_bag_aware_cost_sends_the_handler_via_a4_for_twelve_bags(qtbot, window):
    window.set_endpoints("A1", "A5")
    qtbot.waitUntil(lambda: route_shown(window, ["A1", "A5"]), timeout=SOLVE_TIMEOUT_MS)
    qtbot.mouseClick(window.panel.bags_radio, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: route_shown(window, ["A1", "A4", "A5"]), timeout=SOLVE_TIMEOUT_MS)
    assert window.cost_mode == "bags"
    assert window.map_view.route == ["A1", "A4", "A5"]
    assert window.summary.bags == 12 and window.summary.travel_seconds == 7
    text = window.panel.cost_label.text()
    assert "bag-aware" in text and "12" in text and "7 s" in text
    assert "bag-aware cost" in window.status_text()
    qtbot.mouseClick(window.panel.time_radio, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: route_shown(window, ["A1", "A5"]), timeout=SOLVE_TIMEOUT_MS)


def test_a5_cannot_reach_a2_and_the_window_says_no(qtbot, window):
    choose(window.panel.from_combo, "A5")
    choose(window.panel.to_combo, "A2")
    qtbot.waitUntil(lambda: window.summary is not None and window.summary.source == "A5"
                    and window.summary.target == "A2", timeout=SOLVE_TIMEOUT_MS)
    assert not window.summary.reachable
    assert window.map_view.route == []
    assert "Can A5 reach A2? No." in window.panel.answer_title.text()
    assert "No route" in window.panel.cost_label.text()


def test_map_pick_sets_from_then_to(qtbot, window):
    with qtbot.waitSignal(window.routeShown, timeout=SOLVE_TIMEOUT_MS):
        window.map_view.pick("A4")
    assert window.from_id == "A4"
    assert "click the To node" in window.status_text()
    with qtbot.waitSignal(window.routeShown, timeout=SOLVE_TIMEOUT_MS):
        window.map_view.pick("A3")
    assert (window.from_id, window.to_id) == ("A4", "A3")
    assert window.map_view.route == ["A4", "A3"]
    assert window.status_text().startswith("Ran cpu-blocked")  # the pick hint is gone
    assert "4 s" in window.panel.cost_label.text()


def test_mouse_clicks_on_the_map_pick_nodes(qtbot, window):
    qtbot.waitUntil(lambda: window.map_view.isVisible())
    viewport = window.map_view.viewport()
    for node_id in ("A2", "A1"):
        with qtbot.waitSignal(window.map_view.nodeClicked, timeout=5000) as clicked:
            qtbot.mouseClick(viewport, Qt.MouseButton.LeftButton,
                             pos=window.map_view.widget_pos(node_id))
        assert clicked.args == [node_id]
    assert (window.from_id, window.to_id) == ("A2", "A1")
    qtbot.waitUntil(lambda: route_shown(window, ["A2", "A3", "A1"]), timeout=SOLVE_TIMEOUT_MS)


def test_clicking_empty_map_picks_nothing(qtbot, window):
    before = (window.from_id, window.to_id)
    viewport = window.map_view.viewport()
    corner = QPoint(30, viewport.height() - 30)  # bottom left: no node there
    assert window.map_view.node_at(*_data_xy(window, corner)) is None
    qtbot.mouseClick(viewport, Qt.MouseButton.LeftButton, pos=corner)
    assert (window.from_id, window.to_id) == before


def _data_xy(window, point):
    p = window.map_view.getPlotItem().vb.mapSceneToView(window.map_view.mapToScene(point))
    return p.x(), p.y()


def test_switching_variant_solves_again_with_it(qtbot, window):
    window.set_endpoints("A1", "A5")
    picker = window.panel.variant_picker
    with qtbot.waitSignal(window.solveFinished, timeout=SOLVE_TIMEOUT_MS) as solved:
        picker.setCurrentIndex(picker.names().index("cpu-linear"))
    assert solved.args[0].variant == "cpu-linear"
    assert window.result.variant == "cpu-linear"
    assert "Ran cpu-linear" in window.status_text()
    assert "cpu-linear" in window.panel.solver_line.text()
    assert window.map_view.route == ["A1", "A5"]
    assert window.settings.value("solver/variant") == "cpu-linear"


def test_auto_then_every_engine_variant_is_listed(window):
    from engine.apsp import variants
    assert window.panel.variant_picker.names() == ["auto"] + [v.name for v in variants()]
    assert window.panel.variant_picker.default_variant() == "auto"


def test_bad_json_file_shows_the_problem_and_keeps_the_old_airport(qtbot, window, tmp_path):
    window.set_endpoints("A1", "A5")
    bad = tmp_path / "broken.json"
    bad.write_text("{ not json", encoding="utf-8")
    with qtbot.waitSignal(window.errorShown) as shown:
        assert window.open_airport(bad) is False
    message = shown.args[0]
    assert "broken.json" in message and "malformed JSON" in message
    assert "broken.json" in window.status_text()
    box = window.findChild(QMessageBox)
    assert box is not None and box.isVisible() and "malformed JSON" in box.text()
    box.accept()
    assert window.airport.name == "paper-5"
    assert window.map_view.airport is window.airport
    assert window.summary.nodes == ["A1", "A5"]
    assert window.map_view.route == ["A1", "A5"]


def test_layout_error_names_the_item_at_fault(qtbot, window, paper5, tmp_path):
    data = json.loads(paper5.read_text(encoding="utf-8"))
    data["roads"][0]["b"] = "Z9"
    bad = tmp_path / "ghost-road.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    assert window.open_airport(bad) is False
    assert "ghost-road.json" in window.last_error
    assert "road #1" in window.last_error and "Z9" in window.last_error
    assert window.airport.name == "paper-5"


def test_missing_file_is_reported_not_raised(window, tmp_path):
    assert window.open_airport(tmp_path / "nowhere.json") is False
    assert "nowhere.json" in window.last_error
    assert window.airport.name == "paper-5"


def test_opening_another_airport_replaces_map_and_answer(qtbot, window):
    from engine.airport.layout_io import bundled_airports
    regional = bundled_airports()["regional"]
    with qtbot.waitSignal(window.routeShown, timeout=SOLVE_TIMEOUT_MS):
        assert window.open_airport(regional)
    assert window.airport.name != "paper-5"
    assert window.map_view.airport is window.airport
    assert window.result.dist.shape == (len(window.airport.nodes),) * 2
    assert window.summary.source in window.airport.node_ids


def test_fit_shortcut_frames_the_whole_airport(qtbot, window):
    vb = window.map_view.getPlotItem().vb
    vb.scaleBy((0.1, 0.1))
    assert not all(vb.viewRect().contains(n.x, n.y) for n in window.airport.nodes)
    window.activateWindow()
    qtbot.keyClick(window, Qt.Key.Key_F)
    qtbot.waitUntil(lambda: all(vb.viewRect().contains(n.x, n.y) for n in window.airport.nodes))


def test_closing_while_a_solve_runs_is_clean(qtbot, make_window, paper5):
    started, finished = threading.Event(), threading.Event()

    def slow_solve(cost, variant):
        started.set()
        time.sleep(0.8)
        result = solve(cost, variant)
        finished.set()
        return result

    window = make_window(solve_fn=slow_solve, wait=False)
    shown = []
    window.routeShown.connect(shown.append)
    assert started.wait(30), "the solve never started"
    assert window.solver.busy and window.result is None
    window.close()   # waits a moment for the solve, never long (tests/gui/test_gui_faults.py)
    assert finished.wait(30), "the running solve never ended"
    assert window.solver.wait(10_000)
    qtbot.wait(200)  # let any queued signal arrive: it must be dropped
    assert shown == [] and window.result is None
    assert window.solver.dropped == 1


def test_stale_result_from_a_previous_request_is_never_drawn(qtbot, make_window):
    release = threading.Event()
    calls = []

    def gated_solve(cost, variant):
        calls.append(cost.copy())
        if len(calls) == 1:
            release.wait(30)  # the first (time cost) solve is still running when bags are asked
        return solve(cost, variant)

    window = make_window(solve_fn=gated_solve, wait=False)
    window.set_endpoints("A1", "A5")
    qtbot.waitUntil(lambda: len(calls) == 1)
    window.set_cost_mode("bags")
    release.set()
    qtbot.waitUntil(lambda: window.result is not None, timeout=SOLVE_TIMEOUT_MS)
    qtbot.wait(100)
    assert window.summary.nodes == ["A1", "A4", "A5"]  # the bag-aware answer, not the stale one
    assert window.solver.dropped == 1
    assert len(calls) == 2


def test_settings_remember_airport_cost_and_variant(qtbot, settings, paper5, tmp_path):
    copy = tmp_path / "my-airport.json"
    copy.write_text(paper5.read_text(encoding="utf-8"), encoding="utf-8")
    first = MainWindow(copy, settings=settings)
    qtbot.addWidget(first)
    first.set_cost_mode("bags")
    first.set_variant("cpu-linear")
    first.close()

    second = MainWindow(None, settings=settings)
    qtbot.addWidget(second)
    assert second.airport_path.resolve() == copy.resolve()
    assert second.cost_mode == "bags"
    assert second.variant == "cpu-linear"
    qtbot.waitUntil(lambda: second.result is not None, timeout=SOLVE_TIMEOUT_MS)
    assert second.result.variant == "cpu-linear"


def test_a_vanished_last_airport_falls_back_to_paper5(qtbot, settings, tmp_path):
    settings.setValue("airport/last", str(tmp_path / "deleted.json"))
    window = MainWindow(None, settings=settings)
    qtbot.addWidget(window)
    assert window.airport.name == "paper-5"


def test_unknown_variant_is_refused_with_a_message(window):
    assert window.set_variant("gpu-warp-drive") is False
    assert "gpu-warp-drive" in window.status_text()
    assert window.variant == "cpu-blocked"


@pytest.mark.parametrize("mode", ["sideways"])
def test_unknown_cost_mode_is_a_value_error(window, mode):
    with pytest.raises(ValueError, match="sideways"):
        window.set_cost_mode(mode)


@pytest.mark.parametrize("variant", ["gpu-linear", "gpu-blocked"])
def test_status_says_which_variant_and_device_really_ran(qtbot, window, variant):
    # In CI the GPU variants run on Numba's CUDA simulator (tests/conftest.py); on a machine
    # with no GPU and no simulator they are disabled and set_variant refuses them.
    if not window.set_variant(variant):
        assert "unavailable" in window.status_text() and variant in window.status_text()
        return
    qtbot.waitUntil(lambda: window.result is not None, timeout=SOLVE_TIMEOUT_MS)
    r = window.result
    status = window.status_text()
    assert r.device in status and r.variant in status
    if r.note:  # the requested variant could not run and the CPU stood in: say so
        assert r.note in status and r.variant == "cpu-blocked"
    else:
        assert r.variant == variant
    window.set_endpoints("A5", "A2")
    assert not window.summary.reachable
