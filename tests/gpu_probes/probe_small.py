"""Where the time of a small solve goes (n = 500 unless PROBE_N says): ``gpu_fast.run``
end to end, the GPU time of each launch (CUDA events), and the host primitives that ``run``
is made of, each timed alone — filling the page-locked input, copying it to the device, the
queued launches with their synchronisation, copying the answer back and out of the kept
buffer — and the same launches reading the input from mapped host memory instead.
Runs on the code as committed: ``python3 -m tests.gpu_probes.probe_small``."""
import os

import numpy as np
from numba import cuda

from engine.apsp import gpu_fast
from engine.apsp.gpu_common import ceil_div, timed_on_device

from ..probe_timing import median_ms
from .common import graph, median_run, phase_ms

N = int(os.environ.get("PROBE_N", 500))


def main():
    w = graph(N, seed=5)
    kernel_ms, end_ms, _, _ = median_run(w, 50)
    print(f"n={N} run(): kernel {kernel_ms:.3f} ms, end to end {end_ms:.3f} ms", flush=True)
    print("   GPU ms per launch", phase_ms(w), phase_ms(w), flush=True)
    nb = ceil_div(N, gpu_fast.B)
    buf = gpu_fast._buffers(N, nb * gpu_fast.B)
    D, V = buf["DV"][0], buf["DV"][1]
    mapped = cuda.mapped_array((N, N), np.int32)
    mapped[...] = w
    steps = {
        "launches + sync": lambda: timed_on_device(lambda: gpu_fast.launch_all(buf["W"], D, V, buf["T"], nb)),
        "launches + sync, mapped input": lambda: timed_on_device(lambda: gpu_fast.launch_all(mapped, D, V, buf["T"], nb)),
        "synchronize alone": cuda.synchronize,
    }
    if "w" in buf:  # page-locked buffers (the simulator keeps none)
        steps |= {
            "fill page-locked input": lambda: buf["w"].__setitem__(Ellipsis, w),
            "copy input to device": lambda: buf["W"].copy_to_device(buf["w"]),
            "copy answer to host": lambda: buf["DV"].copy_to_host(buf["dv"]),
            "copy answer out of kept buffer": lambda: (buf["dv"][0, :N, :N].copy(), buf["dv"][1, :N, :N].copy()),
        }
    for name, step in steps.items():
        print(f"   {name}: {median_ms(step, 50):.3f} ms", flush=True)


if __name__ == "__main__":
    main()
