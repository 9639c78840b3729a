"""Host memory gpu-fast-sssp's kernels read and write directly, kept between calls,
so that a call makes no allocation and no copy call (gpu-fast's mapped path for Floyd–Warshall is
the model):

- the answer: float64 distances (``np.inf`` unreachable) written by the kernel straight into
  page-locked host memory mapped into the device, from a pool per shape
  (``engine.gpu_memory``): the caller gets the buffer itself as ``SSSPResult.dist``, and
  it goes back into use only once no view of it is alive — an answer kept by the caller is
  never overwritten. With every pooled
  buffer still held and the pool full (or ``MAPPED_ANSWER`` off), the kernel writes a device
  buffer kept on the graph and one copy brings it into a pooled page-locked buffer (or, failing
  that, ordinary memory);
- the control block: the sources in, each row's negative-cycle flag out, in mapped memory
  grown to the largest count of sources asked yet — no copy up, no read back after the launch.

One solve at a time uses the control block (``LOCK``). Under the CUDA simulator the "mapped"
arrays are ordinary numpy arrays the simulated kernel writes.
"""

import threading

import numpy as np
from numba import cuda

from ..gpu_memory import BufferPool, mapped_host as _mapped
from .gpu_common import SIMULATED

MAPPED_ANSWER = True            # the kernel writes the answer into mapped host memory (else: copied)
ANSWER_POOL_BYTES = 640 << 20   # pooled answers of one shape kept, at most: two of the largest
                                # (SMALL_MAX sources × SMALL_MAX vertices); beyond, the next way down
SHAPES_KEPT = 3                 # mapped pools kept, by answer shape (the app alternates a fleet's
                                # sources, one source and all sources), the least recent let go
CONTROL_MIN = 256               # sources the control block holds at first
LOCK = threading.Lock()
_CONTROL: dict = {}             # "sources" (int64), "status" (int32): mapped, of one capacity


def _pinned(shape):
    host = np.empty(shape, np.float64) if SIMULATED else cuda.pinned_array(shape, np.float64)
    return None, host


_MAPPED: dict = {}  # answer shape -> BufferPool of mapped buffers, the most recently used last
_PINNED = BufferPool(_pinned, ANSWER_POOL_BYTES, np.float64)


def mapped_pool(shape) -> BufferPool:
    """The pool of mapped answers of ``shape`` (a pool keeps one shape: one per shape, so that
    alternating counts of sources reuse their buffers instead of allocating page-locked memory
    again). Pools past ``SHAPES_KEPT`` are let go; their buffers are freed with their last view."""
    pool = _MAPPED.pop(shape, None)
    if pool is None:
        pool = BufferPool(lambda s: _mapped(s, np.float64), ANSWER_POOL_BYTES, np.float64)
    _MAPPED[shape] = pool
    while len(_MAPPED) > SHAPES_KEPT:
        del _MAPPED[next(iter(_MAPPED))]
    return pool


def _take(pool: BufferPool, shape):
    """A free buffer of ``pool``, or None (all held and the pool full, or the driver refused
    to lock more memory: the caller takes a slower way, never fails for it)."""
    try:
        return pool.take(shape)
    except Exception:  # noqa: BLE001 — any refusal to lock memory: the copied way still works
        return None


def answer(k: int, n: int):
    """(mapped kernel output, host array) — the kernel writes the host array directly — or
    (None, host array) when the answer must be written on the device and copied into it."""
    if MAPPED_ANSWER:
        taken = _take(mapped_pool((k, n)), (k, n))
        if taken is not None:
            return taken
    taken = _take(_PINNED, (k, n))
    return None, (taken[1] if taken is not None else np.empty((k, n), np.float64))


def control(sources: np.ndarray):
    """(sources, status) kernel arguments of mapped memory holding ``sources`` (and room for one
    flag per source, which the kernel writes), and the status's host view. Call under ``LOCK``."""
    k = len(sources)
    if _CONTROL.get("capacity", 0) < k:
        capacity = max(CONTROL_MIN, 1 << (k - 1).bit_length())
        _CONTROL.clear()  # the old arrays are freed once nothing refers to them
        _CONTROL["sources"], _CONTROL["sources host"] = _mapped(capacity, np.int64)
        _CONTROL["status"], _CONTROL["status host"] = _mapped(capacity, np.int32)
        _CONTROL["capacity"] = capacity
    _CONTROL["sources host"][:k] = sources
    return _CONTROL["sources"], _CONTROL["status"], _CONTROL["status host"]
