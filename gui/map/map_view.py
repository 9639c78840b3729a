"""The airport map: roads, nodes by kind with names and waiting bags, and a highlighted route.

A pyqtgraph plot with a locked aspect ratio (metres on both axes): drag to pan, wheel to zoom,
``fit()`` to frame the whole airport. Clicking near a node emits ``nodeClicked(node_id)``; the
window decides what a click means (From, then To).
"""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QPoint, QPointF, Qt, QTimer, Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QGraphicsItem, QWidget

from .framing import _clear_of, fit_scale_bar, scale_bar
from .style import (BACKGROUND, BAG_FILL, BAG_TEXT, FROM_RING, KIND_STYLES, NAME_TEXT,
                    ONE_WAY_ARROW, ROAD, ROAD_LABEL, ROUTE, ROUTE_CASING, ROUTE_DARK, TO_RING,
                    MapScatter, arrow_symbol)

ROAD_LABELS_UP_TO = 60      # roads: beyond this many, travel times on roads would be clutter
NAME_LABELS_UP_TO = 400     # nodes: beyond this many, names shown by zoom (ZOOM_LABELS_UP_TO)
ZOOM_LABELS_UP_TO = 60      # named nodes in view: at most this many get their name drawn
DENSE_NODES = 300           # beyond this many nodes, smaller symbols (issue 5: by zoom)
BADGE_WORDS_UP_TO = 12      # nodes with bags: beyond this many, badges show the number only
# The layout file's bag counts (what the route finder's bag-aware cost uses), not the live day's.
LAYOUT_BAGS = "Layout's bags (route cost)"
ROUTE_LEGEND = "Route finder's route"  # its legend entry (windows without routes drop it)
BADGES_UP_TO = 80           # nodes with bags: beyond this many, halos only
PICK_TOLERANCE_PX = 16
ARROW_AT = 0.64             # arrow heads sit past the middle of a road; its label sits at the middle
SCALE_BAR_PX = 44           # the band at the bottom the scale bar takes, kept clear by fit()
KEEP_IN_VIEW = 0.1          # keep_in_view: a point nearer the edge than this share re-centres



class AirportMapView(pg.PlotWidget):
    """Draws one airport; ``set_route`` highlights a route, ``set_endpoints`` marks From/To."""

    nodeClicked = Signal(str)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent, background=BACKGROUND)
        self.airport = None
        self._pos: dict[str, tuple[float, float]] = {}
        self._lanes: dict[tuple[str, str], tuple[np.ndarray, np.ndarray]] = {}
        self._items: list = []
        self._bag_items: list = []
        self._route_items: list = []
        self._endpoint_item = None
        self._route: list[str] = []
        self._endpoints: tuple[str | None, str | None] = (None, None)
        self._legend = None
        self._scale_bar = None
        self._route_shown = True
        self._auto_fit = True      # refit on resize until the user pans or zooms
        self.click_filter = None   # (x, y) -> True when an overlay took the click
        self.live_bags = None      # waiting bags per node (node order) of a running simulation
        self.route_tips = True     # a node's tip tells its bags and that a click picks From/To
        self.road_text = travel_time_label  # what a road's label says (small airports only)
        self._zoom_labels: dict[str, pg.TextItem] = {}
        self._zoom_timer = QTimer(self)
        self._zoom_timer.setSingleShot(True)
        self._zoom_timer.setInterval(80)
        self._zoom_timer.timeout.connect(self._update_zoom_labels)
        self._refit_timer = QTimer(self)
        self._refit_timer.setSingleShot(True)
        self._refit_timer.setInterval(0)
        self._refit_timer.timeout.connect(
            lambda: self._auto_fit and self._pos and self.fit(clear_of_legend=True))
        self.getPlotItem().vb.sigRangeChanged.connect(lambda *_: self._zoom_timer.start())
        self.getPlotItem().vb.sigRangeChangedManually.connect(self._stop_auto_fit)

        item = self.getPlotItem()
        item.hideAxis("left")
        item.hideAxis("bottom")
        item.setMenuEnabled(False)
        item.hideButtons()
        self.setAspectLocked(True)
        self.setAntialiasing(True)
        self.scene().sigMouseClicked.connect(self._on_scene_clicked)

    # -- the airport ------------------------------------------------------------------------

    def set_airport(self, airport) -> None:
        """Draw ``airport`` from scratch (roads, nodes, names, bags) and fit it in view."""
        self.clear_route()
        for it in self._items + self._bag_items:
            self.removeItem(it)
        self._items, self._bag_items = [], []
        for overlay in (self._legend, self._scale_bar):  # parented to the view box, not plotted
            if overlay is not None and overlay.scene() is not None:
                overlay.scene().removeItem(overlay)
        self._legend = self._scale_bar = None
        for label in self._zoom_labels.values():
            self.removeItem(label)
        self._zoom_labels = {}

        self.airport = airport
        self.live_bags = None
        self._pos = {n.id: (float(n.x), float(n.y)) for n in airport.nodes}
        self._lanes = self._lane_geometry(airport)
        self._legend = pg.LegendItem(offset=(-12, 12), labelTextColor=NAME_TEXT,
                                     brush=pg.mkBrush(255, 255, 255, 220),
                                     pen=pg.mkPen("#ced4da"), labelTextSize="9pt",
                                     verSpacing=-4)
        self._legend.setParentItem(self.getPlotItem().vb)
        self._legend.geometryChanged.connect(self._refit_soon)   # entries come and go
        self._draw_roads(airport)
        self._draw_nodes(airport)
        self._draw_bags(airport.bags)
        self._legend.addItem(pg.PlotDataItem(pen=pg.mkPen(ROUTE, width=5)), ROUTE_LEGEND)
        self._scale_bar = scale_bar(self.getPlotItem().vb, self._pos.values())
        self.fit()
        self._refit_soon()   # clear of the legend once the layers' entries are in

    def _update_zoom_labels(self) -> None:
        """Large airports: name the gates, sort stations and depots only once few are in view.
        Every airport: the scale bar keeps about a fifth of the view's width."""
        fit_scale_bar(self._scale_bar, self.getPlotItem().vb.viewRect().width())
        a = self.airport
        if a is None or len(a.nodes) <= NAME_LABELS_UP_TO:
            return
        rect = self.getPlotItem().vb.viewRect()
        inside = [n for n in a.nodes if n.kind != "junction" and rect.contains(n.x, n.y)]
        show = {n.id for n in inside} if len(inside) <= ZOOM_LABELS_UP_TO else set()
        for node_id, label in self._zoom_labels.items():
            label.setVisible(node_id in show)
        if show:
            font = QFont()
            font.setPointSizeF(8)
            font.setBold(True)
            for n in inside:
                if n.id not in self._zoom_labels:
                    label = pg.TextItem(n.name, color=NAME_TEXT, anchor=(0.5, -0.45),
                                        fill=pg.mkBrush(246, 247, 249, 170))
                    label.setFont(font)
                    label.setPos(n.x, n.y)
                    label.setZValue(11)
                    self.addItem(label)
                    self._zoom_labels[n.id] = label

    def visible_names(self) -> list[str]:
        """Node names drawn on the map right now (the zoom-dependent ones of a large airport)."""
        return sorted(lbl.toPlainText() for lbl in self._zoom_labels.values() if lbl.isVisible())

    def set_bags(self, bags: dict[str, int]) -> None:
        """Redraw the waiting-bag badges (the rest of the map stays)."""
        if self._legend is not None:
            self._legend.removeItem(LAYOUT_BAGS)
        for it in self._bag_items:
            self.removeItem(it)
        self._bag_items = []
        self._draw_bags(bags)

    def legend_labels(self) -> list[str]:
        """The legend's entries, top to bottom."""
        return [label.text for _, label in self._legend.items] if self._legend is not None else []

    def add_legend_entry(self, sample, label: str) -> None:
        """Add ``label`` with ``sample`` (a plot item showing its pen or symbol) to the legend."""
        if self._legend is not None:
            self._legend.addItem(sample, label)

    def remove_legend_entry(self, label: str) -> None:
        """Drop the legend's entry ``label`` (nothing happens if there is none)."""
        if self._legend is not None:
            self._legend.removeItem(label)

    def _stop_auto_fit(self, *_) -> None:
        self._auto_fit = False

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        if getattr(self, "_refit_timer", None) is not None:   # (called during __init__ too)
            self._refit_soon()

    def _refit_soon(self) -> None:
        """Fit clear of the legend again once the view and the legend have their sizes, unless
        the user has panned or zoomed since the last fit."""
        if self._auto_fit and self._pos:
            self._refit_timer.start()

    def fit(self, clear_of_legend: bool = False) -> None:
        """Frame the whole airport with a margin, above the scale bar. ``clear_of_legend``: also
        keep it out from under the legend (top right), leaving the legend a column on the right
        or a band on top, whichever draws the airport larger; needs the view's size, so the
        view fits again as it is resized until the user pans or zooms."""
        if not self._pos:
            return
        self._auto_fit = True
        xy = np.array(list(self._pos.values()))
        lo, hi = xy.min(axis=0), xy.max(axis=0)
        span = max(float((hi - lo).max()), 1.0)
        pad = 0.07 * span   # room for the names under the nodes
        (x0, x1), (y0, y1) = (lo[0] - pad, hi[0] + pad), (lo[1] - pad, hi[1] + pad)
        vb = self.getPlotItem().vb
        if clear_of_legend and self._legend is not None:
            bottom = SCALE_BAR_PX if self._scale_bar is not None else 0
            (x0, x1), (y0, y1) = _clear_of(x0, x1, y0, y1, vb.width(), vb.height() - bottom,
                                           self._legend.mapRectToParent(
                                               self._legend.boundingRect()))
            if vb.height() > bottom:   # the scale bar's band below the airport
                y0 -= (y1 - y0) * bottom / (vb.height() - bottom)
        vb.setRange(xRange=(x0, x1), yRange=(y0, y1), padding=0)

    def keep_in_view(self, x: float, y: float) -> None:
        """Re-centre on (x, y) when it comes within ``KEEP_IN_VIEW`` of the view's edge (a
        followed tug); the view stays put while it is well inside, and while it is the fitted
        view of the whole airport."""
        if self._auto_fit:
            return
        rect = self.getPlotItem().vb.viewRect()
        mx, my = KEEP_IN_VIEW * rect.width(), KEEP_IN_VIEW * rect.height()
        if not (rect.left() + mx <= x <= rect.right() - mx
                and rect.top() + my <= y <= rect.bottom() - my):
            self.centre_on(x, y)

    def centre_on(self, x: float, y: float) -> None:
        """Pan (keeping the zoom) so that (x, y) is in the middle of the view."""
        rect = self.getPlotItem().vb.viewRect()
        self.getPlotItem().vb.translateBy(x=x - rect.center().x(), y=y - rect.center().y())

    def show_route(self, shown: bool) -> None:
        """Show or hide the route finder's route and its From/To rings (hidden while a day
        plays: beside the tugs it would read as one of theirs)."""
        self._route_shown = shown
        for item in self._route_items + [self._endpoint_item]:
            if item is not None:
                item.setVisible(shown)

    def route_shown(self) -> bool:
        return self._route_shown

    # -- route and endpoints ------------------------------------------------------------------

    def set_route(self, route: list[str]) -> None:
        """Highlight ``route`` (node ids in order); an empty list clears it."""
        self.clear_route()
        self._route = list(route)
        if len(route) < 2:
            return
        xs, ys, arrows = [], [], []
        every = max(1, math.ceil((len(route) - 1) / 10))  # long routes: about ten arrows
        for leg, (a, b) in enumerate(zip(route, route[1:])):
            (x0, x1), (y0, y1) = self._segment(a, b)
            xs += [x0, x1]
            ys += [y0, y1]
            if leg % every == 0:
                t = ARROW_AT
                arrows.append((x0 + t * (x1 - x0), y0 + t * (y1 - y0), x1 - x0, y1 - y0))
        casing = pg.PlotDataItem(xs, ys, connect="pairs", pen=pg.mkPen(ROUTE_CASING, width=11))
        line = pg.PlotDataItem(xs, ys, connect="pairs",
                               pen=pg.mkPen(ROUTE, width=6, cap=Qt.PenCapStyle.RoundCap))
        heads = MapScatter(
            [a[0] for a in arrows], [a[1] for a in arrows], size=22,
            symbol=[arrow_symbol(a[2], a[3]) for a in arrows],
            brush=pg.mkBrush(ROUTE_DARK), pen=pg.mkPen(ROUTE_CASING, width=1.5))
        for z, it in ((5, casing), (6, line), (7, heads)):
            it.setZValue(z)
            it.setVisible(self._route_shown)
            self.addItem(it)
            self._route_items.append(it)

    def clear_route(self) -> None:
        for it in self._route_items:
            self.removeItem(it)
        self._route_items = []
        self._route = []

    @property
    def route(self) -> list[str]:
        return list(self._route)

    def set_endpoints(self, from_id: str | None, to_id: str | None) -> None:
        """Ring the From node in green and the To node in red."""
        self._endpoints = (from_id, to_id)
        if self._endpoint_item is not None:
            self.removeItem(self._endpoint_item)
            self._endpoint_item = None
        spots = []
        for node_id, color in ((from_id, FROM_RING), (to_id, TO_RING)):
            if node_id in self._pos:
                x, y = self._pos[node_id]
                spots.append({"pos": (x, y), "size": 34, "symbol": "o",
                              "pen": pg.mkPen(color, width=4), "brush": pg.mkBrush(None)})
        if spots:
            self._endpoint_item = MapScatter(spots=spots)
            self._endpoint_item.setZValue(9)
            self._endpoint_item.setVisible(self._route_shown)
            self.addItem(self._endpoint_item)

    # -- picking ----------------------------------------------------------------------------

    def node_at(self, x: float, y: float, tolerance_px: float = PICK_TOLERANCE_PX) -> str | None:
        """The node nearest the data point (x, y) within ``tolerance_px`` screen pixels."""
        if not self._pos:
            return None
        px, py = self.getPlotItem().vb.viewPixelSize()
        px, py = px or 1.0, py or 1.0
        best, best_d = None, float(tolerance_px)
        for node_id, (nx, ny) in self._pos.items():
            d = math.hypot((nx - x) / px, (ny - y) / py)
            if d <= best_d:
                best, best_d = node_id, d
        return best

    def pick(self, node_id: str) -> None:
        """Act as if the user clicked ``node_id`` (keyboard access and tests)."""
        if node_id not in self._pos:
            raise KeyError(f"no node {node_id!r} on the map")
        self.nodeClicked.emit(node_id)

    def widget_pos(self, node_id: str) -> QPoint:
        """Where ``node_id`` is drawn, in this widget's coordinates (for simulated clicks)."""
        scene = self.getPlotItem().vb.mapViewToScene(QPointF(*self._pos[node_id]))
        return self.mapFromScene(scene)

    def _on_scene_clicked(self, event) -> None:
        if event.button() != Qt.MouseButton.LeftButton or event.double():
            return
        vb = self.getPlotItem().vb
        if not vb.sceneBoundingRect().contains(event.scenePos()):
            return
        p = vb.mapSceneToView(event.scenePos())
        if self.click_filter is not None and self.click_filter(p.x(), p.y()):
            event.accept()  # e.g. a tug was clicked: not a node pick
            return
        node_id = self.node_at(p.x(), p.y())
        if node_id is not None:
            event.accept()
            self.nodeClicked.emit(node_id)

    # -- drawing ------------------------------------------------------------------------------

    def _add(self, item, z: float):
        item.setZValue(z)
        self.addItem(item)
        self._items.append(item)
        # Static layers: painted once into a pixmap and reused, so an animation frame (the
        # tugs moving) does not redraw thousands of roads and nodes. Redrawn on zoom and pan.
        parts = (item.curve, item.scatter) if isinstance(item, pg.PlotDataItem) else (item,)
        for part in parts:
            part.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
        return item

    @staticmethod
    def _lane_geometry(airport) -> dict[tuple[str, str], tuple[np.ndarray, np.ndarray]]:
        """Start and end point of each directed lane; opposite one-way roads drawn side by side."""
        pos = {n.id: np.array([n.x, n.y], dtype=float) for n in airport.nodes}
        xy = np.array(list(pos.values())) if pos else np.zeros((1, 2))
        offset = 0.012 * max(float(np.ptp(xy, axis=0).max()), 1.0)
        one_way = {(r.a, r.b) for r in airport.roads if r.one_way}
        lanes = {}
        for r in airport.roads:
            p, q = pos[r.a], pos[r.b]
            if r.one_way and (r.b, r.a) in one_way:
                d = q - p
                n = np.array([d[1], -d[0]]) / (np.linalg.norm(d) or 1.0)  # right of travel
                p, q = p + offset * n, q + offset * n
            lanes[(r.a, r.b)] = (p, q)
            if not r.one_way:
                lanes.setdefault((r.b, r.a), (q, p))
        return lanes

    def _segment(self, a: str, b: str) -> tuple[tuple[float, float], tuple[float, float]]:
        """((x0, x1), (y0, y1)) of the lane a->b, or the straight line when there is none."""
        p, q = self._lanes.get((a, b), (np.array(self._pos[a]), np.array(self._pos[b])))
        return (float(p[0]), float(q[0])), (float(p[1]), float(q[1]))

    def _draw_roads(self, airport) -> None:
        xs, ys, arrows, labels = [], [], [], []
        for r in airport.roads:
            (x0, x1), (y0, y1) = self._segment(r.a, r.b)
            xs += [x0, x1]
            ys += [y0, y1]
            if r.one_way:
                t = ARROW_AT
                arrows.append((x0 + t * (x1 - x0), y0 + t * (y1 - y0), x1 - x0, y1 - y0))
            labels.append(((x0 + x1) / 2, (y0 + y1) / 2, self.road_text(r)))
        if xs:
            self._add(pg.PlotDataItem(xs, ys, connect="pairs",
                                      pen=pg.mkPen(ROAD, width=4, cap=Qt.PenCapStyle.RoundCap)), 1)
        if arrows:
            self._add(MapScatter(
                [a[0] for a in arrows], [a[1] for a in arrows],
                size=17 if len(arrows) <= 100 else 10,
                symbol=[arrow_symbol(a[2], a[3]) for a in arrows],
                brush=pg.mkBrush(ONE_WAY_ARROW), pen=pg.mkPen(BACKGROUND, width=1)), 2)
        if len(airport.roads) <= ROAD_LABELS_UP_TO:
            font = QFont()
            font.setPointSizeF(8)
            for x, y, text in labels:
                label = pg.TextItem(text, color=ROAD_LABEL, anchor=(0.5, 0.5),
                                    fill=pg.mkBrush(246, 247, 249, 215))
                label.setFont(font)
                label.setPos(x, y)
                self._add(label, 8)  # above the highlighted route: its time stays readable

    def _draw_nodes(self, airport) -> None:
        by_kind: dict[str, list] = {}
        for n in airport.nodes:
            by_kind.setdefault(n.kind, []).append(n)
        for kind in KIND_STYLES:  # legend in a stable order
            nodes = by_kind.get(kind)
            if not nodes:
                continue
            style = KIND_STYLES[kind]
            dense = len(airport.nodes) > DENSE_NODES
            size = style.size * (0.6 if dense else 1.0)
            if kind == "junction" and dense:
                size = 4  # the roads already show where they meet
            scatter = MapScatter(
                [n.x for n in nodes], [n.y for n in nodes], data=[n.id for n in nodes],
                symbol=style.symbol, size=size, brush=pg.mkBrush(style.color),
                pen=pg.mkPen("w", width=1 if dense else 2), hoverable=True,
                hoverPen=pg.mkPen("#212529", width=2), tip=self._tip, name=style.label)
            self._add(scatter, 9.5 if kind == "junction" else 10)
            self._legend.addItem(scatter, f"{style.label} ({len(nodes)})")

        if len(airport.nodes) <= NAME_LABELS_UP_TO:
            font = QFont()
            font.setPointSizeF(9 if len(airport.nodes) <= 40 else 7.5)
            font.setBold(True)
            for n in airport.nodes:
                if n.kind == "junction" and len(airport.nodes) > 40:
                    continue
                label = pg.TextItem(n.name, color=NAME_TEXT, anchor=(0.5, -0.55))
                label.setFont(font)
                label.setPos(n.x, n.y)
                self._add(label, 11)

    def _draw_bags(self, bags: dict[str, int]) -> None:
        font = QFont()
        font.setPointSizeF(8.5)
        font.setBold(True)
        waiting = [(node_id, int(c)) for node_id, c in bags.items() if c and node_id in self._pos]
        if not waiting:
            return
        most = max(c for _, c in waiting)
        base, spread = (8, 10) if len(self._pos) > DENSE_NODES else (24, 26)
        halo = MapScatter(
            [self._pos[i][0] for i, _ in waiting], [self._pos[i][1] for i, _ in waiting],
            size=[(base + spread * math.sqrt(c / most)) for _, c in waiting], symbol="o",
            brush=pg.mkBrush(252, 196, 25, 90), pen=pg.mkPen(None), name=LAYOUT_BAGS)
        halo.setZValue(4)
        self.addItem(halo)
        self._bag_items.append(halo)
        self._legend.addItem(pg.ScatterPlotItem(symbol="s", size=11, brush=pg.mkBrush(BAG_FILL),
                                                pen=pg.mkPen("#e0a800")), LAYOUT_BAGS)
        if len(waiting) > BADGES_UP_TO:
            return  # a hub: the halo sizes tell the story; counts are in each node's tooltip
        compact = len(waiting) > BADGE_WORDS_UP_TO  # many badges: just the number
        for node_id, count in waiting:
            text = str(count) if compact else f"{count} bag{'s' if count != 1 else ''}"
            badge = pg.TextItem(text, color=BAG_TEXT,
                                anchor=(-0.25, 1.25), fill=pg.mkBrush(BAG_FILL),
                                border=pg.mkPen("#e0a800"))
            badge.setFont(font)
            badge.setPos(*self._pos[node_id])
            badge.setZValue(12)
            self.addItem(badge)
            self._bag_items.append(badge)

    def _tip(self, x, y, data) -> str:
        a = self.airport
        if a is None:
            return ""
        n = a.node(data)
        style = KIND_STYLES.get(n.kind)
        lines = [f"{n.name} — {style.label if style else n.kind}"]
        if n.name != n.id:
            lines.append(f"id {n.id}")
        if not self.route_tips:
            return "\n".join(lines)
        if self.live_bags is not None:
            bags, where = int(self.live_bags[a.index(n.id)]), "waiting"
        else:
            bags, where = int(a.bags.get(n.id, 0)), "in the layout (route cost)"
        lines.append(f"{bags} bag{'s' if bags != 1 else ''} {where}")
        lines.append("click: set From, then To")
        return "\n".join(lines)


def travel_time_label(road) -> str:
    """A road's label on the map: its travel time."""
    return _format_seconds(road.seconds)


def _format_seconds(seconds: float) -> str:
    if seconds < 60:
        return f"{seconds:g} s"
    m, s = divmod(int(round(seconds)), 60)
    return f"{m} min {s:02d} s" if s else f"{m} min"
