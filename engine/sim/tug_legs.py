"""A tug's legs as the day's Python code sees them: its load, and a leg it is sent on by an edit
(the compiled loop, ``engine.sim.loop.legs``, dispatches, drives, boards and delivers; each tug
has at most one event, ARRIVE or DONE, waiting in the loop's heap)."""

from __future__ import annotations

import numpy as np

from .loop.codes import ARRIVE, DONE
from .tugs import Tug

__all__ = ["ARRIVE", "DONE", "TugLegs"]


class TugLegs:
    """What ``Simulation``'s edits and readers ask of a tug's legs (a mixin: it needs the
    ``tug_table`` and the ``loop``)."""

    def onboard(self, tug: Tug) -> np.ndarray:
        """The bags on ``tug``, in the order they were loaded (read-only)."""
        return self.tug_table.row("load", tug.id)

    def _drive(self, tug: Tug, target: int, path: np.ndarray) -> None:
        """Start a leg to ``target`` along ``path`` (an edit's route)."""
        self.loop.drive_on(self, tug.id, path, target)
