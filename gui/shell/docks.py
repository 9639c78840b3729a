"""Docks of the main window: each part's widget in a dock with a stable object name (so the
saved window state puts it back where the user left it)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDockWidget, QFrame, QMainWindow, QScrollArea, QWidget

Area = Qt.DockWidgetArea
_MOVABLE = (QDockWidget.DockWidgetFeature.DockWidgetMovable
            | QDockWidget.DockWidgetFeature.DockWidgetFloatable)


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
