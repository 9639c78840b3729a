"""Tools ▸ Layout analysis: the minimum service roads drawn over the map, the bridges listed,
the summary with the variant and its time — computed off the UI thread."""

import pyqtgraph as pg
from PySide6.QtWidgets import QApplication

from gui.layout_analysis_view import BRIDGE, TREE, LayoutAnalysisWindow
from tests.test_layout_analysis import small_airport


def test_tools_menu_opens_the_analysis_of_the_loaded_airport(make_window, regional, qtbot):
    window = make_window(regional)
    action = next(a for m in window.menuBar().actions() if m.text() == "&Tools"
                  for a in m.menu().actions() if a.text() == "&Layout analysis…")
    action.trigger()
    analysis_window = next(w for w in QApplication.topLevelWidgets()
                           if isinstance(w, LayoutAnalysisWindow) and w.isVisible())
    qtbot.addWidget(analysis_window)
    qtbot.waitUntil(lambda: analysis_window.analysis is not None, timeout=30_000)
    text = analysis_window.status.text()
    assert "more road than the least that connects every node" in text
    assert "85 one-way, taken as two-way" in text and "Computed by cpu-kruskal" in text
    assert analysis_window.bridge_list.item(0).text().startswith("none")


def test_bridges_are_listed_and_drawn_over_the_minimum_network(qtbot):
    window = LayoutAnalysisWindow(small_airport())
    qtbot.addWidget(window)
    assert window.analysis is None  # the work runs in a worker thread, not in the constructor
    with qtbot.waitSignal(window.analysed, timeout=30_000):
        pass
    items = [window.bridge_list.item(i).text() for i in range(window.bridge_list.count())]
    assert items == ["G2–J (50 m): cuts off G3", "J–G3 (50 m): cuts off G3"]
    drawn = {it.opts["pen"].color().name(): len(it.xData) // 2
             for it in window.map_view.getPlotItem().items
             if isinstance(it, pg.PlotDataItem) and it.opts["pen"].color().name() in (TREE, BRIDGE)}
    assert drawn == {TREE: 6, BRIDGE: 2}


def test_closing_the_window_before_the_answer_is_safe(qtbot):
    window = LayoutAnalysisWindow(small_airport())
    relay = window._relay
    window.close()
    window.deleteLater()
    with qtbot.waitSignal(relay.done, timeout=30_000):  # the worker still finishes and reports
        pass
