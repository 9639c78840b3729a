"""The route engine choice of the toolbar: all pairs on key nodes (Floyd–Warshall) or from the
tugs (SSSP on the full road graph), and the SSSP variant that the second one runs.

Both engines give the same day (engine.sim.route_engine); the choice shows which family's solve
times the live timing panel plots and race mode races.
"""

from __future__ import annotations

from types import SimpleNamespace

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QWidget

from engine.sim.route_engine import ALL_PAIRS, ENGINES, FROM_TUGS
from engine.sssp import variants as sssp_variants

from ..route.variant_picker import VariantPicker

SSSP_AUTO = SimpleNamespace(name="auto", available=True, reason=None,
                            description="auto: gpu-fast-sssp where a GPU is worth it, else "
                                        "cpu-dijkstra")
# the toolbar's words (it must fit 1280 pixels); the full ones are each entry's tooltip
SHORT = {ALL_PAIRS: "all pairs (Floyd–Warshall)", FROM_TUGS: "from the tugs (SSSP)"}


class RouteEngineChoice(QWidget):
    """[Route engine ▾] [SSSP variant ▾]; the variant picker shows only for ``from-tugs``, the
    widgets of ``show_with_all_pairs`` only for ``all-pairs``."""

    engineChanged = Signal(str)
    variantChanged = Signal(str)   # the SSSP variant

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.combo = QComboBox()
        for name, words in ENGINES.items():
            self.combo.addItem(SHORT[name], name)
            self.combo.setItemData(self.combo.count() - 1, words, Qt.ItemDataRole.ToolTipRole)
        self.combo.setToolTip("Where the dispatcher's shortest paths come from. Both are exact "
                              "and give the same day; they differ in what is solved, and how "
                              "fast")
        self.sssp_picker = VariantPicker(variants=[SSSP_AUTO, *sssp_variants()])
        self.sssp_picker.fit_to_current()
        self.sssp_picker.setToolTip("The SSSP variant solving from the tugs")
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(QLabel(" Route engine "))
        layout.addWidget(self.combo)
        layout.addWidget(self.sssp_picker)
        self.sssp_picker.setVisible(False)
        self._all_pairs_widgets: list[QWidget] = []
        self.combo.currentIndexChanged.connect(self._on_engine)
        self.sssp_picker.variantChanged.connect(self.variantChanged)

    def show_with_all_pairs(self, *widgets: QWidget) -> None:
        """Add ``widgets`` after the choice, shown only while it is all pairs (the toolbar's
        Floyd–Warshall variant: from the tugs, the day solves no all-pairs)."""
        for w in widgets:
            self.layout().addWidget(w)
            w.setVisible(self.engine() != FROM_TUGS)
        self._all_pairs_widgets += widgets

    def _show_engine_widgets(self) -> None:
        from_tugs = self.engine() == FROM_TUGS
        # hide before showing: never wider than either, or the toolbar hides it for good
        shown = {w: (w is self.sssp_picker) == from_tugs
                 for w in [self.sssp_picker, *self._all_pairs_widgets]}
        for w in sorted(shown, key=shown.get):    # those to hide first
            w.setVisible(shown[w])

    def engine(self) -> str:
        return self.combo.currentData()

    def set_engine(self, name: str, silent: bool = False) -> None:
        """Choose ``name`` (a key of ``ENGINES``); ``silent``: no ``engineChanged``."""
        self.combo.blockSignals(silent)
        self.combo.setCurrentIndex(list(ENGINES).index(name))
        self.combo.blockSignals(False)
        self._show_engine_widgets()

    def sssp_variant(self) -> str:
        return self.sssp_picker.current_variant()

    def variant_for(self, floyd_warshall_variant: str) -> str:
        """The variant the day runs: the SSSP one from the tugs, else the given FW one."""
        return self.sssp_variant() if self.engine() == FROM_TUGS else floyd_warshall_variant

    def _on_engine(self, _index: int) -> None:
        self._show_engine_widgets()
        self.engineChanged.emit(self.engine())


__all__ = ["ALL_PAIRS", "FROM_TUGS", "RouteEngineChoice"]
