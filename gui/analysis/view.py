"""Tools ▸ Layout analysis: the minimum service-road network drawn over the airport, the roads
whose closure cuts a gate, sort station or depot off (bridges) highlighted and listed, and the
summary. Computed off the UI thread (``AnalysisRunner``) with a busy bar and a Cancel button; a
variant chosen, or *Run again*, starts a fresh run and drops the one under way."""

from __future__ import annotations

from types import SimpleNamespace

import pyqtgraph as pg
from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import (QHBoxLayout, QLabel, QListWidget, QListWidgetItem, QProgressBar,
                               QPushButton, QSplitter, QVBoxLayout, QWidget)

from engine.airport.analysis import LayoutAnalysis, format_length
from engine.airport.analysis_report import report_text
from engine.mst import variants as mst_variants
from engine.mst.solve import AUTO, CPU_FALLBACK, GPU_MIN_EDGES

from .worker import AnalysisRunner
from ..map.map_view import ROUTE_LEGEND, AirportMapView
from ..map.style import ONE_WAY_ARROW, ROAD, MapScatter, arrow_symbol
from ..route.variant_picker import VariantPicker

TREE = "#343a40"     # dark: the road the layout needs; the light grey rest is what it has beyond
BRIDGE = "#e8590c"
BRIDGE_RING_PX = 26  # a ring around each bridge, so a 60 m road shows on a 4 km map
ZOOM_MARGIN_M = 150  # a bridge picked in the list is shown with this much around it

AUTO_VARIANT = SimpleNamespace(
    name=AUTO, available=True, reason=None,
    description=f"auto: gpu-fast-mst where there is a GPU and at least {GPU_MIN_EDGES:,} roads, "
                f"else {CPU_FALLBACK}")


def legend_entries(airport, analysis: LayoutAnalysis | None) -> list[tuple[object, str]]:
    """(sample item, label) for what this window draws over the map's nodes."""
    line = lambda color, width: pg.PlotDataItem(pen=pg.mkPen(color, width=width))  # noqa: E731
    if analysis is None:
        entries = [(line(ROAD, 4), "Road")]
    else:
        extra = analysis.layout_m - analysis.minimum_m
        entries = [(line(TREE, 5),
                    f"Minimum service-road network ({format_length(analysis.minimum_m)})"),
                   (line(ROAD, 4), f"Road beyond the minimum ({format_length(extra)})")]
        if analysis.bridges:
            ring = pg.ScatterPlotItem(symbol="o", size=13, brush=pg.mkBrush(None),
                                      pen=pg.mkPen(BRIDGE, width=3))  # as on the map
            entries.append((ring, f"Bridge: closing it cuts a gate/sort/depot off "
                                  f"({len(analysis.bridges)})"))
    if any(r.one_way for r in airport.roads):
        arrow = pg.ScatterPlotItem(symbol=arrow_symbol(1, 0), size=14,
                                   brush=pg.mkBrush(ONE_WAY_ARROW), pen=pg.mkPen(None))
        entries.append((arrow, "One-way road (taken as two-way here)"))
    return entries


class LayoutAnalysisWindow(QWidget):
    """The analysis of one airport in its own window; ``analysed`` fires when one is shown."""

    analysed = Signal(object)

    def __init__(self, airport, parent: QWidget | None = None):
        super().__init__(parent, Qt.WindowType.Window)
        self.setWindowTitle(f"Layout analysis — {airport.name}")
        self.resize(1200, 800)
        self.airport, self.analysis = airport, None
        self._overlay: list = []
        self._fitted = False    # framed clear of the legend once the window has its size
        self._legend: list[str] = []
        self.map_view = AirportMapView(self)
        self.map_view.route_tips = False            # no routes here: clicks pick nothing
        self.map_view.road_text = lambda road: format_length(road.length_m)  # what is weighed
        self.map_view.set_airport(airport)
        self.map_view.set_bags({})                  # bags are the route finder's, not this
        self.map_view.remove_legend_entry(ROUTE_LEGEND)
        self._set_legend(None)

        self.picker = VariantPicker(variants=[AUTO_VARIANT, *mst_variants()])
        self.picker.setToolTip("Which minimum spanning forest variant computes the network")
        self.rerun_button = QPushButton("Run again")
        self.cancel_button = QPushButton("Cancel")
        self.busy_bar = QProgressBar()
        self.busy_bar.setRange(0, 0)                # no fraction to tell: a busy bar
        self.busy_bar.setMaximumWidth(140)
        self.busy_bar.setTextVisible(False)
        self.state = QLabel()
        self.summary = QLabel("No result yet: the summary, the minimum network and the bridges "
                              "appear once computed.")
        self.summary.setWordWrap(True)
        self.summary.setTextFormat(Qt.TextFormat.PlainText)
        self.summary.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.bridge_heading = QLabel("Bridges: not computed yet")
        self.bridge_heading.setWordWrap(True)
        self.bridge_list = QListWidget()
        self.bridge_list.setWordWrap(True)
        self.bridge_list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        whole = QPushButton("Show the whole airport")
        whole.clicked.connect(self.fit)

        controls = QHBoxLayout()
        for widget in (QLabel("Variant:"), self.picker, self.rerun_button, self.cancel_button,
                       self.busy_bar):
            controls.addWidget(widget)
        controls.addWidget(self.state, 1)
        below = QWidget()  # under the map, so the map keeps the window's width for names
        column = QVBoxLayout(below)
        column.setContentsMargins(0, 0, 0, 0)
        heading = QHBoxLayout()
        heading.addWidget(self.bridge_heading, 1)
        heading.addWidget(whole)
        column.addLayout(heading)
        column.addWidget(self.bridge_list)
        splitter = QSplitter(Qt.Orientation.Vertical)
        splitter.addWidget(self.map_view)
        splitter.addWidget(below)
        splitter.setSizes([600, 130])
        layout = QVBoxLayout(self)
        layout.addLayout(controls)
        layout.addWidget(self.summary)
        layout.addWidget(splitter, 1)

        self.runner = AnalysisRunner(airport, self)
        self._relay = self.runner.relay
        self.runner.started.connect(self._on_started)
        self.runner.finished.connect(self._show)
        self.runner.failed.connect(self._on_failed)
        self.picker.variantChanged.connect(self.run)
        self.rerun_button.clicked.connect(lambda: self.run(self.picker.current_variant()))
        self.cancel_button.clicked.connect(self.cancel)
        self.bridge_list.currentRowChanged.connect(self._zoom_to_bridge)
        self.run(self.picker.current_variant())

    # -- running ----------------------------------------------------------------------------

    def run(self, variant: str) -> None:
        """Analyse with ``variant`` (dropping a run under way); the window stays responsive."""
        self.runner.start(variant)
        self._set_busy(True, f"{variant}: waiting for the engine (a route solve or the "
                             "simulation may be using it)…")

    def cancel(self) -> None:
        """Drop the run under way; what the window shows stays as it was."""
        if not self.runner.cancel():
            return
        shown = (f" The map still shows the earlier run ({self.analysis.variant})."
                 if self.analysis is not None else "")
        self._set_busy(False, f"Cancelled.{shown} Run again, or choose a variant, to compute.")

    def fit(self) -> None:
        """Frame the whole airport clear of the legend."""
        self.map_view.fit(clear_of_legend=True)

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if not self._fitted:
            self._fitted = True
            QTimer.singleShot(0, self.fit)  # once laid out at its shown size

    def closeEvent(self, event) -> None:  # a run under way is dropped, not waited for
        self.runner.cancel()
        super().closeEvent(event)

    def _on_started(self, variant: str) -> None:
        self._set_busy(True, f"Computing with {variant}… (a variant's first run here compiles "
                             "it: allow some seconds)")

    def _on_failed(self, message: str) -> None:
        self._set_busy(False, f"Analysis failed: {message}")

    def _set_busy(self, busy: bool, text: str) -> None:
        self.busy_bar.setVisible(busy)
        self.cancel_button.setEnabled(busy)
        self.rerun_button.setEnabled(not busy)
        self.state.setText(text)

    # -- showing ----------------------------------------------------------------------------

    def _show(self, analysis: LayoutAnalysis) -> None:
        first = self.analysis is None
        self.analysis = analysis
        lines = report_text(analysis).split("\n")  # the bridges are listed beside, not here
        self.summary.setText("\n".join(lines[:2] + lines[-1:]))
        self._set_busy(False, f"Done: {analysis.variant}.")
        for item in self._overlay:
            self.map_view.removeItem(item)
        self._overlay = []
        self._draw(analysis.tree_roads, TREE, 5)
        self._draw([b.road for b in analysis.bridges], BRIDGE, 9)
        self._ring_bridges(analysis)
        self._set_legend(analysis)
        self._list_bridges(analysis)
        if first:
            self.fit()  # the legend has grown by what is now drawn
        self.analysed.emit(analysis)

    def _set_legend(self, analysis: LayoutAnalysis | None) -> None:
        for label in self._legend:
            self.map_view.remove_legend_entry(label)
        entries = legend_entries(self.airport, analysis)
        for sample, label in entries:
            self.map_view.add_legend_entry(sample, label)
        self._legend = [label for _, label in entries]

    def _list_bridges(self, analysis: LayoutAnalysis) -> None:
        name = {n.id: n.name for n in self.airport.nodes}
        count = len(analysis.bridges)
        self.bridge_heading.setText(
            f'<span style="color:{BRIDGE}">■</span> Bridges ({count}): roads whose closure cuts '
            "a gate, sort station or depot off" + (" — pick one to zoom to it" if count else ""))
        self.bridge_list.clear()
        for b in analysis.bridges:
            item = QListWidgetItem(f"{name[b.a]}–{name[b.b]} ({b.length_m:.0f} m): cuts off "
                                   f"{', '.join(name[x] for x in b.cut_off)}")
            item.setToolTip(f"road {b.a}–{b.b}; {b.side_nodes} node"
                            f"{'s' * (b.side_nodes != 1)} on the cut-off side")
            self.bridge_list.addItem(item)
        if not analysis.bridges:
            self.bridge_list.addItem("none: with any one road closed, every gate, sort station "
                                     "and depot still reaches the others")

    def _zoom_to_bridge(self, row: int) -> None:
        if self.analysis is None or not 0 <= row < len(self.analysis.bridges):
            return
        road = self.airport.roads[self.analysis.bridges[row].road]
        a, b = self.airport.node(road.a), self.airport.node(road.b)
        self.map_view.getPlotItem().vb.setRange(
            xRange=(min(a.x, b.x) - ZOOM_MARGIN_M, max(a.x, b.x) + ZOOM_MARGIN_M),
            yRange=(min(a.y, b.y) - ZOOM_MARGIN_M, max(a.y, b.y) + ZOOM_MARGIN_M), padding=0)

    def _draw(self, roads: list[int], color: str, width: int) -> None:
        pos = {n.id: (n.x, n.y) for n in self.airport.nodes}
        xs, ys = [], []
        for i in roads:
            r = self.airport.roads[i]
            xs += [pos[r.a][0], pos[r.b][0]]
            ys += [pos[r.a][1], pos[r.b][1]]
        if xs:
            self._add(pg.PlotDataItem(xs, ys, connect="pairs", pen=pg.mkPen(color, width=width)))

    def _ring_bridges(self, analysis: LayoutAnalysis) -> None:
        if not analysis.bridges:
            return
        mids = []
        for b in analysis.bridges:
            a, c = self.airport.node(b.a), self.airport.node(b.b)
            mids.append(((a.x + c.x) / 2, (a.y + c.y) / 2))
        self._add(MapScatter([m[0] for m in mids], [m[1] for m in mids], size=BRIDGE_RING_PX,
                             symbol="o", brush=pg.mkBrush(None), pen=pg.mkPen(BRIDGE, width=3)))

    def _add(self, item) -> None:
        item.setZValue(5)
        self.map_view.addItem(item)
        self._overlay.append(item)
