"""Solve time against vertices on log-log axes: one line per variant and random-graph ladder,
hollow markers (one legend entry for all) for the airports, each airport named on the plot, and
the budget line."""

from __future__ import annotations

import math
from typing import Callable

import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QFont, QFontMetricsF
from PySide6.QtWidgets import QSizePolicy


# Distinct on white, colour-blind friendly first (Okabe–Ito), then a few more.
PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000",
           "#8C564B", "#7F7F7F", "#BCBD22")
MARKERS = ("o", "s", "t", "d", "star", "p", "h", "t1", "+", "x")
# One line style per ladder graph: solid for the first (random-15%), dotted, dash-dot after.
GRAPH_STYLES = (Qt.PenStyle.SolidLine, Qt.PenStyle.DotLine, Qt.PenStyle.DashDotLine,
                Qt.PenStyle.DashDotDotLine)


AIRPORTS_LEGEND = "airports (named on the plot)"
TITLE_MARGIN = 100  # px beside the title: the left axis and the layout's spacing
TITLE_PAD = 8       # px of the title's row left free, half above its text and half below
TICK_LABEL_GAP = 6  # px at least between two tick labels
X_PAD = 0.15        # decades beside the leftmost and rightmost points
EDGE_GAP = 4        # px at least between a name or size label and the view's left or right edge
LEGEND_BESIDE_MIN_WIDTH = 760  # px: a narrower view shows the legend under the plot,
LEGEND_MARGIN = 20              # in as many columns as fit its width less this margin


def plain(x: float) -> str:
    return f"{x:,.0f}" if x >= 1 else f"{x:.3g}"


def _apart(texts: list, horizontal: bool) -> list:
    """The tick labels (pyqtgraph's ``(rect, flags, text)``) to draw so that no two are closer
    than TICK_LABEL_GAP: the first and last along the axis, then each of the others, in the
    order given, that clears those kept."""
    texts = [t for t in texts if t[2]]
    if not texts:
        return []
    along = (lambda t: t[0].center().x()) if horizontal else (lambda t: t[0].center().y())
    first, last = min(texts, key=along), max(texts, key=along)
    kept = [first] if last is first else [first, last]
    g = TICK_LABEL_GAP
    for t in texts:  # a label kept already meets itself, so is not added twice
        if not any(t[0].adjusted(-g, -g, g, g).intersects(k[0]) for k in kept):
            kept.append(t)
    return kept


class PlainLogAxis(pg.AxisItem):
    """Log-scale ticks written as plain numbers (64, 1,000, 0.01) rather than 6.4·10¹; where
    the axis spans more than a decade, only 1, 2 and 5 of each decade are labelled. A label
    that would overlap another, at the size it is drawn, is left off (its tick stays)."""

    def generateDrawSpecs(self, p):  # noqa: N802 (pyqtgraph naming)
        specs = super().generateDrawSpecs(p)
        if specs is None:
            return None
        axis, ticks, texts = specs
        return axis, ticks, _apart(texts, self.orientation in ("top", "bottom"))

    def logTickStrings(self, values, scale, spacing):  # noqa: N802 (pyqtgraph naming)
        low, high = self.range
        crowded = high - low > 1.2
        out = []
        for v in values:
            x = 10 ** v * scale
            mantissa = round(x / 10 ** math.floor(math.log10(x) + 1e-9), 3) if x > 0 else 0
            out.append("" if crowded and mantissa not in (1, 2, 5) else plain(x))
        return out


def _ms(p) -> float:
    """The solve time drawn for ``p`` (a log axis cannot show 0)."""
    return max(p.kernel_median_ms, 1e-6)


def _label_y(at_airport: list) -> float:
    """Where an airport's name goes (log10 ms): a little under its lowest marker."""
    return math.log10(min(_ms(p) for p in at_airport)) - 0.12


class BenchPlot(pg.GraphicsLayoutWidget):
    """``show_points(points, budget_s, title)`` redraws everything; ``curves`` maps each legend
    label to its ladder curve (for tests and for callers that want to highlight one).

    An airport has one fixed size, so its points are no line: each variant's airport times are
    hollow markers in the variant's colour and symbol (``airport_markers``, by variant), the
    airports share one legend entry and each is named beside its markers (``airport_labels``)."""

    _title: str | None = None

    def __init__(self, parent=None):
        super().__init__(parent, border=None)
        self.setBackground("w")
        self.curves: dict[str, pg.PlotDataItem] = {}
        self.airport_markers: dict[str, pg.PlotDataItem] = {}
        self.airport_labels: dict[str, pg.TextItem] = {}
        self.budget_line: pg.InfiniteLine | None = None
        self._x_span: tuple[float, float] | None = None  # log10 n of the points, for _frame_x
        self.plot_item = item = pg.PlotItem(
            axisItems={"bottom": PlainLogAxis("bottom"), "left": PlainLogAxis("left")})
        self.addItem(item, row=0, col=0)
        item.setLogMode(x=True, y=True)
        item.getViewBox().sigResized.connect(self._frame_x)  # pixels per decade change
        item.showGrid(x=True, y=True, alpha=0.25)
        font = QFont()
        font.setPointSize(10)
        for side in ("left", "bottom"):
            axis = item.getAxis(side)
            axis.setPen(pg.mkPen("#444"))
            axis.setTextPen(pg.mkPen("#222"))
            axis.setTickFont(font)
        item.setLabel("bottom", "vertices n (log scale)", color="#222", size="11pt")
        item.setLabel("left", "solve time, median (ms, log scale)", color="#222", size="11pt")
        # The legend sits beside the plot (under it in a narrow view), never over a curve or
        # the budget label.
        self.legend = pg.LegendItem(labelTextColor="#222", labelTextSize="10pt")
        self.legend.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)
        self.legend_below = False
        self.addItem(self.legend, row=0, col=1)
        self.ci.layout.setAlignment(self.legend, Qt.AlignmentFlag.AlignTop)
        self.ci.layout.setColumnStretchFactor(0, 1)
        self.setTitle("")

    def getPlotItem(self) -> pg.PlotItem:  # noqa: N802 (pyqtgraph naming)
        return self.plot_item

    def setTitle(self, text: str) -> None:  # noqa: N802 (Qt naming)
        self._title = text
        self._fit_layout()

    def title(self) -> str:
        return self._title

    def _fit_layout(self) -> None:
        """The legend beside the plot where the view is wide enough for both, else under it
        (``_place_legend``); the title on one line where it fits, else broken before its
        " on <machine>", and if that is still too wide, after each "; " of the machine too.
        Items wider than the view would be cut off at its right edge."""
        below = self.width() < LEGEND_BESIDE_MIN_WIDTH
        self._place_legend(below)
        room = self.width() - (0 if below else self._legend_width()) - TITLE_MARGIN
        broken = self._title.replace(" on ", "<br>on ", 1)
        for text in (self._title, broken, broken.replace("; ", ";<br>")):
            self.plot_item.setTitle(text, color="#222", size="12pt")
            if self.plot_item.titleLabel.effectiveSizeHint(Qt.SizeHint.MinimumSize).width() <= room:
                break
        # pyqtgraph gives the title a row 30 px high: two or three lines would overflow it,
        # up to the view's top edge.
        height = self.plot_item.titleLabel.itemRect().height() + TITLE_PAD
        self.plot_item.titleLabel.setMaximumHeight(height)
        self.plot_item.layout.setRowFixedHeight(0, height)
        self.plot_item.updateGeometry()  # drop the cached minimum sizes (the plot's, then the
        self.ci.updateGeometry()         # layout's) that the view's next layout clamps to

    def _place_legend(self, below: bool) -> None:
        """The legend in one column beside the plot, or under it in as many as fit the view."""
        if below != self.legend_below:
            self.legend_below = below
            self.ci.removeItem(self.legend)
            self.addItem(self.legend, row=1 if below else 0, col=0 if below else 1)
            self.ci.layout.setAlignment(self.legend, Qt.AlignmentFlag.AlignHCenter if below
                                        else Qt.AlignmentFlag.AlignTop)
        for columns in range(len(self.legend.items) if below else 1, 0, -1):
            self.legend.setColumnCount(columns)
            self.legend.updateGeometry()
            if self._legend_width() <= self.width() - LEGEND_MARGIN:
                break

    def _legend_width(self) -> float:
        return self.legend.effectiveSizeHint(Qt.SizeHint.PreferredSize).width()

    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt naming)
        if self._title is not None:  # None: still being built
            self._fit_layout()
        super().resizeEvent(event)  # lays the items out in the view, at least their minimum size

    def clear_points(self) -> None:
        item = self.getPlotItem()
        for shown in (*self.curves.values(), *self.airport_markers.values(),
                      *self.airport_labels.values()):
            item.removeItem(shown)
        self.curves.clear()
        self.airport_markers.clear()
        self.airport_labels.clear()
        self.legend.clear()
        if self.budget_line is not None:
            item.removeItem(self.budget_line)
            self.budget_line = None

    def show_points(self, points: list, budget_s: float, title: str, ladder_of: Callable,
                    order: list[str] = ()) -> None:
        """One curve per variant and ladder (``ladder_of(point)``: its ladder's name, None for
        an airport's marker), variants in ``order`` (others after, by name)."""
        self.clear_points()
        self.setTitle(title)
        order = list(order)
        names = sorted({p.variant for p in points},
                       key=lambda v: (order.index(v) if v in order else len(order), v))
        ladders = list(dict.fromkeys(ladder_of(p) for p in points if ladder_of(p)))
        at_airports = [p for p in points if not ladder_of(p)]
        several = len(ladders) > 1
        for vi, variant in enumerate(names):
            colour, symbol = PALETTE[vi % len(PALETTE)], MARKERS[vi % len(MARKERS)]
            curved = False   # a ladder curve names the variant's colour and symbol in the legend
            for gi, graph in enumerate(ladders):
                pts = sorted((p for p in points if p.variant == variant
                              and ladder_of(p) == graph), key=lambda p: p.n)
                if not pts:
                    continue
                label = f"{variant} · {graph}" if several else variant
                pen = pg.mkPen(colour, width=2, style=GRAPH_STYLES[gi % len(GRAPH_STYLES)])
                curve = pg.PlotDataItem([p.n for p in pts], [_ms(p) for p in pts],
                                        pen=pen, symbol=symbol, symbolSize=8,
                                        symbolBrush=colour, symbolPen=pg.mkPen("w", width=1),
                                        name=label)
                self.plot_item.addItem(curve)
                self.legend.addItem(curve, label)
                self.curves[label] = curve
                curved = True
            mine = [p for p in at_airports if p.variant == variant]
            if mine:
                markers = pg.PlotDataItem([p.n for p in mine], [_ms(p) for p in mine],
                                          pen=None, symbol=symbol, symbolSize=9,
                                          symbolBrush="w", symbolPen=pg.mkPen(colour, width=2))
                self.plot_item.addItem(markers)
                self.airport_markers[variant] = markers
                if not curved:   # airports only (SSSP's plot): the legend names its marker
                    self.legend.addItem(markers, variant)
        self._name_airports(at_airports)
        self._tick_at_sizes(points)
        budget_ms = 1e3 * budget_s
        paper = " (the paper's question)" if math.isclose(budget_s, 2.0) else ""
        # In log mode the view is in log10 units: the line sits at log10(ms).
        self.budget_line = pg.InfiniteLine(
            pos=math.log10(budget_ms), angle=0, movable=False,
            pen=pg.mkPen("#C00000", width=2, style=Qt.PenStyle.DashLine),
            label=f"{budget_s:g} s budget{paper}",
            labelOpts={"position": 0.02, "color": "#C00000", "anchors": [(0, 1), (0, 1)],
                       "fill": pg.mkBrush(255, 255, 255, 200)})
        self.plot_item.addItem(self.budget_line)
        self._fit(points, budget_ms, at_airports)
        self._fit_layout()  # the legend's width is known now; lay the items out again
        self.setRange(self.range, padding=0, disableAutoPixel=False)

    def _name_airports(self, points: list) -> None:
        """One legend entry for every airport marker; each airport's name under its markers."""
        if not points:
            return
        # Drawn by the legend only: a scatter item keeps its symbol with no data (an empty
        # PlotDataItem would not).
        sample = pg.ScatterPlotItem(symbol="o", size=9, brush="w", pen=pg.mkPen("#555", width=2))
        self.legend.addItem(sample, AIRPORTS_LEGEND)
        for airport in dict.fromkeys(p.graph for p in points):
            at = [p for p in points if p.graph == airport]
            label = pg.TextItem(airport, color="#333", anchor=(0.5, 0.0),
                                fill=pg.mkBrush(255, 255, 255, 200))
            # Log mode: the view is in log10 units. Just below the fastest variant's marker.
            label.setPos(math.log10(at[0].n), _label_y(at))
            self.plot_item.addItem(label)
            self.airport_labels[airport] = label

    def _tick_at_sizes(self, points: list) -> None:
        """Tick the vertex axis at the sizes measured, when they are few enough to read (the
        axis leaves off the labels that would overlap)."""
        sizes = sorted({p.n for p in points if p.n > 0})
        axis = self.plot_item.getAxis("bottom")
        if 0 < len(sizes) <= 12:
            axis.setTicks([[(math.log10(n), plain(n)) for n in sizes], []])
        else:
            axis.setTicks(None)

    def _fit(self, points: list, budget_ms: float, at_airports: list) -> None:
        """Frame the points and the budget line (log10 view units), with a margin."""
        self._x_span = None
        if not points:
            self.getPlotItem().getViewBox().setRange(
                xRange=(1, 4.5), yRange=(-2, math.log10(budget_ms) + 0.5), padding=0)
            return
        xs = [math.log10(max(p.n, 1)) for p in points]
        ys = [math.log10(_ms(p)) for p in points] + [math.log10(budget_ms)]
        airports = {p.graph for p in at_airports}
        # An airport's name hangs under its markers: leave room for a line of text.
        low = min([min(ys) - 0.3] + [_label_y([p for p in points if p.graph == a]) - 0.4
                                     for a in airports])
        self.getPlotItem().getViewBox().setYRange(low, max(ys) + 0.35, padding=0)
        self._x_span = (min(xs), max(xs))
        self._frame_x()

    def _frame_x(self) -> None:
        """The x range: the points with X_PAD decades beside them, and room in pixels as well
        for half the size's tick label and half any airport's name centred on the leftmost
        (rightmost) point, so that the view's edge clips neither. Set again whenever the view
        is resized."""
        if self._x_span is None:
            return
        lo, hi = self._x_span
        ticks = QFontMetricsF(self.plot_item.getAxis("bottom").style["tickFont"])

        def overhang(x: float) -> float:  # px
            widths = [label.boundingRect().width() for label in self.airport_labels.values()
                      if math.isclose(label.pos().x(), x)]
            return max(widths + [ticks.horizontalAdvance(plain(10 ** x))]) / 2 + EDGE_GAP

        left, right = overhang(lo), overhang(hi)
        width = self.getPlotItem().getViewBox().width()
        per_px = (hi - lo + 2 * X_PAD) / max(width - left - right, width / 2, 1)  # decades
        self.getPlotItem().getViewBox().setXRange(lo - X_PAD - left * per_px,
                                                  hi + X_PAD + right * per_px, padding=0)
