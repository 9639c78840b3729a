"""CPU Bellman-Ford with a FIFO queue of changed vertices and the seed's two queue rules (§4.3):
Small Label First (a vertex whose label is below the front's goes to the front) and Large Label
Last (a front vertex whose label is above the queue's average goes to the back). Negative costs
are allowed; a vertex on a reachable negative cycle is named."""

import time

import numba
import numpy as np

from .cpu_common import spread_over_cores
from .errors import NegativeCycleError
from .graph import INF


@numba.njit(cache=True, nogil=True)
def bellman_ford_row(indptr, indices, weights, source, dist):
    """Distances from ``source`` into ``dist``. Returns -1, or a vertex on a negative cycle."""
    n = len(dist)
    dist[:] = INF
    pred = np.full(n, -1, np.int32)
    hops = np.zeros(n, np.int64)      # edges on the route found so far
    queued = np.zeros(n, np.bool_)
    queue = np.empty(max(n, 1), np.int32)  # circular: each vertex is in it at most once
    head, count, total = 0, 1, 0.0   # total: sum of queued labels, for LLL's average
    dist[source] = 0
    queue[0] = source
    queued[source] = True
    while count > 0:
        for _ in range(count):   # Large Label Last: rotate big labels to the back
            u = queue[head]
            if float(dist[u]) * count <= total:
                break
            queue[(head + count) % n] = u
            head = (head + 1) % n
        u = queue[head]
        head = (head + 1) % n
        count -= 1
        queued[u] = False
        du = dist[u]
        total -= du
        for e in range(indptr[u], indptr[u + 1]):
            v = indices[e]
            nd = du + weights[e]
            if nd < dist[v]:
                if queued[v]:
                    total -= dist[v] - nd
                dist[v] = nd
                pred[v] = u
                hops[v] = hops[u] + 1
                if hops[v] >= n:  # a route of n edges repeats a vertex: look for the cycle
                    x = v
                    for _ in range(n):
                        x = pred[x]
                        if x < 0:
                            break
                    if x >= 0:
                        return x
                if not queued[v]:
                    queued[v] = True
                    total += nd
                    if count > 0 and nd < dist[queue[head]]:  # Small Label First
                        head = (head - 1) % n
                        queue[head] = v
                    else:
                        queue[(head + count) % n] = v
                    count += 1
    return -1


@numba.njit(cache=True, parallel=True)
def _many(indptr, indices, weights, sources, out, cycle):
    for i in numba.prange(len(sources)):
        cycle[i] = bellman_ford_row(indptr, indices, weights, sources[i], out[i])


def run(g, sources):
    """(k×n int64 distances, seconds, note); NegativeCycleError if a source reaches one."""
    out = np.empty((len(sources), g.n), np.int64)
    cycle = np.full(len(sources), -1, np.int64)
    start = time.perf_counter()
    if spread_over_cores(g, sources):
        _many(g.indptr, g.indices, g.weights, sources, out, cycle)
    else:
        for i, s in enumerate(sources):
            cycle[i] = bellman_ford_row(g.indptr, g.indices, g.weights, s, out[i])
    seconds = time.perf_counter() - start
    hit = np.flatnonzero(cycle >= 0)
    if len(hit):
        raise NegativeCycleError(cycle[hit[0]], sources[hit[0]])
    return out, seconds, None
