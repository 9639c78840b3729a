"""Issue 18 on a real GPU, in one run: route walking on zero-cost cycles, the first gpu-fast solve
of a fresh process with the kernel cache cold and then warm, and the shared-buffer and route tests.

    python3 -m benchmarks.probe_trust --out trust.json [--old-routes OLD_ROUTES.py]

Routes: the issue's graph (n = 1,536, 15% density, integer costs 0-49, so many zero-cost
cycles), 20 routes out of gpu-fast's answer, each checked by summing its edges and timed; with
``--old-routes`` (``git show 62fdce4:engine/apsp/routes.py > OLD_ROUTES.py``) the walk before
the fix times the first 3 of them too. First solve (``--tree`` another checkout: its code): ``python3 -c``
processes one after the other on one kernel cache folder (``BAGROUTE_KERNEL_CACHE``, emptied first):
n = 1,535 cold, n = 1,535 again (a restart), then n = 1,000 (a new size after a restart).
"""

import argparse
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

FIRST_SOLVE = r"""
import json, sys, time
t0 = time.perf_counter()
from engine.apsp import gpu_fast, solve
from engine.apsp.random_graph import paper_random_graph
n = int(sys.argv[1])
cost = paper_random_graph(n, 15, seed=1)
t1 = time.perf_counter()
gpu_fast.kernels(gpu_fast.SOLVER.tuning)
t2 = time.perf_counter()
one_launch_error = gpu_fast.one_launch(gpu_fast.SOLVER.tuning)[2]
t3 = time.perf_counter()
first = solve(cost, "gpu-fast")
t4 = time.perf_counter()
second = solve(cost, "gpu-fast")
t5 = time.perf_counter()
assert first.variant == "gpu-fast", first.note
print(json.dumps({"n": n, "import_s": t1 - t0, "kernels_s": t2 - t1, "one_launch_s": t3 - t2,
                  "first_solve_s": t4 - t3, "first_call_total_s": t4 - t1,
                  "second_solve_ms": 1e3 * (t5 - t4), "one_launch_error": one_launch_error}))
"""


def routes_section(old_routes: str | None, n: int) -> dict:
    from engine.apsp import solve
    from engine.apsp.routes import _walk_via
    from tests.test_routes_bounded import zero_cycle_graph

    cost = zero_cycle_graph(n, 15, seed=0)
    result = solve(cost, "gpu-fast")
    assert result.variant == "gpu-fast", result.note
    rng = np.random.default_rng(0)
    pairs = [tuple(map(int, p)) for p in rng.integers(0, n, size=(200, 2))
             if np.isfinite(result.dist[p[0], p[1]]) and p[0] != p[1]][:20]
    result.route(*pairs[0])   # compile the walks (cached on disk after the first run)

    def timed(walk_one) -> list[float]:
        out = []
        for i, j in pairs:
            start = time.perf_counter()
            route = walk_one(i, j)
            out.append(1e3 * (time.perf_counter() - start))
            assert route[0] == i and route[-1] == j
            assert sum(int(result.cost[a, b]) for a, b in zip(route, route[1:])) == result.dist[i, j]
        return out

    new = timed(result.route)
    cycling = sum(_walk_via(result.routes.matrix, i, j) is None for i, j in pairs)
    out = {"n": n, "routes": len(pairs), "zero_cost_edges": int((cost == 0).sum() - n),
           "via_walks_that_cycle": int(cycling), "after_ms_each": new, "after_ms_total": sum(new)}
    if old_routes:
        spec = importlib.util.spec_from_file_location("old_routes", old_routes)
        old = importlib.util.module_from_spec(spec)
        sys.modules["engine.apsp.old_routes"] = old
        old.__package__ = "engine.apsp"
        spec.loader.exec_module(old)
        pairs = pairs[:3]
        before = timed(lambda i, j: old.walk(result.routes, result.dist, result.cost, i, j))
        out.update(before_routes=len(pairs), before_ms_each=before)
    return out


def first_solve_section(sizes: list[int], tree: str) -> list[dict]:
    """Fresh processes one after the other, on ``tree``'s code, with one empty kernel cache
    (``BAGROUTE_KERNEL_CACHE``; code from before it kept its cache in the temporary folder,
    ``TMPDIR``, pointed at the same empty folder here)."""
    cache = tempfile.mkdtemp(prefix="bagroute-kernels-")
    env = dict(os.environ, BAGROUTE_KERNEL_CACHE=cache, TMPDIR=cache,
               PYTHONPATH=os.pathsep.join([os.path.abspath(tree)] + os.environ.get(
                   "PYTHONPATH", "").split(os.pathsep)))
    runs = []
    labels = ("cold cache", "restart, same size", "restart, new size")
    for label, n in zip(labels, sizes):
        start = time.perf_counter()
        done = subprocess.run([sys.executable, "-c", FIRST_SOLVE, str(n)], env=env, text=True,
                              capture_output=True, timeout=300, cwd=tree)
        row = {"run": label, "process_s": time.perf_counter() - start, "rc": done.returncode}
        try:
            row.update(json.loads(done.stdout.strip().splitlines()[-1]))
        except (IndexError, ValueError):
            row["stderr"] = done.stderr[-2000:]
        row["cache_files"] = sorted(str(p.relative_to(cache)) for p in Path(cache).rglob("*")
                                    if p.is_file())
        print(json.dumps({k: v for k, v in row.items() if k != "cache_files"}), flush=True)
        runs.append(row)
    return runs


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True)
    parser.add_argument("--old-routes")
    parser.add_argument("--skip", nargs="*", default=[])
    parser.add_argument("--tree", default=".", help="the checkout whose first solve is timed "
                        "(e.g. a worktree of 62fdce4, before the kernels were kept)")
    parser.add_argument("--route-n", type=int, default=1536)
    parser.add_argument("--first-n", type=int, nargs=3, default=[1535, 1535, 1000])
    args = parser.parse_args()
    report = {}
    if "first" not in args.skip:
        report["first_solve"] = first_solve_section(args.first_n, args.tree)
    if "routes" not in args.skip:
        report["routes"] = routes_section(args.old_routes, args.route_n)
        print(json.dumps(report["routes"]), flush=True)
    with open(args.out, "w") as f:
        json.dump(report, f, indent=1)


if __name__ == "__main__":
    main()
