"""The live layer over the airport map: tugs, the bags waiting at each node, the selected tug.

Per animation frame only the tugs' positions change (one ``setData`` on one scatter item and,
when a tug is selected, on its ring); bags, colours and routes change when a simulation result
arrives, a few times a second.
"""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QGraphicsItem

from engine.sim.tugs import DRIVING, HANDLING, IDLE

from .style import MapScatter

TUG_COLORS = {DRIVING: "#0b7285", HANDLING: "#d6336c", IDLE: "#868e96"}
TUG_LABELS = {DRIVING: "Tug driving", HANDLING: "Tug loading/unloading", IDLE: "Tug idle"}
SELECTED = "#3b5bdb"          # indigo: apart from the route finder's orange
ROUTE_CASING = "#ffffff"
OTHER_ROUTES = (11, 114, 133, 110)     # faint teal: every driving tug's route on small fleets
ALL_ROUTES_UP_TO = 16                 # tugs: beyond this many, only the selected tug's route
BAG_BANDS = ((1, "#ffd43b", "1–4 bags waiting"), (5, "#ff922b", "5–14 bags waiting"),
             (15, "#e03131", "15+ bags waiting"))
PICK_TOLERANCE_PX = 12
LANE_ROOM = 0.015             # of the airport's span: the tugs' bounds beyond its nodes


def bag_color(count: int) -> str:
    color = BAG_BANDS[0][1]
    for lo, c, _ in BAG_BANDS:
        if count >= lo:
            color = c
    return color


class TugLayer:
    """Draws one simulation on an ``AirportMapView``; ``select(tug)`` highlights one tug."""

    def __init__(self, map_view):
        self.view = map_view
        self.items: list = []
        self.xy: np.ndarray | None = None      # node positions
        self.positions = np.zeros((0, 2))      # tugs, as last drawn
        self.selected: int | None = None
        self.result = None
        self.dense = False
        self._leg = None            # (path, times) of the selected tug's current leg
        self.leg_source = None      # (tug, t) -> (path, times) | None: the leg drawn at t
        self._static_bags = False
        self._style_dirty = True
        self._clock = 0.0
        self.remaining: list[int] = []
        self._brushes = {k: pg.mkBrush(c) for k, c in TUG_COLORS.items()}
        self._brush_of = np.empty(max(TUG_COLORS) + 1, dtype=object)   # by activity
        for k, brush in self._brushes.items():
            self._brush_of[k] = brush
        self._sizes = np.zeros(0)
        self._activity = np.zeros(0, dtype=np.int64)
        self._drawn = (self._sizes, self._activity)
        self._tug_pen = pg.mkPen("w", width=1.5)
        self.tugs = self.ring = self.bags = None
        self.route_line = self.route_casing = self.others = None
        self._bag_brushes = {c: pg.mkBrush(QColorA(c, 200)) for _, c, _ in BAG_BANDS}

    # -- building -------------------------------------------------------------------------------
    def set_airport(self, airport) -> None:
        """New airport: drop every live item and make fresh ones (no tugs until the first result)."""
        self.clear()
        # The file's starting bags stay drawn (badges) until the day starts; then live counts.
        self.view.set_bags(airport.bags)
        self._static_bags = True
        self.xy = np.array([[n.x, n.y] for n in airport.nodes], dtype=float)
        lo, hi = self.xy.min(axis=0), self.xy.max(axis=0)
        # lanes are drawn off the centre line (1.2% of the span, map_view); more would reach
        # under the legend, which the tugs' repaint each frame would then draw again
        pad = LANE_ROOM * max(float((hi - lo).max()), 1.0)
        self._extent = [(lo[0] - pad, hi[0] + pad), (lo[1] - pad, hi[1] + pad)]
        self.dense = len(airport.nodes) > 300
        self.selected = None
        self.result = None
        self.positions = np.zeros((0, 2))
        self.bags = self._add(MapScatter(pen=pg.mkPen(None)), 4)
        self.bags.setCacheMode(CACHE)          # changes per result, not per frame
        self.others = self._add(pg.PlotDataItem(connect="pairs", pen=pg.mkPen(
            color=OTHER_ROUTES, width=3)), 3)
        self.others.curve.setCacheMode(CACHE)
        # plain curves: the selected route is trimmed every frame (a PlotDataItem's setData costs
        # twenty times a curve's)
        self.route_casing = self._add(pg.PlotCurveItem(pen=pg.mkPen(ROUTE_CASING, width=10)), 9.6)
        self.route_line = self._add(pg.PlotCurveItem(pen=pg.mkPen(
            SELECTED, width=5, cap=Qt.PenCapStyle.RoundCap, join=Qt.PenJoinStyle.RoundJoin)), 9.7)
        self.tugs = self._add(MapScatter(symbol="d", pen=self._tug_pen), 20)
        self.tugs.extent = self._extent     # tugs stay on the airport: no bounds to redo per frame
        self.ring = self._add(MapScatter(symbol="o", size=30, brush=pg.mkBrush(None),
                                         pen=pg.mkPen(SELECTED, width=3.5)), 21)
        self.ring.extent = self._extent     # moved in place every frame, like the tugs
        legend = self.view._legend
        if legend is not None:
            for activity in (DRIVING, HANDLING, IDLE):
                legend.addItem(pg.ScatterPlotItem(symbol="d", size=12, pen=self._tug_pen,
                                                  brush=self._brushes[activity]),
                               TUG_LABELS[activity])
            for lo, color, label in BAG_BANDS:
                legend.addItem(pg.ScatterPlotItem(symbol="o", size=8 + 3 * math.sqrt(lo),
                                                  pen=pg.mkPen(None),
                                                  brush=self._bag_brushes[color]), label)
            legend.addItem(pg.PlotDataItem(pen=pg.mkPen(SELECTED, width=5)), "Selected tug's route")
            self._relayout_legend()

    def _relayout_legend(self) -> None:
        """Two columns, packed again after entries come and go."""
        legend = self.view._legend
        if legend is not None:
            entries = [(sample.item, label.text) for sample, label in legend.items]
            legend.clear()
            while legend.layout.count():
                legend.layout.removeAt(0)
            for r in range(legend.layout.rowCount()):
                legend.layout.setRowFixedHeight(r, 0)
            legend.columnCount, legend.rowCount = 2, 1
            for item, text in entries:
                legend.addItem(item, text)
            for r in range(legend.layout.rowCount()):
                legend.layout.setRowMinimumHeight(r, 0)
                legend.layout.setRowMaximumHeight(r, 1e6)
            legend.layout.invalidate()
            legend.updateSize()
            _cache_tree(legend)      # static between results: not repainted every frame

    def clear(self) -> None:
        for it in self.items:
            self.view.removeItem(it)
        self.items = []
        legend = self.view._legend
        if legend is not None:
            for label in list(TUG_LABELS.values()) + [b[2] for b in BAG_BANDS] + \
                    ["Selected tug's route"]:
                legend.removeItem(label)

    def _add(self, item, z: float):
        item.setZValue(z)
        self.view.addItem(item)
        self.items.append(item)
        return item

    # -- updates --------------------------------------------------------------------------------
    def show_result(self, result) -> None:
        """A new simulation result: bags per node, tug colours and sizes, routes."""
        if self.tugs is None:
            return
        self.result = result
        snap = result.snapshot
        counts = snap.bags_per_node
        if self._static_bags and snap.t <= 0:
            counts = counts * 0                # still 00:00: the file's badges tell the bags
        else:
            if self._static_bags:
                self.view.set_bags({})
                self._static_bags = False
                self._relayout_legend()
            self.view.live_bags = counts       # node tooltips tell the live count
        at = np.flatnonzero(counts > 0)
        if len(at):
            c = counts[at]
            scale = 3.0 if self.dense else 5.0
            base = 15.0 if self.dense else 26.0      # a halo just wider than the node
            self.bags.setData(x=self.xy[at, 0], y=self.xy[at, 1],
                              size=np.minimum(base + scale * np.sqrt(c), 44.0),
                              brush=[self._bag_brushes[bag_color(int(k))] for k in c],
                              data=at)
        else:
            self.bags.setData(x=[], y=[])
        cap = np.maximum(np.array([t.capacity for t in result.tugs]), 1)
        full = np.clip(snap.load / cap, 0.0, 1.0)
        base = 10.0 if self.dense else 14.0
        # half pixels: a few dozen sizes, so the scatter's symbol atlas stays small
        self._sizes = np.round(2 * (base + (6.0 if self.dense else 8.0) * full)) / 2
        activity = np.asarray(snap.activity)
        self._activity = np.where(np.isin(activity, list(TUG_COLORS)), activity, IDLE)
        self._style_dirty = True
        if self.selected is not None and self.selected >= len(snap.activity):
            self.selected = None
        self._draw_routes()

    def move_tugs(self, xy: np.ndarray, t: float | None = None) -> None:
        """One animation frame: every tug at its interpolated position (simulated time ``t``);
        the selected tug's route shrinks to what is still ahead of it."""
        if self.tugs is None or xy is None or self.result is None:
            return
        xy = xy[: len(self._sizes)]   # a tug added by an edit shows with its first result
        self.positions = xy
        if t is not None:
            self._clock = t
        item = self.tugs
        if len(item.data) == len(xy):
            # update in place (setData rebuilds every spot): the positions, and after a new
            # result the size and colour of the tugs whose load or activity changed; the item's
            # bounds are the airport's (extent), so there is no geometry to redo
            item.data["x"] = xy[:, 0]
            item.data["y"] = xy[:, 1]
            if self._style_dirty:
                self._restyle(item)
            item.update()
        else:
            item.setData(x=xy[:, 0], y=xy[:, 1], size=self._sizes,
                         brush=list(self._brush_of[self._activity]))
            self._drawn = (self._sizes, self._activity)
        self._style_dirty = False
        if self.selected is not None and self.selected < len(xy):
            k = self.selected
            self._place_ring(xy[k])
            if t is not None:
                self._follow_leg(t)
                self._trim_route(xy[k], t)

    def _restyle(self, item) -> None:
        sizes, activity = self._drawn
        changed = (sizes != self._sizes) | (activity != self._activity)
        if changed.any():
            item.data["size"][changed] = self._sizes[changed]
            item.data["brush"][changed] = self._brush_of[self._activity[changed]]
            item.data["sourceRect"][changed] = 0       # their symbols looked up again
            item.updateSpots()
        self._drawn = (self._sizes, self._activity)

    def _place_ring(self, xy) -> None:
        ring = self.ring
        if len(ring.data) == 1:
            ring.data["x"][0], ring.data["y"][0] = xy
            ring.update()
        else:
            ring.setData(x=[xy[0]], y=[xy[1]])

    def _follow_leg(self, t: float) -> None:
        """The selected tug's leg at ``t``, from the frame its position is drawn from."""
        if self.leg_source is None or self.selected is None:
            return
        leg = self.leg_source(self.selected, t)
        if leg is None:
            if self._leg is not None:
                self._leg = None
                self.remaining = []
                self.route_casing.setData([], [])
                self.route_line.setData([], [])
            return
        self._leg = leg

    def _trim_route(self, here: np.ndarray, t: float) -> None:
        leg = self._leg
        if leg is None or len(leg[0]) < 2:
            return
        path, times = leg
        j = int(np.searchsorted(times, t, side="right"))
        if j == 0:
            pts = self.xy[path]                       # not started yet: the whole route
        elif j >= len(path):
            pts = np.empty((0, 2))                    # arrived
        else:
            pts = np.vstack([here, self.xy[path[j:]]])
        self.route_casing.setData(pts[:, 0], pts[:, 1])
        self.route_line.setData(pts[:, 0], pts[:, 1])
        self.remaining = path[j:] if j < len(path) else []
    def select(self, tug: int | None) -> None:
        self.selected = tug
        if tug is None:
            self.ring.setData(x=[], y=[])
        elif len(self.positions) > tug:
            self._place_ring(self.positions[tug])
        self._draw_routes()

    def tug_at(self, x: float, y: float, tolerance_px: float = PICK_TOLERANCE_PX) -> int | None:
        """The tug drawn nearest the data point (x, y), within ``tolerance_px`` pixels."""
        hit = self.nearest_tug(x, y)
        return hit[0] if hit is not None and hit[1] <= tolerance_px else None

    def nearest_tug(self, x: float, y: float) -> tuple[int, float] | None:
        """(tug, distance in screen pixels) of the tug drawn nearest (x, y)."""
        if len(self.positions) == 0:
            return None
        px, py = self.view.getPlotItem().vb.viewPixelSize()
        d = np.hypot((self.positions[:, 0] - x) / (px or 1.0), (self.positions[:, 1] - y) / (py or 1.0))
        k = int(np.argmin(d))
        return k, float(d[k])

    def widget_pos(self, tug: int):
        """Where ``tug`` is drawn, in the map widget's coordinates (for simulated clicks)."""
        from PySide6.QtCore import QPointF
        vb = self.view.getPlotItem().vb
        x, y = self.positions[tug]
        return self.view.mapFromScene(vb.mapViewToScene(QPointF(float(x), float(y))))

    def selected_route(self) -> list[int]:
        """Node indices of the selected tug's current route ([] when it is not driving)."""
        if self.result is None or self.selected is None:
            return []
        if self.leg_source is not None:
            leg = self.leg_source(self.selected, self._clock)
            return [] if leg is None else [int(i) for i in leg[0]]
        return list(self.result.snapshot.routes.get(self.selected, []))

    def _draw_routes(self) -> None:
        if self.result is None:
            return
        routes = self.result.snapshot.routes
        if len(self.result.tugs) <= ALL_ROUTES_UP_TO:
            xs, ys = [], []
            for k, path in routes.items():
                if k == self.selected or len(path) < 2:
                    continue
                p = self.xy[path]
                xs.append(np.repeat(p[:, 0], 2)[1:-1])
                ys.append(np.repeat(p[:, 1], 2)[1:-1])
            if xs:
                self.others.setData(np.concatenate(xs), np.concatenate(ys))
            else:
                self.others.setData([], [])
        path = self.selected_route()
        self._leg = None
        self.remaining = list(path)
        if len(path) >= 2:
            if self.leg_source is not None:
                self._leg = self.leg_source(self.selected, self._clock)
            else:
                times = self.result.frame.leg_times(self.selected)
                if times is not None:
                    self._leg = (np.asarray(path), times)
            p = self.xy[path]
            self.route_casing.setData(p[:, 0], p[:, 1])
            self.route_line.setData(p[:, 0], p[:, 1])
            if self._leg is not None and len(self.positions) > self.selected:
                self._trim_route(self.positions[self.selected], self._clock)
        else:
            self.route_casing.setData([], [])
            self.route_line.setData([], [])


CACHE = QGraphicsItem.CacheMode.DeviceCoordinateCache


def _cache_tree(item) -> None:
    item.setCacheMode(CACHE)
    for child in item.childItems():
        _cache_tree(child)


def QColorA(color: str, alpha: int):
    from PySide6.QtGui import QColor
    c = QColor(color)
    c.setAlpha(alpha)
    return c
