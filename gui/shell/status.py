"""The status bar's message line, and how errors are shown: a line there (and, for what the user
asked for, a dialog that does not block), which the live lines of a playing day leave alone a
while."""

from __future__ import annotations

import time

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import QLabel, QMainWindow, QMessageBox

HOLD_S = 8.0     # a held message (an error, what an edit did) stays this long before live lines
BOX_LINES = 12   # an error box shows at most this many lines; the rest go behind "Show Details…"


class StatusLine(QObject):
    """``changed(text)``: every message shown. ``errorShown(message)``: every error."""

    changed = Signal(str)
    errorShown = Signal(str)

    def __init__(self, window: QMainWindow):
        super().__init__(window)
        self.window = window
        self.label = QLabel()
        self.label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        window.statusBar().addWidget(self.label, 1)
        self.last_error: str | None = None
        self._held_since = -1e9
        self._box: QMessageBox | None = None

    def text(self) -> str:
        return self.label.text()

    def set(self, text: str) -> None:
        self.label.setText(text)
        self.label.setToolTip(text)
        self.changed.emit(text)

    def hold(self, text: str) -> None:
        """A message the live status lines leave alone a while (what an edit did)."""
        self.set(text)
        self._held_since = time.monotonic()

    def held(self) -> bool:
        """A held message is still on show: live lines wait."""
        return time.monotonic() - self._held_since <= HOLD_S

    def error(self, title: str, message: str, details: str | None = None,
              dialog: bool = True) -> None:
        """``title: first line`` on the status line, and with ``dialog`` a window-modal box that
        does not block (the window and the workers keep running). The box shows ``message``
        (its first ``BOX_LINES`` lines), and ``details`` (or the whole message, if longer)
        behind "Show Details…", so it is never taller than the screen."""
        self.last_error = details or message
        self.hold(f"{title}: {message.splitlines()[0]}")
        if dialog:
            self.close()
            lines = message.splitlines()
            if len(lines) > BOX_LINES:
                details = details or message
                message = "\n".join(lines[:BOX_LINES - 1] + [
                    f"… and {len(lines) - BOX_LINES + 1:,} more lines: Show Details…"])
            box = QMessageBox(QMessageBox.Icon.Warning, title, message,
                              QMessageBox.StandardButton.Ok, self.window)
            if details and details != message:
                box.setDetailedText(details)
            box.setWindowModality(Qt.WindowModality.WindowModal)
            box.open()  # not exec()
            self._box = box
        self.errorShown.emit(self.last_error)

    @property
    def box(self) -> QMessageBox | None:
        """The error box on show, if any."""
        return self._box

    def close(self) -> None:
        """Close the error box, if one is open."""
        if self._box is not None:
            self._box.close()
            self._box = None
