"""Where a cold first gpu-fast call goes (issue 30), each measurement in a fresh process on
empty caches (``first_use.fresh_env``):

    python3 -m benchmarks.probe_compile [--n 500] [--kernels] [--warm 500 2253] [--tree DIR ...]

- the first call of ``solve(w, "gpu-fast")`` at n, split into import, CUDA's start, and each
  kernel the call compiles (Numba's front end per Python function, NVVM, the driver's link to
  machine code, the disk cache's save) and the CPU functions Numba compiles on the way;
- ``--kernels``: every gpu-fast kernel compiled alone, each in a fresh process;
- ``--warm``: the warm end-to-end time (``APSPResult.seconds``: the int32 matrix in host memory
  to the answer in host memory) of n-vertex random graphs, median of 100 solves;
- ``--tree``: the warm runs also for another checkout of the project (e.g. a ``git archive`` of
  the commit before) or tuning, alternating with this one, so both are measured on the same
  machine.

Prints one JSON line per measurement, then a summary table. A device-machine probe, not a test.
"""

import argparse
import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

from .first_use import fresh_env

CHILD = r'''
import json, sys, time
t0 = time.perf_counter()
from numba import cuda
from numba.core import event
rec = {"front_end": [], "nvvm_s": 0.0, "link_s": 0.0, "save_s": 0.0, "kernels": [], "cpu": []}

def timed(owner, name, into):
    original = getattr(owner, name)
    def wrapper(*a, **k):
        t = time.perf_counter()
        try:
            return original(*a, **k)
        finally:
            into(a, time.perf_counter() - t)
    setattr(owner, name, wrapper)

def add(key):
    def into(a, s):
        rec[key] += s
    return into

depth = [0]

def instrument():  # (a real GPU's compiler only: the simulator has none)
    import numba.cuda.codegen as codegen
    import numba.cuda.dispatcher as dispatcher
    timed(codegen.nvvm, "compile_ir", add("nvvm_s"))
    timed(codegen.CUDACodeLibrary, "get_cubin", add("link_s"))  # PTX (NVVM's, made before) to machine code
    timed(dispatcher.CUDACache, "save_overload", add("save_s"))
    timed(dispatcher.CUDADispatcher, "compile",
          lambda a, s: rec["kernels"].append((a[0].py_func.__name__, round(s, 3))))
    front_end = dispatcher.compile_cuda
    def compile_cuda(pyfunc, *a, **k):  # Numba's front end, per Python function (callees nested)
        depth[0] += 1
        t = time.perf_counter()
        try:
            return front_end(pyfunc, *a, **k)
        finally:
            depth[0] -= 1
            rec["front_end"].append((pyfunc.__name__, depth[0], round(time.perf_counter() - t, 3)))
    dispatcher.compile_cuda = compile_cuda

class Cpu(event.Listener):  # Numba's CPU compiles on the way (the conversions, the graph)
    def on_start(self, ev):
        ev.data["t"] = time.perf_counter()
    def on_end(self, ev):
        rec["cpu"].append((str(ev.data["dispatcher"].py_func.__name__), round(time.perf_counter() - ev.data["t"], 3)))

event.register("numba:compile", Cpu())
import os
if os.environ.get("NUMBA_ENABLE_CUDASIM") != "1":
    instrument()

from engine.apsp import solve
from engine.apsp.random_graph import paper_random_graph
rec["import_s"] = time.perf_counter() - t0
if len(sys.argv) > 4 and sys.argv[4]:  # the registry's gpu-fast with these tuning fields changed
    from dataclasses import replace
    from engine.apsp import gpu_fast
    fields = dict(kv.split("=") for kv in sys.argv[4].split(","))
    gpu_fast.SOLVER = gpu_fast.Solver(replace(gpu_fast.default_tuning(), **{k: int(v) for k, v in fields.items()}))
t = time.perf_counter(); cuda.current_context(); rec["cuda_start_s"] = time.perf_counter() - t
mode, n = sys.argv[1], int(sys.argv[2])
if mode == "first":
    w = paper_random_graph(n, 15, seed=0)
    t = time.perf_counter(); r = solve(w, "gpu-fast"); rec["first_call_s"] = time.perf_counter() - t
    t = time.perf_counter(); solve(w, "gpu-fast"); rec["second_call_s"] = time.perf_counter() - t
    rec["note"] = r.note
elif mode == "kernel":
    from engine.apsp.gpu_fast import SOLVER, kernels, one_launch
    t = time.perf_counter()
    kernel = (one_launch(SOLVER.tuning)[0] if sys.argv[3] == "one_launch"
              else getattr(kernels(SOLVER.tuning), sys.argv[3]).compile())
    rec["kernel_s"] = time.perf_counter() - t
else:
    import statistics
    w = paper_random_graph(n, 15, seed=0)
    for _ in range(10):
        solve(w, "gpu-fast")
    runs = []
    for _ in range(100):  # (a result kept alive keeps its buffers from the pools: keep figures only)
        r = solve(w, "gpu-fast")
        runs.append((r.seconds, r.kernel_seconds, r.variant))
    rec["e2e_ms"] = 1e3 * statistics.median(s for s, _, _ in runs)
    rec["kernel_ms"] = 1e3 * statistics.median(k for _, k, _ in runs)
    rec["variant"] = runs[-1][2]
rec["total_s"] = time.perf_counter() - t0
print(json.dumps({k: (round(v, 3) if isinstance(v, float) else v) for k, v in rec.items()}))
'''

KERNELS = ("one_launch", "pad", "phase2", "phase3", "phase3_tiles", "transpose", "recover", "recover_export",
           "narrow", "pack", "phase2_lanes", "phase3_lanes", "widen")


def child(tree: str, env: dict, *args) -> dict:
    """One fresh process of CHILD in ``tree`` (its engine first on the path); ``tree`` may end in
    ``@field=value,...``: gpu-fast's tuning with those fields changed."""
    tree, _, fields = tree.partition("@")
    args = (*args, "", "")[:3] + (fields,)  # mode, n, kernel name, tuning fields
    env = dict(env, PYTHONPATH=os.pathsep.join(p for p in (os.path.abspath(tree), env.get("PYTHONPATH")) if p))
    done = subprocess.run([sys.executable, "-c", CHILD, *map(str, args)], cwd=tree, env=env,
                          capture_output=True, text=True)
    if done.returncode != 0:
        return {"error": done.stderr.strip()[-1500:]}
    return json.loads(done.stdout.strip().splitlines()[-1])


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--n", type=int, default=500)
    p.add_argument("--kernels", action="store_true")
    p.add_argument("--warm", type=int, nargs="*", default=[])
    p.add_argument("--tree", nargs="*", default=[],
                   help="other checkouts (PATH[@field=value,...]: with gpu-fast's tuning changed), "
                        "measured alternately with this one")
    p.add_argument("--jobs", type=int, default=1, help="compiles run side by side (--kernels, the warm runs' own)")
    a = p.parse_args(argv)
    trees = [".", *a.tree]
    rows = []

    def run(label, tree, *args, env=None):
        result = child(tree, env or fresh_env(), *args)
        print(json.dumps({"tree": tree, "what": label, **result}), flush=True)
        rows.append((tree, label, result))

    run(f"first call n={a.n}", ".", "first", a.n)  # alone on the machine: the figure the goal is about
    caches = {(tree, n): fresh_env() for tree in trees for n in a.warm}
    steps = [(f"kernel {name}", ".", "kernel", 0, name) for name in KERNELS if a.kernels]
    steps += [(f"compile for warm n={n}", tree, "first", n) for tree, n in caches]
    with ThreadPoolExecutor(a.jobs) as pool:  # compiles only, side by side (--jobs at a time)
        list(pool.map(lambda step: run(*step, env=caches.get((step[1], step[3]))), steps))  # kernels: fresh
    for n in a.warm:  # each tree's kernels compiled above; timed one process at a time
        for tree in trees + trees[::-1]:
            run(f"warm n={n}", tree, "warm", n, env=caches[tree, n])
    print(f"\n{'tree':<28} {'what':<24} {'seconds / ms'}")
    for tree, label, r in rows:
        figure = (r.get("first_call_s") or r.get("kernel_s") or r.get("e2e_ms") or r.get("error", "")[-80:])
        extra = (f"(front end {sum(s for _, depth, s in r.get('front_end', []) if depth == 0):.1f}, "
                 f"nvvm {r.get('nvvm_s')}, link {r.get('link_s')}, save {r.get('save_s')}, "
                 f"cuda start {r.get('cuda_start_s')}, kernels {r.get('kernels')})"
                 if "first_call_s" in r or "kernel_s" in r else
                 f"(kernel {r.get('kernel_ms')} ms, {r.get('variant')})" if "e2e_ms" in r else "")
        print(f"{tree:<28} {label:<24} {figure} {extra}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
