"""The answer every variant gives: distances, routes, and how it was obtained."""

from dataclasses import dataclass, field

import numpy as np

from .routes import RouteMatrix, walk


@dataclass
class APSPResult:
    dist: np.ndarray          # n×n float64, np.inf where unreachable
    routes: RouteMatrix | None = field(repr=False)  # None: distances only were asked for
    variant: str              # the variant that actually ran
    seconds: float            # wall time of the solve, host↔device copies included
    kernel_seconds: float     # compute only (device-synchronised for GPU variants)
    device: str               # e.g. "CPU (2 threads)" or "NVIDIA H100 80GB HBM3"
    cost: np.ndarray = field(repr=False)  # the validated int32 matrix that was solved
    note: str | None = None   # e.g. why a requested GPU variant fell back to the CPU

    def route(self, i: int, j: int) -> list[int]:
        """Vertices from ``i`` to ``j``; ``[i]`` when ``i == j``; ``[]`` when unreachable."""
        return walk(self.routes, self.dist, self.cost, i, j)
