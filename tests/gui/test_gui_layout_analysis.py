"""Tools ▸ Layout analysis: the minimum service roads drawn over the map, the bridges listed,
the summary with the variant and its time — computed off the UI thread, with a busy bar, Cancel,
Run again and a variant choice; the legend says what the window draws.

Runs are held back deterministically: the test takes the engine lock (the worker waits for it)
or makes the engine wait on an event, never on a clock; a signal the worker emits from its own
thread is listened for before the worker is let go."""

import threading

import pyqtgraph as pg
import pytest
import shiboken6
from PySide6.QtCore import QCoreApplication, QEvent, QRectF, QThreadPool
from PySide6.QtWidgets import QApplication

from engine.airport import analysis as engine_analysis
from gui.analysis.view import BRIDGE, TREE, LayoutAnalysisWindow
from gui.map.map_view import LAYOUT_BAGS, ROUTE_LEGEND, _clear_of
from gui.workers import ENGINE_LOCK
from tests.gui.conftest import SOLVE_TIMEOUT_MS
from tests.test_layout_analysis import small_airport

ONE_WAY = "One-way road (taken as two-way here)"


def drawn_overlay(window) -> dict[str, int]:
    """Roads drawn over the map per colour (minimum network, bridges)."""
    return {it.opts["pen"].color().name(): len(it.xData) // 2
            for it in window.map_view.getPlotItem().items
            if isinstance(it, pg.PlotDataItem) and it.opts["pen"].color().name() in (TREE, BRIDGE)}


def test_tools_menu_opens_the_analysis_of_the_loaded_airport(make_window, regional, qtbot):
    window = make_window(regional)
    window.actions.action("tools.layout-analysis").trigger()
    analysis_window = next(w for w in QApplication.topLevelWidgets()
                           if isinstance(w, LayoutAnalysisWindow) and w.isVisible())
    qtbot.addWidget(analysis_window)
    qtbot.waitUntil(lambda: analysis_window.analysis is not None, timeout=SOLVE_TIMEOUT_MS)
    text = analysis_window.summary.text()
    assert "more road than the least that connects every node" in text
    assert "85 one-way, taken as two-way" in text
    assert "Minimum network computed by cpu-kruskal" in text
    assert analysis_window.bridge_list.item(0).text().startswith("none")


def test_bridges_are_listed_and_drawn_over_the_minimum_network(qtbot):
    window = LayoutAnalysisWindow(small_airport())
    qtbot.addWidget(window)
    assert window.analysis is None  # the work runs in a worker thread, not in the constructor
    with qtbot.waitSignal(window.analysed, timeout=SOLVE_TIMEOUT_MS):
        pass
    items = [window.bridge_list.item(i).text() for i in range(window.bridge_list.count())]
    assert items == ["G2–J (50 m): cuts off G3", "J–G3 (50 m): cuts off G3"]
    assert drawn_overlay(window) == {TREE: 6, BRIDGE: 2}


def test_the_legend_says_what_is_drawn(qtbot):
    with ENGINE_LOCK:  # no answer yet: only the roads are drawn
        window = LayoutAnalysisWindow(small_airport())
        qtbot.addWidget(window)
        before = window.map_view.legend_labels()
    assert before == ["Gate (3)", "Sort station (1)", "Tug depot (1)", "Junction (2)", "Road",
                      ONE_WAY]
    with qtbot.waitSignal(window.analysed, timeout=SOLVE_TIMEOUT_MS):
        pass
    # small_airport: 633 m of road, 448 m of it the minimum network, two bridges (engine tests)
    labels = window.map_view.legend_labels()
    assert labels == ["Gate (3)", "Sort station (1)", "Tug depot (1)", "Junction (2)",
                      "Minimum service-road network (448 m)", "Road beyond the minimum (185 m)",
                      "Bridge: closing it cuts a gate/sort/depot off (2)", ONE_WAY]
    assert ROUTE_LEGEND not in labels and LAYOUT_BAGS not in labels
    window.run("auto")  # a second answer replaces the entries rather than adding to them
    with qtbot.waitSignal(window.analysed, timeout=SOLVE_TIMEOUT_MS):
        pass
    assert window.map_view.legend_labels() == labels
    assert drawn_overlay(window) == {TREE: 6, BRIDGE: 2}


def test_cancel_before_the_engine_is_free_skips_the_run_and_run_again_works(qtbot):
    ENGINE_LOCK.acquire()  # a route solve or simulation holds the engine
    try:
        window = LayoutAnalysisWindow(small_airport())
        qtbot.addWidget(window)
        # listening before the worker can report: it emits from its own thread
        answers = []
        window._relay.done.connect(lambda *args: answers.append(args))
        skipped = qtbot.waitSignal(window._relay.finished, timeout=SOLVE_TIMEOUT_MS)
        assert not window.busy_bar.isHidden() and window.cancel_button.isEnabled()
        assert not window.rerun_button.isEnabled()
        assert "waiting for the engine" in window.state.text()
        window.cancel_button.click()
        assert window.state.text().startswith("Cancelled.")
        assert window.busy_bar.isHidden() and not window.cancel_button.isEnabled()
        assert window.rerun_button.isEnabled()
    finally:
        ENGINE_LOCK.release()
    skipped.wait()
    assert answers == []  # the task saw the cancel and did no work
    assert window.analysis is None and drawn_overlay(window) == {}
    assert window.state.text().startswith("Cancelled.")
    with qtbot.waitSignal(window.analysed, timeout=SOLVE_TIMEOUT_MS):
        window.rerun_button.click()
    assert drawn_overlay(window) == {TREE: 6, BRIDGE: 2}
    assert window.state.text().startswith("Done") and window.busy_bar.isHidden()


@pytest.fixture
def held_engine(monkeypatch):
    """The engine computes only once the returned event is set (then as usual)."""
    go = threading.Event()
    real = engine_analysis.analyze_layout

    def held(airport, variant):
        go.wait(SOLVE_TIMEOUT_MS / 1000)
        return real(airport, variant)
    monkeypatch.setattr(engine_analysis, "analyze_layout", held)
    yield go
    go.set()  # never leave a worker waiting


def test_cancel_while_computing_drops_the_answer(qtbot, held_engine):
    go = held_engine
    window = LayoutAnalysisWindow(small_airport())
    qtbot.addWidget(window)
    shown = []
    window.analysed.connect(shown.append)
    with qtbot.waitSignal(window.runner.started, timeout=SOLVE_TIMEOUT_MS):
        pass
    assert window.state.text().startswith("Computing with auto")
    window.cancel_button.click()
    assert window.state.text().startswith("Cancelled.") and window.rerun_button.isEnabled()
    with qtbot.waitSignal(window._relay.done, timeout=SOLVE_TIMEOUT_MS) as answer:
        go.set()
    assert answer.args[1] is not None  # the engine finished its work …
    assert shown == [] and window.analysis is None  # … and the window dropped it
    assert drawn_overlay(window) == {} and window.state.text().startswith("Cancelled.")


def test_choosing_a_variant_replaces_the_run_under_way(qtbot):
    shown = []
    with ENGINE_LOCK:
        window = LayoutAnalysisWindow(small_airport())
        qtbot.addWidget(window)
        window.analysed.connect(shown.append)
        assert window.picker.set_current_variant("cpu-boruvka")  # emits variantChanged: a rerun
        assert "cpu-boruvka: waiting for the engine" in window.state.text()
    assert QThreadPool.globalInstance().waitForDone(SOLVE_TIMEOUT_MS)
    qtbot.waitUntil(lambda: not window.runner.busy, timeout=SOLVE_TIMEOUT_MS)
    assert [a.variant for a in shown] == ["cpu-boruvka"]  # the auto run was dropped, unseen
    assert "Minimum network computed by cpu-boruvka" in window.summary.text()


def test_closing_the_window_before_the_answer_is_safe(qtbot, held_engine):
    window = LayoutAnalysisWindow(small_airport())
    relay = window._relay
    with qtbot.waitSignal(window.runner.started, timeout=SOLVE_TIMEOUT_MS):
        pass
    window.close()
    window.deleteLater()
    # the deferred delete, flushed here (waiting for ``destroyed`` in a nested loop hung once on
    # PySide6 6.6.0, the lower bound)
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    assert not shiboken6.isValid(window)
    with qtbot.waitSignal(relay.done, timeout=SOLVE_TIMEOUT_MS) as answer:
        held_engine.set()  # the worker finishes after the window is gone, and reports unharmed
    assert answer.args[1] is not None


def test_the_airport_is_framed_clear_of_the_legend(qtbot, regional):
    from engine.airport.layout_io import load_bundled_or_file
    window = LayoutAnalysisWindow(load_bundled_or_file(str(regional)))
    qtbot.addWidget(window)
    window.resize(1200, 800)
    window.show()
    with qtbot.waitSignal(window.analysed, timeout=SOLVE_TIMEOUT_MS):
        pass
    vb = window.map_view.getPlotItem().vb
    legend = window.map_view._legend.sceneBoundingRect()
    assert not any(legend.contains(vb.mapViewToScene(pg.Point(n.x, n.y)))
                   for n in window.airport.nodes)
    assert all(vb.sceneBoundingRect().contains(vb.mapViewToScene(pg.Point(n.x, n.y)))
               for n in window.airport.nodes)


@pytest.mark.parametrize("box", [(0, 4000, 0, 1500), (0, 1000, 0, 1000), (0, 300, 0, 3000)])
def test_clear_of_the_legend_keeps_the_box_out_from_under_it(box):
    width, height, legend = 1000, 600, QRectF(700, 12, 288, 180)
    (x0, x1), (y0, y1) = _clear_of(*box, width, height, legend)
    assert (x1 - x0) / width == pytest.approx((y1 - y0) / height)  # the aspect kept
    px = lambda x: (x - x0) / (x1 - x0) * width  # noqa: E731
    py = lambda y: (y1 - y) / (y1 - y0) * height  # noqa: E731  (pixels grow downwards)
    left, right, top, bottom = px(box[0]), px(box[1]), py(box[3]), py(box[2])
    assert left >= -1e-6 and right <= width + 1e-6 and top >= -1e-6 and bottom <= height + 1e-6
    assert right <= legend.left() + 1e-6 or top >= legend.bottom() - 1e-6
