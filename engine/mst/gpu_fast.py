"""GPU fast spanning forest (ours): Borůvka made edge-centric and data-driven, no sorting.

Each round reads a worklist of the edges still joining two trees (all edges at first):
  select — per edge, the roots of its ends (union-find); an edge inside one tree is dropped for
           good, the others stay on the next worklist and offer their (weight, id) key to both
           roots by 64-bit atomic min;
  join   — per kept edge, if it is the lightest of either root's tree it is in the forest, and
           the two trees are joined (compare-and-swap hooking of the larger root under the
           smaller);
  reset  — the keys of the roots still in play go back to "no edge".
Keys are unique, so the edges chosen in a round form a forest and every hook is safe. The
worklist shrinks as trees merge; the rounds end when it is empty.
"""

import numpy as np
from numba import cuda

from ..gpu_launch import THREADS, blocks_for, timed_on_device
from .gpu_common import NO_KEY, buffer, chosen_edges, fill_with, find, upload


def run(g):
    if g.m == 0:
        return np.zeros(0, np.int64), 0.0, None
    u, v, key = upload(g)
    parent = buffer(g, "parent", g.n, np.int32)
    lightest = buffer(g, "lightest", g.n, np.int64)
    in_forest = buffer(g, "in_forest", g.m, np.uint8)
    worklists = buffer(g, "work0", g.m, np.int32), buffer(g, "work1", g.m, np.int32)
    count = buffer(g, "count", 1, np.int32)
    zero = cuda.pinned_array(1, np.int32)
    zero[0] = 0
    rounds = []

    def solve():
        start_trees[blocks_for(g.n), THREADS](parent, lightest)
        fill_with(in_forest, 0)
        work, kept = worklists
        size, first = g.m, True
        while size:
            count.copy_to_device(zero)
            select[blocks_for(size), THREADS](work, size, first, u, v, key, parent, lightest, kept, count)
            size = int(count.copy_to_host()[0])
            if size:
                join[blocks_for(size), THREADS](kept, size, u, v, key, parent, lightest, in_forest)
                reset[blocks_for(size), THREADS](kept, size, u, v, parent, lightest)
            work, kept, first = kept, work, False
            rounds.append(size)

    seconds = timed_on_device(solve)
    return chosen_edges(in_forest), seconds, f"{len(rounds)} rounds"


@cuda.jit
def start_trees(parent, lightest):
    for x in range(cuda.grid(1), parent.size, cuda.gridsize(1)):
        parent[x] = x
        lightest[x] = NO_KEY


@cuda.jit
def select(work, size, first, u, v, key, parent, lightest, kept, count):
    """Drop edges inside one tree; offer the others' keys to both roots; keep them, compacted
    a block at a time (one global atomic per block and pass)."""
    block_count = cuda.shared.array(1, np.int32)
    block_base = cuda.shared.array(1, np.int32)
    tid = cuda.threadIdx.x
    for chunk in range(cuda.blockIdx.x * cuda.blockDim.x, size, cuda.gridsize(1)):
        if tid == 0:
            block_count[0] = 0
        cuda.syncthreads()
        i, keep, e, slot = chunk + tid, False, 0, 0
        if i < size:
            e = i if first else work[i]
            a, b = find(parent, u[e]), find(parent, v[e])
            if a != b:
                keep = True
                cuda.atomic.min(lightest, a, key[e])
                cuda.atomic.min(lightest, b, key[e])
                slot = cuda.atomic.add(block_count, 0, 1)
        cuda.syncthreads()
        if tid == 0:
            block_base[0] = cuda.atomic.add(count, 0, block_count[0])
        cuda.syncthreads()
        if keep:
            kept[block_base[0] + slot] = e
        cuda.syncthreads()


@cuda.jit
def join(kept, size, u, v, key, parent, lightest, in_forest):
    """An edge that is the lightest of either end's tree is in the forest: join the trees."""
    for i in range(cuda.grid(1), size, cuda.gridsize(1)):
        e = kept[i]
        a, b = find(parent, u[e]), find(parent, v[e])
        if lightest[a] == key[e] or lightest[b] == key[e]:
            in_forest[e] = 1
            hook(parent, a, b)


@cuda.jit(device=True)
def hook(parent, a, b):
    """Join the trees of roots a and b: the larger root points at the smaller (so every parent
    pointer goes down in id and no cycle can form); a failed swap climbs from what it found."""
    while a != b:
        if a > b:
            a, b = b, a
        old = cuda.atomic.cas(parent, b, b, a)
        if old == b:
            return
        a, b = find(parent, a), find(parent, old)


@cuda.jit
def reset(kept, size, u, v, parent, lightest):
    for i in range(cuda.grid(1), size, cuda.gridsize(1)):
        e = kept[i]
        lightest[find(parent, u[e])] = NO_KEY
        lightest[find(parent, v[e])] = NO_KEY
