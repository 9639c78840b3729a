"""Tugs: where each one is, what it is doing, and where it is between two nodes at any instant.

A tug is either idle at a node, driving a leg (a road route with the time it reaches each vertex),
or handling bags at a stop. Positions are interpolated along the road being driven, so the map
can animate them and the tests can check no tug leaves the roads or outruns its speed.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

IDLE, DRIVING, HANDLING = 0, 1, 2
ACTIVITY_NAMES = {IDLE: "idle", DRIVING: "driving", HANDLING: "handling"}


@dataclass
class Tug:
    id: int
    depot: int
    capacity: int
    speed_mps: float
    node: int                                  # last node reached
    activity: int = IDLE
    path: np.ndarray = field(default_factory=lambda: np.empty(0, dtype=np.int64))
    times: np.ndarray = field(default_factory=lambda: np.empty(0))   # absolute seconds per vertex
    target: int = -1                           # stop the leg ends at
    pickup: np.ndarray = field(default_factory=lambda: np.empty(0, dtype=np.int64))  # reserved
    busy_until: float = 0.0
    distance_m: float = 0.0
    busy_s: float = 0.0                        # driving + handling seconds, clipped to the run
    retired: bool = False                      # out of service: takes no new job (a what-if edit)
    carts: int = 0                             # stands it can carry bags for at once (0: any)

    def start_leg(self, path: np.ndarray, times: np.ndarray, target: int) -> None:
        """Drive ``path``, reaching its vertices at ``times`` (absolute seconds)."""
        self.path = path
        self.times = times
        self.target = target
        self.activity = DRIVING
        self.busy_until = float(times[-1])

    def position(self, t: float, x: np.ndarray, y: np.ndarray) -> tuple[float, float, int, int, float]:
        """(x, y, u, v, fraction along road u -> v) at time ``t``; u == v when at a node."""
        if self.activity != DRIVING or len(self.path) < 2:
            return float(x[self.node]), float(y[self.node]), self.node, self.node, 0.0
        k = int(np.searchsorted(self.times, t, side="right")) - 1
        if k < 0:
            u = int(self.path[0])
            return float(x[u]), float(y[u]), u, u, 0.0
        if k >= len(self.path) - 1:
            u = int(self.path[-1])
            return float(x[u]), float(y[u]), u, u, 0.0
        u, v = int(self.path[k]), int(self.path[k + 1])
        span = self.times[k + 1] - self.times[k]
        f = 0.0 if span <= 0 else min(1.0, max(0.0, (t - self.times[k]) / span))
        return (float(x[u] + f * (x[v] - x[u])), float(y[u] + f * (y[v] - y[u])), u, v, f)
