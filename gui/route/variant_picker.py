"""A combo box of every Floyd–Warshall variant; those that cannot run here are disabled, with why."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Iterable

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QStandardItem, QStandardItemModel
from PySide6.QtWidgets import QComboBox, QWidget

from engine.apsp import variants as all_variants

from ..shell.docks import narrow

AUTO = SimpleNamespace(name="auto", available=True, reason=None,
                       description="auto: the fastest variant for this graph's size on this "
                                   "machine, chosen from timings measured at first use")
# Preferred default: auto, else the fastest GPU variant where there is a GPU, else the CPU.
PREFERENCE = ("auto", "gpu-fast", "gpu-blocked", "cpu-blocked", "cpu-linear")


class VariantPicker(QComboBox):
    """Lists ``variants()`` (or the given ones); emits ``variantChanged(name)`` on a real change."""

    variantChanged = Signal(str)

    def __init__(self, parent: QWidget | None = None, variants: Iterable | None = None):
        super().__init__(parent)
        self._variants = [AUTO, *all_variants()] if variants is None else list(variants)
        model = QStandardItemModel(self)
        for v in self._variants:
            item = QStandardItem(v.name)
            item.setData(v.name, Qt.ItemDataRole.UserRole)
            if v.available:
                item.setToolTip(v.description)
            else:
                item.setEnabled(False)
                item.setText(f"{v.name} (unavailable)")
                item.setToolTip(f"Unavailable here: {v.reason}\n\n{v.description}")
            model.appendRow(item)
        self.setModel(model)
        self.setCurrentIndex(self._index_of(self.default_variant()))
        self._last = self.current_variant()
        self.currentIndexChanged.connect(self._on_index_changed)
        self._update_tooltip()

    def fit_to_current(self, chars: int = 13) -> None:
        """As wide as about ``chars`` characters, not as its longest entry (a toolbar's room)."""
        narrow(self, chars)

    def names(self) -> list[str]:
        return [v.name for v in self._variants]

    def is_available(self, name: str) -> bool:
        return any(v.name == name and v.available for v in self._variants)

    def reason(self, name: str) -> str | None:
        """Why ``name`` cannot run here, or None."""
        for v in self._variants:
            if v.name == name:
                return v.reason
        raise ValueError(f"unknown variant {name!r}")

    def default_variant(self) -> str:
        for name in PREFERENCE:
            if self.is_available(name):
                return name
        available = [v.name for v in self._variants if v.available]
        return available[0] if available else self._variants[0].name

    def current_variant(self) -> str:
        return self.currentData(Qt.ItemDataRole.UserRole)

    def set_current_variant(self, name: str, silent: bool = False) -> bool:
        """Select ``name`` if it can run here; False (selection unchanged) if not.
        ``silent``: no ``variantChanged`` (restoring a saved choice)."""
        if not self.is_available(name):
            return False
        if silent:
            self._last = name
        self.setCurrentIndex(self._index_of(name))
        return True

    def unavailable_summary(self) -> str | None:
        """One line on what cannot run here (e.g. every GPU variant, and why), or None."""
        reasons: dict[str, list[str]] = {}
        for v in self._variants:
            if not v.available:
                reasons.setdefault(v.reason, []).append(v.name)
        if not reasons:
            return None
        return "; ".join(f"{', '.join(names)} unavailable ({reason})"
                         for reason, names in reasons.items())

    def _index_of(self, name: str) -> int:
        return self.names().index(name)

    def _on_index_changed(self, _index: int) -> None:
        self._update_tooltip()
        name = self.current_variant()
        if name != self._last:
            self._last = name
            self.variantChanged.emit(name)

    def _update_tooltip(self) -> None:
        for v in self._variants:
            if v.name == self.current_variant():
                self.setToolTip(v.description)
