"""gpu-fast-sssp's small-graph kernel (``many_small``): one block per source, labels and a
bitmask frontier in shared memory (``engine.sssp.gpu_fast`` launches it), and the device
functions its rows are written with.
"""

import math

from numba import cuda, float64, int64, uint32

from .gpu_common import INF64

SMALL_MAX = 5952          # int64 labels and two frontier bitmasks in 48 KiB of shared memory
MASK_WORDS = SMALL_MAX // 32  # 32-bit words of one frontier bitmask (static shared memory)
FRONTIER_WORDS = 2 * MASK_WORDS  # this round's frontier and the next (a constant for the compiler)


@cuda.jit(device=True)
def round_vote(fell, rounds, max_rounds):
    """Whether a block's round loop ends after round ``rounds`` (counted from 1): 0 go on, 1
    nothing fell anywhere in the block (done), 2 labels still falling past ``max_rounds`` (a
    negative cycle). A barrier: every thread of the block calls it."""
    if cuda.syncthreads_or(fell) == 0:
        return 1
    return 2 if rounds > max_rounds else 0


@cuda.jit(device=True)
def as_distance(label):
    """An int64 label as the answer's float64 (inf where INF64; exact, every |label| < 2⁵³)."""
    return float64(label) if label < INF64 else math.inf


@cuda.jit(device=True)
def store_row(d, out, status, row, cycle):
    """Row ``row`` of ``out`` ← the block's shared labels d as float64 (inf where INF64),
    status[row] ← cycle; then a barrier, so that d may be reset for the next row."""
    for v in range(cuda.threadIdx.x, out.shape[1], cuda.blockDim.x):
        out[row, v] = as_distance(d[v])
    if cuda.threadIdx.x == 0:
        status[row] = cycle
    cuda.syncthreads()


@cuda.jit(device=True)
def _bit(v):
    return uint32(1) << uint32(v & 31)


@cuda.jit
def many_small(indptr, indices, weights, sources, k, out, max_rounds, status):
    """Block b solves sources[b], sources[b + gridDim], … of the first ``k``: Bellman-Ford rounds
    on shared-memory labels, each pushing along the out-edges of the vertices whose label fell in
    the round before only (a bitmask frontier), with a shared-memory atomic min; row r of ``out``
    gets float64 distances (inf unreachable, exact: every |distance| < 2⁵³ here) and status[r] 1
    if labels still fell after ``max_rounds`` rounds, else 0. (indptr, indices, weights) is the
    forward graph: row u lists u's out-edges.

    Round i relaxes every vertex whose label fell in round i − 1 with its label now, so after it
    every label is at most the cheapest walk of ≤ i edges: with no negative cycle reachable,
    nothing falls after round n − 1 and the frontier is empty by round n."""
    d = cuda.shared.array(0, int64)
    mask = cuda.shared.array(FRONTIER_WORDS, uint32)  # two frontiers: this round's, the next
    n = out.shape[1]
    words = (n + 31) // 32
    t, step = cuda.threadIdx.x, cuda.blockDim.x
    for row in range(cuda.blockIdx.x, k, cuda.gridDim.x):
        for v in range(t, n, step):
            d[v] = INF64
        for w in range(t, words, step):
            mask[w] = 0
            mask[MASK_WORDS + w] = 0
        cuda.syncthreads()
        if t == 0:
            s = sources[row]
            d[s] = 0
            mask[s >> 5] = _bit(s)
        cuda.syncthreads()
        rounds = 0
        while True:
            now = (rounds & 1) * MASK_WORDS
            after = MASK_WORDS - now
            fell = 0
            for u in range(t, n, step):
                if mask[now + (u >> 5)] & _bit(u):
                    du = d[u]
                    for e in range(indptr[u], indptr[u + 1]):
                        v = indices[e]
                        x = du + weights[e]
                        if x < d[v] and x < cuda.atomic.min(d, v, x):
                            cuda.atomic.or_(mask, after + (v >> 5), _bit(v))
                            fell = 1
            rounds += 1
            over = round_vote(fell, rounds, max_rounds)
            if over:
                break
            for w in range(t, words, step):  # read by every thread: cleared once all are past it
                mask[now + w] = 0
            cuda.syncthreads()
        store_row(d, out, status, row, over - 1)
