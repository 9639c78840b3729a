"""Where a large solve's end to end goes on the copied path (issue 19): ``gpu_fast.run`` as the
benchmark calls it, then the same steps queued by hand with an event between each, on the GPU
timeline and on the host's clock (a copy call that blocks the host shows there).

    python3 -m benchmarks.probe_copied 8192 16384
"""

import gc
import sys
import time

import numpy as np
from numba import cuda

from engine.apsp import gpu_fast
from engine.apsp.gpu_common import ceil_div
from benchmarks.common import TUNING, graph

POOLS = gpu_fast.SOLVER.buffers


def timeline(w, n, overlap=True):
    """One solve queued step by step: GPU ms of each step, host ms of each call."""
    nb = ceil_div(n, TUNING.b)
    size = nb * TUNING.b
    buf = POOLS.copied(n, size)
    main, side, N = buf["main"], buf["side"], buf["N"]
    ev = {k: cuda.event() for k in ("t0", "up", "rounds", "rec", "via", "dcopy")}
    host = {}
    t = time.perf_counter()

    def mark(name):
        nonlocal t
        now = time.perf_counter()
        host[name] = 1e3 * (now - t)
        t = now

    dist, via = POOLS.host_answer(size, np.int16)
    mark("host answer")
    ev["t0"].record(main)
    buf["W"].copy_to_device(w, stream=main)
    ev["up"].record(main)
    mark("upload call")
    gpu_fast.launch_rounds(TUNING, buf["W"], buf["D"], buf["V"], nb, stream=main)
    ev["rounds"].record(main)
    mark("rounds launch")
    if overlap:
        ev["rounds"].wait(side)
        buf["D"].copy_to_host(dist, stream=side)
        ev["dcopy"].record(side)
        mark("D copy call")
    gpu_fast.launch_recovery(TUNING, buf["D"], buf["V"], buf["T"], nb, N=N, stream=main)
    ev["rec"].record(main)
    mark("recovery launch")
    if not overlap:
        buf["D"].copy_to_host(dist, stream=main)
        ev["dcopy"].record(main)
    N.copy_to_host(via, stream=main)
    ev["via"].record(main)
    mark("via copy call")
    main.synchronize()
    side.synchronize()
    mark("sync")
    gpu = {"upload": ev["t0"].elapsed_time(ev["up"]), "rounds": ev["up"].elapsed_time(ev["rounds"]),
           "recovery": ev["rounds"].elapsed_time(ev["rec"]),
           "D copy (from rounds)": ev["rounds"].elapsed_time(ev["dcopy"]),
           "via copy (from recovery)": ev["rec"].elapsed_time(ev["via"]),
           "all": ev["t0"].elapsed_time(ev["via"])}
    return gpu, host


def main(sizes):
    for n in sizes:
        w = gpu_fast.input_array(n)
        w[...] = graph(n)
        print(f"n = {n}: input pinned {w is not None}; pool cap {POOLS.copied_answers.max_bytes >> 20} MiB")
        for rep in range(4):
            start = time.perf_counter()
            dist, routes, seconds = gpu_fast.run(w)
            total = time.perf_counter() - start
            print(f"  run(): e2e {1e3 * total:8.2f} ms, solve {1e3 * seconds:8.2f} ms, "
                  f"answers kept {POOLS.copied_answers.kept()}, via {routes.matrix.dtype}")
            del dist, routes
        for overlap in (True, False, True, False):
            gpu, host = timeline(w, n, overlap)
            print(f"  by hand, D copy {'beside the recovery' if overlap else 'after it'}:")
            print("    GPU ms  " + ", ".join(f"{k} {v:.2f}" for k, v in gpu.items()))
            print("    host ms " + ", ".join(f"{k} {v:.2f}" for k, v in host.items()))
        del w
        gc.collect()


if __name__ == "__main__":
    main([int(a) for a in sys.argv[1:]] or [8192])
