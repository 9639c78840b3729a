"""The benchmark window's two lists: the variants to tick (a problem's registry, then its peers)
and the results table (a problem's columns, a row per point, failed points in red)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (QAbstractItemView, QHeaderView, QListWidget, QListWidgetItem, QTableWidget,
                               QTableWidgetItem)

TEXT_COLUMNS = {"variant", "graph", "check", "device"}  # the others are numbers: right-aligned


class VariantList(QListWidget):
    """Check boxes for a problem's variants: those that cannot run here shown disabled, with why."""

    def __init__(self):
        super().__init__()
        self.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)

    def fill(self, bench) -> None:
        """The problem's registry variants, then its peers; none ticked."""
        self.clear()
        for v in bench.registry():
            item = QListWidgetItem(v.name)
            item.setData(Qt.ItemDataRole.UserRole, v.name)
            if v.available:
                item.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsUserCheckable)
                item.setToolTip(v.description)
            else:
                item.setText(f"{v.name} (unavailable)")
                item.setFlags(Qt.ItemFlag.ItemIsUserCheckable)  # shown, not enabled
                item.setToolTip(f"Unavailable here: {v.reason}\n\n{v.description}")
            item.setCheckState(Qt.CheckState.Unchecked)
            self.addItem(item)
        runnable = set(bench.variants(available_only=True))
        for peer in bench.PEER_TIPS:
            item = QListWidgetItem(f"{peer} (peer)")
            item.setData(Qt.ItemDataRole.UserRole, peer)
            item.setFlags(Qt.ItemFlag.ItemIsUserCheckable | (
                Qt.ItemFlag.ItemIsEnabled if peer in runnable else Qt.ItemFlag.NoItemFlags))
            item.setCheckState(Qt.CheckState.Unchecked)
            item.setToolTip(bench.PEER_TIPS[peer])
            self.addItem(item)
        self.setFixedHeight(self.sizeHintForRow(0) * self.count() + 2 * self.frameWidth() + 6)

    def _items(self):
        return [self.item(i) for i in range(self.count())]

    def selected(self) -> list[str]:
        return [it.data(Qt.ItemDataRole.UserRole) for it in self._items()
                if it.checkState() == Qt.CheckState.Checked and it.flags() & Qt.ItemFlag.ItemIsEnabled]

    def select(self, names) -> list[str]:
        """Check exactly ``names`` (those that can run here); returns what is checked."""
        names = set(names)
        for it in self._items():
            on = bool(it.flags() & Qt.ItemFlag.ItemIsEnabled) and it.data(Qt.ItemDataRole.UserRole) in names
            it.setCheckState(Qt.CheckState.Checked if on else Qt.CheckState.Unchecked)
        return self.selected()


class ResultsTable(QTableWidget):
    """A row per measured point (the problem's ``table_row``), then one per failed point."""

    def __init__(self, columns):
        super().__init__(0, 0)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.verticalHeader().setVisible(False)
        self.setAlternatingRowColors(True)
        self._set_columns(columns)

    def _set_columns(self, columns) -> None:
        self.setColumnCount(len(columns))
        self.setHorizontalHeaderLabels(columns)
        header = self.horizontalHeader()
        for c in range(len(columns)):
            header.setSectionResizeMode(c, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(columns.index("check"), QHeaderView.ResizeMode.Stretch)

    def show_rows(self, bench, points: list, failures: list, follow: bool) -> None:
        """``bench``'s columns and rows; ``follow``: scroll to the newest row (a run going on)."""
        columns = bench.COLUMNS
        if [self.horizontalHeaderItem(c).text() for c in range(self.columnCount())] != list(columns):
            self._set_columns(columns)
        rows: list[tuple[list[str], str | None]] = [(bench.table_row(p), None) for p in points]
        for f in failures:
            cells = [f.variant, f.graph, f"{f.n:,}" if f.n else "?"] + ["—"] * (len(columns) - 5)
            rows.append((cells + [f"FAILED: {f.message}", ""], f.message))
        self.setRowCount(len(rows))
        red = QBrush(QColor("#B00000"))
        for r, (cells, failure) in enumerate(rows):
            for c, text in enumerate(cells):
                item = QTableWidgetItem(text)
                if columns[c] not in TEXT_COLUMNS:
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                if failure is not None:
                    item.setForeground(red)
                    item.setToolTip(failure)
                self.setItem(r, c, item)
        if rows and follow:
            self.scrollToBottom()
        elif rows:
            self.scrollToTop()

    def rows(self) -> list[list[str]]:
        """The table's text, row by row (tests, copy)."""
        return [[self.item(r, c).text() for c in range(self.columnCount())] for r in range(self.rowCount())]
