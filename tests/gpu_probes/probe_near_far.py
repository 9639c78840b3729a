"""gpu-fast-sssp's large path on the issue's goal graphs at several Δ scales (0: Bellman-Ford
rounds, the code before near–far) and phase-work targets (0: a fixed width): one source, the
graph resident, kernel ms (median of REPS after a warm-up) and whether the answer equals
scipy's dijkstra.

    python3 -m tests.gpu_probes.probe_near_far 0 1:0 64:0 1:65536 1:262144   # SCALE[:WORK]
    PROBE=small NUMBA_ENABLE_CUDASIM=1 python3 -m tests.gpu_probes.probe_near_far 0 1
"""
import os
import statistics
import sys
import time

import numpy as np
from scipy.sparse.csgraph import dijkstra

from engine.sssp import gpu_fast, prepare, solve
from engine.sssp.generators import road_grid, uniform_random

SMALL = os.environ.get("PROBE") == "small"
REPS = 2 if SMALL else 5
GRAPHS = {"grid 2048²": lambda: road_grid(8 if SMALL else 2048),
          "uniform 5M/30M": lambda: uniform_random(60 if SMALL else 5_000_000, 360 if SMALL else 30_000_000)}


def main(scales):
    if SMALL:
        gpu_fast.SMALL_MAX = 0
    for label, make in GRAPHS.items():
        g = prepare(make())
        start = time.perf_counter()
        reference = dijkstra(g.csr_matrix(), indices=[0])
        print(f"{label}: n={g.n} m={g.m}, scipy {1e3 * (time.perf_counter() - start):.0f} ms", flush=True)
        for config in scales:
            scale, _, work = config.partition(":")
            gpu_fast.DELTA_SCALE = float(scale)
            gpu_fast.PHASE_WORK = int(work or gpu_fast.PHASE_WORK)
            r = solve(g, [0], "gpu-fast-sssp")
            exact = bool(np.array_equal(r.dist, reference))
            del r
            kernel = []
            for _ in range(REPS):
                r = solve(g, [0], "gpu-fast-sssp")
                kernel.append(r.kernel_seconds)
                note = r.note
                del r
            print(f"  scale:work {config:>9}: kernel {1e3 * statistics.median(kernel):8.2f} ms  exact={exact}  "
                  f"({note})", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
