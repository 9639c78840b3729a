"""Launch helpers every family's CUDA kernels share: grid sizes, and device-synchronised timing.

Launch sizes are small under Numba's CUDA simulator, where every GPU thread is a Python thread.
"""

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
