"""Launch helpers every family's CUDA kernels share: grid sizes, device-synchronised timing,
and the two guards that make a solve end by construction on a real GPU as under the simulator:
host loops over device rounds bounded by what their algorithm proves, and persistent
(grid-barrier) kernels sized to the blocks that can be resident at once.

Launch sizes are small under Numba's CUDA simulator, where every GPU thread is a Python thread.
"""

import functools
import threading
import time

from numba import cuda

from .gpu_device import simulated

THREADS = 8 if simulated() else 256
MAX_BLOCKS = 4 if simulated() else 4096


def ceil_div(a: int, b: int) -> int:
    return -(-a // b)


def blocks_for(count: int) -> int:
    """Blocks of ``THREADS`` for a grid-stride loop over ``count`` items."""
    return max(1, min(MAX_BLOCKS, ceil_div(count, THREADS)))


def timed_on_device(launch_all) -> float:
    """Seconds the device spends in ``launch_all()``: synchronised before and after, so host
    work queued earlier (copies) and kernels still running are both accounted correctly."""
    cuda.synchronize()
    start = time.perf_counter()
    launch_all()
    cuda.synchronize()
    return time.perf_counter() - start


class RoundLimitError(RuntimeError):
    """A host loop over device rounds went past the bound its algorithm proves: a kernel
    misbehaved. Raised instead of spinning; ``solve`` falls back to the CPU and says why."""


def marker_event():
    """A CUDA event that only marks a point in the stream (no timing), to wait for just the work
    queued before it; the simulator's events take no arguments."""
    return cuda.event() if simulated() else cuda.event(timing=False)


def bounded_rounds(limit: int, what: str):
    """0, 1, …, limit − 1 for a host loop that leaves by ``break`` once the device says it is
    done; asking for round ``limit`` raises ``RoundLimitError`` naming ``what``. ``limit`` is the
    bound the algorithm proves (from n), so the error means a bug, never a hard input."""
    yield from range(limit)
    raise RoundLimitError(f"{what} not done after {limit} rounds, the bound its algorithm proves")


@functools.cache
def multiprocessors() -> int:
    """The GPU's streaming multiprocessors (one under the simulator)."""
    return 1 if simulated() else int(cuda.get_current_device().MULTIPROCESSOR_COUNT)


def co_resident_blocks(kernel, blockdim, per_multiprocessor=None) -> int:
    """Blocks of ``blockdim`` threads a cooperative launch of ``kernel`` (compiled for one
    signature) can keep resident at once: a grid barrier waits for every block, so a grid of
    more blocks than fit would deadlock; a persistent kernel launches exactly this many and
    strides over its work — or fewer, ``per_multiprocessor`` a multiprocessor, where fewer
    blocks make each barrier cheaper. One under the simulator, which runs cooperative grids of
    one block. ``ValueError`` when not one block fits (the caller takes a path without a grid
    barrier)."""
    if simulated():
        return 1
    (compiled,) = kernel.overloads.values()
    blocks = int(compiled.max_cooperative_grid_blocks(blockdim))
    if blocks < 1:
        raise ValueError(f"not one block of {blockdim} threads of this kernel can be resident")
    return at_most_per_multiprocessor(blocks, per_multiprocessor)


def at_most_per_multiprocessor(blocks: int, per_multiprocessor=None) -> int:
    """``blocks``, or ``per_multiprocessor`` blocks a multiprocessor where that is fewer (None:
    no cap)."""
    if per_multiprocessor is None:
        return blocks
    return min(blocks, per_multiprocessor * multiprocessors())


@cuda.jit(device=True)
def read_in_every_block(array, i, shared):
    """array[i] as one block-wide value: the block's first thread reads it by an atomic (at L2,
    never a stale L1 line) — every block must take the same branch, or the blocks still looping
    wait at the grid barrier for ones that left."""
    cuda.syncthreads()
    if cuda.threadIdx.x == 0:
        shared[0] = cuda.atomic.add(array, i, 0)
    cuda.syncthreads()
    return shared[0]


class LazyKernel:
    """A CUDA kernel compiled for its one signature on first use, not where it is defined: a
    solve compiles only the kernels its size takes (gpu-fast's for n = 500: three of its 13,
    9.0 s cold on the H100, docs/gpu-first-use.md). ``compile()`` may run ahead of the
    first launch, from any thread (a background warm-up); the kernel is built once."""

    def __init__(self, function, signature: str, cache: bool, launch_bounds=None):
        self.function, self.signature, self.cache = function, signature, cache
        # (threads a block, blocks an SM): ptxas caps the registers so that many fit (not
        # under the simulator, which takes no bounds)
        self.options = {} if launch_bounds is None or simulated() else {"launch_bounds": launch_bounds}
        self._kernel = None
        self._lock = threading.Lock()

    @property
    def compiled(self) -> bool:
        return self._kernel is not None

    def compile(self):
        """The compiled kernel (built now if it was not yet)."""
        with self._lock:
            if self._kernel is None:
                self._kernel = cuda.jit(self.signature, cache=self.cache, **self.options)(self.function)
            return self._kernel

    def __getitem__(self, launch_configuration):
        return self.compile()[launch_configuration]

    def __getattr__(self, name):  # the compiled kernel's own attributes (overloads, inspect_asm…)
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self.compile(), name)


def lazy_kernel(signature: str, cache: bool = False, launch_bounds=None):
    """Decorator: ``LazyKernel`` of the function it wraps."""
    return lambda function: LazyKernel(function, signature, cache, launch_bounds)
