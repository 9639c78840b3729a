"""Is phase 3 bound by device memory? The committed phase-3 launch timed alone (CUDA events,
median of 10, one middle k-block applied again and again, so after the first launch no cell
improves and nothing is stored) on matrices that fit the H100's 50 MB L2 (n ≤ 3,072) and on
ones that do not. Equal rates mean the arithmetic bounds it; a higher rate where the matrix
fits in L2 means each round's read of the matrix from DRAM costs time. ``THREADS:CELLS:UNROLL``
arguments rebuild the kernels with that many threads a side, cells a side per thread and k-steps
unrolled (the tile stays B = THREADS·CELLS) and time the sizes after them with it.

    python3 -m tests.gpu_probes.probe_phase3_rate 2048 3072 4096 8192 16384
    python3 -m tests.gpu_probes.probe_phase3_rate 16:4:8 8192 16384 8:8:8 8192 16384 8:8:4 8192
"""
import sys

import numpy as np
from numba import cuda

from engine.apsp import gpu_fast
from tests.gpu_probes.common import median_launch_seconds


def rate(k, n: int) -> float:
    """Relaxations per second of one phase-3 launch of kernels ``k`` at padded size n."""
    nb = n // gpu_fast.B
    rng = np.random.default_rng(0)
    D = cuda.to_device(rng.integers(1, 10_000, (n, n), dtype=np.int32))
    V = cuda.to_device(np.full((n, n), -1, np.int32))
    inner = k.phase3[(nb - 1, nb - 1), (gpu_fast.THREADS, gpu_fast.THREADS)]
    kb = nb // 2
    before = D.copy_to_host()
    inner(D, V, kb, nb)
    check(before, D.copy_to_host(), kb * gpu_fast.B)
    seconds = median_launch_seconds(lambda: inner(D, V, kb, nb))
    return (n - gpu_fast.B) ** 2 * gpu_fast.B / seconds


def check(before, after, base):
    """The first launch did phase 3's product on a sample of rows (the k-block's row and
    column of tiles are not phase 3's and stay as they were)."""
    B = gpu_fast.B
    rows = [r for r in range(0, before.shape[0], max(1, before.shape[0] // 40)) if not base <= r < base + B]
    k = slice(base, base + B)
    want = np.minimum(before[rows], (before[rows, k][:, :, None] + before[k, :][None]).min(axis=1))
    want[:, k] = before[rows, k]
    if not np.array_equal(after[rows], want):
        raise AssertionError(f"phase 3 of {gpu_fast.THREADS}:{gpu_fast.CELLS}:{gpu_fast.UNROLL} is wrong")


def configured(config: str):
    """Phase 3 alone rebuilt with ``THREADS:CELLS:UNROLL`` (B follows; the other kernels are
    left out of the module, which compiles every kernel as it loads)."""
    gpu_fast.THREADS, gpu_fast.CELLS, gpu_fast.UNROLL = map(int, config.split(":"))
    gpu_fast.B = gpu_fast.THREADS * gpu_fast.CELLS
    for part in ("_loader_source", "_closure_source", "_mul_global_source", "_mul_shared_source",
                 "_recover_source"):
        setattr(gpu_fast, part, lambda *args: "")
    gpu_fast._SCHEDULE_SOURCE = ""
    return gpu_fast.module_from_source(gpu_fast._generated_source())


if __name__ == "__main__":
    kernels, shape = gpu_fast._kernels(), "default"
    for arg in sys.argv[1:]:
        if ":" in arg:
            shape = arg
            try:
                kernels = configured(arg)
            except Exception as exc:  # noqa: BLE001 — a shape that does not build is a result
                kernels = None
                print(f"{arg}: does not build: {exc.__class__.__name__}: {str(exc)[:300]}", flush=True)
            continue
        if kernels is not None:
            n = int(arg) // gpu_fast.B * gpu_fast.B
            print(f"{shape} n={n} phase 3 {rate(kernels, n) / 1e12:.2f} x 10^12 relaxations/s", flush=True)
