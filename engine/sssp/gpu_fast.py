"""gpu-fast-sssp (ours): every source in one launch, no host round trip per round.

- Small graphs (distances of one source fit in a block's shared memory, n ≤ ``SMALL_MAX``):
  one block per source; each round pushes along the out-edges of the vertices whose label fell
  in the round before (a bitmask frontier in shared memory, shared-memory atomic min), until a
  block-wide vote says nothing fell — work ~ the edges of the vertices that improve, not
  n · rounds; no global traffic but the graph;
  each block writes its float64 row straight into mapped host memory that becomes the caller's
  answer (``answer_buffers``): no copy call, no conversion, no allocation per call.
- Large graphs: one persistent cooperative launch runs rounds over a work queue of (source,
  vertex) pairs for a batch of sources, with a grid barrier between rounds instead of a launch
  and a copy; near–far (Δ-stepping's two-bucket form): only labels below a limit are relaxed,
  the others wait in a far pile until the limit moves up by Δ — far fewer labels relaxed again
  and again than plain Bellman-Ford rounds, which negative costs still take. A warp's lanes
  append to a queue with one atomic add between them (``append``): a round's pushes all count
  on one address. Within a round each block relaxes the labels it lowered again, up to
  ``LOCAL_HOPS`` times, from its own list in shared memory (``frontier_round``): a road grid's
  thin wavefront moves several edges a grid barrier. Where a cooperative launch cannot be
  built, plain rounds run as one launch each.

Negative costs are fine; labels still falling after n rounds mean a reachable negative cycle.
"""

import functools
import math

import numpy as np
from numba import cuda, float64, int32, int64, uint32

from ..gpu_launch import at_most_per_multiprocessor, multiprocessors, read_in_every_block
from . import answer_buffers
from .delta import choose_delta
from .gpu_common import (INF64, SIMULATED, THREADS, blocks_for, co_resident_blocks, kept_buffer,
                         timed_on_device, upload)
from .negative import raise_negative_cycle

SMALL_MAX = 5952          # int64 labels and two frontier bitmasks in 48 KiB of shared memory
MASK_WORDS = SMALL_MAX // 32  # 32-bit words of one frontier bitmask (static shared memory)
FRONTIER_WORDS = 2 * MASK_WORDS  # this round's frontier and the next (a constant for the compiler)
BATCH_ITEMS = 1 << 26     # (source, vertex) labels of one large-graph batch
SMALL_THREADS = 8 if SIMULATED else 256
FEW_SOURCES_THREADS = 8 if SIMULATED else 1024  # a block per SM or fewer: make each one wider
DELTA_SCALE = 2          # the large path's first Δ, in units of the seed's rule (0: no near–far)
PHASE_WORK = 1 << 16     # labels a near–far phase should relax: fewer, and the width doubles (H100: README)
AGGREGATE = True         # the large path's queue appends: one atomic add per warp and queue, not per label
PERSISTENT_BLOCKS_PER_SM = None  # the persistent launch's blocks per SM at most (None: every co-resident one)
PERSISTENT_REGISTERS = None  # registers a thread of the persistent kernel may use (None: the compiler's choice)
BATCHED = True           # a thread's edges four at a time, loads and atomics issued before results are used
LOCAL_HOPS = 32           # times a block relaxes its own lowered labels again within a round (H100: README)
LOCAL_SLOTS = 16 if SIMULATED else 1024  # labels (and their values) a block's own list holds in shared memory
LOCAL_LISTS = 2 * LOCAL_SLOTS  # a constant for the compiler
FAR_SLOTS = 16 if SIMULATED else 1024  # a block's falls to the far pile held until its round ends
LOCAL_ITEMS = LOCAL_LISTS + FAR_SLOTS  # the two lists and the held far falls
COOPERATIVE_ERROR = None  # why the persistent launch could not be built, if it could not


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


if SIMULATED:  # no warp intrinsics in the simulator, which runs threads, not warps: a lane alone
    @cuda.jit(device=True)
    def lanes_appending_to(slot):
        return 1 << cuda.laneid

    @cuda.jit(device=True)
    def from_lane(lanes, value, lane):
        return value
else:
    @cuda.jit(device=True)
    def lanes_appending_to(slot):
        """The lanes of this warp at this append now whose counter is lengths[slot]: the ones
        at it together, split by counter in case the compiler merged appends to two queues."""
        return cuda.match_any_sync(cuda.activemask(), slot)

    @cuda.jit(device=True)
    def from_lane(lanes, value, lane):
        return cuda.shfl_sync(lanes, value, lane)


@cuda.jit(device=True)
def append(queue, lengths, slot, item, aggregate):
    """queue[lengths[slot]++] ← item. Aggregated: the lanes of a warp appending to one queue at
    once take consecutive places with one atomic add by the lowest of them — a round's pushes
    all count on one address, where an atomic per label waits for the one before at L2. The
    lanes of a grid-stride loop diverge, so the group is the lanes here now, not the warp."""
    if aggregate:
        lanes = lanes_appending_to(slot)
        lane = cuda.laneid
        lowest = cuda.ffs(lanes) - 1
        first = 0
        if lane == lowest:
            first = cuda.atomic.add(lengths, slot, cuda.popc(lanes))
        queue[from_lane(lanes, first, lowest) + cuda.popc(lanes & ((1 << lane) - 1))] = item
    else:
        queue[cuda.atomic.add(lengths, slot, 1)] = item


@cuda.jit(device=True)
def frontier_round(indptr, indices, weights, dist, n, queue, count, next_queue, lengths, next_slot,
                   stamp, r, limit, far, far_slot, far_stamp, phase, aggregate, hops, local, local_labels,
                   local_counts, batched):
    """One Bellman-Ford round over queued (source row, vertex) labels, flattened row * n + v;
    a label that falls below ``limit`` is queued for the next round once (stamped with the
    round), one that falls but stays at or above it joins the far pile once (stamped with the
    phase); ``append`` aggregated or not. With ``hops`` > 0, labels that fall below the limit
    go first to the block's own list in shared memory (``local``: two halves of
    ``LOCAL_SLOTS``, their lengths in ``local_counts``), which the block relaxes again, up to
    ``hops`` times, before the grid's barrier: a thin wavefront (a road grid's) moves several
    edges a round instead of one. What does not fit, and what is left after the last hop, is
    queued for the next round. Falls to the far pile wait in the block's shared memory too
    (after the lists in ``local``, counted in ``local_counts[2]``) and join the pile once the
    round's hops are done: their stamp and append are off the hops' path (H100, grid 2048²:
    41.4 → 39.4 ms; with the unwaited atomics of ``relax_out``, 36.1 ms). A label goes on a
    block's list every time that block lowers it,
    unstamped — another block may already have relaxed it from its own list this round, so a
    stamp saying "listed" would not say "will be relaxed after this fall" — and with the value
    it fell to (``local_labels``), which the block relaxes from: between grid barriers a plain
    load of another block's atomic result may still see a stale cached line. Every thread of
    the block calls it (block barriers inside)."""
    if cuda.threadIdx.x == 0:
        local_counts[0] = 0
        local_counts[1] = 0
        local_counts[2] = 0
    cuda.syncthreads()
    for i in range(cuda.grid(1), count, cuda.gridsize(1)):
        item = queue[i]
        relax_out(item, dist[item], indptr, indices, weights, dist, n, next_queue, lengths, next_slot, stamp,
                  r, limit, far, far_slot, far_stamp, phase, aggregate, hops > 0, local, local_labels,
                  local_counts, 0, batched)
    for h in range(hops):
        cuda.syncthreads()
        side = h % 2
        size = min(local_counts[side], LOCAL_SLOTS)
        if size == 0:
            break
        for j in range(cuda.threadIdx.x, size, cuda.blockDim.x):
            relax_out(local[side * LOCAL_SLOTS + j], local_labels[side * LOCAL_SLOTS + j], indptr, indices,
                      weights, dist, n, next_queue, lengths, next_slot, stamp, r, limit, far, far_slot,
                      far_stamp, phase, aggregate, True, local, local_labels, local_counts, 1 - side,
                      batched)
        cuda.syncthreads()
        if cuda.threadIdx.x == 0:
            local_counts[side] = 0
    cuda.syncthreads()
    if hops:
        side = hops % 2
        for j in range(cuda.threadIdx.x, min(local_counts[side], LOCAL_SLOTS), cuda.blockDim.x):
            queue_once(local[side * LOCAL_SLOTS + j], next_queue, lengths, next_slot, stamp, r, aggregate)
    for j in range(cuda.threadIdx.x, min(local_counts[2], FAR_SLOTS), cuda.blockDim.x):
        far_once(local[LOCAL_LISTS + j], far, lengths, far_slot, far_stamp, phase, aggregate)


@cuda.jit(device=True)
def queue_once(at, queue, lengths, slot, stamp, r, aggregate):
    """Queue label ``at`` for the round after ``r`` unless it already is."""
    if cuda.atomic.exch(stamp, at, r) != r:
        append(queue, lengths, slot, at, aggregate)


@cuda.jit(device=True)
def relax_out(item, du, indptr, indices, weights, dist, n, next_queue, lengths, next_slot, stamp, r,
              limit, far, far_slot, far_stamp, phase, aggregate, to_list, local, local_labels, local_counts,
              side, batched):
    """Relax the out-edges of label ``item`` at value ``du`` (``route_fall`` each that falls),
    unless the label has fallen below ``du`` since (a listed value another fall superseded: the
    thread of that fall relaxes the lower one — the grid's near–far relaxed ten times as many
    labels as it has vertices, and skipping these is what lets more hops a round pay: H100,
    grid 2048², 36.5 ms at 4 hops → 32.8 at 32). ``batched``: four edges at a time, their
    loads and then their atomics issued before any result is waited for — a thread's edges
    otherwise cost one memory round trip after another, and the slowest thread of a block sets
    the pace of each of its hops — and an edge counts as
    a fall when the label read is above its new value, without waiting for the atomic min's
    result (H100, grid 2048²: 41.4 → 38.5 ms): where the read was stale or another thread's
    lower value lands at once, the label is only relaxed once more from a value above its
    least, which is harmless — every value a label takes is still relaxed by the thread that
    wrote it. No load here sits behind a branch: the compiler had put each of the four edges'
    loads behind its own ``if`` and the edge range's behind the skip's read, one round trip
    after another (seen in Nsight Compute's stall samples); three round trips a hop instead of
    eight took the grid 2048² from 32.9 to 23.3 ms (H100)."""
    base = (item // n) * n if item >= n else 0  # row 0 (one source): no 64-bit division
    u = item - base
    e, end = indptr[u], indptr[u + 1]
    if dist[item] < du:  # fell further since it was listed: whoever lowered it relaxes the lower value
        end = e  # not a return: the compiler would sink the edge range's loads below this one's
    into = (next_queue, lengths, next_slot, stamp, r, limit, far, far_slot, far_stamp, phase, aggregate,
            to_list, local, local_labels, local_counts, side)
    if not batched:
        for e in range(e, end):
            at = base + indices[e]
            x = du + weights[e]
            if x < dist[at] and x < cuda.atomic.min(dist, at, x):
                route_fall(at, x, into)
        return
    while e < end:  # every load unconditional (past the end: the last edge again, never lower)
        last = end - 1
        e1, e2, e3 = min(e + 1, last), min(e + 2, last), min(e + 3, last)
        a0, a1, a2, a3 = base + indices[e], base + indices[e1], base + indices[e2], base + indices[e3]
        x0, x1, x2, x3 = du + weights[e], du + weights[e1], du + weights[e2], du + weights[e3]
        x1 = x1 if e + 1 < end else INF64
        x2 = x2 if e + 2 < end else INF64
        x3 = x3 if e + 3 < end else INF64
        f0, f1, f2, f3 = x0 < dist[a0], x1 < dist[a1], x2 < dist[a2], x3 < dist[a3]
        if f0:
            cuda.atomic.min(dist, a0, x0)
        if f1:
            cuda.atomic.min(dist, a1, x1)
        if f2:
            cuda.atomic.min(dist, a2, x2)
        if f3:
            cuda.atomic.min(dist, a3, x3)
        if f0:
            route_fall(a0, x0, into)
        if f1:
            route_fall(a1, x1, into)
        if f2:
            route_fall(a2, x2, into)
        if f3:
            route_fall(a3, x3, into)
        e += 4


@cuda.jit(device=True)
def route_fall(at, x, into):
    """Label ``at`` just fell to ``x``: below ``limit`` it goes on the block's list ``side`` with
    its value (``to_list``; queued when the list is full) or is queued for the next round once;
    at or above the limit it is held for the far pile (``frontier_round``), or joins it at once
    when the block holds ``FAR_SLOTS``. ``into``: where falls go, as ``relax_out`` packs it."""
    (next_queue, lengths, next_slot, stamp, r, limit, far, far_slot, far_stamp, phase, aggregate,
     to_list, local, local_labels, local_counts, side) = into
    if x < limit:
        slot = cuda.atomic.add(local_counts, side, 1) if to_list else LOCAL_SLOTS
        if slot < LOCAL_SLOTS:
            local[side * LOCAL_SLOTS + slot] = at
            local_labels[side * LOCAL_SLOTS + slot] = x
        else:
            queue_once(at, next_queue, lengths, next_slot, stamp, r, aggregate)
    else:
        slot = cuda.atomic.add(local_counts, 2, 1)
        if slot < FAR_SLOTS:
            local[LOCAL_LISTS + slot] = at
        else:
            far_once(at, far, lengths, far_slot, far_stamp, phase, aggregate)


@cuda.jit(device=True)
def far_once(at, far, lengths, slot, far_stamp, phase, aggregate):
    """Put label ``at`` on the far pile of ``phase`` unless it already is."""
    if cuda.atomic.exch(far_stamp, at, phase) != phase:
        append(far, lengths, slot, at, aggregate)


@cuda.jit(device=True)
def split_far(dist, far, count, limit, next_limit, queue, lengths, next_slot, stamp, r,
              next_far, next_far_slot, far_stamp, phase, aggregate):
    """The far pile at a new limit: labels now below it join the next round's queue, the rest
    the next phase's pile; entries whose label fell below the old limit were queued then."""
    for i in range(cuda.grid(1), count, cuda.gridsize(1)):
        item = far[i]
        d = dist[item]
        if d >= limit:
            if d < next_limit:
                queue_once(item, queue, lengths, next_slot, stamp, r, aggregate)
            else:
                far_once(item, next_far, lengths, next_far_slot, far_stamp, phase + 1, aggregate)


@cuda.jit(device=True)
def lowest_beyond(dist, far, count, limit, low):
    """low[0] ← the lowest label of the far pile at or above ``limit`` (its live entries)."""
    for i in range(cuda.grid(1), count, cuda.gridsize(1)):
        d = dist[far[i]]
        if d >= limit and d < low[0]:
            cuda.atomic.min(low, 0, d)


def _persistent(indptr, indices, weights, dist, n, q0, q1, lengths, stamp, max_rounds, stats,
                delta, f0, f1, far_stamp, low, phase_work, aggregate, hops, batched):
    """Every round in one launch. Near–far (Δ-stepping's two-bucket form, Davidson et al.):
    labels below ``limit`` are relaxed round after round; those at or above it wait in a far
    pile, and when no label below the limit is left, the limit moves to the next multiple of
    the bucket width above the pile's lowest label and the pile is split. Δ = 0: no limit
    (Bellman-Ford, and the only form for negative costs). The width adapts from Δ up: it
    doubles after a phase that relaxed fewer than ``phase_work`` labels and under twice as many
    as the phase before (a road grid's thin wavefront: few labels per phase, and every phase
    costs barriers; not a random graph's first phases, whose wavefront multiplies each step)
    and halves, never below Δ, after one of over eight times ``phase_work`` (every block counts
    the same queue lengths, so all agree). lengths: [0..2] round r's queue in slot r % 3 (the one
    read, the one filled, the one cleared for the round after); [3..4] the far piles of even
    and odd phases. ``aggregate``: warp-aggregated queue appends (``append``). stats: [0] 1
    where labels still fell after ``max_rounds`` rounds, [1] the rounds (passes that end in a
    grid barrier, the far pile's splits among them), [2] the phases — what a probe needs to
    tell the cost of a barrier from the cost of a round's work. ``hops``: how many times a block
    relaxes again, within a round, the labels it lowered (``frontier_round``); none without a
    limit, where the rounds also count towards a negative cycle. ``batched``: see ``relax_out``."""
    grid = cuda.cg.this_grid()
    counts = cuda.shared.array(1, int64)
    local = cuda.shared.array(LOCAL_ITEMS, int64)
    local_labels = cuda.shared.array(LOCAL_LISTS, int64)
    local_counts = cuda.shared.array(3, int32)
    hops = hops if delta > 0 else 0
    r = 0
    phase = 0
    limit = delta if delta > 0 else INF64
    width = delta
    work = 0
    last_work = 0
    while True:
        count = read_in_every_block(lengths, r % 3, counts)
        work += count
        if count == 0:
            far, next_far = (f0, f1) if phase % 2 == 0 else (f1, f0)
            far_count = read_in_every_block(lengths, 3 + phase % 2, counts)
            if far_count == 0:
                break
            lowest_beyond(dist, far, far_count, limit, low)
            grid.sync()
            lowest = read_in_every_block(low, 0, counts)
            if work < phase_work and work < 2 * last_work and width < INF64 // 4:
                width *= 2
            elif work > 8 * phase_work and width >= 2 * delta:
                width //= 2
            last_work = work
            work = 0
            next_limit = (lowest // width + 1) * width if lowest < INF64 else INF64
            split_far(dist, far, far_count, limit, next_limit, q0 if r % 2 == 1 else q1, lengths,
                      (r + 1) % 3, stamp, r, next_far, 3 + (phase + 1) % 2, far_stamp, phase, aggregate)
            limit = next_limit
        elif r >= max_rounds:
            if cuda.grid(1) == 0:
                stats[0] = 1
            break
        elif r % 2 == 0:
            frontier_round(indptr, indices, weights, dist, n, q0, count, q1, lengths, (r + 1) % 3,
                           stamp, r, limit, f0 if phase % 2 == 0 else f1, 3 + phase % 2, far_stamp, phase,
                           aggregate, hops, local, local_labels, local_counts, batched)
        else:
            frontier_round(indptr, indices, weights, dist, n, q1, count, q0, lengths, (r + 1) % 3,
                           stamp, r, limit, f0 if phase % 2 == 0 else f1, 3 + phase % 2, far_stamp, phase,
                           aggregate, hops, local, local_labels, local_counts, batched)
        grid.sync()
        if cuda.grid(1) == 0:
            lengths[r % 3] = 0
            if count == 0:
                lengths[3 + phase % 2] = 0
                low[0] = INF64
        if count == 0:
            phase += 1
        r += 1
    if cuda.grid(1) == 0:
        stats[1] = r
        stats[2] = phase + 1


@cuda.jit
def one_round(indptr, indices, weights, dist, n, queue, lengths, r, next_queue, stamp, aggregate, batched):
    """The round as its own launch, where a cooperative launch cannot be built (Bellman-Ford:
    no limit, so no far pile)."""
    no_list = cuda.shared.array(1, int64)
    no_counts = cuda.shared.array(3, int32)
    frontier_round(indptr, indices, weights, dist, n, queue, lengths[r % 3], next_queue, lengths,
                   (r + 1) % 3, stamp, r, INF64, queue, 0, stamp, 0, aggregate, 0, no_list, no_list, no_counts,
                   batched)


@cuda.jit
def start_batch(dist, stamp, far_stamp, sources, n, queue, lengths, low):
    """Labels INF but 0 at each row's source, that source queued; stamps cleared; no far pile."""
    for i in range(cuda.grid(1), dist.size, cuda.gridsize(1)):
        dist[i] = INF64
        stamp[i] = -1
        far_stamp[i] = -1
    for row in range(cuda.grid(1), sources.size, cuda.gridsize(1)):
        queue[row] = row * n + sources[row]
    if cuda.grid(1) == 0:
        lengths[0], lengths[1], lengths[2], lengths[3], lengths[4] = sources.size, 0, 0, 0, 0
        low[0] = INF64


@cuda.jit
def write_rows(dist, n, rows, out, first):
    """out[first + r, v] ← label r · n + v of a batch of ``rows`` as float64 (``out``: mapped
    host memory where it can be, so the answer crosses to the host as it is written; passed
    whole, as a slice of a mapped array has no device pointer)."""
    for i in range(cuda.grid(1), rows * n, cuda.gridsize(1)):
        out[first + i // n, i % n] = as_distance(dist[i])


@cuda.jit
def seed_sources(dist, sources, n):
    for row in range(cuda.grid(1), sources.size, cuda.gridsize(1)):
        dist[row * n + sources[row]] = 0


_SIGNATURE = ("void(int64[::1], int32[::1], int32[::1], int64[::1], int64, int64[::1], int64[::1], "
              "int32[::1], int32[::1], int64, int64[::1], int64, int64[::1], int64[::1], int32[::1], "
              "int64[::1], int64, boolean, int64, boolean)")


@functools.cache
def persistent_kernel():
    """(kernel, most co-resident blocks), or None where a cooperative launch cannot be built."""
    global COOPERATIVE_ERROR
    try:
        options = {"max_registers": PERSISTENT_REGISTERS} if PERSISTENT_REGISTERS and not SIMULATED else {}
        kernel = cuda.jit(_SIGNATURE, **options)(_persistent)
        return kernel, co_resident_blocks(kernel, THREADS)
    except Exception as exc:  # noqa: BLE001 — any build failure means: launch round by round
        COOPERATIVE_ERROR = f"{exc.__class__.__name__}: {str(exc)[:200]}"
        return None


def small_threads(k: int) -> int:
    """The block width for ``k`` sources: wider blocks where there is one per SM or fewer."""
    return FEW_SOURCES_THREADS if k <= multiprocessors() else SMALL_THREADS


def launch_small(g, d_sources, k, d_out, d_status, threads=None):
    """Queue ``many_small`` for the first ``k`` of ``d_sources`` on the forward graph (uploaded
    once), rows into ``d_out``, flags into ``d_status``; ``threads`` per block (default: the
    width ``small_threads`` picks)."""
    if g.n > 32 * MASK_WORDS:
        raise ValueError(f"{g.n} vertices: the small path's frontier holds {32 * MASK_WORDS}")
    indptr, indices, weights = upload(g)
    many_small[min(k, 65535), threads or small_threads(k), 0, 8 * g.n](
        indptr, indices, weights, d_sources, k, d_out, g.n + 1, d_status)


def _small(g, sources):
    """(float64 distances, seconds, rows whose source reaches a negative cycle, how). No allocation
    and no copy call per call: the sources and the cycle flags in mapped memory kept between
    calls, the answer written by the kernel straight into a pooled mapped buffer that becomes
    the caller's (``answer_buffers``); only when every pooled one is still held, written on the
    device and copied back once."""
    k = len(sources)
    with answer_buffers.LOCK:
        d_sources, d_status, status = answer_buffers.control(sources)
        out, host = answer_buffers.answer(k, g.n)
        d_out = out if out is not None else kept_buffer(g, "fast out", (k, g.n), np.float64)
        seconds = timed_on_device(lambda: launch_small(g, d_sources, k, d_out, d_status))
        if out is None:
            d_out.copy_to_host(host)
        cycles = np.flatnonzero(status[:k])
    return host, seconds, cycles, "one block per source, labels in shared memory"


def near_far_delta(g) -> int:
    """Δ of the large path's near–far rounds: the seed's Δ rule (``delta.RULE``) times
    ``DELTA_SCALE``; 0 (plain Bellman-Ford rounds) where a cost is negative, as near–far needs
    labels that only grow along a path; and where ``DELTA_SCALE`` is 0."""
    if g.min_weight < 0 or not g.m or not DELTA_SCALE:
        return 0
    return max(1, int(choose_delta(g) * DELTA_SCALE))


def _large(g, sources):
    """(float64 distances, seconds, first rows of batches whose labels still fell past the
    round limit, how: the launch, and the rounds and phases of the persistent one over all
    batches). Each batch's labels are written as float64 by the device into the answer:
    pooled mapped host memory, or a device buffer copied into pooled page-locked memory
    (``answer_buffers``) — no host pass over the k × n labels."""
    with answer_buffers.LOCK:
        mapped, host = answer_buffers.answer(len(sources), g.n)
    indptr, indices, weights = upload(g)
    n = g.n
    batch = max(1, min(len(sources), BATCH_ITEMS // n))
    dist = kept_buffer(g, "fast dist", batch * n, np.int64)
    stamp = kept_buffer(g, "fast stamp", batch * n, np.int32)
    q0 = kept_buffer(g, "fast q0", batch * n, np.int64)
    q1 = kept_buffer(g, "fast q1", batch * n, np.int64)
    lengths = kept_buffer(g, "fast lengths", 5, np.int32)
    stats = kept_buffer(g, "fast stats", 3, np.int64)  # see _persistent
    persistent = persistent_kernel()
    if persistent is not None:
        kernel, blocks = persistent[0], at_most_per_multiprocessor(persistent[1], PERSISTENT_BLOCKS_PER_SM)
    delta, max_rounds = near_far_delta(g), n + 1
    if persistent is not None and delta:
        f0 = kept_buffer(g, "fast far0", batch * n, np.int64)
        f1 = kept_buffer(g, "fast far1", batch * n, np.int64)
        far_stamp = kept_buffer(g, "fast far stamp", batch * n, np.int32)
        max_rounds = (n + 1) * (n + 2)  # at most n phases (each settles a label) of n + 1 rounds
    else:
        delta, f0, f1, far_stamp = 0, q0, q1, stamp  # Bellman-Ford: no far pile
    low = kept_buffer(g, "fast low", 1, np.int64)
    rows_out = None if mapped is not None else kept_buffer(g, "fast rows", (batch, n), np.float64)
    seconds, cycles, rounds, phases = 0.0, [], 0, 0
    for first in range(0, len(sources), batch):
        rows = sources[first:first + batch]
        items = len(rows) * n
        d_rows = cuda.to_device(rows)

        def launch_all():
            grid = blocks_for(items)
            start_batch[grid, THREADS](dist, stamp, far_stamp, d_rows, n, q0, lengths, low)
            seed_sources[blocks_for(len(rows)), THREADS](dist, d_rows, n)
            stats.copy_to_device(np.zeros(3, np.int64))
            if persistent is not None:
                kernel[blocks, THREADS](
                    indptr, indices, weights, dist, n, q0, q1, lengths, stamp, max_rounds, stats, delta,
                    f0, f1, far_stamp, low, PHASE_WORK, AGGREGATE, LOCAL_HOPS, BATCHED)
            else:
                _round_by_round(indptr, indices, weights, dist, n, q0, q1, lengths, stamp, stats)
            target, row = (mapped, first) if mapped is not None else (rows_out, 0)
            write_rows[blocks_for(items), THREADS](dist, n, len(rows), target, row)

        seconds += timed_on_device(launch_all)
        cycle, batch_rounds, batch_phases = stats.copy_to_host().tolist()
        if cycle:
            cycles.append(first)
        rounds, phases = rounds + batch_rounds, phases + batch_phases
        if mapped is None:
            rows_out[:len(rows)].copy_to_host(host[first:first + len(rows)])
    if persistent is None:
        how = f"frontier round by round (no cooperative launch: {COOPERATIVE_ERROR})"
    else:
        counted = (f", near–far Δ = {delta}: {rounds:,} rounds in {phases:,} phases" if delta else
                   f": {rounds:,} Bellman-Ford rounds")
        how = f"persistent grid-wide frontier on {blocks} × {THREADS} threads{counted}"
    return host, seconds, np.array(cycles, np.int64), how


def _round_by_round(indptr, indices, weights, dist, n, q0, q1, lengths, stamp, stats):
    counts = np.zeros(lengths.size, np.int32)
    r = 0
    while True:
        lengths.copy_to_host(counts)
        if counts[r % 3] == 0:
            return
        if r >= n + 1:
            stats[:1].copy_to_device(np.ones(1, np.int64))
            return
        queue, next_queue = (q0, q1) if r % 2 == 0 else (q1, q0)
        one_round[blocks_for(int(counts[r % 3])), THREADS](indptr, indices, weights, dist, n, queue,
                                                            lengths, r, next_queue, stamp, AGGREGATE, BATCHED)
        counts[r % 3] = 0
        lengths[r % 3:r % 3 + 1].copy_to_device(counts[r % 3:r % 3 + 1])
        r += 1


def run(g, sources):
    """(k×n float64 distances, ``np.inf`` unreachable, seconds, note): the answer in a pooled
    buffer that is the caller's for as long as it keeps a view of it (``answer_buffers``)."""
    if not len(sources) or not g.n:
        return np.empty((len(sources), g.n), np.int64), 0.0, None
    small = g.n <= SMALL_MAX
    out, seconds, cycles, how = (_small if small else _large)(g, sources)
    if len(cycles):
        raise_negative_cycle(g, sources if not small else sources[cycles])
    return out, seconds, f"gpu-fast-sssp: {how}"
