"""The data-parallel primitives the seed builds Borůvka from (it used CUDPP's): exclusive scan,
and split — a stable sort of elements by a key of a few bits.

Scan works on tiles of ``SCAN_TILE`` elements a block (runs of ``SCAN_ITEMS`` a thread, the
runs' sums scanned across the block), the tiles' sums scanned the same way, recursively.

Split is an LSD radix sort, ``DIGIT_BITS`` (8 on a GPU) a pass, each pass over tiles of ``TILE``
elements, one tile a block: a histogram of the tile's digits (shared-memory atomics); one scan
of every (digit, tile) count, digit-major, so each tile learns where its elements of each digit
go; then the tile sorts itself stably by the digit in shared memory — two rankings by
``RANK_BITS`` (4) bits, each from per-thread counts over runs of ``ITEMS`` consecutive elements
scanned across the block — and writes its elements out in that order: consecutive threads to
consecutive places of each digit's run, so the writes coalesce.

Both reuse device memory through a ``Scratch`` (buffers that only grow), so a level of the
recursion allocates nothing once the first, largest one has run.
"""

import numpy as np
from numba import cuda, int16, int32, int64

from ..gpu_device import simulated
from ..gpu_launch import THREADS, ceil_div

# The simulator runs every block in Python: the same two rankings a digit on smaller digits.
DIGIT_BITS = 4 if simulated() else 8  # a split pass sorts by this many bits
BUCKETS = 1 << DIGIT_BITS
RANK_BITS = DIGIT_BITS // 2      # a tile ranks its elements by this many bits at a time
RANK_BUCKETS = 1 << RANK_BITS
ITEMS = 2 if simulated() else 8  # consecutive elements a thread ranks in a split pass
TILE = THREADS * ITEMS           # elements a block sorts by one digit in shared memory
RANKS = RANK_BUCKETS * THREADS   # a tile's per-thread counts (int16: a tile has < 2^15)
SCAN_ITEMS = 2 if simulated() else 8  # consecutive elements a thread scans
SCAN_TILE = THREADS * SCAN_ITEMS


class Scratch:
    """Named device buffers kept between uses: ``get`` gives the first ``size`` elements of a
    buffer that is reallocated only to grow. Two arrays in use at once need two names."""

    def __init__(self):
        self._buffers = {}

    def get(self, name: str, size: int, dtype=np.int64):
        b = self._buffers.get(name)
        if b is None or b.size < size or b.dtype != np.dtype(dtype):
            b = self._buffers[name] = cuda.device_array(max(size, 1), dtype)
        return b[:size]


def exclusive_scan(a, out, scratch=None, total: bool = True):
    """out[i] = a[0] + … + a[i − 1] (int64 device arrays); returns the sum of all of a (which
    waits for the device) unless ``total`` is False (then None, nothing waited for)."""
    scratch = scratch if scratch is not None else Scratch()
    return _scan(a, out, scratch, total, 0)


def _scan(a, out, scratch, total, depth):
    if a.size == 0:
        return 0 if total else None
    tiles = ceil_div(a.size, SCAN_TILE)
    sums = scratch.get(f"scan_sums{depth}", tiles)
    _scan_tiles[tiles, THREADS](a, out, sums)
    if tiles == 1:
        return int(sums.copy_to_host()[0]) if total else None
    offsets = scratch.get(f"scan_offsets{depth}", tiles)
    result = _scan(sums, offsets, scratch, total, depth + 1)
    _add_tile_offsets[tiles, THREADS](out, offsets)
    return result


@cuda.jit
def _scan_tiles(a, out, sums):
    """Each tile's exclusive scan and its sum: loaded coalesced into shared memory, each thread
    sums a run of ``SCAN_ITEMS``, the runs' sums are scanned across the block, each thread
    writes its run's prefixes, the tile goes out coalesced."""
    tile = cuda.shared.array(SCAN_TILE, int64)
    partial = cuda.shared.array(THREADS, int64)
    tid = cuda.threadIdx.x
    base = cuda.blockIdx.x * SCAN_TILE
    for j in range(SCAN_ITEMS):
        i = base + j * THREADS + tid
        tile[j * THREADS + tid] = a[i] if i < a.size else 0
    cuda.syncthreads()
    tile_sum = _exclusive_scan_runs(tile, SCAN_ITEMS, partial, tid)
    for j in range(SCAN_ITEMS):
        i = base + j * THREADS + tid
        if i < a.size:
            out[i] = tile[j * THREADS + tid]
    if tid == 0:
        sums[cuda.blockIdx.x] = tile_sum


@cuda.jit(device=True)
def _exclusive_scan_runs(entries, run, partial, tid):
    """The block's ``THREADS`` · ``run`` shared ``entries`` replaced by their exclusive prefix
    sums (thread t sums its run t · run …, the runs' sums are scanned across the block); returns
    their total. Every thread calls it after a barrier behind the entries' writes."""
    mine = 0
    for q in range(run):
        mine += entries[tid * run + q]
    partial[tid] = mine
    cuda.syncthreads()
    _inclusive_scan_in_block(partial, tid)
    running = partial[tid] - mine
    for q in range(run):
        x = entries[tid * run + q]
        entries[tid * run + q] = running
        running += x
    total = partial[THREADS - 1]
    cuda.syncthreads()
    return total


@cuda.jit(device=True)
def _inclusive_scan_in_block(tile, tid):
    """tile[t] ← tile[0] + … + tile[t] over a block's ``THREADS`` shared entries (Hillis–Steele;
    every thread of the block calls it, after a barrier behind the entries' writes)."""
    step = 1
    while step < THREADS:
        y = tile[tid - step] if tid >= step else 0
        cuda.syncthreads()
        tile[tid] += y
        cuda.syncthreads()
        step *= 2


@cuda.jit
def _add_tile_offsets(out, offsets):
    for j in range(SCAN_ITEMS):
        i = cuda.blockIdx.x * SCAN_TILE + j * THREADS + cuda.threadIdx.x
        if i < out.size:
            out[i] += offsets[cuda.blockIdx.x]


def split(keys, values, bits: int, scratch=None):
    """``keys`` (int64 in [0, 2^bits)) and ``values`` stably sorted by key; returns the sorted
    pair (the inputs, or scratch buffers named "split_*")."""
    n = keys.size
    if n == 0:  # a launch of no blocks is an error on a GPU
        return keys, values
    scratch = scratch if scratch is not None else Scratch()
    tiles = ceil_div(n, TILE)
    counts = scratch.get("split_counts", BUCKETS * tiles)
    offsets = scratch.get("split_offsets", BUCKETS * tiles)
    spare_keys = scratch.get("split_keys", n)
    spare_values = scratch.get("split_values", n)
    for shift in range(0, bits, DIGIT_BITS):
        _tile_histograms[tiles, THREADS](keys, shift, counts)
        exclusive_scan(counts, offsets, scratch, total=False)
        _scatter_tiles[tiles, THREADS](keys, values, shift, min(DIGIT_BITS, bits - shift), offsets,
                                       spare_keys, spare_values)
        keys, values, spare_keys, spare_values = spare_keys, spare_values, keys, values
    return keys, values


@cuda.jit(device=True)
def _digit(key, shift):
    return (key >> shift) & (BUCKETS - 1)


@cuda.jit
def _tile_histograms(keys, shift, counts):
    """counts[digit · tiles + tile]: how many of the tile's keys have that digit."""
    hist = cuda.shared.array(BUCKETS, int32)
    tid, tile, tiles = cuda.threadIdx.x, cuda.blockIdx.x, cuda.gridDim.x
    for d in range(tid, BUCKETS, THREADS):
        hist[d] = 0
    cuda.syncthreads()
    for j in range(ITEMS):
        i = tile * TILE + j * THREADS + tid
        if i < keys.size:
            cuda.atomic.add(hist, _digit(keys[i], shift), 1)
    cuda.syncthreads()
    for d in range(tid, BUCKETS, THREADS):
        counts[d * tiles + tile] = hist[d]


@cuda.jit
def _scatter_tiles(keys, values, shift, digit_bits, offsets, keys_out, values_out):
    """One tile: loaded coalesced, sorted stably by its ``digit_bits``-bit digit in shared
    memory, written out in that order, each digit's run from offsets[digit · tiles + tile]."""
    tile_keys = cuda.shared.array(TILE, int64)
    tile_values = cuda.shared.array(TILE, int64)
    rank = cuda.shared.array(RANKS, int16)
    partial = cuda.shared.array(THREADS, int32)
    digit_start = cuda.shared.array(BUCKETS, int32)
    digit_place = cuda.shared.array(BUCKETS, int64)
    tid, tile, tiles = cuda.threadIdx.x, cuda.blockIdx.x, cuda.gridDim.x
    base = tile * TILE
    size = min(TILE, keys.size - base)
    for j in range(ITEMS):
        p = j * THREADS + tid
        if p < size:
            tile_keys[p], tile_values[p] = keys[base + p], values[base + p]
    for d in range(tid, BUCKETS, THREADS):
        digit_place[d] = offsets[d * tiles + tile]
    for low in range(0, digit_bits, RANK_BITS):
        _rank_in_tile(tile_keys, tile_values, size, shift + low, rank, partial, tid)
    for j in range(ITEMS):  # where each digit's run starts in the sorted tile
        p = j * THREADS + tid
        if p < size and (p == 0 or _digit(tile_keys[p], shift) != _digit(tile_keys[p - 1], shift)):
            digit_start[_digit(tile_keys[p], shift)] = p
    cuda.syncthreads()
    for j in range(ITEMS):
        p = j * THREADS + tid
        if p < size:
            d = _digit(tile_keys[p], shift)
            q = digit_place[d] + p - digit_start[d]
            keys_out[q], values_out[q] = tile_keys[p], tile_values[p]


@cuda.jit(device=True)
def _rank_in_tile(tile_keys, tile_values, size, shift, rank, partial, tid):
    """The tile's ``size`` elements stably sorted in shared memory by the ``RANK_BITS`` bits of
    their keys at ``shift``: each thread counts its run of ``ITEMS`` consecutive elements by
    those bits, the counts are scanned in (bits, thread) order, each element goes to its rank."""
    for d in range(RANK_BUCKETS):
        rank[d * THREADS + tid] = 0
    cuda.syncthreads()
    mine_keys = cuda.local.array(ITEMS, int64)
    mine_values = cuda.local.array(ITEMS, int64)
    for j in range(ITEMS):
        p = tid * ITEMS + j
        if p < size:
            mine_keys[j], mine_values[j] = tile_keys[p], tile_values[p]
            rank[((mine_keys[j] >> shift) & (RANK_BUCKETS - 1)) * THREADS + tid] += 1
    cuda.syncthreads()
    _exclusive_scan_runs(rank, RANK_BUCKETS, partial, tid)  # in (bits, thread) order
    for j in range(ITEMS):  # runs in thread order, each in element order: stable
        if tid * ITEMS + j < size:
            d = ((mine_keys[j] >> shift) & (RANK_BUCKETS - 1)) * THREADS + tid
            p = rank[d]
            rank[d] = p + 1
            tile_keys[p], tile_values[p] = mine_keys[j], mine_values[j]
    cuda.syncthreads()
