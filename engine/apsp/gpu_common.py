"""What every GPU Floyd–Warshall variant shares: device copies, timing, launch sizes.

Tile sizes are module constants picked once: the paper's sizes on a real GPU, small ones under
Numba's CUDA simulator (``NUMBA_ENABLE_CUDASIM=1``), where every GPU thread is a Python thread
and a 32×32 block would be 1024 of them. Tests may override a constant on the module.
"""

import numpy as np
from numba import cuda

from ..gpu_device import simulated
from ..gpu_launch import ceil_div, timed_on_device  # noqa: F401 — the variants import them from here
from .paths import initial_path
from .routes import RouteMatrix

SIMULATED = simulated()


def device_cost_and_path(w: np.ndarray):
    """The cost matrix and the paper's initial Path matrix, copied to the device once."""
    return cuda.to_device(np.ascontiguousarray(w, dtype=np.int32)), cuda.to_device(initial_path(w))


def empty_result(w: np.ndarray, kind: str = "predecessor"):
    """The answer for a graph of no vertices: nothing to launch."""
    return w.copy(), RouteMatrix(kind, np.zeros((0, 0), np.int32)), 0.0

