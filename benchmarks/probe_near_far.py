"""gpu-fast-sssp's large path on the issue's goal graphs at several Δ scales (0: Bellman-Ford
rounds, the code before near–far), phase-work targets (0: a fixed width), persistent blocks
per SM, warp-aggregated appends (AGG 1) or not (0), the hops a block takes on its own list
within a round (HOPS, 0: none), a thread's edges four at a time (BATCHED 1) or one by one (0),
and the persistent kernel's registers a thread (REGS; the kernel is built again): one source,
the graph resident, kernel ms (median, fastest and slowest of REPS after a warm-up), whether
the answer equals scipy's dijkstra, and the note (blocks, rounds, phases). A field left empty
or out takes gpu_fast's default. GRAPHS=grid or GRAPHS=uniform probes that graph only.

    python3 -m benchmarks.probe_near_far 0 1:0 64:0 1:65536 1:262144   # SCALE[:WORK]
    python3 -m benchmarks.probe_near_far 2 2::1 2::2:0:8 2::::::64
    # SCALE[:WORK[:BLOCKS_PER_SM[:AGG[:HOPS[:BATCHED[:REGS]]]]]]
    GRAPHS=grid python3 -m benchmarks.probe_near_far 2 2::::8
    PROBE=small NUMBA_ENABLE_CUDASIM=1 python3 -m benchmarks.probe_near_far 1 1:0:1:0 1:0:2:1
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
# a configuration's fields in order: gpu_fast's knob and how its field reads
KNOBS = {"DELTA_SCALE": float, "PHASE_WORK": int, "PERSISTENT_BLOCKS_PER_SM": int,
         "AGGREGATE": {"0": False, "1": True}.__getitem__, "LOCAL_HOPS": int,
         "BATCHED": {"0": False, "1": True}.__getitem__, "PERSISTENT_REGISTERS": int}
DEFAULTS = {knob: getattr(gpu_fast, knob) for knob in KNOBS}
GRAPHS = {"grid 2048²": lambda: road_grid(8 if SMALL else 2048),
          "uniform 5M/30M": lambda: uniform_random(60 if SMALL else 5_000_000, 360 if SMALL else 30_000_000)}


def configure(config):
    """gpu_fast's knobs as ``SCALE[:WORK[:BLOCKS_PER_SM[:AGG[:HOPS[:BATCHED[:REGS]]]]]]``
    says, its defaults where the configuration is silent (not the configuration before's)."""
    fields = config.split(":") + [""] * len(KNOBS)
    for (knob, read), field in zip(KNOBS.items(), fields):
        setattr(gpu_fast, knob, read(field) if field else DEFAULTS[knob])
    gpu_fast.persistent_kernel.cache_clear()  # its registers are a build option


def main(configs):
    if SMALL:
        gpu_fast.SMALL_MAX = 0
    for label, make in GRAPHS.items():
        if not label.startswith(os.environ.get("GRAPHS", "")):
            continue
        g = prepare(make())
        start = time.perf_counter()
        reference = dijkstra(g.csr_matrix(), indices=[0])
        print(f"{label}: n={g.n} m={g.m}, scipy {1e3 * (time.perf_counter() - start):.0f} ms", flush=True)
        for config in configs:
            configure(config)
            r = solve(g, [0], "gpu-fast-sssp")
            exact = bool(np.array_equal(r.dist, reference))
            del r
            kernel = []
            for _ in range(REPS):
                r = solve(g, [0], "gpu-fast-sssp")
                kernel.append(r.kernel_seconds)
                note = r.note
                del r
            print(f"  scale:work:per-SM:agg:hops:batched:regs {config:>16}: kernel "
                  f"{1e3 * statistics.median(kernel):8.2f} ms ({1e3 * min(kernel):.2f}–{1e3 * max(kernel):.2f})"
                  f"  exact={exact}  ({note})", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
