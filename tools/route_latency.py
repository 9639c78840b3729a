"""How long a change of the bags takes to reach the screen as new routes.

A bag-aware recompute starts when the worker sees the bags change; its result travels with the
step that ran it to the UI thread, which draws it once the displayed clock reaches that step.
``RouteLatency`` records, per recompute the dispatcher used: from the recompute's start to the UI
thread receiving the step (``to_ui``: the worker's part, ``worker`` — the solve, what is left of
the substep, the result's copies; race mode's other solves run after the step,
``engine.sim.race`` — and ``queue``, the hand-over waiting for the UI thread), plus from the
player showing the step (``StepResult.shown``, before the window handles it) to the map's next
paint having finished (``draw``). The wait in between — results are computed ahead of the
displayed clock on purpose, so that tugs glide — is left out: it is the player's look-ahead, not
the route's latency.
"""

from __future__ import annotations

import time

from PySide6.QtCore import QObject

from gui.map.painted import AfterPaint


class RouteLatency(QObject):
    """Attach to a ``MainWindow``; ``samples`` collects one dict per recompute drawn."""

    def __init__(self, window):
        super().__init__(window)
        self.samples: list[dict] = []
        self._painted = AfterPaint(window.map_view.viewport(), self, unpainted_ms=None)
        window.simStepped.connect(self._on_shown)

    def _on_shown(self, result) -> None:
        mine = [t for t in result.timings if not t.raced and t.started > 0]
        if mine and result.received > 0:
            shown = result.shown or time.perf_counter()
            self._painted.call(lambda: self._record(mine[-1], result.sent, result.received, shown))

    def _record(self, timing, sent: float, received: float, shown: float) -> None:
        to_ui = received - timing.started
        draw = time.perf_counter() - shown
        self.samples.append({"round": timing.round, "variant": timing.variant,
                             "solve_s": timing.seconds, "worker_s": sent - timing.started,
                             "queue_s": received - sent, "to_ui_s": to_ui, "draw_s": draw,
                             "latency_s": to_ui + draw})
