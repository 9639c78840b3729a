"""Where the time of a small solve goes (n = 500 unless PROBE_N says): ``gpu_fast.run``
end to end, the GPU time of each launch (CUDA events), and the host primitives that ``run``
is made of, each timed alone — filling the mapped input, taking an answer buffer from the
pool, slicing a device array, the queued launches with their synchronisation — and the same
launches with the input and answer in device memory instead of mapped host memory; and what
the benchmark's end to end adds around ``run`` — ``solve()`` on a float64 cost matrix, its two
conversions (serial and threaded), and what writing mapped memory from a kernel costs.
Runs on the code as committed: ``python3 -m benchmarks.probe_small``."""
import os
from unittest import mock

import numpy as np
from numba import cuda

from engine.apsp import gpu_fast, matrix
from engine.apsp.gpu_common import ceil_div, timed_on_device
from engine.apsp.gpu_fast import solver as fast_solver
from engine.gpu_memory import mapped_host
from engine.apsp.solve import solve

from tests import probe_validation
from tests.probe_timing import median_ms
from .common import TUNING, event_ms, graph, median_run, on_device, phase_ms

N = int(os.environ.get("PROBE_N", 500))


def main():
    w = graph(N, seed=5)
    kernel_ms, end_ms, _, _ = median_run(w, 50)
    print(f"n={N} run(): kernel {kernel_ms:.3f} ms, end to end {end_ms:.3f} ms", flush=True)
    print("   GPU ms per launch", phase_ms(w), phase_ms(w), flush=True)
    end_to_end(w)
    nb = ceil_div(N, TUNING.b)
    pools = gpu_fast.SOLVER.buffers
    buf = pools.small(N, nb * TUNING.b)
    O, _ = pools.answers.take((2, N, N))
    O_dev = cuda.device_array((2, N, N), np.int32)
    W_dev, D, V, T, _ = on_device(w)
    steps = {
        "fill mapped input": lambda: buf["w"].__setitem__(Ellipsis, w),
        "take answer buffer": lambda: pools.answers.take((2, N, N)),
        "slice a device array (DV[0])": lambda: buf["DV"][0],
        "launches + sync, mapped input and answer": lambda: timed_on_device(
            lambda: gpu_fast.launch_all(TUNING, buf["W"], D, V, T, nb, O)),
        "launches + sync, device input and answer": lambda: timed_on_device(
            lambda: gpu_fast.launch_all(TUNING, W_dev, D, V, T, nb, O_dev)),
        "synchronize alone": cuda.synchronize,
    }
    for name, step in steps.items():
        print(f"   {name}: {median_ms(step, 50):.3f} ms", flush=True)
    with mock.patch.object(fast_solver, "timed_on_device", lambda launch_all: 0.0):
        print(f"   run() with nothing launched: {median_ms(lambda: gpu_fast.run(w), 50):.3f} ms", flush=True)


@cuda.jit("void(int32[::1])")
def _fill(out):
    for e in range(cuda.grid(1), out.shape[0], cuda.gridsize(1)):
        out[e] = e


def end_to_end(w):
    """solve() as the benchmark times it, the conversions it does around ``run``, the launches'
    GPU time with the mapped input and answer, and kernel writes into mapped memory."""
    cost = np.where(w >= matrix.INF, np.inf, w).astype(np.float64)
    print(f"   solve() on float64, end to end: {median_ms(lambda: solve(cost, 'gpu-fast'), 50):.3f} ms"
          f" (run() alone {median_ms(lambda: gpu_fast.run(w), 50):.3f})", flush=True)
    probe_validation.main([N])  # its two conversions, serial and threaded
    buf = gpu_fast.SOLVER.buffers.small(N, ceil_div(N, TUNING.b) * TUNING.b)
    O, _ = gpu_fast.SOLVER.buffers.answers.take((2, N, N))
    print("   GPU ms per launch, mapped input and answer", phase_ms(w, buf["W"], O),
          phase_ms(w, buf["W"], O), flush=True)
    for megabytes in (1, 2, 3):
        out, _ = mapped_host((megabytes << 18,))
        device = cuda.device_array(megabytes << 18, np.int32)
        mapped_ms = event_ms(lambda: _fill[264, 256](out), reps=10)
        device_ms = event_ms(lambda: _fill[264, 256](device), reps=10)
        print(f"   a kernel writing {megabytes} MB: mapped {mapped_ms:.3f} ms, device {device_ms:.3f}",
              flush=True)


if __name__ == "__main__":
    main()
