"""Phase-3 tile shapes at n = 8192 (PROBE_N): threads per side, cells per thread side, k-loop
unroll and the shared tiles' row padding (TILE_PAD), each rebuilt from gpu_fast's generator
(many-launch kernels only), checked against gpu-blocked with 400 strict routes, and timed per
kernel with CUDA events. Runs on the code as committed.

Arguments: configurations ``THREADS,CELLS,UNROLL,PAD``, e.g. ``16,4,8,0 16,4,8,4 8,8,8,4``
(THREADS·CELLS = gpu_fast.B ≤ THREADS²; B is 64 on a GPU, 16 under the simulator; CELLS,
UNROLL and PAD multiples of 4)."""
import sys
import time

import numpy as np

from engine.apsp import gpu_fast

from .common import checked, phase_ms, registers


def configure(threads: int, cells: int, unroll: int, pad: int) -> float:
    """Rebuild the many-launch kernels for this configuration; the seconds it took."""
    assert threads * cells == gpu_fast.B <= threads * threads, "need THREADS·CELLS = B ≤ THREADS²"
    assert cells % 4 == unroll % 4 == pad % 4 == 0, "16-byte loads: CELLS, UNROLL, PAD multiples of 4"
    gpu_fast.THREADS, gpu_fast.CELLS, gpu_fast.UNROLL, gpu_fast.TILE_PAD = threads, cells, unroll, pad
    gpu_fast.RECOVER_ROWS = threads * threads // gpu_fast.B
    gpu_fast._kernels.cache_clear(), gpu_fast._one_launch.cache_clear(), gpu_fast._BUFFERS.clear()
    start = time.perf_counter()
    gpu_fast._kernels()
    return time.perf_counter() - start


def main(configs):
    gpu_fast.ONE_LAUNCH_MAX = 0  # the many-launch kernels only, at every size
    rng = np.random.default_rng(0)
    for config in configs:
        seconds = configure(*config)
        k = gpu_fast._kernels()
        regs = {name: registers(getattr(k, name)) for name in ("phase2", "phase3", "recover")}
        print(f"THREADS,CELLS,UNROLL,PAD={config} compile {seconds:.1f}s regs {regs}", flush=True)
        w, _, _ = checked(rng)
        print("   phases ms", phase_ms(w), phase_ms(w), flush=True)


if __name__ == "__main__":
    main([tuple(int(x) for x in c.split(",")) for c in sys.argv[1:]])
