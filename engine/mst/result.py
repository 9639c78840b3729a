"""The answer every spanning-forest variant gives, and how it was obtained."""

from dataclasses import dataclass, field

import numpy as np


@dataclass
class SpanningForest:
    edges: np.ndarray       # k × 2 int64, u < v, in edge id ((u, v)) order; k = n − components
    weights: np.ndarray     # k float64
    total: float            # the sum of the weights (in edge id order: the same bits in every variant)
    components: int         # trees in the forest (isolated vertices count as trees)
    variant: str            # the variant that actually ran
    seconds: float          # wall time of the solve (graph upload included if it was not resident)
    kernel_seconds: float   # compute only (device-synchronised for GPU variants)
    device: str             # e.g. "CPU (2 threads)" or "NVIDIA H100 80GB HBM3"
    note: str | None = None  # e.g. why a GPU variant fell back to the CPU
    edge_ids: np.ndarray = field(default=None, repr=False)  # the chosen edges' ids, ascending
