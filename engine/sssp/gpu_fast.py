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
This module chooses the path and launches it; the kernels are in ``gpu_fast_small`` and
``gpu_fast_rounds``.
"""

import functools

import numpy as np
from numba import cuda

from ..gpu_launch import at_most_per_multiprocessor, multiprocessors
from . import answer_buffers
from .delta import choose_delta
from .gpu_common import (SIMULATED, THREADS, blocks_for, co_resident_blocks, kept_buffer,
                         timed_on_device, upload)
from .gpu_fast_rounds import (PERSISTENT_SIGNATURE, one_round, persistent_rounds, seed_sources,
                              start_batch, write_rows)
from .gpu_fast_small import MASK_WORDS, SMALL_MAX, many_small
from .negative import raise_negative_cycle

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
COOPERATIVE_ERROR = None  # why the persistent launch could not be built, if it could not


@functools.cache
def persistent_kernel():
    """(kernel, most co-resident blocks), or None where a cooperative launch cannot be built."""
    global COOPERATIVE_ERROR
    try:
        options = {"max_registers": PERSISTENT_REGISTERS} if PERSISTENT_REGISTERS and not SIMULATED else {}
        kernel = cuda.jit(PERSISTENT_SIGNATURE, **options)(persistent_rounds)
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
    stats = kept_buffer(g, "fast stats", 3, np.int64)  # see persistent_rounds
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
