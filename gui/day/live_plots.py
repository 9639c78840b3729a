"""Live plots beside the map: each variant's time per recompute (Floyd–Warshall, or SSSP when the
route engine solves from the tugs), and the KPIs.

Timing: one curve per variant against the recompute number, log-scale milliseconds, the last
``WINDOW`` recomputes; the legend gives each variant's current and median time, and the y range
leaves it room above the curves. In race mode
every variant solves the same recomputes, so the curves line up point for point; at high speed a
recompute may be replaced by a newer one before it races, and the title says how many of the
recomputes shown raced.
KPIs: misconnected bags per 1,000 (MBR), bags delivered on time, waiting and misconnected,
against simulated hours, in four small panels (their scales differ by orders of magnitude).

Both take data as fast as the simulation gives it but redraw at most every ``REDRAW_S`` of wall
time, when the live day says the moment is quiet — just after the map has painted a step, so their
redraw and repaint never share a frame with new routes — or ``IDLE_MS`` after new data if no such
moment comes (``flush`` draws at once); their axes move in whole steps (hours, 1-2-5 ceilings,
half decades): a redraw of an axis is the costliest part of painting a plot, and at 600× new
data arrives several times a second.
"""

from __future__ import annotations

import csv
import math
from collections import deque
from pathlib import Path

import time

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import QGraphicsItem, QWidget

WINDOW = 200            # recomputes kept on the timing plot
REDRAW_S = 0.5          # wall seconds between two redraws of a plot while data streams in
IDLE_MS = 600           # new data waits at most this long for a quiet moment (paused, slow speeds)
BACKGROUND = "w"
AXIS = "#495057"
VARIANT_COLORS = {
    "cpu-linear": "#868e96", "cpu-blocked": "#1c7ed6", "gpu-linear": "#f08c00",
    "gpu-coalesced": "#e8590c", "gpu-shared": "#c2255c", "gpu-blocked": "#2f9e44",
    "gpu-fast": "#7048e8",
}
EXTRA_COLORS = ("#0b7285", "#5c940d", "#862e9c", "#a61e4d")
LEGEND_ROW_PX, LEGEND_PAD_PX = 18, 22   # the timing legend's height before it is laid out:
                                        # per entry, and its margins and offset
LEGEND_ONE_COLUMN = 3                   # more variants than this: the legend in two columns
LEGEND_SHARE = 0.5                      # the legend's room is at most half the plot's height


def _ms(seconds: float) -> str:
    ms = seconds * 1000.0
    if not math.isfinite(ms):
        return "—"
    if ms >= 100:
        return f"{ms:.0f} ms"
    if ms >= 1:
        return f"{ms:.2f} ms"
    return f"{ms * 1000:.0f} µs"


def _style_plot(plot) -> None:
    for side in ("left", "bottom"):
        ax = plot.getAxis(side)
        ax.enableAutoSIPrefix(False)    # no "(x0.001)": the values are what the label says
        ax.setPen(pg.mkPen("#adb5bd"))
        ax.setTextPen(pg.mkPen(AXIS))
        ax.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)  # repainted on range change
    plot.showGrid(x=True, y=True, alpha=0.18)
    plot.setMenuEnabled(False)
    plot.hideButtons()


def nice_ceiling(value: float) -> float:
    """The first of 1, 2, 5 × 10^k at or above ``value`` (at least 1)."""
    if not value > 1:
        return 1.0
    magnitude = 10.0 ** math.floor(math.log10(value))
    return next(m * magnitude for m in (1, 2, 5, 10) if m * magnitude >= value)


class Throttle:
    """Calls ``draw`` for new data, never within the call that brought it: at a quiet moment
    (``draw_if_due``) once ``REDRAW_S`` has passed since it last ran, or ``IDLE_MS`` after the
    data came if no quiet moment draws it first."""

    def __init__(self, parent, draw):
        self.draw = draw
        self.dirty = False
        self.last = -1e9
        self.timer = QTimer(parent)
        self.timer.setSingleShot(True)
        self.timer.timeout.connect(self.flush)

    def request(self) -> None:
        self.dirty = True
        if not self.timer.isActive():
            self.timer.start(IDLE_MS)

    def draw_if_due(self) -> bool:
        """A quiet moment: draw if there is new data and ``REDRAW_S`` has passed; True if so."""
        if self.dirty and time.perf_counter() - self.last >= REDRAW_S:
            self.flush()
            return True
        return False

    def flush(self) -> None:
        self.timer.stop()
        if self.dirty:
            self.dirty = False
            self.last = time.perf_counter()
            self.draw()


class LogMsAxis(pg.AxisItem):
    """A y axis for log10(milliseconds): ticks at 1, 2 and 5 of each decade, labelled in plain
    milliseconds (0.01, 0.1, 1, 10), none above ``top`` (the room kept for the legend is not a
    range of times)."""

    top = math.inf

    def tickValues(self, minVal, maxVal, size):
        maxVal = min(maxVal, self.top)
        if not (math.isfinite(minVal) and math.isfinite(maxVal)) or maxVal <= minVal:
            return []
        lo, hi = math.floor(minVal), math.ceil(maxVal)
        if hi - lo > 8:
            return [(None, [float(k) for k in range(lo, hi + 1, 2) if minVal <= k <= maxVal])]
        for steps in ((1,), (1, 2, 5), (1, 2, 3, 4, 5, 6, 7, 8, 9)):
            if hi - lo > 3 and len(steps) > 1:
                break
            ticks = [math.log10(m) + k for k in range(lo, hi + 1) for m in steps]
            ticks = [v for v in ticks if minVal <= v <= maxVal]
            if len(ticks) >= 3:
                break
        return [(None, ticks)]

    def tickStrings(self, values, scale, spacing):
        return [f"{float(f'{10.0 ** v:.2g}'):,g}" for v in values]


class TimingPlot(pg.PlotWidget):
    """Milliseconds per all-pairs recompute, one curve per variant, rolling window. The curves
    hold log10(ms); ``LogMsAxis`` labels them in plain milliseconds."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent, background=BACKGROUND, axisItems={"left": LogMsAxis("left")})
        self.plot = self.getPlotItem()
        _style_plot(self.plot)
        self.plot.setLabel("left", "solve time, ms (log scale)")
        self.plot.setLabel("bottom", "recompute #")
        self.legend = self.plot.addLegend(offset=(8, 6), labelTextColor="#212529",
                                          brush=pg.mkBrush(255, 255, 255, 225),
                                          pen=pg.mkPen("#ced4da"), labelTextSize="8.5pt",
                                          verSpacing=-6, horSpacing=6)
        self.device = ""
        self.graph = ""
        self.family = "Floyd–Warshall"
        self.rows: list = []                       # every Timing this run (for CSV)
        self.race_rounds: dict[int, bool] = {}     # race mode's recomputes: raced or replaced
        self._race_note = ""
        self.data: dict[str, deque] = {}
        self.curves: dict[str, pg.PlotDataItem] = {}
        self.throttle = Throttle(self, self.redraw)
        self._y_range = None
        self._set_title()
        self._empty_view()

    def _empty_view(self) -> None:
        self.legend.setVisible(False)
        self.plot.setXRange(0, 10, padding=0.02)
        self.plot.setYRange(-1.2, 1.2, padding=0)   # 0.1 ms to 10 ms until the first recompute

    def reset(self, device: str = "", graph: str = "") -> None:
        for curve in self.curves.values():
            self.plot.removeItem(curve)
        self.legend.clear()
        self.curves, self.data, self.rows, self.race_rounds = {}, {}, [], {}
        self.throttle.dirty, self._y_range, self._race_note = False, None, ""
        self.plot.getAxis("left").top = math.inf
        self.device, self.graph = device or self.device, graph
        self._set_title()
        self._empty_view()

    def set_device(self, device: str) -> None:
        self.device = device
        self._set_title()

    def set_graph(self, graph: str) -> None:
        self.graph = graph
        self._set_title()

    def set_family(self, family: str) -> None:
        """Whose solve times these are: "Floyd–Warshall" or "SSSP from the tugs"."""
        self.family = family
        self._set_title()

    def _set_title(self) -> None:
        sub = " · ".join(p for p in (self.graph, self.device, self._race_note) if p)
        title = f"<b>{self.family} time per recompute</b>"
        if sub:
            title += f"<br><span style='font-size:8.5pt; color:#495057'>{sub}</span>"
        self.plot.setTitle(title, color="#212529", size="10pt")

    def add(self, timings) -> None:
        fresh = False
        for t in timings:
            self.rows.append(t)
            if not (t.seconds > 0 and math.isfinite(t.seconds)):
                continue
            self.data.setdefault(t.variant, deque(maxlen=WINDOW)).append((t.round, t.seconds))
            fresh = True
        if fresh:
            self.throttle.request()

    def add_race(self, round_: int, timings) -> None:
        """Race mode's outcome for recompute ``round_``: the raced variants' timings, or none
        when a newer recompute replaced it before it raced."""
        self.race_rounds[round_] = bool(timings)
        self.add(timings)
        self.throttle.request()

    def race_summary(self) -> tuple[int, int] | None:
        """(raced, of) race mode's recomputes among the last ``WINDOW``; None if none."""
        if not self.race_rounds:
            return None
        latest = max(self.race_rounds)
        shown = [raced for r, raced in self.race_rounds.items() if r > latest - WINDOW]
        return sum(shown), len(shown)

    def race_note(self) -> str:
        """"raced 12 of 40 recomputes" (the last ``WINDOW``), "" outside race mode."""
        summary = self.race_summary()
        if summary is None:
            return ""
        raced, of = summary
        return f"raced {raced} of {of} recomputes"

    def flush(self) -> None:
        """Draw what arrived since the last redraw now (e.g. on pause)."""
        self.throttle.flush()

    def variants_seen(self) -> list[str]:
        return sorted(self.data)

    def stats(self, variant: str) -> tuple[float, float]:
        """(latest, median) seconds of ``variant`` over the window."""
        values = [s for _, s in self.data[variant]]
        return values[-1], float(np.median(values))

    def redraw(self) -> None:
        note = self.race_note()
        if note != self._race_note:
            self._race_note = note
            self._set_title()
        self.legend.setVisible(bool(self.data))
        latest_round = max((d[-1][0] for d in self.data.values() if d), default=0)
        hi = max(10, math.ceil((latest_round + 1) / 20) * 20)    # moves in steps of 20
        self.plot.setXRange(max(0, hi - WINDOW), hi, padding=0.02)
        logs = [math.log10(s * 1000.0) for d in self.data.values() for r, s in d
                if r > latest_round - WINDOW]
        for name in sorted(self.data, key=lambda v: list(VARIANT_COLORS).index(v)
                           if v in VARIANT_COLORS else 99):
            d = [p for p in self.data[name] if p[0] > latest_round - WINDOW]
            if not d:
                continue
            x = np.array([p[0] for p in d], dtype=float)
            y = np.log10(np.array([p[1] for p in d], dtype=float) * 1000.0)
            cur, med = self.stats(name)
            label = f"{name} {_ms(cur)} (median {_ms(med)})"
            if name not in self.curves:
                color = VARIANT_COLORS.get(name, EXTRA_COLORS[len(self.curves) % len(EXTRA_COLORS)])
                curve = pg.PlotDataItem(pen=pg.mkPen(color, width=2), symbol="o", symbolSize=4,
                                        symbolBrush=color, symbolPen=None, name=label)
                self.plot.addItem(curve)
                self.curves[name] = curve
                self.legend.setColumnCount(1 if len(self.curves) <= LEGEND_ONE_COLUMN else 2)
            curve = self.curves[name]
            curve.setData(x, y)
            curve.setSymbol("o" if len(x) <= 60 else None)
            sample = self.legend.getLabel(curve)
            if sample is not None:
                sample.setText(label)
        # half decades, and room for the legend (labelled above): the axis is redrawn only when
        # the times leave them
        if logs:
            lo, hi = math.floor(min(logs) * 2) / 2, math.ceil(max(logs) * 2 + 1e-9) / 2
            y_range = (lo, hi + self._legend_room(hi - lo, len(self.data)))
            if y_range != self._y_range:
                self._y_range = y_range
                self.plot.getAxis("left").top = hi
                self.plot.setYRange(*y_range, padding=0.05)

    def _legend_room(self, span: float, rows: int) -> float:
        """Decades to add above the curves so the legend (``rows`` entries, top left) sits over
        empty plot, not over them: its share of the view's height, at most ``LEGEND_SHARE`` (more
        variants than ``LEGEND_ONE_COLUMN`` take two columns, so it stays low)."""
        height = self.plot.vb.height()
        if height <= 0:
            return 0.0
        rows = rows if rows <= LEGEND_ONE_COLUMN else math.ceil(rows / 2)
        legend = max(LEGEND_ROW_PX * rows + LEGEND_PAD_PX,
                     self.legend.mapRectToParent(self.legend.boundingRect()).bottom() + 8)
        share = min(legend / height, LEGEND_SHARE)
        return math.ceil(2 * max(span, 0.5) * share / (1 - share)) / 2   # whole half decades

    def write_csv(self, path) -> Path:
        path = Path(path)
        with path.open("w", newline="", encoding="utf-8") as fh:
            w = csv.writer(fh)
            w.writerow(["recompute", "sim_t_s", "variant", "ms", "vertices", "raced", "agrees"])
            for t in self.rows:
                w.writerow([t.round, round(t.t, 3), t.variant, round(t.seconds * 1000, 6), t.n,
                            int(t.raced), int(t.agrees)])
        return path


# short titles: with their values they must fit a quarter of the dock at 1280 pixels wide
KPI_PANELS = (
    ("mbr", "MBR per 1,000", "#c92a2a"),
    ("delivered", "On time", "#2f9e44"),
    ("waiting", "Waiting", "#f08c00"),
    ("misconnected", "Misconnected", "#862e9c"),
)
KPI_TIPS = {"mbr": "Misconnected bags per 1,000 bags handled",
            "delivered": "Bags delivered on time (and their share of the bags done)",
            "waiting": "Bags waiting at gates and sort stations",
            "misconnected": "Bags that missed their flight"}
ZERO_ROOM_PX = 9       # the axes start this far before 0: a label cut by the edge is not drawn


class _TitleLabel(pg.LabelItem):
    """A KPI panel's title, whose size does not follow its text: pyqtgraph makes a title's width
    its panel's minimum (a layout wider than its dock is cut off at the dock's edge), and a new
    value in it laid the four panels out again and painted them twice per redraw."""

    def updateMin(self):
        height = self.itemRect().height()
        hint = {Qt.SizeHint.MinimumSize: (0, height), Qt.SizeHint.PreferredSize: (0, height),
                Qt.SizeHint.MaximumSize: (-1, -1), Qt.SizeHint.MinimumDescent: (0, 0)}
        if hint != getattr(self, "_sizeHint", None):
            self._sizeHint = hint
            self.setMinimumSize(0, height)
            super().updateGeometry()

    def updateGeometry(self):
        pass                     # only updateMin, when the height changes


def _title_label(plot) -> None:
    """Give ``plot`` a ``_TitleLabel``."""
    old = plot.titleLabel
    plot.layout.removeItem(old)
    old.setParentItem(None)
    plot.titleLabel = _TitleLabel("", size="11pt", parent=plot)
    plot.layout.addItem(plot.titleLabel, 0, 1)


def _set_title(plot, text: str) -> None:
    plot.setTitle(text, color="#212529", size="9pt")


class KpiPlots(pg.GraphicsLayoutWidget):
    """Four small KPI panels against simulated hours, updated as samples arrive.
    ``drawn(row)``: the KPI sample the panels' titles now show (the dock shows the same one)."""

    drawn = Signal(object)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setBackground(BACKGROUND)
        self.series: list[dict] = []      # the engine's samples (every kpi_every_s)
        self.live: dict | None = None     # the newest snapshot's KPIs (drawn as the last point)
        self.throttle = Throttle(self, self.redraw)
        self.plots, self.curves = {}, {}
        for i, (key, title, color) in enumerate(KPI_PANELS):
            p = self.addPlot(row=i // 2, col=i % 2)
            _style_plot(p)
            _title_label(p)
            _set_title(p, title)
            p.getAxis("left").setWidth(42)
            p.setToolTip(KPI_TIPS[key])
            if i >= 2:
                p.setLabel("bottom", "simulated hours")
            curve = p.plot(pen=pg.mkPen(color, width=2), fillLevel=0,
                           brush=pg.mkBrush(pg.mkColor(color).red(), pg.mkColor(color).green(),
                                            pg.mkColor(color).blue(), 40))
            self.plots[key], self.curves[key] = p, curve
        for key in list(self.plots)[1:]:
            self.plots[key].setXLink(self.plots["mbr"])
        self._show_values(False)

    def _show_values(self, shown: bool) -> None:
        """Tick values only once there is data: an empty panel shows no made-up 0.2–0.8 axes."""
        for p in self.plots.values():
            for side in ("left", "bottom"):
                p.getAxis(side).setStyle(showValues=shown)

    def has_values(self) -> bool:
        return self.plots["mbr"].getAxis("left").style["showValues"]

    def reset(self) -> None:
        self.series, self.live = [], None
        self.throttle.dirty = False
        for key, title, _ in KPI_PANELS:
            self.curves[key].setData([], [])
            _set_title(self.plots[key], title)
        self._show_values(False)

    def add(self, series: list[dict], live: dict | None) -> None:
        self.series.extend(series)
        self.live = live
        self.throttle.request()

    def flush(self) -> None:
        """Draw what arrived since the last redraw now (e.g. on pause)."""
        self.throttle.flush()

    def redraw(self) -> None:
        rows = list(self.series)
        live = self.live
        if live is not None and (not rows or live["t"] > rows[-1]["t"]):
            rows.append(live)
        if not rows or rows[-1]["t"] <= 0:    # 00:00: nothing to draw yet
            return
        if not self.has_values():            # (setting it again would repaint every axis)
            self._show_values(True)
        t = np.array([r["t"] for r in rows], dtype=float) / 3600.0
        for key, title, _ in KPI_PANELS:
            y = np.array([r[key] for r in rows], dtype=float)
            self.curves[key].setData(t, y)
            # counts get whole-number ticks (0 misconnected bags: 0 to 5, not 0.2 … 0.8)
            top = nice_ceiling(max(float(y.max()) * 1.12, 1.0 if key == "mbr" else 5.0))
            vb = self.plots[key].vb
            self.plots[key].setYRange(-top * ZERO_ROOM_PX / max(vb.height(), 40.0), top,
                                      padding=0)
            end = max(1, math.ceil(float(t[-1])))
            self.plots[key].setXRange(-end * ZERO_ROOM_PX / max(vb.width(), 40.0), end * 1.02,
                                      padding=0)
            now = y[-1]
            value = f"{now:.1f}" if key == "mbr" else f"{int(now):,}"
            if key == "delivered" and rows[-1]["created"]:
                done = rows[-1]["delivered"] + rows[-1]["misconnected"]
                if done:
                    value += f" ({100.0 * rows[-1]['delivered'] / done:.1f}%)"
            _set_title(self.plots[key], f"{title}: <b>{value}</b>")
        self.drawn.emit(rows[-1])

    def write_csv(self, path) -> Path:
        from engine.sim.kpi import SERIES_FIELDS
        path = Path(path)
        rows = list(self.series)
        if self.live is not None and (not rows or self.live["t"] > rows[-1]["t"]):
            rows.append(self.live)
        with path.open("w", newline="", encoding="utf-8") as fh:
            w = csv.writer(fh)
            w.writerow(SERIES_FIELDS)
            for r in rows:
                w.writerow([r.get(k, "") for k in SERIES_FIELDS])
        return path
