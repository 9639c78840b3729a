"""CPU Dijkstra with a binary heap (indexed, decrease-key), Numba-compiled: one thread per
source, many sources spread over all cores."""

import time

import numba
import numpy as np

from .cpu_common import spread_over_cores
from .graph import INF
from .negative import require_nonnegative


@numba.njit(cache=True, nogil=True)
def _sift_up(heap, pos, key, i):
    v = heap[i]
    while i > 0:
        parent = (i - 1) >> 1
        p = heap[parent]
        if key[p] <= key[v]:
            break
        heap[i] = p
        pos[p] = i
        i = parent
    heap[i] = v
    pos[v] = i


@numba.njit(cache=True, nogil=True)
def _sift_down(heap, pos, key, size):
    v = heap[0]
    i = 0
    while True:
        child = 2 * i + 1
        if child >= size:
            break
        c = heap[child]
        if child + 1 < size and key[heap[child + 1]] < key[c]:
            child += 1
            c = heap[child]
        if key[v] <= key[c]:
            break
        heap[i] = c
        pos[c] = i
        i = child
    heap[i] = v
    pos[v] = i


@numba.njit(cache=True, nogil=True)
def dijkstra_row(indptr, indices, weights, source, dist, heap, pos):
    """Distances from ``source`` into ``dist`` (filled here). ``pos``: a vertex's heap slot,
    -1 never queued, -2 settled."""
    dist[:] = INF
    pos[:] = -1
    dist[source] = 0
    heap[0] = source
    pos[source] = 0
    size = 1
    while size > 0:
        u = heap[0]
        pos[u] = -2
        size -= 1
        if size > 0:
            heap[0] = heap[size]
            pos[heap[0]] = 0
            _sift_down(heap, pos, dist, size)
        du = dist[u]
        for e in range(indptr[u], indptr[u + 1]):
            v = indices[e]
            nd = du + weights[e]
            if nd < dist[v]:
                dist[v] = nd
                if pos[v] == -1:
                    heap[size] = v
                    size += 1
                    _sift_up(heap, pos, dist, size - 1)
                else:  # in the heap (a settled vertex cannot improve: costs are ≥ 0)
                    _sift_up(heap, pos, dist, pos[v])


@numba.njit(cache=True, parallel=True)
def _many(indptr, indices, weights, sources, out):
    n = out.shape[1]
    for i in numba.prange(len(sources)):
        heap = np.empty(max(n, 1), np.int32)
        pos = np.empty(n, np.int32)
        dijkstra_row(indptr, indices, weights, sources[i], out[i], heap, pos)


def run(g, sources):
    """(k×n int64 distances, seconds, note)."""
    require_nonnegative(g, "cpu-dijkstra")
    out = np.empty((len(sources), g.n), np.int64)
    start = time.perf_counter()
    if spread_over_cores(g, sources):
        _many(g.indptr, g.indices, g.weights, sources, out)
    else:
        heap, pos = np.empty(max(g.n, 1), np.int32), np.empty(g.n, np.int32)
        for i, s in enumerate(sources):
            dijkstra_row(g.indptr, g.indices, g.weights, s, out[i], heap, pos)
    return out, time.perf_counter() - start, None
