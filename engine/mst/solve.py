"""``spanning_forest``: validate a graph, run the chosen variant, fall back to the CPU if a GPU
variant cannot run or fails."""

import time

from ..gpu_device import simulated
from ..registry import run_or_fall_back
from .graph import as_graph
from .registry import get_variant
from .result import SpanningForest

AUTO = "auto"
CPU_FALLBACK = "cpu-kruskal"
GPU_MIN_EDGES = 1 << 16  # below this the CPU answers before a launch would


def spanning_forest(graph, variant: str = AUTO) -> SpanningForest:
    """The minimum spanning forest of ``graph`` (scipy.sparse, dense n×n with ``np.inf`` = no
    edge, or an ``EdgeGraph`` from ``prepare`` that keeps its GPU copy), taken as undirected.

    ``variant``: a registered name, or ``"auto"`` (gpu-fast-mst where a GPU is worth it, else
    cpu-kruskal). A GPU variant that cannot run here or fails falls back to the CPU;
    ``result.note`` says so.
    """
    g = as_graph(graph)
    chosen = get_variant(_auto(g) if variant == AUTO else variant)
    return run_or_fall_back(chosen, get_variant(CPU_FALLBACK), lambda v, note: _run(v, g, note))


def prepare(graph):
    """The validated graph, to be solved many times (its GPU copy is made once and kept)."""
    return as_graph(graph)


def _auto(g) -> str:
    gpu = get_variant("gpu-fast-mst")
    if gpu.available and not simulated() and g.m >= GPU_MIN_EDGES:
        return gpu.name
    return CPU_FALLBACK


def _run(variant, g, note) -> SpanningForest:
    start = time.perf_counter()
    answer, kernel_seconds, variant_note = variant.run(g)
    seconds = time.perf_counter() - start
    return SpanningForest(
        edges=answer.edges, weights=answer.weights, total=answer.total, components=g.n - len(answer.ids),
        variant=variant.name, seconds=seconds, kernel_seconds=kernel_seconds, device=variant.device,
        note="; ".join(x for x in (note, variant_note) if x) or None, edge_ids=answer.ids)
