"""``solve``: validate a graph and its sources, run the chosen variant, fall back to the CPU if a
GPU variant cannot run or fails."""

import time

from ..gpu_device import simulated
from ..registry import run_or_fall_back
from .errors import NegativeCycleError, NegativeWeightError
from .graph import as_graph, as_sources, to_float
from .registry import get_variant
from .result import SSSPResult

AUTO = "auto"
GPU_MIN_WORK = 1 << 16  # n × sources below which the CPU answers before a launch would


def solve(graph, sources, variant: str = AUTO) -> SSSPResult:
    """Shortest paths from each of ``sources`` in ``graph`` (scipy.sparse CSR, dense n×n with
    ``np.inf`` = no edge, or a ``SparseGraph`` from ``prepare`` that keeps its GPU copy).

    ``variant``: a registered name, or ``"auto"`` (gpu-fast-sssp where a GPU is worth it, else
    cpu-dijkstra, or cpu-bellman-ford for negative costs). A GPU variant that cannot run here
    or fails while running falls back to the CPU; ``result.note`` says so.
    """
    g = as_graph(graph)
    s = as_sources(sources, g.n)
    chosen = get_variant(_auto(g, s) if variant == AUTO else variant)
    fallback = get_variant("cpu-bellman-ford" if g.min_weight < 0 else "cpu-dijkstra")
    return run_or_fall_back(chosen, fallback, lambda v, note: _run(v, g, s, note),
                            keep=(NegativeCycleError, NegativeWeightError))


def prepare(graph):
    """The validated graph, to be solved many times (its GPU copy is made once and kept)."""
    return as_graph(graph)


def _auto(g, s) -> str:
    gpu = get_variant("gpu-fast-sssp")
    if gpu.available and not simulated() and g.n * len(s) >= GPU_MIN_WORK:
        return gpu.name
    return "cpu-bellman-ford" if g.min_weight < 0 else "cpu-dijkstra"


def _run(variant, g, s, note: str | None = None) -> SSSPResult:
    """``seconds`` runs from the sources in to the float64 answer in host memory: the
    conversion of an integer answer is inside it (gpu-fast-sssp's small graphs need none)."""
    start = time.perf_counter()
    dist, kernel_seconds, variant_note = variant.run(g, s)
    dist = to_float(dist)
    seconds = time.perf_counter() - start
    note = "; ".join(x for x in (note, variant_note) if x) or None
    return SSSPResult(dist=dist, sources=s, variant=variant.name, seconds=seconds,
                      kernel_seconds=kernel_seconds, device=variant.device, graph=g,
                      note=note)
