"""``spanning_forest``: validate a graph, run the chosen variant, fall back to the CPU if a GPU
variant cannot run or fails."""

import time

import numba
import numpy as np

from ..gpu_device import device_name, simulated
from ..parallel_build import serial_and_parallel
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
    ids, kernel_seconds, variant_note = variant.run(g)
    edges, weights, total, ids = forest_arrays(g, ids)
    seconds = time.perf_counter() - start
    return SpanningForest(
        edges=edges, weights=weights, total=total, components=g.n - len(ids), variant=variant.name,
        seconds=seconds, kernel_seconds=kernel_seconds, device=device_name(variant.family),
        note="; ".join(x for x in (note, variant_note) if x) or None, edge_ids=ids)


def forest_arrays(g, ids):
    """(k × 2 int64 edges, k weights, their total, the ids as a fresh int64 array) of the forest
    whose ascending edge ids are ``ids`` (any integer type; a GPU variant's are a view of pinned
    memory its next solve overwrites): three gathers over the host edge list and the ids' copy,
    nothing n- or m-sized; in parallel from ``PARALLEL_GATHER`` edges (the fresh arrays' pages
    are then first touched by every thread)."""
    edges = np.empty((len(ids), 2), np.int64)
    weights = np.empty(len(ids), g.w.dtype)
    own_ids = np.empty(len(ids), np.int64)
    _gather(ids, g.u, g.v, g.w, edges, weights, own_ids)
    return edges, weights, float(np.sum(weights)), own_ids


PARALLEL_GATHER = 1 << 16


def _gather_edges(ids, u, v, w, edges, weights, own_ids):
    for i in numba.prange(len(ids)):
        e = ids[i]
        edges[i, 0] = u[e]
        edges[i, 1] = v[e]
        weights[i] = w[e]
        own_ids[i] = e


_gather = serial_and_parallel(_gather_edges, PARALLEL_GATHER)
