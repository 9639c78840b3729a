"""Docks of the main window: each part's widget in a dock with a stable object name (so the
saved window state puts it back where the user left it)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QDockWidget, QFrame, QMainWindow, QScrollArea, QWidget

Area = Qt.DockWidgetArea
_MOVABLE = (QDockWidget.DockWidgetFeature.DockWidgetMovable
            | QDockWidget.DockWidgetFeature.DockWidgetFloatable)


def narrow(combo: QComboBox, chars: int = 12) -> None:
    """``combo`` as wide as about ``chars`` characters, not as its longest entry (a dock's or a
    toolbar's room; the shown text is cut), its drop-down list still as wide as its entries."""
    combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
    combo.setMinimumContentsLength(chars)
    combo.view().setMinimumWidth(combo.view().sizeHintForColumn(0) + 24)


class Docks:
    """Adds docks to ``window``."""

    def __init__(self, window: QMainWindow):
        self.window = window

    def add(self, title: str, name: str, widget: QWidget, area: Area = Area.RightDockWidgetArea,
            closable: bool = True, scroll: bool = False, beside: QDockWidget | None = None
            ) -> QDockWidget:
        """A dock of ``widget``; ``scroll``: the widget scrolls when the dock is shorter than it;
        ``beside``: a tab beside that dock (which stays in front)."""
        if scroll:
            area_widget = QScrollArea()
            area_widget.setWidget(widget)
            area_widget.setWidgetResizable(True)
            area_widget.setFrameShape(QFrame.Shape.NoFrame)
            widget = area_widget
        dock = QDockWidget(title, self.window)
        dock.setObjectName(name)
        dock.setWidget(widget)
        dock.setFeatures(_MOVABLE | QDockWidget.DockWidgetFeature.DockWidgetClosable if closable
                         else _MOVABLE)
        self.window.addDockWidget(area, dock)
        if beside is not None:
            self.window.tabifyDockWidget(beside, dock)
            beside.raise_()
        return dock
