"""Framing the map: where the airport goes so the legend and the scale bar cover none of it,
and the scale bar itself (a round length, about a fifth of the view's width)."""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QRectF
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QGraphicsItem

INK = "#495057"


def scale_bar(view_box, points) -> pg.ScaleBar | None:
    """A scale bar at the bottom right of ``view_box`` sized for the points (x, y) in metres;
    None when they have no extent."""
    xy = np.array(list(points))
    span = float(np.ptp(xy, axis=0).max()) if len(xy) else 0.0
    if span <= 0:
        return None
    bar = pg.ScaleBar(size=_nice_length(span / 5), suffix="m", brush=pg.mkBrush(INK),
                      pen=pg.mkPen(INK), offset=(-20, -20))
    bar.setParentItem(view_box)
    bar.text.setColor(QColor(INK))
    bar.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
    return bar


def fit_scale_bar(bar: pg.ScaleBar | None, view_width: float) -> None:
    """Keep ``bar`` at about a fifth of the view's width (in metres), a round length."""
    if bar is None or not view_width > 0:
        return
    size = _nice_length(view_width / 5)
    if size != bar.size:
        bar.size = size
        bar.text.setText(pg.siFormat(size, suffix="m"))
        bar.updateBar()


def _clear_of(x0, x1, y0, y1, width_px, height_px, legend: QRectF):
    """The view's ranges that show the box (x0, x1) × (y0, y1) as large as it can be without
    meeting ``legend`` (its rectangle in view pixels, anchored top right): the box is centred
    left of the legend or below it. The box as it was if the view has no size yet."""
    right = width_px - legend.left()       # the legend's column, from the view's right edge
    below = legend.bottom()                # the legend's band, from the view's top edge
    if width_px <= right or height_px <= below or legend.isEmpty():
        return (x0, x1), (y0, y1)
    w, h = x1 - x0, y1 - y0
    beside = max(w / (width_px - right), h / height_px)   # metres a pixel, legend beside
    under = max(w / width_px, h / (height_px - below))    # metres a pixel, legend above
    scale = min(beside, under)
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    if beside <= under:   # centred left of the legend's column
        cx += scale * right / 2
    else:                 # centred below the legend's band (y grows upwards)
        cy += scale * below / 2
    return ((cx - scale * width_px / 2, cx + scale * width_px / 2),
            (cy - scale * height_px / 2, cy + scale * height_px / 2))


def _nice_length(raw: float) -> float:
    """The first of 1, 2, 5 × 10^k metres at or above ``raw``."""
    magnitude = 10 ** math.floor(math.log10(raw))
    return next(m * magnitude for m in (1, 2, 5, 10) if m * magnitude >= raw)


