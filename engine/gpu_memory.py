"""GPU memory every family shares: host buffers the device reads or writes directly (mapped,
page-locked), pools of them handed out and reused once no view is alive, and device buffers
kept on a graph between calls.

A small graph's answer is cheaper to give away than to copy: the kernels write the distances
and vias straight into page-locked host memory, and the caller gets views of it; its input,
likewise, is converted straight into page-locked memory the kernels read. A buffer
goes back into use only when no view of it is left anywhere. Every numpy view holds a
reference to the object that owns the memory, so that object's reference count (and the host
array's own, for a caller holding the array itself) says whether one is: exact, never a guess —
a view kept anywhere keeps its buffer out of reuse.

Under Numba's CUDA simulator "mapped" and "page-locked" memory are ordinary numpy arrays.
"""

import os
import sys
from typing import Callable

import numpy as np
from numba import cuda

from .gpu_device import simulated


class _Buffer:
    def __init__(self, kernel_arg, host):
        self.kernel_arg, self.host = kernel_arg, host
        self.owner = host[:0].base  # what every view of ``host`` refers to (numpy collapses chains)
        self.nbytes = host.nbytes
        self.idle_refs = ()

    def references(self) -> tuple:
        return sys.getrefcount(self.host), sys.getrefcount(self.owner)


class BufferPool:
    """Buffers of one shape at a time, at most ``max_bytes`` of them; ``allocate(shape)``
    returns (what a kernel takes, the same memory as a host ndarray of ``dtype``)."""

    def __init__(self, allocate: Callable, max_bytes: int, dtype=np.int32):
        self._allocate, self.max_bytes, self.itemsize = allocate, max_bytes, np.dtype(dtype).itemsize
        self._kept: list[_Buffer] = []

    def take(self, shape: tuple):
        """(kernel argument, host ndarray) of ``shape`` that nothing still uses, or None when
        every buffer is in use and another would pass ``max_bytes`` (page-locked memory is
        scarce and slow to allocate: the caller uses ordinary memory instead). Buffers
        of another shape are let go (those still viewed are freed with their views)."""
        self._kept = [b for b in self._kept if b.host.shape == shape]
        for buffer in self._kept:
            if buffer.references() == buffer.idle_refs:
                return buffer.kernel_arg, buffer.host
        if sum(b.nbytes for b in self._kept) + self.itemsize * int(np.prod(shape)) > self.max_bytes:
            return None
        buffer = _Buffer(*self._allocate(shape))
        buffer.idle_refs = buffer.references()
        self._kept.append(buffer)
        return buffer.kernel_arg, buffer.host

    def kernel_arg(self, host):
        """What a kernel takes for ``host``, if ``host`` is one of this pool's buffers; else None."""
        return next((b.kernel_arg for b in self._kept if b.host is host), None)

    def owns(self, host) -> bool:
        """Whether ``host`` is one of this pool's buffers."""
        return any(b.host is host for b in self._kept)

    def kept(self) -> int:
        """How many buffers of the current shape exist now (in use or not)."""
        return len(self._kept)


def mapped_host(shape, dtype=np.int32) -> tuple:
    """(kernel argument, host ndarray) of page-locked host memory the device reads and writes
    directly. The simulator copies host arrays in and out of every launch: one plain array."""
    if simulated():
        host = np.empty(shape, dtype)
        return host, host
    memory = cuda.mapped_array(shape, dtype)
    return memory, np.ndarray.view(memory, np.ndarray)


def host_array(shape, dtype) -> np.ndarray:
    """Page-locked host memory (copies at full speed) where the driver gives it; ordinary memory
    where it refuses (a large answer is better copied slowly than solved on the CPU)."""
    if not simulated():
        try:
            return cuda.pinned_array(shape, dtype)
        except Exception:  # noqa: BLE001 — any refusal to lock memory: ordinary memory works
            pass
    return np.empty(shape, dtype)


def pinned(dtype):
    """An allocator for a pool of page-locked buffers: (no kernel argument, a host array)."""
    def allocate(shape) -> tuple:
        return None, host_array(shape, dtype)
    return allocate


def pinned_pool_bytes() -> int:
    """Page-locked memory a pool of copied answers or inputs keeps, at most: an eighth of the
    host's memory — enough for the answer a caller holds and the next one at n = 25,600 on a
    128 GB host; beyond it, ordinary memory (slower copies)."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") // 8
    except (ValueError, OSError):
        return 1 << 30


def kept_buffer(g, name: str, shape, dtype):
    """A device array kept on graph ``g`` (in ``g.device``) between calls, made again when its
    shape or dtype changes; an empty dimension gets one element (a kernel argument must point
    somewhere)."""
    shape = tuple(max(int(s), 1) for s in np.atleast_1d(shape))
    b = g.device.get(("buffer", name))
    if b is None or b.shape != shape or b.dtype != np.dtype(dtype):
        b = g.device[("buffer", name)] = cuda.device_array(shape, dtype)
    return b


def kept_pinned(g, name: str, size: int, dtype):
    """A page-locked host array kept on graph ``g`` between calls (what the device copies small
    answers into), made again when its size or dtype changes."""
    h = g.device.get(("pinned", name))
    if h is None or h.size != size or h.dtype != np.dtype(dtype):
        h = g.device[("pinned", name)] = cuda.pinned_array(size, dtype)
    return h
