"""``solve``: validate a cost matrix, run the chosen variant, fall back to the CPU if a GPU fails."""

import time

import numpy as np

from ..gpu_device import device_name
from ..graph_input import dense_matrix
from ..registry import run_or_fall_back
from .auto import choose_variant
from .matrix import to_float_distances, to_int32_costs
from .registry import get_variant
from .result import APSPResult

CPU_FALLBACK = "cpu-blocked"
AUTO = "auto"


def solve(cost, variant: str = "auto", routes: bool = True) -> APSPResult:
    """All-pairs shortest paths of ``cost`` (n×n, ``np.inf`` or a masked entry = no edge, or
    scipy.sparse: engine.graph_input's contract) with ``variant``
    (a registered name, or ``"auto"``: the fastest here for this size, from measurements).

    A GPU variant that cannot run here, or fails while running (no device, out of memory, a
    driver error), falls back to the CPU; ``result.note`` says so and ``result.variant`` names
    the variant that really ran. ``routes=False``: only the distances are wanted; a variant
    that can skip its route matrix does (``result.route`` then walks the distances).
    """
    cost = dense_matrix(cost)
    n = cost.shape[0]
    chosen = get_variant(choose_variant(n) if variant == AUTO else variant)
    w = to_int32_costs(cost, out=chosen.input_array(n))  # the shape is checked here too
    return run_or_fall_back(chosen, get_variant(CPU_FALLBACK),
                            lambda v, note: _run(v, w, note, routes))


def _run(variant, w: np.ndarray, note: str | None = None, routes: bool = True) -> APSPResult:
    start = time.perf_counter()
    dist32, routes, kernel_seconds = variant.run(w, routes)
    seconds = time.perf_counter() - start
    return APSPResult(dist=to_float_distances(dist32), routes=routes, variant=variant.name,
                      seconds=seconds, kernel_seconds=kernel_seconds,
                      device=device_name(variant.family), cost=w, note=note)

