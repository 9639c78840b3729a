"""The answer every spanning-forest variant gives, and how it was obtained; the forest's host
arrays built from its edge ids (CPU variants; the GPU variants gather on the device and copy
these same arrays back), and its total, summed the same way everywhere."""

from dataclasses import dataclass, field
from typing import NamedTuple

import numba
import numpy as np

from ..parallel_build import serial_and_parallel


@dataclass
class SpanningForest:
    edges: np.ndarray       # k × 2 int32 (the graph's vertex type), u < v, in edge id ((u, v)) order;
                            # k = n − components
    weights: np.ndarray     # k float64
    total: float            # the sum of the weights by ``forest_total``: the same bits in every variant
    components: int         # trees in the forest (isolated vertices count as trees)
    variant: str            # the variant that actually ran
    seconds: float          # wall time of the solve (graph upload included if it was not resident)
    kernel_seconds: float   # compute only (device-synchronised for GPU variants)
    device: str             # e.g. "CPU (2 threads)" or "NVIDIA H100 80GB HBM3"
    note: str | None = None  # e.g. why a GPU variant fell back to the CPU
    edge_ids: np.ndarray = field(default=None, repr=False)  # the chosen edges' ids, ascending (``id_dtype``)


class ForestArrays(NamedTuple):
    """What a variant's ``run`` hands back: the forest in host arrays (see ``SpanningForest``)."""
    edges: np.ndarray
    weights: np.ndarray
    total: float
    ids: np.ndarray


def id_dtype(m: int):
    """The type of a graph's edge ids: int32 below 2³¹ edges (half the copy back of int64)."""
    return np.dtype(np.int32 if m < 2**31 else np.int64)


SUM_RUN = 16  # values a step of ``forest_total`` adds in order


@numba.njit(cache=True)
def run_sums(x):
    """One step of ``forest_total``: each run of ``SUM_RUN`` consecutive values summed in order
    from its first (the GPU's ``gpu_common._run_sums`` is the same step)."""
    out = np.empty((x.size + SUM_RUN - 1) // SUM_RUN, np.float64)
    for i in range(out.size):
        lo, hi = i * SUM_RUN, min((i + 1) * SUM_RUN, x.size)
        s = x[lo]
        for j in range(lo + 1, hi):
            s += x[j]
        out[i] = s
    return out


def forest_total(weights) -> float:
    """The weights' sum as every variant gives it: ``run_sums`` steps until one value is left (a
    tree of fixed shape, so the GPU variants, which take the first steps on the device, give the
    same bits as the CPU ones), 0.0 for none."""
    x = np.asarray(weights, np.float64)
    while x.size > 1:
        x = run_sums(x)
    return float(x[0]) if x.size else 0.0


def forest_arrays(g, ids) -> ForestArrays:
    """The forest whose ascending edge ids are ``ids`` in fresh host arrays: three gathers over
    the host edge list, nothing n- or m-sized; in parallel from ``PARALLEL_GATHER`` edges (the
    fresh arrays' pages are then first touched by every thread)."""
    edges = np.empty((len(ids), 2), g.u.dtype)
    weights = np.empty(len(ids), g.w.dtype)
    own_ids = np.empty(len(ids), id_dtype(g.m))
    _gather(ids, g.u, g.v, g.w, edges, weights, own_ids)
    return ForestArrays(edges, weights, forest_total(weights), own_ids)


PARALLEL_GATHER = 1 << 16


def _gather_edges(ids, u, v, w, edges, weights, own_ids):
    for i in numba.prange(len(ids)):
        e = ids[i]
        edges[i, 0] = u[e]
        edges[i, 1] = v[e]
        weights[i] = w[e]
        own_ids[i] = e


_gather = serial_and_parallel(_gather_edges, PARALLEL_GATHER)
