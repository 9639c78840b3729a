"""How much the benchmark's n = 500 end-to-end figure moves between runs of the same code
(issue 35: one run of main gave 0.332 ms, the next 0.384). ``measure`` exactly as
``main.py bench`` calls it (15 timed calls, their median), ``POINTS`` times in a row on the
same graph; then ``CALLS`` single calls of ``solve()``, timed alone, as a distribution.

    python3 -m benchmarks.probe_small_noise
"""

import os
import statistics

import numpy as np

from engine.apsp import solve
from engine.apsp.random_graph import paper_random_graph
from engine.bench.apsp import measure

N = int(os.environ.get("PROBE_N", 500))
POINTS = int(os.environ.get("POINTS", 20))
CALLS = int(os.environ.get("CALLS", 600))


def main():
    cost = paper_random_graph(N, 15, seed=N)  # the benchmark's graph at this size
    points = [measure("gpu-fast", cost, "random-15%", 2.0) for _ in range(POINTS)]
    ends = [p.median_ms for p in points]
    print(f"n={N} measure() x{POINTS} ({points[0].repeats} calls each), median end to end ms: "
          + " ".join(f"{e:.3f}" for e in ends), flush=True)
    print(f"n={N} those medians: min {min(ends):.3f} median {statistics.median(ends):.3f} max {max(ends):.3f}; "
          f"solve medians min {min(p.kernel_median_ms for p in points):.3f} "
          f"max {max(p.kernel_median_ms for p in points):.3f}", flush=True)
    calls = []
    for _ in range(CALLS):
        r = solve(cost, variant="gpu-fast")
        calls.append((r.seconds, r.kernel_seconds))  # what measure() takes from each call
    e2e, kernel = (1e3 * np.array(x) for x in zip(*calls))
    q = [10, 50, 90, 99]
    print(f"n={N} {CALLS} single calls, end to end ms percentiles {q}: "
          + " ".join(f"{v:.3f}" for v in np.percentile(e2e, q))
          + "; solve: " + " ".join(f"{v:.3f}" for v in np.percentile(kernel, q)), flush=True)
    windows = [statistics.median(e2e[s:s + 15]) for s in range(0, CALLS - 14, 15)]
    print(f"n={N} medians of consecutive 15-call windows: min {min(windows):.3f} max {max(windows):.3f} "
          f"over {len(windows)} windows", flush=True)


if __name__ == "__main__":
    main()
