"""gpu-fast's mapped path with its launches replayed as one CUDA graph against the same
launches made one by one: ``solve()`` end to end and its solve time, medians of REPS calls
alternating the two ways (the solver's ``graph_error`` set to force plain launches), on the hub's cost matrix
and random graphs, every answer of the last call of each way checked against scipy.

    python3 -m benchmarks.probe_graph 1000 2253 3000      # sizes; "hub" for the airport
    ONE_LAUNCH_MAX=0 python3 -m benchmarks.probe_graph 500  # many launches at every size
"""
import os
import statistics
import sys
from dataclasses import replace

import numpy as np

from engine.apsp import gpu_fast, solve
from engine.apsp.random_graph import paper_random_graph
from engine.bench.apsp_run import airport_costs
from tests.apsp_reference import scipy_distances

REPS = int(os.environ.get("REPS", 60))
if "ONE_LAUNCH_MAX" in os.environ:  # the solver solve() runs, with this tuning
    gpu_fast.SOLVER = gpu_fast.Solver(replace(gpu_fast.SOLVER.tuning, one_launch_max=int(os.environ["ONE_LAUNCH_MAX"])))


def timed(cost, plain: bool):
    gpu_fast.SOLVER.graph_error = "plain launches (probe)" if plain else None
    r = solve(cost, variant="gpu-fast")
    if not plain and gpu_fast.SOLVER.graph_error:
        print("  graph refused:", gpu_fast.SOLVER.graph_error, flush=True)
    return r, r.seconds, r.kernel_seconds


def main(sizes):
    for size in sizes:
        cost = (next(iter(airport_costs(["hub-atl"]).values())) if size == "hub"
                else paper_random_graph(int(size), 15, seed=1))
        for plain in (True, False, False):  # warm-up, first sight, capture
            timed(cost, plain)
        times = {True: [], False: []}
        for _ in range(REPS):
            for plain in (True, False):
                r, e2e, kernel = timed(cost, plain)
                times[plain].append((e2e, kernel))
                exact = np.array_equal(r.dist, scipy_distances(cost)) if _ == REPS - 1 else None
                del r
                if exact is not None:
                    print(f"  n={len(cost)} plain={plain} exact={exact}")
        for plain, label in ((True, "plain"), (False, "graph")):
            e2e = 1e3 * statistics.median(t[0] for t in times[plain])
            kernel = 1e3 * statistics.median(t[1] for t in times[plain])
            print(f"n={len(cost)} {label:5s} e2e {e2e:.3f} ms solve {kernel:.3f} ms", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
