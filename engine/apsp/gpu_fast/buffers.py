"""gpu-fast's memory: the device buffers of the last size solved, and the pools of host buffers
(mapped for small graphs, page-locked for large ones) its input and answer live in, kept for
the next call (the app solves the same airport again and again)."""

import numpy as np
from numba import cuda

from ...gpu_launch import ceil_div
from ...gpu_memory import BufferPool, mapped_host, pinned, pinned_pool_bytes
from .tuning import Tuning


def device_buffers(size: int) -> dict:
    """DV (distances and vias side by side: one copy brings both back), its halves D and V
    (sliced here once: slicing a device array costs Python time) and T, padded."""
    DV = cuda.device_array((2, size, size), np.int32)
    return dict(DV=DV, D=DV[0], V=DV[1], T=cuda.device_array((size, size), np.int32))


class Buffers:
    """The pools and the last size's device buffers of one ``Solver``."""

    def __init__(self, t: Tuning):
        self.t = t
        self.answers = BufferPool(mapped_host, t.answer_pool_bytes)
        self.inputs = BufferPool(mapped_host, t.answer_pool_bytes // 2)  # the inputs of as many answers
        self.copied_answers = BufferPool(pinned(np.uint8), pinned_pool_bytes(), np.uint8)  # distances + vias
        self.copied_inputs = BufferPool(pinned(np.int32), pinned_pool_bytes())
        self.kept: dict = {}  # the last size's device buffers (and mapped input, or streams)

    def is_mapped(self, n: int) -> bool:
        return ceil_div(n, self.t.b) * self.t.b <= self.t.mapped_max

    def input_array(self, n: int) -> np.ndarray | None:
        """A page-locked n×n int32 buffer for the input, or None (call under the solver's lock)."""
        taken = (self.inputs if self.is_mapped(n) else self.copied_inputs).take((n, n))
        return None if taken is None else taken[1]

    def small(self, n: int, size: int) -> dict:
        """Device buffers and the mapped input W (host view w) for this size, kept for the next
        call (only the last size is kept)."""
        if self.kept.get("key") != ("mapped", n, size):
            self.kept.clear()
            self.kept.update(key=("mapped", n, size), **device_buffers(size))
            self.kept["W"], self.kept["w"] = mapped_host((n, n))
        return self.kept

    def copied(self, n: int, size: int) -> dict:
        """Device buffers for a large size (the input W, N for narrow vias, L for the distances
        in 16-bit lanes and TL for L transposed, made on first use, VL for the lanes rounds'
        marks, ``capped``, the flag ``widen`` raises, and M, the tiles it marks), two streams and
        the events that order and time them, kept for the next call of this size. VL is V, or
        with ``Tuning.lanes_marks16`` (int16 marks, two a word: size × size/2) the first half of
        T, which nothing uses before the via recovery (T is the int32 recovery's transpose)."""
        narrow = size <= self.t.via16_max
        if self.kept.get("key") != ("copied", n, size, narrow):
            self.kept.clear()
            matrices = device_buffers(size)
            VL = matrices["T"][:size // 2].reshape(size, size // 2) if self.t.lanes_marks16 else matrices["V"]
            self.kept.update(key=("copied", n, size, narrow), **matrices, VL=VL,
                             W=cuda.device_array((n, n), np.int32), L=None, TL=None,
                             M=cuda.device_array((size // self.t.b, size // self.t.b), np.int32),
                             capped=cuda.to_device(np.zeros(1, np.int32)), token=0,
                             N=cuda.device_array((size, size), np.int16) if narrow else None,
                             main=cuda.stream(), side=cuda.stream(),
                             start=cuda.event(), rounds=cuda.event(), end=cuda.event())
        return self.kept

    def host_answer(self, size: int, via_dtype) -> tuple[np.ndarray, np.ndarray]:
        """Padded host arrays for the distances and the vias, in one page-locked buffer from the
        pool (ordinary memory when every kept one is still in use and the pool is full)."""
        cells = size * size
        nbytes = cells * (4 + np.dtype(via_dtype).itemsize)
        taken = self.copied_answers.take((nbytes,))
        raw = taken[1] if taken is not None else np.empty(nbytes, np.uint8)
        return (raw[:4 * cells].view(np.int32).reshape(size, size),
                raw[4 * cells:].view(via_dtype).reshape(size, size))
