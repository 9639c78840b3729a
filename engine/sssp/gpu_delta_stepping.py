"""GPU Δ-stepping, the seed's Algorithm 3. Labels fall into buckets of width Δ; BIndex(v) (§5.5)
is the bucket v waits in (NONE when in none), kept as an atomic minimum so each relax is O(1).
For the smallest non-empty bucket i: repeatedly (b1) Add To Request — the light edges (cost ≤ Δ)
of B[i]'s vertices become requests (w, d(v) + c), each vertex reserving its slots with one
atomic add (the seed uses a prefix sum) — S ← S ∪ B[i], then (c1) Relax the requests; once
B[i] stays empty, (b2)/(c2) the heavy edges of S, once.

Both host loops are bounded by n (``bounded_rounds``): each smallest bucket leaves at least one
label final, so at most n buckets are visited; within a bucket a label re-enters it only by
falling along a light edge, so like Bellman-Ford's rounds B[i] is empty by its (n + 1)-th take.
"""

import numpy as np
from numba import cuda

from .delta import RULE, RULES, choose_delta
from .gpu_common import (THREADS, blocks_for, bounded_rounds, fill, reset_distances, set_value,
                         timed_on_device, upload)
from .negative import require_nonnegative

NONE = np.int64(2**62)


@cuda.jit
def smallest_bucket(bindex, out):
    """out[0] ← min over v of BIndex(v) (NONE when every bucket is empty)."""
    for v in range(cuda.grid(1), bindex.size, cuda.gridsize(1)):
        if bindex[v] < out[0]:
            cuda.atomic.min(out, 0, bindex[v])


@cuda.jit
def take_bucket(bindex, i, frontier, counts, in_s, s_list):
    """B[i] → frontier (emptied from BIndex); S ← S ∪ B[i]. counts: [frontier, S, requests]."""
    for v in range(cuda.grid(1), bindex.size, cuda.gridsize(1)):
        if bindex[v] == i:
            bindex[v] = NONE
            frontier[cuda.atomic.add(counts, 0, 1)] = v
            if cuda.atomic.exch(in_s, v, i) != i:
                s_list[cuda.atomic.add(counts, 1, 1)] = v


@cuda.jit
def add_to_request(indptr, indices, weights, d, vertices, count_at, counts, delta, heavy,
                   req_v, req_x):
    """(b1)/(b2) Add To Request: Req ← {(w, d(v) + c(v, w))} over the light (heavy) edges."""
    for i in range(cuda.grid(1), counts[count_at], cuda.gridsize(1)):
        v = vertices[i]
        mine = 0
        for e in range(indptr[v], indptr[v + 1]):
            mine += (weights[e] > delta) == heavy
        if mine == 0:
            continue
        slot = cuda.atomic.add(counts, 2, mine)
        dv = d[v]
        for e in range(indptr[v], indptr[v + 1]):
            if (weights[e] > delta) == heavy:
                req_v[slot] = indices[e]
                req_x[slot] = dv + weights[e]
                slot += 1


@cuda.jit
def relax_requests(req_v, req_x, counts, d, bindex, delta):
    """(c1)/(c2) Relax: for each (w, x) in Req, if x < d(w): d(w) ← x, w moves to B[x / Δ]."""
    for i in range(cuda.grid(1), counts[2], cuda.gridsize(1)):
        w, x = req_v[i], req_x[i]
        if x < d[w] and x < cuda.atomic.min(d, w, x):
            cuda.atomic.min(bindex, w, x // delta)


def run(g, sources):
    """(k×n int64 distances, seconds, note naming Δ and its rule): one source after another."""
    require_nonnegative(g, "gpu-delta-stepping")
    out = np.empty((len(sources), g.n), np.int64)
    delta = choose_delta(g)
    note = f"Δ = {delta} ({RULES[RULE]})"
    if not len(sources):
        return out, 0.0, note
    indptr, indices, weights = upload(g)
    n, m = g.n, max(g.m, 1)
    d, bindex = cuda.device_array(n, np.int64), cuda.device_array(n, np.int64)
    frontier, s_list = cuda.device_array(n, np.int64), cuda.device_array(n, np.int64)
    in_s = cuda.device_array(n, np.int64)
    req_v, req_x = cuda.device_array(m, np.int32), cuda.device_array(m, np.int64)
    counts = cuda.device_array(3, np.int32)
    least = cuda.device_array(1, np.int64)
    host = np.zeros(3, np.int32)
    zeros3 = np.zeros(3, np.int32)
    grid = blocks_for(n)
    seconds = 0.0
    for row, s in enumerate(sources):
        def launch_all():
            reset_distances(d, int(s))
            fill[grid, THREADS](bindex, NONE)
            fill[grid, THREADS](in_s, -1)
            set_value[1, 1](bindex, int(s), 0)
            for _ in bounded_rounds(n + 1, "gpu-delta-stepping's buckets"):
                least.copy_to_device(np.array([NONE]))
                smallest_bucket[grid, THREADS](bindex, least)
                i = int(least.copy_to_host()[0])
                if i == NONE:
                    return
                counts.copy_to_device(zeros3)
                for _ in bounded_rounds(n + 1, f"gpu-delta-stepping's bucket {i}"):
                    host[:] = counts.copy_to_host()
                    s_count = host[1]
                    counts.copy_to_device(np.array([0, s_count, 0], np.int32))
                    take_bucket[grid, THREADS](bindex, i, frontier, counts, in_s, s_list)
                    if counts.copy_to_host()[0] == 0:
                        break
                    add_to_request[grid, THREADS](indptr, indices, weights, d, frontier, 0,
                                                  counts, delta, False, req_v, req_x)
                    relax_requests[blocks_for(m), THREADS](req_v, req_x, counts, d, bindex, delta)
                add_to_request[grid, THREADS](indptr, indices, weights, d, s_list, 1, counts,
                                              delta, True, req_v, req_x)
                relax_requests[blocks_for(m), THREADS](req_v, req_x, counts, d, bindex, delta)
        seconds += timed_on_device(launch_all)
        d.copy_to_host(out[row])
    return out, seconds, note
