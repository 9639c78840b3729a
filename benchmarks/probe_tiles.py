"""Phase-3 tile shapes at n = 8192 (PROBE_N): threads per side, cells per thread side, k-loop
unroll and the shared tiles' row padding (TILE_PAD), each rebuilt from gpu_fast's generator
(many-launch kernels only), checked against gpu-blocked with 400 strict routes, and timed per
kernel with CUDA events. Runs on the code as committed.

Arguments: configurations ``THREADS,CELLS,UNROLL,PAD``, e.g. ``16,4,8,0 16,4,8,4 8,8,8,4``
(THREADS·CELLS = B ≤ THREADS², B the tuning's tile; B is 64 on a GPU, 16 under the simulator; CELLS,
UNROLL and PAD multiples of 4)."""
import sys
import time

from dataclasses import replace

import numpy as np

from engine.apsp import gpu_fast

from .common import TUNING, checked, phase_ms, registers


def configure(threads: int, cells: int, unroll: int, pad: int):
    """A solver of the many-launch kernels only (at every size) for this configuration, built;
    and the seconds the build took."""
    assert threads * cells == TUNING.b <= threads * threads, "need THREADS·CELLS = B ≤ THREADS²"
    assert cells % 4 == unroll % 4 == pad % 4 == 0, "16-byte loads: CELLS, UNROLL, PAD multiples of 4"
    t = replace(TUNING, threads=threads, cells=cells, unroll=unroll, tile_pad=pad, one_launch_max=0)
    start = time.perf_counter()
    gpu_fast.kernels(t)
    return gpu_fast.Solver(t), time.perf_counter() - start


def main(configs):
    rng = np.random.default_rng(0)
    for config in configs:
        solver, seconds = configure(*config)
        k = gpu_fast.kernels(solver.tuning)
        regs = {name: registers(getattr(k, name)) for name in ("phase2", "phase3", "recover")}
        print(f"THREADS,CELLS,UNROLL,PAD={config} compile {seconds:.1f}s regs {regs}", flush=True)
        w, _, _ = checked(rng, solver=solver)
        print("   phases ms", phase_ms(w, t=solver.tuning), phase_ms(w, t=solver.tuning), flush=True)


if __name__ == "__main__":
    main([tuple(int(x) for x in c.split(",")) for c in sys.argv[1:]])
