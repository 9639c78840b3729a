"""What a user sees in the first minutes (issue 36): error dialogs that fit the screen, a toolbar
that fits 1280 pixels, a map clear of its legend, a followed tug in view, a status line that is
never stale, the route finder's route off the live map, words and where files are saved."""

import json

import numpy as np
import pytest
from PySide6.QtCore import QRectF
from PySide6.QtWidgets import QFileDialog

from gui.main_window import ABOUT
from tests.gui.conftest import SIM_TIMEOUT_MS, play_until


def test_a_layout_without_nodes_gives_the_first_cause_and_a_count_the_rest_behind_details(
        qtbot, window, paper5, tmp_path):
    data = json.loads(paper5.read_text(encoding="utf-8"))
    del data["nodes"]
    bad = tmp_path / "no-nodes.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    assert window.open_airport(bad) is False
    box = window.status.box
    assert box is not None and box.isVisible()
    lines = box.text().splitlines()
    assert len(lines) == 2 and "nodes" in lines[0] and "more problems" in lines[1]
    assert len(box.detailedText().splitlines()) > 2      # every problem, behind Details
    assert box.sizeHint().height() < window.screen().availableGeometry().height()
    assert window.airport.name == "paper-5"


def test_a_file_cut_short_gets_a_whole_sentence_in_the_dialog(window, paper5, tmp_path):
    cut = tmp_path / "cut.json"
    cut.write_text(paper5.read_text(encoding="utf-8")[:200], encoding="utf-8")
    assert window.open_airport(cut) is False
    text = window.status.box.text()
    assert "cut.json" in text and text.rstrip().endswith(")") and "cut short" in text


def test_a_long_error_message_is_cut_to_a_dialog_that_fits_the_screen(window):
    message = "\n".join(f"problem {i}" for i in range(700))
    window.status.error("Could not do it", message)
    box = window.status.box
    assert len(box.text().splitlines()) <= 12 and "Show Details" in box.text()
    assert box.detailedText() == message
    assert box.sizeHint().height() < window.screen().availableGeometry().height()


@pytest.mark.parametrize("width,height", [(1280, 800), (1366, 768)])
@pytest.mark.parametrize("engine", ["all-pairs", "from-tugs"])
def test_every_toolbar_entry_is_visible_at_1280_and_1366_wide(qtbot, window, width, height,
                                                                engine):
    window.day.route_engine.set_engine(engine, silent=True)
    window.resize(width, height)
    bar = window.toolbar

    def hidden() -> list:
        """The toolbar's entries not wholly on show (behind its » menu, or past the edge)."""
        out = []
        for action in bar.actions():
            widget = bar.widgetForAction(action)
            if action.isSeparator():
                continue
            right = widget.mapTo(window, widget.rect().topRight()).x()
            if not widget.isVisible() or right > width:
                out.append(action.text() or widget)
        return out

    qtbot.waitUntil(lambda: window.width() == width and not hidden())
    assert bar.widgetForAction(window.race_action).isVisible()
    assert window.day.clock_label.isVisible()


def test_the_default_fit_keeps_every_node_out_from_under_the_legend(qtbot, make_window,
                                                                    regional):
    window = make_window(regional, wait=False)
    window.resize(1280, 800)
    view = window.map_view
    vb = view.getPlotItem().vb
    legend = view._legend

    def clear() -> bool:
        box = legend.mapRectToParent(legend.boundingRect())
        shown = [vb.mapViewToDevice(QRectF(n.x, n.y, 0, 0).topLeft()) for n in view.airport.nodes]
        return all(vb.viewRect().contains(n.x, n.y) for n in view.airport.nodes) and \
            not any(box.contains(vb.mapFromDevice(p)) for p in shown)

    qtbot.waitUntil(lambda: window.player.ready, timeout=SIM_TIMEOUT_MS)
    qtbot.waitUntil(clear)
    view.getPlotItem().vb.scaleBy((0.1, 0.1))
    window.fit_view()
    qtbot.waitUntil(clear)


def test_a_followed_tug_stays_in_view_and_centre_on_tug_pans_to_it(qtbot, sim_window):
    window = sim_window
    play_until(qtbot, window, 1800)
    tug = window.select_busiest_tug()
    assert tug is not None
    vb = window.map_view.getPlotItem().vb
    x, y = window.day.tug_position()
    vb.setRange(xRange=(x - 60, x + 60), yRange=(y - 60, y + 60), padding=0)
    window.map_view._stop_auto_fit()            # as a user's zoom does
    window.set_speed(600)
    window.play()
    start = window.player.clock
    qtbot.waitUntil(lambda: window.player.clock > start + 120, timeout=30_000)
    for _ in range(20):                           # while it plays, it is never out of view
        qtbot.wait(50)
        assert vb.viewRect().contains(*window.day.tug_position())
    window.pause()
    vb.translateBy(x=500)
    assert not vb.viewRect().contains(*window.day.tug_position())
    window.actions.action("sim.centre-tug").trigger()
    centre = vb.viewRect().center()
    assert np.allclose((centre.x(), centre.y()), window.day.tug_position(), atol=1.0)


def test_pausing_and_a_new_speed_show_on_the_status_line(qtbot, sim_window):
    window = sim_window
    play_until(qtbot, window, 600, speed=600)
    assert window.status_text().startswith("Paused at ")
    window.set_speed(10)
    assert "10×" in window.status_text()
    window.play()
    qtbot.waitUntil(lambda: window.status_text().startswith("Playing at 10×"))
    window.set_speed(60)
    assert window.status_text().startswith("Playing at 60×")
    window.pause()
    assert window.status_text().startswith("Paused at ")


def test_the_route_finders_route_leaves_the_live_map_until_it_is_asked_for(qtbot, sim_window):
    window = sim_window
    view = window.map_view
    assert view.route_shown() and view.route
    play_until(qtbot, window, 300)
    assert not view.route_shown()
    assert not any(item.isVisible() for item in view._route_items)
    view.pick(window.airport.gates()[3].id)        # a click on a node: the route finder's turn
    qtbot.waitUntil(view.route_shown)
    assert not window.dock.visibleRegion().isEmpty()
    assert "Route finder's route" in view.legend_labels()


def test_the_tug_panel_names_the_next_node_and_the_depot_as_the_what_if_dock_does(
        qtbot, sim_window):
    window = sim_window
    play_until(qtbot, window, 1800)
    tug = window.select_busiest_tug()
    info = window.player.shown.tugs[tug]
    text = window.sim_panel.tug_label.text()
    ahead = [window.airport.nodes[i].name for i in window.tug_layer.remaining]
    assert f"next <b>{ahead[0]}</b>" in text and f"to {ahead[-1]}" in text
    depot = window.airport.nodes[info.depot]
    label = f"{depot.name} ({depot.id})" if depot.name != depot.id else depot.name
    assert label in text
    combo = window.whatif.panel.depot_combo
    assert combo.itemText(combo.findData(depot.id)).startswith(label + ":")


def test_one_tug_is_one_tug_and_the_route_panel_shows_no_internal_id(qtbot, window):
    qtbot.waitUntil(lambda: window.player.ready, timeout=SIM_TIMEOUT_MS)
    assert "1 tug over" in window.sim_panel.facts_label.text()
    assert "000_" not in window.panel.airport_facts.text()
    assert "Simulation" in ABOUT and "What-if" in ABOUT and "Route finder" in ABOUT


def test_a_bad_sweep_table_is_reported_in_the_window_not_in_a_new_empty_one(window, tmp_path):
    from gui.sweep.view import SweepWindow
    bad = tmp_path / "runs.csv"
    bad.write_text('layout,seed\n"regional,1\nx,2,3,4\n', encoding="utf-8")
    assert window.open_sweep(bad) is None
    assert not [w for w in window.findChildren(SweepWindow) if w.isVisible()]
    assert "runs.csv" in window.last_error and window.status.box.isVisible()
    assert "not a readable CSV table" in window.status.box.text()


def test_exports_start_in_the_layouts_folder_then_the_last_one_used(qtbot, window, monkeypatch,
                                                                    tmp_path):
    asked = []

    def save_name(parent, title, start, filt):
        asked.append(start)
        return str(tmp_path / "out" / "kpis.csv"), filt

    (tmp_path / "out").mkdir()
    monkeypatch.setattr(QFileDialog, "getSaveFileName", save_name)
    window.actions.action("file.export-kpis").trigger()
    assert asked[0].startswith(str(window.airport_path.resolve().parent))
    window.actions.action("file.export-timings").trigger()
    assert asked[1].startswith(str(tmp_path / "out"))
    assert (tmp_path / "out" / "kpis.csv").is_file()


def test_empty_kpi_plots_show_no_made_up_axes_and_filled_ones_label_zero(qtbot, window):
    plots = window.kpi_plots
    plots.reset()
    assert not plots.has_values()
    plots.add([], dict(t=0.0, mbr=0.0, delivered=0, waiting=0, on_tug=0, misconnected=0, created=0))
    plots.flush()
    assert not plots.has_values()                    # 00:00: still nothing to plot
    rows = [dict(t=60.0 * i, mbr=0.0, delivered=10 * i, waiting=3, on_tug=0, misconnected=0,
                 created=12 * i)
            for i in range(30)]
    plots.add(rows, None)
    plots.flush()
    assert plots.has_values()
    for p in plots.plots.values():
        (y0, y1) = p.vb.viewRange()[1]
        assert y0 < 0 < y1                           # 0 is inside the range, off its edge
    assert plots.plots["misconnected"].vb.viewRange()[1][1] == 5   # whole bags on the axis
    axis = window.timing_plot.plot.getAxis("left")
    assert not axis.autoSIPrefix and "ms" in axis.labelText
    assert axis.tickStrings([-2.0, 0.0, 1.0], 1, 1) == ["0.01", "1", "10"]
