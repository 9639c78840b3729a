"""What the map's items look like: colours, node kinds' symbols, the scatter item all layers
draw with, and one-way arrow heads (the map view, its layers and the other windows' maps share
them)."""

from __future__ import annotations

import math
from dataclasses import dataclass

import pyqtgraph as pg
from PySide6.QtCore import QRectF
from PySide6.QtGui import QPainterPath, QTransform

BACKGROUND = "#f6f7f9"
ROAD = "#b8c0cc"
ROAD_LABEL = "#5b6573"
ONE_WAY_ARROW = "#6b7684"
ROUTE = "#e8590c"
ROUTE_DARK = "#a63c06"
ROUTE_CASING = "#ffffff"
FROM_RING = "#2f9e44"
TO_RING = "#c92a2a"
BAG_FILL = "#fcc419"
BAG_TEXT = "#5c3d00"
NAME_TEXT = "#1f2933"


@dataclass(frozen=True)
class KindStyle:
    label: str
    symbol: str
    size: float
    color: str


KIND_STYLES = {
    "gate": KindStyle("Gate", "o", 20, "#1c7ed6"),
    "sort": KindStyle("Sort station", "s", 20, "#7048e8"),
    "depot": KindStyle("Tug depot", "h", 22, "#2b8a3e"),
    "junction": KindStyle("Junction", "o", 9, "#868e96"),
}


class MapScatter(pg.ScatterPlotItem):
    """A scatter item whose bounding rectangle is kept until its spots or the view's transform
    change: pyqtgraph works it out (pixel padding included) on every call, and the scene asks
    every item for it on every frame of the animation. ``extent`` ((x0, x1), (y0, y1)), when
    set, stands for the data's bounds: an item that moves every frame then has none to redo."""

    extent = None
    _rect = None

    def dataBounds(self, ax, frac=1.0, orthoRange=None):
        if self.extent is not None and frac >= 1.0 and orthoRange is None:
            return self.extent[ax]
        return super().dataBounds(ax, frac, orthoRange)

    def boundingRect(self):
        if self._rect is None:
            self._rect = super().boundingRect()
        return QRectF(self._rect)

    def prepareGeometryChange(self):
        self._rect = None
        super().prepareGeometryChange()

    def invalidate(self):
        self._rect = None
        super().invalidate()

    def updateSpots(self, dataSet=None):
        super().updateSpots(dataSet)
        self._rect = None


def _arrow_path(angle_deg: float) -> QPainterPath:
    """A unit arrow head pointing along +x, rotated by ``angle_deg`` (screen, y down)."""
    path = QPainterPath()
    path.moveTo(0.55, 0.0)
    path.lineTo(-0.45, -0.42)
    path.lineTo(-0.2, 0.0)
    path.lineTo(-0.45, 0.42)
    path.closeSubpath()
    return QTransform().rotate(angle_deg).map(path)


_ARROW_CACHE: dict[int, QPainterPath] = {}


def arrow_symbol(dx: float, dy: float) -> QPainterPath:
    """Arrow symbol for direction (dx, dy) in data coordinates (y up), quantised to 3 degrees."""
    angle = round(math.degrees(math.atan2(-dy, dx)) / 3) * 3
    if angle not in _ARROW_CACHE:
        _ARROW_CACHE[angle] = _arrow_path(angle)
    return _ARROW_CACHE[angle]
