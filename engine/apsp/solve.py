"""``solve``: validate a cost matrix, run the chosen variant, fall back to the CPU if a GPU fails."""

import time

import numpy as np

from .. import variant_warmup
from ..graph_input import dense_matrix
from ..registry import run_or_fall_back
from . import dijkstra
from .auto import calibrated, choose_variant
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
    that can skip its route matrix does (``result.route`` then walks the distances). While a
    variant compiles on a fresh machine (``variant_warmup``), a sparse graph is solved by
    Dijkstra from every vertex (``dijkstra``: nothing to compile), a dense one by the fallback
    (a GPU variant's) or scipy's Floyd–Warshall (a CPU variant's); so while ``auto`` measures
    the candidates on its first use, in the warm-up child.
    """
    cost = dense_matrix(cost)
    n = cost.shape[0]
    if variant == AUTO and variant_warmup.compiling(AUTO):
        w = to_int32_costs(cost, threads=False, compiled=False)   # checks the shape
        meanwhile = dijkstra.meanwhile(w)
        return _run(meanwhile, w, f"auto measuring this machine's variants (first use); ran "
                                  f"{meanwhile.name} on the CPU meanwhile", routes, False)
    chosen = get_variant(choose_variant(n) if variant == AUTO else variant)
    # While it compiles, the CPU answers with nothing to compile if it can: no device buffer,
    # numpy's conversion (the warm-up child compiles Numba's), scipy's solvers.
    runs = chosen if chosen.available else get_variant(CPU_FALLBACK)
    compiling = variant_warmup.compiling(runs.name)
    w = to_int32_costs(cost, out=None if compiling else chosen.input_array(n),  # checks the shape
                       threads=not compiling, compiled=not compiling)
    meanwhile = dijkstra.meanwhile(w) if compiling else None
    if meanwhile is dijkstra.FLOYD_WARSHALL and runs.family == "gpu":
        meanwhile = None   # the threaded fallback, as measured (docs/gpu-first-use.md)
    return run_or_fall_back(chosen, get_variant(CPU_FALLBACK),
                            lambda v, note: _run(v, w, note, routes, not compiling),
                            meanwhile=meanwhile)


def _run(variant, w: np.ndarray, note: str | None = None, routes: bool = True,
         threads: bool = True) -> APSPResult:
    start = time.perf_counter()
    dist, routes, kernel_seconds = variant.run(w, routes)
    seconds = time.perf_counter() - start
    if dist.dtype != np.float64:   # int32 with the INF sentinel (Dijkstra's are float already)
        dist = to_float_distances(dist, threads)
    return APSPResult(dist=dist, routes=routes, variant=variant.name,
                      seconds=seconds, kernel_seconds=kernel_seconds,
                      device=variant.device, cost=w, note=note)



def first_use(variant: str) -> str | None:
    """What ``variant``'s first solve here would wait for a compile of (or ``auto``'s first
    measurements), or None: a GPU variant, a CPU one with none of its kernels in Numba's cache
    yet, the CPU fallback so where a GPU variant cannot run (``variant_warmup.start`` then makes them
    in the background, scipy answering meanwhile)."""
    if variant == AUTO:
        return None if calibrated() else AUTO
    try:
        chosen = get_variant(variant)
    except (KeyError, ValueError):
        return None
    if not chosen.available:
        chosen = get_variant(CPU_FALLBACK)
    return chosen.name if chosen.family == "gpu" or variant_warmup.cold(chosen.runner) else None
