"""Where the time of a small solve goes (n = 500 unless PROBE_N says): ``gpu_fast.run``
end to end, the GPU time of each launch (CUDA events), and the host primitives that ``run``
is made of, each timed alone — filling the mapped input, taking an answer buffer from the
pool, slicing a device array, the queued launches with their synchronisation — and the same
launches with the input and answer in device memory instead of mapped host memory.
Runs on the code as committed: ``python3 -m tests.gpu_probes.probe_small``."""
import os

import numpy as np
from numba import cuda

from engine.apsp import gpu_fast
from engine.apsp.gpu_common import ceil_div, timed_on_device

from ..probe_timing import median_ms
from .common import graph, median_run, on_device, phase_ms

N = int(os.environ.get("PROBE_N", 500))


def main():
    w = graph(N, seed=5)
    kernel_ms, end_ms, _, _ = median_run(w, 50)
    print(f"n={N} run(): kernel {kernel_ms:.3f} ms, end to end {end_ms:.3f} ms", flush=True)
    print("   GPU ms per launch", phase_ms(w), phase_ms(w), flush=True)
    nb = ceil_div(N, gpu_fast.B)
    buf = gpu_fast._small_buffers(N, nb * gpu_fast.B)
    O, _ = gpu_fast._ANSWERS.take((2, N, N))
    O_dev = cuda.device_array((2, N, N), np.int32)
    W_dev, D, V, T, _ = on_device(w)
    steps = {
        "fill mapped input": lambda: buf["w"].__setitem__(Ellipsis, w),
        "take answer buffer": lambda: gpu_fast._ANSWERS.take((2, N, N)),
        "slice a device array (DV[0])": lambda: buf["DV"][0],
        "launches + sync, mapped input and answer": lambda: timed_on_device(
            lambda: gpu_fast.launch_all(buf["W"], D, V, T, nb, O)),
        "launches + sync, device input and answer": lambda: timed_on_device(
            lambda: gpu_fast.launch_all(W_dev, D, V, T, nb, O_dev)),
        "synchronize alone": cuda.synchronize,
    }
    for name, step in steps.items():
        print(f"   {name}: {median_ms(step, 50):.3f} ms", flush=True)


if __name__ == "__main__":
    main()
