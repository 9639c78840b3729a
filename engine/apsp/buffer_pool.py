"""Host buffers a GPU reads or writes directly, handed out and reused once no view is alive.

A small graph's answer is cheaper to give away than to copy: the kernels write the distances
and vias straight into page-locked host memory, and the caller gets views of it; its input,
likewise, is converted straight into page-locked memory the kernels read. A buffer
goes back into use only when no view of it is left anywhere. Every numpy view holds a
reference to the object that owns the memory, so that object's reference count (and the host
array's own, for a caller holding the array itself) says whether one is: exact, never a guess —
a view kept anywhere keeps its buffer out of reuse.
"""

import sys
from typing import Callable

import numpy as np


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
