"""Is phase 3 bound by device memory? The committed phase-3 launch timed alone (CUDA events,
median of 10, one middle k-block applied again and again, so after the first launch no cell
improves and nothing is stored) on matrices that fit the H100's 50 MB L2 (n ≤ 3,072) and on
ones that do not. Equal rates mean the arithmetic bounds it; a higher rate where the matrix
fits in L2 means each round's read of the matrix from DRAM costs time.

    python3 -m tests.gpu_probes.probe_phase3_rate 2048 3072 4096 8192 16384
"""
import statistics
import sys

import numpy as np
from numba import cuda

from engine.apsp import gpu_fast


def rate(n: int) -> float:
    """Relaxations per second of one phase-3 launch at padded size n."""
    k = gpu_fast._kernels()
    nb = n // gpu_fast.B
    rng = np.random.default_rng(0)
    D = cuda.to_device(rng.integers(1, 10_000, (n, n), dtype=np.int32))
    V = cuda.to_device(np.full((n, n), -1, np.int32))
    inner = k.phase3[(nb - 1, nb - 1), (gpu_fast.THREADS, gpu_fast.THREADS)]
    kb = nb // 2
    inner(D, V, kb, nb)
    times = []
    for _ in range(10):
        start, end = cuda.event(), cuda.event()
        start.record()
        inner(D, V, kb, nb)
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end) / 1e3)
    return (n - gpu_fast.B) ** 2 * gpu_fast.B / statistics.median(times)


if __name__ == "__main__":
    for size in sys.argv[1:]:
        n = int(size) // gpu_fast.B * gpu_fast.B
        print(f"n={n} phase 3 {rate(n) / 1e12:.2f} x 10^12 relaxations/s", flush=True)
