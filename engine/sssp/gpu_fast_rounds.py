"""gpu-fast-sssp's large-graph kernels: the persistent near–far rounds over a work queue of
(source, vertex) labels (``persistent_rounds``, built for ``PERSISTENT_SIGNATURE`` by
``engine.sssp.gpu_fast``), the round as a launch of its own where a cooperative launch cannot be
built, and the batch's set-up and write-out.
"""

from numba import cuda, int32, int64

from ..gpu_launch import read_in_every_block
from .gpu_common import INF64, SIMULATED
from .gpu_fast_small import as_distance

LOCAL_SLOTS = 16 if SIMULATED else 1024  # labels (and their values) a block's own list holds in shared memory
LOCAL_LISTS = 2 * LOCAL_SLOTS  # a constant for the compiler
FAR_SLOTS = 16 if SIMULATED else 1024  # a block's falls to the far pile held until its round ends
LOCAL_ITEMS = LOCAL_LISTS + FAR_SLOTS  # the two lists and the held far falls


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


def persistent_rounds(indptr, indices, weights, dist, n, q0, q1, lengths, stamp, max_rounds,
                      stats, delta, f0, f1, far_stamp, low, phase_work, aggregate, hops, batched):
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


PERSISTENT_SIGNATURE = ("void(int64[::1], int32[::1], int32[::1], int64[::1], int64, int64[::1], "
                        "int64[::1], int32[::1], int32[::1], int64, int64[::1], int64, int64[::1], "
                        "int64[::1], int32[::1], int64[::1], int64, boolean, int64, boolean)")
