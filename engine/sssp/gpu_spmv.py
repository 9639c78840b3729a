"""GPU Bellman-Ford as repeated min-plus sparse matrix-vector products (the seed's §6):
d ← min(d, Aᵀ ⊗ d), where row v of Aᵀ holds v's in-edges. One thread per row, updating d in
place; rounds end when no label changes, and a change in round n means a reachable negative
cycle. Two layouts of Aᵀ: CSR, and ELL (every row padded to the largest in-degree, stored
column by column so a warp's threads read neighbouring words).
"""

import numpy as np
from numba import cuda

from .gpu_common import (INF64, THREADS, blocks_for, kept_buffer, pulled_label, reset_distances,
                         timed_on_device, upload)
from .negative import raise_negative_cycle

ELL_MAX_BYTES = 2 << 30  # padding beyond this (a high in-degree vertex) makes ELL refuse the graph


class ELLTooLarge(MemoryError):
    """ELL would pad the graph past ``ELL_MAX_BYTES``."""


@cuda.jit
def spmv_csr(indptr, indices, weights, d, changed, round_):
    for v in range(cuda.grid(1), d.size, cuda.gridsize(1)):
        best = pulled_label(indptr, indices, weights, d, v)
        if best < d[v]:
            d[v] = best
            changed[round_] = 1


@cuda.jit
def spmv_ell(ell_cols, ell_weights, d, changed, round_):
    n = d.size
    for v in range(cuda.grid(1), n, cuda.gridsize(1)):
        best = d[v]
        for k in range(ell_cols.shape[0]):
            u = ell_cols[k, v]
            if u < 0:
                break
            du = d[u]
            if du < INF64 and du + ell_weights[k, v] < best:
                best = du + ell_weights[k, v]
        if best < d[v]:
            d[v] = best
            changed[round_] = 1


def ell_arrays(g):
    """The reversed graph in ELL on the device: (K×n heads, K×n costs), -1 pads; made once."""
    if "ell" not in g.device:
        t = g.transpose()
        degree = np.diff(t.indptr)
        k = int(degree.max()) if g.n else 0
        if k * g.n * 8 > ELL_MAX_BYTES:
            raise ELLTooLarge(f"ELL pads every row to the largest in-degree {k}: {k * g.n * 8 / 2**30:.1f} "
                              f"GiB for {g.m} edges (limit {ELL_MAX_BYTES / 2**30:.0f} GiB)")
        cols = np.full((k, g.n), -1, np.int32)
        costs = np.zeros((k, g.n), np.int32)
        rows = np.repeat(np.arange(g.n), degree)
        slot = np.arange(t.m) - t.indptr[rows]
        cols[slot, rows], costs[slot, rows] = t.indices, t.weights
        g.device["ell"] = (cuda.to_device(cols), cuda.to_device(costs))
    return g.device["ell"]


def _run(g, sources, product):
    out = np.empty((len(sources), g.n), np.int64)
    if not len(sources):
        return out, 0.0, None
    n = g.n
    d = kept_buffer(g, "spmv d", n, np.int64)
    changed = kept_buffer(g, "spmv changed", n + 1, np.int8)
    flag = np.zeros(1, np.int8)
    grid = blocks_for(n)
    seconds, cycle = 0.0, False
    for row, s in enumerate(sources):
        def launch_all():
            nonlocal cycle
            reset_distances(d, int(s))
            changed.copy_to_device(np.zeros(n + 1, np.int8))
            for r in range(n + 1):
                product(grid, d, changed, r)
                changed[r:r + 1].copy_to_host(flag)
                if not flag[0]:
                    return
            cycle = True  # still changing in round n + 1
        seconds += timed_on_device(launch_all)
        if cycle:
            raise_negative_cycle(g, sources[row:row + 1])
        d.copy_to_host(out[row])
    return out, seconds, None


def run_csr(g, sources):
    indptr, indices, weights = upload(g, transposed=True)
    return _run(g, sources, lambda grid, d, changed, r:
                spmv_csr[grid, THREADS](indptr, indices, weights, d, changed, r))


def run_ell(g, sources):
    cols, costs = ell_arrays(g)
    return _run(g, sources, lambda grid, d, changed, r:
                spmv_ell[grid, THREADS](cols, costs, d, changed, r))
