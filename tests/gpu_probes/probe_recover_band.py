"""The via recovery alone at n = 8192 (PROBE_N) with its blocks taken in bands of rows (so a band's rows
of D and the current columns' rows of T could stay in L2), for several band sizes.

Needs the experiment applied first: ``git apply tests/gpu_probes/recover_band.patch`` (it lost:
GPU_NOTES.md)."""
import numpy as np

from engine.apsp import gpu_fast
from engine.apsp.gpu_common import ceil_div

from .common import checked, event_ms, marked_rounds


def main():
    assert hasattr(gpu_fast, "RECOVER_BAND_BYTES"), "apply tests/gpu_probes/recover_band.patch"
    rng = np.random.default_rng(0)
    w, _, _ = checked(rng)
    D, V, T, marks, size = marked_rounds(w)
    k, tile = gpu_fast._kernels(), (gpu_fast.THREADS,) * 2
    rows = size // gpu_fast.RECOVER_ROWS
    for mb in (0, 4, 8, 16, 32):
        band = max(1, min(rows, (mb << 20) // (4 * size * gpu_fast.RECOVER_ROWS)))
        grid = (band, size // gpu_fast.RECOVER_COLUMNS, ceil_div(rows, band))
        ms = event_ms(lambda: k.recover[grid, tile](D, V, T), before=lambda: V.copy_to_device(marks))
        print(f"  recover band {mb} MB ({band} row groups): {ms:.2f} ms, "
              f"left-marked {int((V.copy_to_host() <= -2).sum())}", flush=True)


if __name__ == "__main__":
    main()
