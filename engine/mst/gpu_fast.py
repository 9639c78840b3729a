"""GPU fast spanning forest (ours): Borůvka made edge-centric and data-driven, no sorting.

Each round reads a worklist of the edges still joining two trees (all edges at first), each
entry its two ends as the roots they had when it was kept, and its (weight, id) key:
  select   — per edge, the roots of its ends (union-find); an edge inside one tree is dropped
             for good, the others stay on the next worklist (ends replaced by their roots,
             compacted a block at a time) and offer their key to both roots by 64-bit atomic min;
  join     — per root, its lightest edge out is in the forest, and the two trees are joined
             (compare-and-swap hooking of the larger root under the smaller);
  compress — every vertex points straight at its root, so the next round's finds are one step;
  reset    — every root's lightest key back to "no edge" (one sequential fill).
Keys are unique, so the edges chosen in a round form a forest and every hook is safe. Only
select touches the edges; the other three steps are sequential passes over the vertices.
Every tree with an edge out is joined each round, so the rounds are bounded by the bit length
of n (``bounded_rounds``).
"""

import numpy as np
from numba import cuda

from ..gpu_launch import THREADS, blocks_for, bounded_rounds, timed_on_device
from .gpu_common import NO_KEY, buffer, chosen_edges, fill_with, find, halving_rounds, upload

EDGE_MASK = 0xFFFFFFFF


def run(g):
    if g.m == 0:
        return np.zeros(0, np.int64), 0.0, None
    u, v, key = upload(g)
    parent = buffer(g, "parent", g.n, np.int32)
    lightest = buffer(g, "lightest", g.n, np.int64)
    in_forest = buffer(g, "in_forest", g.m, np.uint8)
    ends = buffer(g, "ends0", g.m, np.int64), buffer(g, "ends1", g.m, np.int64)
    keys = buffer(g, "keys0", g.m, np.int64), buffer(g, "keys1", g.m, np.int64)
    count = buffer(g, "count", 1, np.int32)
    zero = cuda.pinned_array(1, np.int32)
    zero[0] = 0
    size_read = cuda.pinned_array(1, np.int32)
    rounds = []

    def solve():
        vertex_blocks = blocks_for(g.n)
        start_trees[vertex_blocks, THREADS](parent, lightest)
        fill_with(in_forest, 0)
        size, first, side = g.m, True, 0
        for _ in bounded_rounds(halving_rounds(g.n), "gpu-fast-mst's rounds"):
            if not size:
                break
            count.copy_to_device(zero)
            select[blocks_for(size), THREADS](size, first, u, v, key, ends[side], keys[side],
                                              parent, lightest, ends[1 - side], keys[1 - side], count)
            count.copy_to_host(size_read)
            size, first, side = int(size_read[0]), False, 1 - side
            rounds.append(size)
            if size:
                join[vertex_blocks, THREADS](lightest, u, v, parent, in_forest)
                compress[vertex_blocks, THREADS](parent)
                fill_with(lightest, NO_KEY)

    seconds = timed_on_device(solve)
    return chosen_edges(in_forest), seconds, f"{len(rounds)} rounds"


@cuda.jit
def start_trees(parent, lightest):
    for x in range(cuda.grid(1), parent.size, cuda.gridsize(1)):
        parent[x] = x
        lightest[x] = NO_KEY


@cuda.jit
def select(size, first, u, v, key, ends, keys, parent, lightest, kept_ends, kept_keys, count):
    """Drop edges inside one tree; offer the others' keys to both roots and keep them."""
    block_count = cuda.shared.array(1, np.int32)
    block_base = cuda.shared.array(1, np.int32)
    tid = cuda.threadIdx.x
    for chunk in range(cuda.blockIdx.x * cuda.blockDim.x, size, cuda.gridsize(1)):
        if tid == 0:
            block_count[0] = 0
        cuda.syncthreads()
        i, keep, slot, a, b, k = chunk + tid, False, 0, 0, 0, NO_KEY
        if i < size:
            if first:
                a, b, k = find(parent, u[i]), find(parent, v[i]), key[i]
            else:
                a, b, k = find(parent, ends[i] >> 32), find(parent, ends[i] & EDGE_MASK), keys[i]
            if a != b:
                keep = True
                cuda.atomic.min(lightest, a, k)
                cuda.atomic.min(lightest, b, k)
                slot = cuda.atomic.add(block_count, 0, 1)
        cuda.syncthreads()
        if tid == 0:
            block_base[0] = cuda.atomic.add(count, 0, block_count[0])
        cuda.syncthreads()
        if keep:
            kept_ends[block_base[0] + slot] = (np.int64(a) << 32) | b
            kept_keys[block_base[0] + slot] = k
        cuda.syncthreads()


@cuda.jit
def join(lightest, u, v, parent, in_forest):
    """Each root's lightest edge out is in the forest: join the trees at its ends."""
    for r in range(cuda.grid(1), lightest.size, cuda.gridsize(1)):
        k = lightest[r]
        if k != NO_KEY:
            e = k & EDGE_MASK
            in_forest[e] = 1
            hook(parent, find(parent, u[e]), find(parent, v[e]))


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
def compress(parent):
    for x in range(cuda.grid(1), parent.size, cuda.gridsize(1)):
        parent[x] = find(parent, x)
