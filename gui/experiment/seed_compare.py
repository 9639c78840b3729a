"""The compare panel's "over many seeds" part: run N seeds of the edited and the unedited day on
Dask and show each KPI's difference, paired by seed, with its 95% interval."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (QHBoxLayout, QHeaderView, QLabel, QProgressBar, QPushButton,
                               QSpinBox, QTableWidget, QTableWidgetItem, QVBoxLayout, QWidget)

if TYPE_CHECKING:   # pandas only with results to show: not at the app's start
    import pandas as pd

# whole-day KPIs of the sweep's table: column -> (label, format)
KPIS = {"mbr_per_1000": ("MBR ‰", "{:.2f}"), "misconnected": ("Misconnected", "{:,.0f}"),
        "delivered_on_time": ("On time", "{:,.0f}"), "tug_distance_km": ("Tug km", "{:,.0f}"),
        "tug_utilisation": ("Tug use", "{:.3f}"), "mean_slack_s": ("Mean slack s", "{:,.0f}")}
MUTED = "#5f6b7a"


def number(value: float, fmt: str) -> str:
    """``fmt`` of ``value``, never "-0" or "-0.00" where it rounds to zero."""
    text = fmt.format(value)
    return text if any(ch in "123456789" for ch in text) else fmt.format(0.0)


def signed(value: float, fmt: str) -> str:
    """"+1.20", "-3", "0": a difference with its sign."""
    if math.isnan(value):
        return "—"
    text = number(value, fmt)
    return "+" + text if value > 0 and text != fmt.format(0.0) else text


def interval_text(lo: float, hi: float, fmt: str) -> str:
    """"[0.40, 2.00]": a 95% interval (— with one pair)."""
    return "—" if math.isnan(lo) else f"[{number(lo, fmt)}, {number(hi, fmt)}]"


class SeedCompare(QWidget):
    """``runRequested(seeds)`` and ``cancelRequested()``: the user's asks; the owner runs the days
    and calls ``running``, ``progress``, ``show_differences`` or ``say``."""

    runRequested = Signal(int)
    cancelRequested = Signal()

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.seeds_spin = QSpinBox()
        self.seeds_spin.setRange(2, 500)
        self.seeds_spin.setValue(8)
        self.seeds_spin.setSuffix(" seeds")
        self.run_button = QPushButton("Compare over seeds")
        self.run_button.setToolTip("Whole days of the edited and the unedited day, one pair per "
                                   "seed, on Dask (where Tools ▸ Run experiment last ran)")
        self.run_button.clicked.connect(self._clicked)
        self.bar = QProgressBar()
        self.bar.setVisible(False)
        self.note = QLabel("")
        self.note.setWordWrap(True)
        self.note.setStyleSheet(f"color: {MUTED};")
        self.table = QTableWidget(len(KPIS), 4)
        self.table.setHorizontalHeaderLabels(["Edited", "Unedited", "Δ", "95% interval"])
        self.table.setVerticalHeaderLabels([label for label, _ in KPIS.values()])
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(3, QHeaderView.ResizeMode.Stretch)
        self.table.setFixedHeight(header.sizeHint().height() + 4
                                  + len(KPIS) * self.table.verticalHeader().defaultSectionSize())
        self.table.setVisible(False)
        row = QHBoxLayout()
        row.addWidget(self.seeds_spin)
        row.addWidget(self.run_button, 1)
        box = QVBoxLayout(self)
        box.setContentsMargins(0, 4, 0, 0)
        box.addLayout(row)
        box.addWidget(self.bar)
        box.addWidget(self.note)
        box.addWidget(self.table)
        self.busy = False

    def _clicked(self) -> None:
        if self.busy:
            self.run_button.setEnabled(False)
            self.run_button.setText("Cancelling…")
            self.cancelRequested.emit()
        else:
            self.runRequested.emit(self.seeds_spin.value())

    def running(self, total: int, where: str) -> None:
        self.busy = True
        self.run_button.setText("Cancel")
        self.bar.setRange(0, total)
        self.bar.setValue(0)
        self.bar.setFormat("%v of %m days")
        self.bar.setVisible(True)
        self.note.setText(f"Running {total} days on {where}…")

    def progress(self, done: int, total: int) -> None:
        self.bar.setValue(done)

    def say(self, text: str) -> None:
        """The run ended without differences to show (or could not start): why."""
        self._idle()
        self.note.setText(text)

    def show_differences(self, diffs: pd.DataFrame, note: str) -> None:
        """``engine.sweep.results.paired_differences`` rows (base: unedited, other: edited)."""
        self._idle()
        self.note.setText(note)
        by_kpi = diffs.set_index("kpi")
        for r, (kpi, (_, fmt)) in enumerate(KPIS.items()):
            d = by_kpi.loc[kpi]
            cells = (fmt.format(d["other_mean"]), fmt.format(d["base_mean"]),
                     signed(d["diff_mean"], fmt), interval_text(d["diff_lo"], d["diff_hi"], fmt))
            for c, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                if c >= 2 and not (d["diff_lo"] <= 0 <= d["diff_hi"]):
                    item.setToolTip("The interval leaves out 0: the edits change this KPI")
                    font = item.font()
                    font.setBold(True)
                    item.setFont(font)
                self.table.setItem(r, c, item)
        self.table.setVisible(True)

    def difference(self, kpi: str) -> str:
        """The Δ and interval columns' text for ``kpi`` (a KPIS key): "+6.35 [0.31, 12.40]"."""
        row = list(KPIS).index(kpi)
        return f"{self.table.item(row, 2).text()} {self.table.item(row, 3).text()}"

    def _idle(self) -> None:
        self.busy = False
        self.bar.setVisible(False)
        self.run_button.setEnabled(True)
        self.run_button.setText("Compare over seeds")
