"""What the GPU probes share: the graphs, a strict route check and a timed ``gpu_fast.run``.

The probes are measuring scripts for the device machine, not tests (pytest does not collect
them); docs/gpu-notes.md gives the numbers they printed and how each was run. Run them
from the repository root, e.g. ``python3 -m benchmarks.probe_recover_batch``.
"""

import os
import statistics
import time

import numpy as np
from numba import cuda

from engine.apsp import gpu_fast
from engine.apsp.gpu_common import SIMULATED, ceil_div

from engine.apsp.matrix import INF

TUNING = gpu_fast.SOLVER.tuning  # the registry's gpu-fast: this machine's tuning

# The size the probes check and time (PROBE_N=40 runs them under the CUDA simulator).
PROBE_N = int(os.environ.get("PROBE_N", 8192))


def graph(n: int, density: int = 15, seed: int = 1) -> np.ndarray:
    """The paper's random graph as int32: weights 1..100, ``density`` % of the edges."""
    rng = np.random.default_rng(seed)
    w = rng.integers(1, 101, (n, n), dtype=np.int32)
    w[rng.random((n, n), dtype=np.float32) >= density / 100] = INF
    np.fill_diagonal(w, 0)
    return w


def strict_bad(w, dist, via, pairs) -> int:
    """Routes among ``pairs`` that, walked through the raw via matrix with no fallback, are not
    simple or do not add up to their distance."""
    bad = 0
    for i, j in pairs:
        if dist[i, j] >= INF:
            continue
        out, stack, steps = [i], [(i, j)], 0
        while stack:
            a, b = stack.pop()
            steps += 1
            if steps > 4 * len(w):
                break
            v = via[a, b]
            if v < 0:
                out.append(b)
            else:
                stack += [(v, b), (a, v)]
        if i == j:
            out = [i]
        total = sum(int(w[a, b]) for a, b in zip(out, out[1:]))
        bad += bool(stack or total != dist[i, j] or len(set(out)) != len(out))
    return bad


def median_launch_seconds(launch, reps: int = 10) -> float:
    """Median GPU seconds of ``launch()`` (one kernel launch), timed by CUDA events."""
    times = []
    for _ in range(reps):
        start, end = cuda.event(), cuda.event()
        start.record()
        launch()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end) / 1e3)
    return statistics.median(times)


def median_run(w, reps: int, solver=gpu_fast.SOLVER):
    """Median kernel and end-to-end milliseconds of ``solver.run(w)``, and its last answer."""
    ends, kernels = [], []
    for _ in range(reps):
        start = time.perf_counter()
        dist, routes, seconds = solver.run(w)
        ends.append(time.perf_counter() - start)
        kernels.append(seconds)
    return 1e3 * statistics.median(kernels), 1e3 * statistics.median(ends), dist, routes.matrix


def checked(rng, n: int = PROBE_N, solver=gpu_fast.SOLVER):
    """gpu-fast on ``n`` vertices (8192 unless PROBE_N says) checked against gpu-blocked (every
    cell) and 400 routes walked strictly; the graph, distances and pairs walked."""
    from engine.apsp import gpu_blocked
    w = graph(n, seed=8)
    reference, _, _ = gpu_blocked.run(w)
    kernel_ms, end_ms, dist, via = median_run(w, 5, solver)
    pairs = [tuple(p) for p in rng.integers(0, n, (400, 2))]
    print(f"n={n} kernel {kernel_ms:.2f} ms e2e {end_ms:.1f} exact {np.array_equal(dist, reference)} "
          f"strict-bad {strict_bad(w, dist, via, pairs)} left-marked {(via <= -2).sum()}", flush=True)
    return w, dist, pairs


def on_device(w, t=TUNING):
    """w copied to the device, the padded D, V, T and the k-block count: what
    ``gpu_fast.launch_all`` takes."""
    nb = ceil_div(len(w), t.b)
    buf = gpu_fast.device_buffers(nb * t.b)
    return cuda.to_device(w), buf["D"], buf["V"], buf["T"], nb


class _Stop(Exception):
    """Raised from a ``launch_all`` hook to queue no further launches."""


def marked_rounds(w):
    """Device D, V (improved cells still marked with their round) and T after every round and
    the transpose, ready for the recovery alone: (D, V, T, host copy of the marks, size)."""
    W, D, V, T, nb = on_device(w)

    def stop_before_recovery(step):
        if step == "transpose":
            raise _Stop

    try:
        gpu_fast.launch_all(TUNING, W, D, V, T, nb, after=stop_before_recovery)
    except _Stop:
        pass
    return D, V, T, V.copy_to_host(), nb * TUNING.b


def registers(kernel):
    """Registers per thread of a compiled kernel ('-' under the simulator)."""
    return "-" if SIMULATED else kernel.get_regs_per_thread()


def timing_event():
    """A CUDA event that records time (the simulator's events take no arguments)."""
    return cuda.event() if SIMULATED else cuda.event(timing=True)


def event_steps(queue) -> list:
    """[(step, GPU ms)] in order, for work that ``queue(record)`` queues, calling
    ``record(step)`` after each step: a CUDA event is recorded there, and each step's time runs
    from the event before it (the first from the call)."""
    events = []

    def record(step):
        event = timing_event()
        event.record()
        events.append((step, event))

    record("begin")
    queue(record)
    events[-1][1].synchronize()
    return [(step, a.elapsed_time(b)) for (_, a), (step, b) in zip(events, events[1:])]


def event_ms(launch, before=lambda: None, reps: int = 4) -> float:
    """Median GPU milliseconds of ``launch()`` (CUDA events), ``before()`` run untimed each time;
    the first repetition is a warm-up."""
    times = []
    for _ in range(reps):
        before()
        cuda.synchronize()
        a, b = timing_event(), timing_event()
        a.record()
        launch()
        b.record()
        b.synchronize()
        times.append(a.elapsed_time(b))
    return statistics.median(times[1:])


def phase_ms(w, W=None, O=None, t=TUNING) -> dict:
    """GPU milliseconds of each step of a whole solve of ``w`` (CUDA events recorded between
    the launches ``gpu_fast.launch_all`` queues), and their sum; ``W`` and ``O`` (e.g. mapped
    input and answer) replace the device copy of ``w`` and the absent answer."""
    W_dev, D, V, T, nb = on_device(w, t)
    W = W_dev if W is None else W
    total = {}
    for step, ms in event_steps(lambda record: gpu_fast.launch_all(t, W, D, V, T, nb, O, after=record)):
        total[step] = total.get(step, 0) + ms
    return {step: round(ms, 2) for step, ms in total.items()} | {"all": round(sum(total.values()), 2)}
