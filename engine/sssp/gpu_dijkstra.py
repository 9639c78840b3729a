"""GPU Dijkstra, the seed's Algorithm 1: n steps of (b) ExtractMin — the unsettled vertex of
smallest label found by a parallel reduction (a partial minimum per block, then one block
reducing those) — and (c) Relax — the minimum's out-edges relaxed in parallel. O(n²) work:
the seed's own point is that it cannot scale to millions of vertices.

The minimum never travels to the host: the final reduction writes it to device memory where
Relax reads it; the host checks for the end (no reachable vertex left) every ``CHECK_EVERY``
steps.
"""

import numpy as np
from numba import cuda, int32, int64

from .gpu_common import INF64, SIMULATED, THREADS, blocks_for, reset_distances, timed_on_device, upload
from .negative import require_nonnegative

CHECK_EVERY = 256
RELAX_BLOCKS = 1 if SIMULATED else 8  # an airport vertex has a handful of edges


@cuda.jit(device=True)
def block_minimum(sd, sv, t, best, at):
    """Tree reduction of the block's (label, vertex) pairs: the smallest ends in slot 0."""
    sd[t], sv[t] = best, at
    cuda.syncthreads()
    step = THREADS // 2
    while step > 0:
        if t < step and sd[t + step] < sd[t]:
            sd[t], sv[t] = sd[t + step], sv[t + step]
        cuda.syncthreads()
        step //= 2


@cuda.jit
def extract_min_partial(d, settled, part_d, part_v):
    """(b) ExtractMin, first level: each block's smallest unsettled label and its vertex."""
    sd = cuda.shared.array(THREADS, int64)
    sv = cuda.shared.array(THREADS, int32)
    t = cuda.threadIdx.x
    best, at = INF64, int32(-1)
    for v in range(cuda.grid(1), d.size, cuda.gridsize(1)):
        if settled[v] == 0 and d[v] < best:
            best, at = d[v], int32(v)
    block_minimum(sd, sv, t, best, at)
    if t == 0:
        part_d[cuda.blockIdx.x], part_v[cuda.blockIdx.x] = sd[0], sv[0]


@cuda.jit
def extract_min_final(part_d, part_v, settled, current):
    """(b) ExtractMin, second level (one block): u ← the minimum, removed from Q; -1 if none."""
    sd = cuda.shared.array(THREADS, int64)
    sv = cuda.shared.array(THREADS, int32)
    t = cuda.threadIdx.x
    best, at = INF64, int32(-1)
    for i in range(t, part_d.size, THREADS):
        if part_d[i] < best:
            best, at = part_d[i], part_v[i]
    block_minimum(sd, sv, t, best, at)
    if t == 0:
        current[0] = sv[0]
        if sv[0] >= 0:
            settled[sv[0]] = 1


@cuda.jit
def relax(indptr, indices, weights, d, current):
    """(c) Relax: every edge (u, v) of the minimum u in parallel."""
    u = current[0]
    if u < 0:
        return
    du = d[u]
    for e in range(indptr[u] + cuda.grid(1), indptr[u + 1], cuda.gridsize(1)):
        v = indices[e]
        nd = du + weights[e]
        if nd < d[v]:
            d[v] = nd


def run(g, sources):
    """(k×n int64 distances, seconds, note): one source after another."""
    require_nonnegative(g, "gpu-dijkstra")
    out = np.empty((len(sources), g.n), np.int64)
    if not len(sources):
        return out, 0.0, None
    indptr, indices, weights = upload(g)
    blocks = blocks_for(g.n)
    d = cuda.device_array(g.n, np.int64)
    settled = cuda.device_array(g.n, np.int8)
    part_d, part_v = cuda.device_array(blocks, np.int64), cuda.device_array(blocks, np.int32)
    current = cuda.device_array(1, np.int32)
    check_every = 4 if SIMULATED else CHECK_EVERY
    seconds = 0.0
    for row, s in enumerate(sources):
        def launch_all():
            reset_distances(d, int(s))
            settled.copy_to_device(np.zeros(g.n, np.int8))
            for step in range(g.n):
                extract_min_partial[blocks, THREADS](d, settled, part_d, part_v)
                extract_min_final[1, THREADS](part_d, part_v, settled, current)
                relax[RELAX_BLOCKS, THREADS](indptr, indices, weights, d, current)
                if (step + 1) % check_every == 0 and current.copy_to_host()[0] < 0:
                    break
        seconds += timed_on_device(launch_all)
        d.copy_to_host(out[row])
    return out, seconds, None
