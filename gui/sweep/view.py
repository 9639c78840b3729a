"""The sweep window (File ▸ Open sweep…): a sweep's results, read from the folder that
``python main.py sweep`` or an experiment of the app wrote, as curves of a KPI against fleet size
(mean and 95% confidence interval over the seeds within the KPI's bounds, one curve per policy and
edits) and a table of every scenario (its screenshot:
``tools/sweep_screenshot.py``).
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pyqtgraph as pg
from PySide6.QtWidgets import (QComboBox, QHBoxLayout, QHeaderView, QLabel, QMainWindow,
                               QMessageBox, QSplitter, QTableWidget, QTableWidgetItem,
                               QVBoxLayout, QWidget)
from PySide6.QtCore import Qt

from engine.sweep.results import MANIFEST, ResultsError, mbr_curves, read_table, summarise

KPIS = {"mbr_per_1000": "misconnected bags per 1,000",
        "delivered_on_time": "bags delivered on time",
        "tug_utilisation": "tug utilisation",
        "tug_distance_km": "tug distance (km)",
        "mean_slack_s": "mean slack of delivered bags (s)"}
INK = "#222"
PALETTE = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2")
DASHES = (Qt.PenStyle.SolidLine, Qt.PenStyle.DashLine, Qt.PenStyle.DotLine,
          Qt.PenStyle.DashDotLine)   # with SYMBOLS, as engine/sweep/plot.py's (the legend
SYMBOLS = ("o", "t", "s", "d")           # shows the symbol more clearly than the dash)
TABLE_KPIS = ("mbr_per_1000", "delivered_on_time", "tug_utilisation", "tug_distance_km")


class SweepWindow(QMainWindow):
    def __init__(self, parent=None):
        super().__init__(parent)
        self.setWindowTitle("BagRoute — sweep results")
        self.resize(1100, 760)
        self.table = None      # the tidy table shown (pandas), None before a file is opened
        self.summary = None
        self.source: Path | None = None
        self.last_error: str | None = None
        self.error_box: QMessageBox | None = None

        self.kpi_box = QComboBox()
        for key, text in KPIS.items():
            self.kpi_box.addItem(text, key)
        self.kpi_box.currentIndexChanged.connect(self._plot)
        self.layout_box = QComboBox()
        self.layout_box.currentIndexChanged.connect(self._plot)
        self.plot = pg.PlotWidget(background="w")
        self.plot.showGrid(x=True, y=True, alpha=0.25)
        for side in ("left", "bottom"):
            self.plot.getAxis(side).setPen(pg.mkPen("#444"))
            self.plot.getAxis(side).setTextPen(pg.mkPen(INK))
        self.plot.setLabel("bottom", "fleet (tugs)", color=INK)
        self.legend = self.plot.addLegend(offset=(-10, 10), labelTextColor=INK)
        self.scenarios = QTableWidget()
        self.scenarios.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.scenarios.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.status_line = QLabel("Open a sweep's folder (File ▸ Open sweep… in the main window).")
        self.status_line.setWordWrap(True)

        controls = QHBoxLayout()
        for text, widget in (("Plot", self.kpi_box), ("Layout", self.layout_box)):
            controls.addWidget(QLabel(text))
            controls.addWidget(widget)
        controls.addStretch(1)
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.plot)
        split.addWidget(self.scenarios)
        split.setSizes([480, 240])
        body = QVBoxLayout()
        body.addLayout(controls)
        body.addWidget(split, 1)
        body.addWidget(self.status_line)
        central = QWidget()
        central.setLayout(body)
        self.setCentralWidget(central)

    # -- opening ---------------------------------------------------------------------------------
    def load(self, path) -> bool:
        """Show the sweep in ``path`` (its folder, runs.parquet or runs.csv); on a bad file, say
        which and why and keep what was shown."""
        try:
            self.show_results(path)
        except ResultsError as exc:
            self._error(f"Could not open the sweep: {exc}. The results shown are unchanged.")
            return False
        return True

    def show_results(self, path) -> None:
        """Show the sweep in ``path``; ``ResultsError`` (what is shown stays) if it is bad."""
        path = Path(path)
        table = read_table(path)
        summary = summarise(table)
        self.table, self.summary, self.source = table, summary, path
        self.layout_box.blockSignals(True)
        self.layout_box.clear()
        self.layout_box.addItems(sorted(summary["layout"].astype(str).unique()))
        self.layout_box.blockSignals(False)
        self.layout_box.setEnabled(self.layout_box.count() > 1)
        self.setWindowTitle(f"BagRoute — sweep {path.name}")
        self._plot()
        self._fill_table()
        self._set_status(f"{path}: {len(table)} days, {len(summary)} scenarios, seeds "
                         f"{', '.join(map(str, sorted(table['seed'].unique())))}"
                         f"{self._manifest_note(path)}")

    @staticmethod
    def _manifest_note(path: Path) -> str:
        manifest = (path if path.is_dir() else path.parent) / MANIFEST
        try:
            m = json.loads(manifest.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return ""
        note = f"; ran on {m.get('workers', '?')} worker(s) in {m.get('wall_s', 0):.1f} s"
        if m.get("interrupted"):
            note += (f"; interrupted: {m.get('runs_finished', '?')} of {m.get('runs_total', '?')}"
                     " days finished")
        return note

    # -- showing ---------------------------------------------------------------------------------
    def curves(self):
        """The curves drawn now (engine.sweep.results.Curve), for the selected KPI and layout."""
        if self.summary is None:
            return []
        kpi, layout = self.kpi_box.currentData(), self.layout_box.currentText()
        return [c for c in mbr_curves(self.summary, kpi) if c.layout == layout]

    def _plot(self) -> None:
        self.plot.clear()
        self.legend.clear()
        self.plot.setLabel("left", self.kpi_box.currentText() + " (mean, 95% CI)", color=INK)
        curves = self.curves()
        fleets = sorted({int(f) for c in curves for f in c.fleet})
        self.plot.getAxis("bottom").setTicks([[(f, str(f)) for f in fleets]] if fleets else None)
        step = _dodge(fleets, len(curves))
        for i, c in enumerate(curves):
            color = PALETTE[c.colour % len(PALETTE)]   # a policy's colour; its variants dashed
            x = c.fleet.astype(float) + (i - (len(curves) - 1) / 2) * step   # bars side by side
            dash = c.dash % len(DASHES)
            self.plot.plot(x, c.mean, pen=pg.mkPen(color, width=2, style=DASHES[dash]),
                           symbol=SYMBOLS[dash], symbolBrush=color, symbolPen=color, name=c.label)
            # the interval within the KPI's bounds (never below 0), so the bar may be lopsided
            self.plot.addItem(pg.ErrorBarItem(
                x=x, y=c.mean, top=np.nan_to_num(c.hi - c.mean, nan=0.0),
                bottom=np.nan_to_num(c.mean - c.lo, nan=0.0), beam=step * 0.6 or 0.15,
                pen=pg.mkPen(color)))
        self.plot.enableAutoRange()

    def _fill_table(self) -> None:
        s = self.summary
        headers = ["layout", "fleet", "policy", "load", "hours", "edits", "days",
                   *(KPIS[k] for k in TABLE_KPIS)]
        self.scenarios.clear()
        self.scenarios.setColumnCount(len(headers))
        self.scenarios.setHorizontalHeaderLabels(headers)
        self.scenarios.setRowCount(len(s))
        for row, r in enumerate(s.itertuples(index=False)):
            r = r._asdict()
            cells = [r["layout"], r["fleet"], r["policy"], f"{r['load']:g}", f"{r['hours']:g}",
                     r["edits"], r["runs"],
                     *(_mean_interval(r[f"{k}_mean"], r[f"{k}_lo"], r[f"{k}_hi"])
                       for k in TABLE_KPIS)]
            for col, value in enumerate(cells):
                item = QTableWidgetItem(str(value))
                if col >= 6:
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                self.scenarios.setItem(row, col, item)

    def _set_status(self, text: str, error: bool = False) -> None:
        self.status_line.setText(text)
        self.status_line.setStyleSheet("color: #B00000;" if error else "")

    def _error(self, message: str) -> None:
        self.last_error = message
        self._set_status(message, error=True)
        if self.error_box is not None:
            self.error_box.close()
        self.error_box = QMessageBox(QMessageBox.Icon.Warning, "Sweep results", message,
                                     QMessageBox.StandardButton.Ok, self)
        self.error_box.open()  # window-modal, does not block the event loop


def _dodge(fleets: list[int], curves: int) -> float:
    """How far apart the curves' points stand at one fleet size, so their bars do not hide
    each other: a fifth of the closest fleet sizes' gap (of the fleet itself with one size),
    shared out over the curves."""
    if curves < 2 or not fleets:
        return 0.0
    gap = min((b - a for a, b in zip(fleets, fleets[1:])), default=max(fleets[0], 1))
    return 0.2 * gap / (curves - 1)


def _mean_interval(mean: float, lo: float, hi: float) -> str:
    """"4.2 [0.0, 9.8]": the mean and its 95% interval within the KPI's bounds."""
    if mean != mean:
        return "–"
    digits = 3 if abs(mean) < 10 else 1
    text = f"{mean:.{digits}f}"
    return text if math.isnan(lo) else f"{text} [{lo:.{digits}f}, {hi:.{digits}f}]"
