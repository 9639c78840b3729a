"""Is phase 3 bound by device memory? The committed phase-3 launch timed alone (CUDA events,
median of 10, one middle k-block applied again and again, so after the first launch no cell
improves and nothing is stored) on matrices that fit the H100's 50 MB L2 (n ≤ 3,072) and on
ones that do not. Equal rates mean the arithmetic bounds it; a higher rate where the matrix
fits in L2 means each round's read of the matrix from DRAM costs time. ``THREADS:CELLS:UNROLL``
arguments rebuild the kernels with that many threads a side, cells a side per thread and k-steps
unrolled (the tile stays B = THREADS·CELLS) and time the sizes after them with it.

    python3 -m benchmarks.probe_phase3_rate 2048 3072 4096 8192 16384
    python3 -m benchmarks.probe_phase3_rate 16:4:8 8192 16384 8:8:8 8192 16384 8:8:4 8192
"""
import sys

import numpy as np
from numba import cuda

from dataclasses import replace
from unittest import mock

from engine.apsp import gpu_fast
from engine.apsp.gpu_fast import source
from benchmarks.common import TUNING, median_launch_seconds


def rate(k, n: int, t=TUNING) -> float:
    """Relaxations per second of one phase-3 launch of kernels ``k`` (built for ``t``) at padded size n."""
    nb = n // t.b
    rng = np.random.default_rng(0)
    D = cuda.to_device(rng.integers(1, 10_000, (n, n), dtype=np.int32))
    V = cuda.to_device(np.full((n, n), -1, np.int32))
    inner = k.phase3[(nb - 1, nb - 1), (t.threads, t.threads)]
    kb = nb // 2
    before = D.copy_to_host()
    inner(D, V, kb, nb)
    check(before, D.copy_to_host(), kb * t.b, t)
    seconds = median_launch_seconds(lambda: inner(D, V, kb, nb))
    return (n - t.b) ** 2 * t.b / seconds


def check(before, after, base, t=TUNING):
    """The first launch did phase 3's product on a sample of rows (the k-block's row and
    column of tiles are not phase 3's and stay as they were)."""
    B = t.b
    rows = [r for r in range(0, before.shape[0], max(1, before.shape[0] // 40)) if not base <= r < base + B]
    k = slice(base, base + B)
    want = np.minimum(before[rows], (before[rows, k][:, :, None] + before[k, :][None]).min(axis=1))
    want[:, k] = before[rows, k]
    if not np.array_equal(after[rows], want):
        raise AssertionError(f"phase 3 of {t.threads}:{t.cells}:{t.unroll} is wrong")


def configured(config: str):
    """Phase 3 alone rebuilt with ``THREADS:CELLS:UNROLL`` (B follows; the other kernels are
    left out of the module, which compiles every kernel as it loads)."""
    threads, cells, unroll = map(int, config.split(":"))
    t = replace(TUNING, threads=threads, cells=cells, unroll=unroll, b=threads * cells)
    nothing = lambda *args: ""  # noqa: E731
    with mock.patch.multiple(source, loader_source=nothing, closure_source=nothing, mul_global_source=nothing,
                             mul_shared_source=nothing, recover_source=nothing, SCHEDULE_SOURCE=""):
        return gpu_fast.module_from_source(gpu_fast.generated_source(t)), t


if __name__ == "__main__":
    kernels, shape, t = gpu_fast.kernels(TUNING), "default", TUNING
    for arg in sys.argv[1:]:
        if ":" in arg:
            shape = arg
            try:
                kernels, t = configured(arg)
            except Exception as exc:  # noqa: BLE001 — a shape that does not build is a result
                kernels = None
                print(f"{arg}: does not build: {exc.__class__.__name__}: {str(exc)[:300]}", flush=True)
            continue
        if kernels is not None:
            n = int(arg) // t.b * t.b
            print(f"{shape} n={n} phase 3 {rate(kernels, n, t) / 1e12:.2f} x 10^12 relaxations/s", flush=True)
