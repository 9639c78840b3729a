"""GPU Bellman-Ford, the seed's Algorithm 2 with its work queue (§4.2): each round (b) Relax
runs one thread per vertex in the queue over its out-edges; a vertex whose label fell joins the
next round's queue once (a per-vertex round stamp, set atomically). Rounds end when the queue
is empty; a queue still non-empty after n rounds means a reachable negative cycle.
"""

import numpy as np
from numba import cuda

from .gpu_common import THREADS, blocks_for, reset_distances, set_value, timed_on_device, upload
from .negative import raise_negative_cycle


@cuda.jit
def relax_queue(indptr, indices, weights, d, queue, lengths, round_, next_queue, stamp):
    """(b) Relax the out-edges of queue[0 : lengths[round_]]; append improved vertices."""
    for i in range(cuda.grid(1), lengths[round_], cuda.gridsize(1)):
        u = queue[i]
        du = d[u]
        for e in range(indptr[u], indptr[u + 1]):
            v = indices[e]
            nd = du + weights[e]
            if nd < d[v]:
                if nd < cuda.atomic.min(d, v, nd):
                    if cuda.atomic.exch(stamp, v, round_) != round_:
                        next_queue[cuda.atomic.add(lengths, round_ + 1, 1)] = v


def run(g, sources):
    """(k×n int64 distances, seconds, note): one source after another."""
    out = np.empty((len(sources), g.n), np.int64)
    if not len(sources):
        return out, 0.0, None
    indptr, indices, weights = upload(g)
    n = g.n
    d = cuda.device_array(n, np.int64)
    queues = [cuda.device_array(max(n, 1), np.int32) for _ in range(2)]
    lengths = cuda.device_array(n + 2, np.int32)
    stamp = cuda.device_array(n, np.int32)
    length = np.zeros(1, np.int32)
    seconds, cycle = 0.0, False
    for row, s in enumerate(sources):
        def launch_all():
            nonlocal cycle
            reset_distances(d, int(s))
            set_value[1, 1](queues[0], 0, int(s))
            lengths.copy_to_device(np.r_[np.int32(1), np.zeros(n + 1, np.int32)])
            stamp.copy_to_device(np.full(n, -1, np.int32))
            length[0] = 1
            r = 0
            while length[0] > 0:
                if r == n:  # n rounds and still changing
                    cycle = True
                    return
                relax_queue[blocks_for(int(length[0])), THREADS](
                    indptr, indices, weights, d, queues[r % 2], lengths, r, queues[1 - r % 2], stamp)
                r += 1
                lengths[r:r + 1].copy_to_host(length)
        seconds += timed_on_device(launch_all)
        if cycle:
            raise_negative_cycle(g, sources[row:row + 1])
        d.copy_to_host(out[row])
    return out, seconds, None
