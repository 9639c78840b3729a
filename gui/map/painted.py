"""Run work once a widget's next paint has finished (its frame is on screen).

The live day draws new routes on the map first and lets everything else that a step changes
(the dock's labels, the status bar, the plots) wait for the map's paint: Qt paints every dirty
widget of a window in one pass, so a label changed in the same turn would be laid out and
painted before the routes could show.
"""

from __future__ import annotations

from typing import Callable

from PySide6.QtCore import QEvent, QObject, QTimer

UNPAINTED_MS = 100     # a widget that does not paint (hidden, minimised) holds nothing longer


class AfterPaint(QObject):
    """Watches ``widget``'s paint events; ``call(fn)`` runs ``fn`` in the event loop's turn after
    the widget's next paint (each queued function once, in order), or ``unpainted_ms`` after the
    call if no paint comes first (None: only after a paint)."""

    def __init__(self, widget, parent: QObject | None = None,
                 unpainted_ms: int | None = UNPAINTED_MS):
        super().__init__(parent or widget)
        self._queued: list[Callable[[], None]] = []
        self._unpainted = QTimer(self)
        self._unpainted.setSingleShot(True)
        self._unpainted.timeout.connect(self._run)
        self._unpainted_ms = unpainted_ms
        widget.installEventFilter(self)

    def call(self, fn: Callable[[], None]) -> None:
        self._queued.append(fn)
        if self._unpainted_ms is not None and not self._unpainted.isActive():
            self._unpainted.start(self._unpainted_ms)

    @property
    def waiting(self) -> bool:
        """Work is queued for the next paint."""
        return bool(self._queued)

    def eventFilter(self, obj, event) -> bool:
        if event.type() == QEvent.Type.Paint and self._queued:
            painted, self._queued = self._queued, []
            self._unpainted.stop()
            QTimer.singleShot(0, lambda: self._run(painted))     # once this paint is done
        return False

    def _run(self, queued: list | None = None) -> None:
        if queued is None:                  # no paint came: run what waits
            queued, self._queued = self._queued, []
        for fn in queued:
            fn()
