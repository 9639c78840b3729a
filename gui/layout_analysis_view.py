"""Tools ▸ Layout analysis: the minimum service-road network drawn over the airport, the roads
whose closure cuts a gate, sort station or depot off (bridges) highlighted and listed, and the
summary — computed in a worker thread (engine.airport.analysis), never on the UI thread."""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtCore import QObject, QRunnable, Qt, QThreadPool, Signal
from PySide6.QtWidgets import QLabel, QListWidget, QSplitter, QVBoxLayout, QWidget

from engine.airport.analysis import LayoutAnalysis, analyze_layout
from engine.commands.analyze import report_text

from .map_view import AirportMapView
from .solver_worker import ENGINE_LOCK

TREE = "#2b8a3e"
BRIDGE = "#e8590c"


class _Relay(QObject):
    done = Signal(object)     # LayoutAnalysis
    failed = Signal(str)


class _AnalysisTask(QRunnable):
    def __init__(self, airport, relay: _Relay):
        super().__init__()
        self._airport, self._relay = airport, relay

    def run(self) -> None:  # worker thread
        try:
            with ENGINE_LOCK:
                result = analyze_layout(self._airport)
            self._relay.done.emit(result)
        except Exception as exc:  # shown in the window, never a crash
            self._relay.failed.emit(f"{exc.__class__.__name__}: {exc}")


class LayoutAnalysisWindow(QWidget):
    """The analysis of one airport in its own window; ``analysed`` fires when it is shown."""

    analysed = Signal(object)

    def __init__(self, airport, parent: QWidget | None = None):
        super().__init__(parent, Qt.WindowType.Window)
        self.setWindowTitle(f"Layout analysis — {airport.name}")
        self.resize(1200, 800)
        self.airport, self.analysis = airport, None
        self.map_view = AirportMapView(self)
        self.map_view.set_airport(airport)
        self.status = QLabel("Computing the minimum service-road network…")
        self.status.setWordWrap(True)
        self.status.setTextFormat(Qt.TextFormat.RichText)
        self.bridge_list = QListWidget()
        side = QWidget()
        column = QVBoxLayout(side)
        column.addWidget(QLabel(f'<span style="color:{BRIDGE}">■</span> Roads whose closure cuts a '
                                "gate, sort station or depot off:"))
        column.addWidget(self.bridge_list)
        splitter = QSplitter()
        splitter.addWidget(self.map_view)
        splitter.addWidget(side)
        splitter.setSizes([850, 350])
        layout = QVBoxLayout(self)
        layout.addWidget(self.status)
        layout.addWidget(splitter, 1)
        self._relay = _Relay()  # no parent: the task holds it, so closing the window early is safe
        self._relay.done.connect(self._show)
        self._relay.failed.connect(lambda message: self.status.setText(f"Analysis failed: {message}"))
        QThreadPool.globalInstance().start(_AnalysisTask(airport, self._relay))

    def _show(self, analysis: LayoutAnalysis) -> None:
        self.analysis = analysis
        lines = report_text(analysis).split("\n")  # the bridges are listed beside, not here
        self.status.setText("<br>".join(lines[:2] + lines[-1:]) + f'<br><span style="color:{TREE}">'
                            "■</span> the minimum service-road network, drawn over the map")
        self._draw(analysis.tree_roads, TREE, 5)
        self._draw([b.road for b in analysis.bridges], BRIDGE, 9)
        self.bridge_list.clear()
        for b in analysis.bridges:
            self.bridge_list.addItem(f"{b.a}–{b.b} ({b.length_m:.0f} m): cuts off "
                                     f"{', '.join(b.cut_off)}")
        if not analysis.bridges:
            self.bridge_list.addItem("none: every key node has two ways in")
        self.analysed.emit(analysis)

    def _draw(self, roads: list[int], color: str, width: int) -> None:
        pos = {n.id: (n.x, n.y) for n in self.airport.nodes}
        xs, ys = [], []
        for i in roads:
            r = self.airport.roads[i]
            xs += [pos[r.a][0], pos[r.b][0]]
            ys += [pos[r.a][1], pos[r.b][1]]
        if xs:
            item = pg.PlotDataItem(xs, ys, connect="pairs", pen=pg.mkPen(color, width=width))
            item.setZValue(5)
            self.map_view.addItem(item)


def screenshot(airport_name: str, path: str) -> None:
    """Save the analysis window of a bundled airport as PNG (the README's picture):
    ``xvfb-run -a -s "-screen 0 1600x1000x24" python -m gui.layout_analysis_view hub-atl gui/assets/screenshot-layout-analysis.png``."""
    from PySide6.QtWidgets import QApplication
    from engine.airport.layout_io import load_bundled_or_file
    app = QApplication.instance() or QApplication([])
    window = LayoutAnalysisWindow(load_bundled_or_file(airport_name))
    window.show()
    from PySide6.QtCore import QTimer

    def save():
        window.grab().save(path)
        app.quit()
    window.analysed.connect(lambda _: QTimer.singleShot(300, save))  # once laid out again
    app.exec()


if __name__ == "__main__":
    import sys
    screenshot(*sys.argv[1:3])
