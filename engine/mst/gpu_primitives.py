"""The data-parallel primitives the seed builds Borůvka from (it used CUDPP's): exclusive scan,
and split — a stable sort of elements by a key of a few bits (LSD radix, 4-bit digits, each
thread placing a run of consecutive elements so equal keys keep their order)."""

import numpy as np
from numba import cuda, int64

from ..gpu_device import simulated
from ..gpu_launch import THREADS, ceil_div

DIGIT_BITS = 4
BUCKETS = 1 << DIGIT_BITS
RUN = 4 if simulated() else 64  # elements one thread counts and places per split pass


def exclusive_scan(a, out) -> int:
    """out[i] = a[0] + … + a[i − 1] (int64 device arrays); returns the sum of all of a."""
    if a.size == 0:
        return 0
    blocks = ceil_div(a.size, THREADS)
    sums = cuda.device_array(blocks, np.int64)
    _scan_blocks[blocks, THREADS](a, out, sums)
    if blocks == 1:
        return int(sums.copy_to_host()[0])
    offsets = cuda.device_array(blocks, np.int64)
    total = exclusive_scan(sums, offsets)
    _add_block_offsets[blocks, THREADS](out, offsets)
    return total


@cuda.jit
def _scan_blocks(a, out, sums):
    """Each block's exclusive scan in shared memory (Hillis–Steele) and its sum."""
    tile = cuda.shared.array(THREADS, int64)
    tid = cuda.threadIdx.x
    i = cuda.blockIdx.x * THREADS + tid
    x = a[i] if i < a.size else 0
    tile[tid] = x
    cuda.syncthreads()
    step = 1
    while step < THREADS:
        y = tile[tid - step] if tid >= step else 0
        cuda.syncthreads()
        tile[tid] += y
        cuda.syncthreads()
        step *= 2
    if i < a.size:
        out[i] = tile[tid] - x
    if tid == THREADS - 1:
        sums[cuda.blockIdx.x] = tile[tid]


@cuda.jit
def _add_block_offsets(out, offsets):
    i = cuda.grid(1)
    if i < out.size:
        out[i] += offsets[i // THREADS]


def split(keys, values, bits: int):
    """``keys`` (non-negative int64) and ``values`` stably sorted by the low ``bits`` bits of
    the keys; returns the sorted pair (new device arrays or the inputs' spares)."""
    n = keys.size
    if n == 0:  # a launch of no blocks is an error on a GPU
        return keys, values
    runs = ceil_div(n, RUN)
    counts = cuda.device_array(BUCKETS * runs, np.int64)
    offsets = cuda.device_array(BUCKETS * runs, np.int64)
    spare_keys = cuda.device_array_like(keys)
    spare_values = cuda.device_array_like(values)
    blocks = ceil_div(runs, THREADS)
    for shift in range(0, bits, DIGIT_BITS):
        _digit_counts[blocks, THREADS](keys, shift, counts, runs)
        exclusive_scan(counts, offsets)
        _place_runs[blocks, THREADS](keys, values, shift, offsets, runs, spare_keys, spare_values)
        keys, values, spare_keys, spare_values = spare_keys, spare_values, keys, values
    return keys, values


@cuda.jit
def _digit_counts(keys, shift, counts, runs):
    """counts[digit · runs + run]: how many of a run's keys have that digit (digit-major, so
    one scan gives every run its place in every digit's bucket, runs in order)."""
    r = cuda.grid(1)
    if r < runs:
        c = cuda.local.array(BUCKETS, int64)
        for d in range(BUCKETS):
            c[d] = 0
        for i in range(r * RUN, min(keys.size, (r + 1) * RUN)):
            c[(keys[i] >> shift) & (BUCKETS - 1)] += 1
        for d in range(BUCKETS):
            counts[d * runs + r] = c[d]


@cuda.jit
def _place_runs(keys, values, shift, offsets, runs, keys_out, values_out):
    r = cuda.grid(1)
    if r < runs:
        place = cuda.local.array(BUCKETS, int64)
        for d in range(BUCKETS):
            place[d] = offsets[d * runs + r]
        for i in range(r * RUN, min(keys.size, (r + 1) * RUN)):
            d = (keys[i] >> shift) & (BUCKETS - 1)
            keys_out[place[d]] = keys[i]
            values_out[place[d]] = values[i]
            place[d] += 1
