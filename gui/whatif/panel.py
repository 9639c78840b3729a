"""The what-if dock: how to edit the map, the tug fleets' editor, the edit history (undo stack)
and the compare table of the edited day against the unedited one."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QUndoStack
from PySide6.QtWidgets import (QComboBox, QDoubleSpinBox, QGridLayout, QGroupBox, QHeaderView,
                               QLabel, QPushButton, QSpinBox, QTableWidget, QTableWidgetItem,
                               QUndoView, QVBoxLayout, QWidget)

from engine.sim.edits import AddTugs, MoveTugs, RetireTugs, SetCapacity, SetSpeed
from engine.words import counted, node_label

from ..shell.docks import narrow

MUTED = "#5f6b7a"
ROWS = (("mbr", "MBR ‰", "{:.1f}"), ("on_time", "On time %", "{:.1f}"),
        ("tug_km", "Tug km", "{:,.1f}"), ("waiting", "Bags waiting", "{:,.0f}"))


def compare_values(kpis: dict) -> dict[str, float]:
    """The compare table's figures from a KPI sample (``engine.sim.kpi.sample``)."""
    done = kpis["delivered"] + kpis["misconnected"]
    return {"mbr": kpis["mbr"], "on_time": 100.0 * kpis["delivered"] / done if done else 100.0,
            "tug_km": kpis["tug_km"], "waiting": kpis["waiting"]}


class WhatIfPanel(QWidget):
    """``editRequested(edit)``: the user asked for a tug edit (``engine.sim.edits``)."""

    editRequested = Signal(object)
    saveRequested = Signal()

    def __init__(self, stack: QUndoStack, parent: QWidget | None = None):
        super().__init__(parent)
        self.fleets: dict[str, object] = {}
        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 8, 10, 8)
        how = QLabel("Click a road on the map to close or reopen it; right-click a gate to close "
                     "it (its flights go to the nearest free gate, or one you pick). Ctrl+Z "
                     "undoes, Ctrl+Shift+Z redoes. Edits apply while the day plays or is paused.")
        how.setWordWrap(True)
        how.setStyleSheet(f"color: {MUTED};")
        layout.addWidget(how)

        tugs = QGroupBox("Tugs")
        grid = QGridLayout(tugs)
        self.depot_combo = QComboBox()
        self.depot_combo.setToolTip("The depot (tug fleet) the edits below apply to")
        self.depot_combo.currentIndexChanged.connect(self._show_fleet)
        self.count_spin = QSpinBox()
        self.count_spin.setRange(1, 200)
        self.count_spin.setSuffix(" tug(s)")
        self.add_button = QPushButton("Add")
        self.retire_button = QPushButton("Retire")
        self.retire_button.setToolTip("Retired tugs finish delivering what they carry, then park")
        self.to_combo = QComboBox()
        self.move_button = QPushButton("Move to")
        self.speed_spin = QDoubleSpinBox()
        self.speed_spin.setRange(0.5, 30.0)
        self.speed_spin.setSingleStep(0.5)
        self.speed_spin.setSuffix(" m/s")
        self.speed_button = QPushButton("Set speed")
        self.speed_button.setToolTip("Roads are timed for the slowest fleet: changing it solves "
                                     "the all-pairs again")
        self.capacity_spin = QSpinBox()
        self.capacity_spin.setRange(1, 500)
        self.capacity_spin.setSuffix(" bags")
        self.capacity_button = QPushButton("Set capacity")
        for row, widgets in enumerate(((QLabel("Depot"), self.depot_combo),
                                       (self.count_spin, self.add_button, self.retire_button),
                                       (self.move_button, self.to_combo),
                                       (self.speed_spin, self.speed_button),
                                       (self.capacity_spin, self.capacity_button))):
            for col, w in enumerate(widgets):
                span = 2 if len(widgets) == 2 and col == 1 else 1
                grid.addWidget(w, row, col, 1, span)
        self.add_button.clicked.connect(
            lambda: self._ask(AddTugs(self.depot(), self.count_spin.value())))
        self.retire_button.clicked.connect(
            lambda: self._ask(RetireTugs(self.depot(), self.count_spin.value())))
        self.move_button.clicked.connect(lambda: self._ask(
            MoveTugs(self.depot(), self.to_combo.currentData(), self.count_spin.value())))
        self.speed_button.clicked.connect(
            lambda: self._ask(SetSpeed(self.depot(), round(self.speed_spin.value(), 3))))
        self.capacity_button.clicked.connect(
            lambda: self._ask(SetCapacity(self.depot(), self.capacity_spin.value())))
        layout.addWidget(tugs)

        history = QGroupBox("Edits (click one to go back to it)")
        box = QVBoxLayout(history)
        self.history = QUndoView(stack)
        self.history.setEmptyLabel("the day as planned")
        self.history.setMinimumHeight(70)
        self.history.setMaximumHeight(140)
        box.addWidget(self.history)
        self.save_button = QPushButton("Save edited layout as…")
        self.save_button.clicked.connect(self.saveRequested)
        box.addWidget(self.save_button)
        layout.addWidget(history)

        compare = QGroupBox("Edited day against the unedited one (same seed)")
        self.compare_box = compare     # the compare over seeds joins it (gui/experiment)
        box = QVBoxLayout(compare)
        self.compare_label = QLabel("No edits yet: this is the unedited day.")
        self.compare_label.setWordWrap(True)
        self.compare_label.setStyleSheet(f"color: {MUTED};")
        self.table = QTableWidget(len(ROWS), 3)
        self.table.setHorizontalHeaderLabels(["Edited", "Unedited", "Δ"])
        self.table.setVerticalHeaderLabels([label for _, label, _ in ROWS])
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        box.addWidget(self.compare_label)
        box.addWidget(self.table)
        layout.addWidget(compare)
        layout.addStretch(1)
        self.clear_compare()
        self.table.setFixedHeight(self.table.horizontalHeader().sizeHint().height() + 4
                                  + len(ROWS) * self.table.verticalHeader().defaultSectionSize())

    # -- fleets ---------------------------------------------------------------------------------
    def depot(self) -> str:
        return self.depot_combo.currentData()

    def set_fleets(self, fleets, airport=None) -> None:
        """The fleets as edited so far (``engine.airport.layout.Fleet``; count = tugs in service),
        each named as the map and the tug panel name its depot (``engine.words.node_label``)."""
        keep = self.depot()
        self.fleets = {f.depot: f for f in fleets}
        for combo in (self.depot_combo, self.to_combo):
            combo.blockSignals(True)
            combo.clear()
            for f in fleets:
                combo.addItem(f"{node_label(airport, f.depot)}: {counted(f.count, 'tug')}",
                              f.depot)
            combo.blockSignals(False)
            narrow(combo)     # a hub's depot names are long: the dock must not scroll sideways
        i = self.depot_combo.findData(keep)
        self.depot_combo.setCurrentIndex(max(i, 0))
        self.to_combo.setCurrentIndex(1 if len(fleets) > 1 else 0)
        self.move_button.setEnabled(len(fleets) > 1)
        self._show_fleet()

    def _show_fleet(self) -> None:
        f = self.fleets.get(self.depot())
        if f is not None:
            self.speed_spin.setValue(f.speed_mps)
            self.capacity_spin.setValue(f.capacity)

    def _ask(self, edit) -> None:
        if self.depot() is not None:
            self.editRequested.emit(edit)

    # -- compare --------------------------------------------------------------------------------
    def clear_compare(self, text: str = "No edits yet: this is the unedited day.") -> None:
        self.compare_label.setText(text)
        for r in range(len(ROWS)):
            for c in range(3):
                self.table.setItem(r, c, QTableWidgetItem("—"))

    def show_compare(self, clock: str, edited: dict, unedited: dict) -> None:
        """Both days' KPI samples at the same simulated time ``clock``."""
        a, b = compare_values(edited), compare_values(unedited)
        self.compare_label.setText(f"At {clock}, both days from the same seed.")
        for r, (key, _, fmt) in enumerate(ROWS):
            shown = fmt.format(a[key]), fmt.format(b[key])
            # the difference of the figures shown, so the row adds up as read ("99.6 | 99.6 | 0.0")
            diff = float(shown[0].replace(",", "")) - float(shown[1].replace(",", ""))
            delta = fmt.format(diff)
            if not any(ch in "123456789" for ch in delta):
                delta = fmt.format(0.0)      # no "+0.0" or "-0.0" where the days agree
            elif diff > 0:
                delta = "+" + delta
            for c, text in enumerate((*shown, delta)):
                item = QTableWidgetItem(text)
                item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                self.table.setItem(r, c, item)

    def value(self, key: str, column: int) -> str:
        """The compare table's text for ``key`` (a ROWS key) in ``column`` (0 edited, 1, 2)."""
        row = [k for k, _, _ in ROWS].index(key)
        return self.table.item(row, column).text()
