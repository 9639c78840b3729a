"""The data-parallel primitives the seed builds Borůvka from (it used CUDPP's): exclusive scan,
and split — a stable sort of elements by a key of a few bits.

Split is an LSD radix sort, ``DIGIT_BITS`` a pass, each pass over tiles of ``TILE`` elements,
one tile a block: a histogram of the tile's digits (shared-memory atomics); one scan of every
(digit, tile) count, digit-major, so each tile learns where its elements of each digit go; then
the tile ranks its elements stably in shared memory (per-thread digit counts over runs of
``ITEMS`` consecutive elements, scanned across the block) and writes them out in sorted order —
consecutive threads to consecutive places of each digit's run, so the writes coalesce.

Both reuse device memory through a ``Scratch`` (buffers that only grow), so a level of the
recursion allocates nothing once the first, largest one has run.
"""

import numpy as np
from numba import cuda, int32, int64

from ..gpu_device import simulated
from ..gpu_launch import THREADS, ceil_div

DIGIT_BITS = 4
BUCKETS = 1 << DIGIT_BITS
ITEMS = 2 if simulated() else 4  # consecutive elements a thread ranks in a split pass
TILE = THREADS * ITEMS           # elements a block sorts by one digit in shared memory
RANKS = BUCKETS * THREADS        # a tile's per-thread digit counts


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
    blocks = ceil_div(a.size, THREADS)
    sums = scratch.get(f"scan_sums{depth}", blocks)
    _scan_blocks[blocks, THREADS](a, out, sums)
    if blocks == 1:
        return int(sums.copy_to_host()[0]) if total else None
    offsets = scratch.get(f"scan_offsets{depth}", blocks)
    result = _scan(sums, offsets, scratch, total, depth + 1)
    _add_block_offsets[blocks, THREADS](out, offsets)
    return result


@cuda.jit
def _scan_blocks(a, out, sums):
    """Each block's exclusive scan in shared memory (Hillis–Steele) and its sum."""
    tile = cuda.shared.array(THREADS, int64)
    tid = cuda.threadIdx.x
    i = cuda.blockIdx.x * THREADS + tid
    x = a[i] if i < a.size else 0
    tile[tid] = x
    cuda.syncthreads()
    _inclusive_scan_in_block(tile, tid)
    if i < a.size:
        out[i] = tile[tid] - x
    if tid == THREADS - 1:
        sums[cuda.blockIdx.x] = tile[tid]


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
def _add_block_offsets(out, offsets):
    i = cuda.grid(1)
    if i < out.size:
        out[i] += offsets[i // THREADS]


def split(keys, values, bits: int, scratch=None):
    """``keys`` (non-negative int64) and ``values`` stably sorted by the low ``bits`` bits of
    the keys; returns the sorted pair (the inputs, or scratch buffers named "split_*")."""
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
        _scatter_tiles[tiles, THREADS](keys, values, shift, offsets, spare_keys, spare_values)
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
def _scatter_tiles(keys, values, shift, offsets, keys_out, values_out):
    """One tile: loaded coalesced, ranked stably by digit in shared memory, written out in that
    order, each digit's run starting at offsets[digit · tiles + tile]."""
    tile_keys = cuda.shared.array(TILE, int64)
    tile_values = cuda.shared.array(TILE, int64)
    rank = cuda.shared.array(RANKS, int32)  # [digit · THREADS + thread], then scanned
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
    for d in range(BUCKETS):
        rank[d * THREADS + tid] = 0
    cuda.syncthreads()
    mine_keys = cuda.local.array(ITEMS, int64)
    mine_values = cuda.local.array(ITEMS, int64)
    for j in range(ITEMS):  # this thread's run: elements tid · ITEMS … in tile order
        p = tid * ITEMS + j
        if p < size:
            mine_keys[j], mine_values[j] = tile_keys[p], tile_values[p]
            rank[_digit(mine_keys[j], shift) * THREADS + tid] += 1
    cuda.syncthreads()
    # exclusive scan of rank in its digit-major order: each thread sums BUCKETS entries in a row
    mine = 0
    for q in range(BUCKETS):
        mine += rank[tid * BUCKETS + q]
    partial[tid] = mine
    cuda.syncthreads()
    _inclusive_scan_in_block(partial, tid)
    running = partial[tid] - mine
    for q in range(BUCKETS):
        c = rank[tid * BUCKETS + q]
        rank[tid * BUCKETS + q] = running
        running += c
    cuda.syncthreads()
    for d in range(tid, BUCKETS, THREADS):
        digit_start[d] = rank[d * THREADS]
        digit_place[d] = offsets[d * tiles + tile]
    cuda.syncthreads()
    for j in range(ITEMS):  # into shared memory in sorted order (runs in thread order: stable)
        if tid * ITEMS + j < size:
            d = _digit(mine_keys[j], shift)
            p = rank[d * THREADS + tid]
            rank[d * THREADS + tid] = p + 1
            tile_keys[p], tile_values[p] = mine_keys[j], mine_values[j]
    cuda.syncthreads()
    for j in range(ITEMS):
        p = j * THREADS + tid
        if p < size:
            d = _digit(tile_keys[p], shift)
            q = digit_place[d] + p - digit_start[d]
            keys_out[q], values_out[q] = tile_keys[p], tile_values[p]
