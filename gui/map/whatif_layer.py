"""What the what-if edits look like on the airport map, and which road a click is on.

Closed roads are drawn as red dashes over the road with a cross at the middle; a closed gate gets a
red cross and a dashed line to the gate that took its flights.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt

CLOSED = "#e03131"
PICK_TOLERANCE_PX = 10


class WhatIfLayer:
    """Draws the edits of one airport (``airport`` is the unedited one) on ``map_view``."""

    def __init__(self, map_view):
        self.view = map_view
        self.items: list = []
        self.airport = None
        self._a = self._b = np.zeros((0, 2))

    def set_airport(self, airport) -> None:
        self.clear()
        self.airport = airport
        xy = {n.id: (n.x, n.y) for n in airport.nodes}
        self._a = np.array([xy[r.a] for r in airport.roads], dtype=float).reshape(-1, 2)
        self._b = np.array([xy[r.b] for r in airport.roads], dtype=float).reshape(-1, 2)

    def clear(self) -> None:
        for it in self.items:
            self.view.removeItem(it)
        self.items = []

    def road_at(self, x: float, y: float, tolerance_px: float = PICK_TOLERANCE_PX) -> int | None:
        """Index (in the unedited airport's roads) of the road nearest (x, y) on screen, if any
        lies within ``tolerance_px`` pixels."""
        if not len(self._a):
            return None
        px, py = self.view.getPlotItem().vb.viewPixelSize()
        scale = np.array([px or 1.0, py or 1.0])
        a, b, p = self._a / scale, self._b / scale, np.array([x, y]) / scale
        d = b - a
        f = np.clip(((p - a) * d).sum(axis=1) / np.maximum((d * d).sum(axis=1), 1e-12), 0.0, 1.0)
        dist = np.hypot(*(a + f[:, None] * d - p).T)
        k = int(np.argmin(dist))
        return k if dist[k] <= tolerance_px else None

    def midpoint(self, k: int) -> tuple[float, float]:
        m = (self._a[k] + self._b[k]) / 2
        return float(m[0]), float(m[1])

    def show(self, closed_roads: list[int], moved_gates: dict[str, str]) -> None:
        """Closed roads (indices in the unedited airport) and closed gate -> the gate taking its
        flights (node ids)."""
        self.clear()
        if closed_roads:
            seg = np.empty((2 * len(closed_roads), 2))
            seg[0::2], seg[1::2] = self._a[closed_roads], self._b[closed_roads]
            self._add(pg.PlotDataItem(seg[:, 0], seg[:, 1], connect="pairs", pen=pg.mkPen(
                CLOSED, width=5, style=Qt.PenStyle.DashLine)), 5.5)
            mid = (self._a[closed_roads] + self._b[closed_roads]) / 2
            self._add(pg.ScatterPlotItem(mid[:, 0], mid[:, 1], symbol="x", size=16,
                                         brush=pg.mkBrush(CLOSED), pen=pg.mkPen("w", width=1)), 12.5)
        if moved_gates:
            a = self.airport
            g = np.array([[a.node(k).x, a.node(k).y] for k in moved_gates])
            h = np.array([[a.node(v).x, a.node(v).y] for v in moved_gates.values()])
            seg = np.empty((2 * len(g), 2))
            seg[0::2], seg[1::2] = g, h
            self._add(pg.PlotDataItem(seg[:, 0], seg[:, 1], connect="pairs", pen=pg.mkPen(
                CLOSED, width=2, style=Qt.PenStyle.DotLine)), 5.5)
            self._add(pg.ScatterPlotItem(g[:, 0], g[:, 1], symbol="x", size=26,
                                         brush=pg.mkBrush(CLOSED), pen=pg.mkPen("w", width=1.5)),
                      12.5)

    def _add(self, item, z: float) -> None:
        item.setZValue(z)
        self.view.addItem(item)
        self.items.append(item)
