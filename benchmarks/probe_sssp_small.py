"""Where the end to end of gpu-fast-sssp's small-graph path goes (issue 15's goals: the hub's
2,253 nodes from 96 sources ≤ 1 ms, and from all sources faster than gpu-fast Floyd–Warshall,
answer in host memory), on the hub and the regional airport's full road graphs:

- ``solve(g, sources, "gpu-fast-sssp")`` as the benchmark times it (``r.seconds``: sources in,
  float64 answer in host memory), the wall time around the whole call, and the kernel
  (``r.kernel_seconds``); with the answer written into mapped host memory (the default) and
  copied back from the device instead (``answer_buffers.MAPPED_ANSWER = False``);
- from all sources, beside it, ``engine.apsp.solve(dense, "gpu-fast")`` as the benchmark's
  ``fw-gpu-fast`` peer times it (its ``r.seconds``: float conversion after it, not in it);
- each host step apart: what the old path did per call (device arrays for the sources and the
  flags, their copies, the synchronise pair, the int32 answer's copy back and its conversion to
  float64) and what the new one does (filling the mapped sources, taking a pooled answer,
  the launch call alone, reading the flags), and ``solve()`` with nothing launched; the kernel
  alone into mapped and into device memory, and at other block widths; the frontier (push)
  kernel beside the pull kernel it replaced (kept here only for that line), same launch, answers
  compared;
- every answer checked against scipy's Dijkstra (all of it).

Medians of ``PROBE_REPS`` (200) calls, one line per measurement. On the GPU host, from the
repository root: ``python3 -m benchmarks.probe_sssp_small``. Under the CUDA simulator:
``NUMBA_ENABLE_CUDASIM=1 PROBE=small python3 -m benchmarks.probe_sssp_small`` (a 4 × 4
road grid, 2 and all sources, 1 call each).
"""

import os
import statistics
import time

import numpy as np
from numba import cuda, int64
from scipy.sparse.csgraph import dijkstra

from engine.apsp import solve as apsp_solve
from engine.sssp import answer_buffers, gpu_fast, gpu_fast_small, solve
from engine.sssp.gpu_common import INF64, kept_buffer, pulled_label, timed_on_device, upload
from engine.sssp.graph import INF32, as_sources, to_float

SMALL = os.environ.get("PROBE") == "small"
REPS = int(os.environ.get("PROBE_REPS", 1 if SMALL else 200))
VARIANT = "gpu-fast-sssp"


def graphs() -> dict:
    if SMALL:
        from engine.sssp.generators import road_grid
        return {"grid-4x4": road_grid(4, seed=1)}
    from engine.bench.sssp_problem import airport_graphs
    return airport_graphs(["hub-atl", "regional"])


def median_ms(step, reps: int = REPS, setup=None) -> float:
    """Median wall ms of ``step()`` (after one untimed call); ``setup()`` before each, untimed."""
    step()
    times = []
    for _ in range(reps):
        if setup is not None:
            setup()
        start = time.perf_counter()
        step()
        times.append(time.perf_counter() - start)
    return 1e3 * statistics.median(times)


def timed_solves(call) -> tuple[float, float, float]:
    """Median (wall ms around ``call()``, its r.seconds, its r.kernel_seconds), each result
    dropped before the next call (as a caller that reads and lets go)."""
    call()
    wall, seconds, kernel = [], [], []
    for _ in range(REPS):
        start = time.perf_counter()
        r = call()
        wall.append(time.perf_counter() - start)
        seconds.append(r.seconds)
        kernel.append(r.kernel_seconds)
        del r
    return tuple(1e3 * statistics.median(x) for x in (wall, seconds, kernel))


def check(name: str, got: np.ndarray, expected: np.ndarray) -> str:
    if got.shape == expected.shape and np.array_equal(got, expected):
        return "exact"
    bad = np.argwhere(got != expected)
    return f"MISMATCH ({name}: {len(bad)} entries, first {bad[0].tolist() if len(bad) else got.shape})"


def sssp_lines(label: str, g, sources, expected) -> None:
    for mapped in (True, False):
        answer_buffers.MAPPED_ANSWER = mapped
        how = "mapped answer" if mapped else "copied answer"
        wall, seconds, kernel = timed_solves(lambda: solve(g, sources, VARIANT))
        r = solve(g, sources, VARIANT)
        ok = check(how, r.dist, expected) if r.variant == VARIANT else f"FELL BACK: {r.note}"
        print(f"{label} solve {VARIANT} ({how}): r.seconds {seconds:.3f} ms, wall {wall:.3f} ms, "
              f"kernel {kernel:.3f} ms; {ok}", flush=True)
    answer_buffers.MAPPED_ANSWER = True


def fw_line(label: str, g, expected) -> None:
    from engine.bench.sssp import _dense
    dense = _dense(g)
    wall, seconds, kernel = timed_solves(lambda: apsp_solve(dense, "gpu-fast"))
    r = apsp_solve(dense, "gpu-fast")
    ok = check("fw", r.dist, expected) if r.variant == "gpu-fast" else f"FELL BACK: {r.note}"
    print(f"{label} apsp gpu-fast (fw-gpu-fast): r.seconds {seconds:.3f} ms, wall {wall:.3f} ms, "
          f"kernel {kernel:.3f} ms; {ok}", flush=True)


def host_steps(label: str, g, sources) -> None:
    """Each host step of a call apart, the old path's and the new one's."""
    k, n = len(sources), g.n
    threads = gpu_fast.small_threads(k)
    d_status = cuda.to_device(np.zeros(k, np.int32))
    d_int32 = cuda.to_device(np.zeros((k, n), np.int32))
    pinned32 = np.empty((k, n), np.int32) if gpu_fast.SIMULATED else cuda.pinned_array((k, n), np.int32)
    answer32 = np.full((k, n), INF32, np.int32)
    answer32[:, ::3] = 7
    d_sources, d_flags, flags = answer_buffers.control(sources)
    out, host = answer_buffers.mapped_pool((k, n)).take((k, n))
    d_out = kept_buffer(g, "fast out", (k, n), np.float64)

    def launch(into):
        return lambda: gpu_fast.launch_small(g, d_sources, k, into, d_flags)

    def old_to_float():  # the numpy conversion solve() ran after the clock before
        f = answer32.astype(np.float64)
        f[answer32 >= INF32] = np.inf
        return f

    steps = {
        "old: cuda.to_device(sources)": lambda: cuda.to_device(sources),
        "old: cuda.to_device(status zeros)": lambda: cuda.to_device(np.zeros(k, np.int32)),
        "old: status.copy_to_host()": d_status.copy_to_host,
        "old/new: synchronize pair (timed_on_device, nothing launched)": lambda: timed_on_device(lambda: None),
        "old: int32 answer copy_to_host into pinned": lambda: d_int32.copy_to_host(pinned32),
        "old: int32 answer to float64 (numpy, was after the clock)": old_to_float,
        "to_float now (parallel pass, large-graph answers)": lambda: to_float(answer32),
        "new: as_sources": lambda: as_sources(sources, n),
        "new: mapped sources filled (control)": lambda: answer_buffers.control(sources),
        "new: pooled answer taken (answer)": lambda: answer_buffers.answer(k, n),
        "new: flags read from mapped memory": lambda: np.flatnonzero(flags[:k]),
        "copied path: float64 answer copy_to_host into pinned": lambda: d_out.copy_to_host(
            answer_buffers._take(answer_buffers._PINNED, (k, n))[1]),
    }
    for name, step in steps.items():
        print(f"{label}   {name}: {median_ms(step):.3f} ms", flush=True)
    print(f"{label}   new: launch call alone (async): {median_ms(launch(out), setup=cuda.synchronize):.3f} ms",
          flush=True)
    for what, into in (("mapped", out), ("device", d_out)):
        print(f"{label}   kernel + synchronize pair, answer into {what} memory: "
              f"{median_ms(lambda: timed_on_device(launch(into))):.3f} ms", flush=True)
    for width in ((4, 8) if SMALL else (128, 256, 512, 1024)):  # the block width the code does not pick
        ms = median_ms(lambda: timed_on_device(lambda: gpu_fast.launch_small(g, d_sources, k, out, d_flags,
                                                                             width)))
        print(f"{label}   kernel + synchronize pair, {width} threads per block (the code: {threads}): "
              f"{ms:.3f} ms", flush=True)
    pull_line(label, g, k, (out, host), d_sources, d_flags, threads)
    real = gpu_fast.timed_on_device
    gpu_fast.timed_on_device = lambda launch_all: 0.0
    try:
        print(f"{label}   solve() with nothing launched: "
              f"{median_ms(lambda: solve(g, sources, VARIANT)):.3f} ms", flush=True)
    finally:
        gpu_fast.timed_on_device = real


@cuda.jit
def pull_small(indptr, indices, weights, sources, k, out, max_rounds, status):
    """The small path's kernel before the frontier (kept here only to compare): one block per
    source, every round pulls every vertex's label from all its in-edges of the reversed graph
    until a block-wide vote says nothing changed."""
    d = cuda.shared.array(0, int64)
    n = out.shape[1]
    t, step = cuda.threadIdx.x, cuda.blockDim.x
    for row in range(cuda.blockIdx.x, k, cuda.gridDim.x):
        for v in range(t, n, step):
            d[v] = INF64
        cuda.syncthreads()
        if t == 0:
            d[sources[row]] = 0
        cuda.syncthreads()
        rounds = 0
        while True:
            changed = 0
            for v in range(t, n, step):
                best = pulled_label(indptr, indices, weights, d, v)
                if best < d[v]:
                    d[v] = best
                    changed = 1
            rounds += 1
            over = gpu_fast_small.round_vote(changed, rounds, max_rounds)
            if over:
                break
        gpu_fast_small.store_row(d, out, status, row, over - 1)


def pull_line(label: str, g, k, answer, d_sources, d_flags, threads) -> None:
    """The frontier kernel against the pull kernel it replaced, same launch, same mapped answer
    (``answer``: kernel argument, host view); the pull kernel's answer checked against the
    frontier kernel's."""
    out, host = answer
    n = g.n
    indptr, indices, weights = upload(g, transposed=True)
    pull = pull_small[min(k, 65535), threads, 0, 8 * n]
    push_ms = median_ms(lambda: timed_on_device(lambda: gpu_fast.launch_small(g, d_sources, k, out, d_flags)))
    pushed = host.copy()
    pull_ms = median_ms(lambda: timed_on_device(lambda: pull(indptr, indices, weights, d_sources, k, out, n + 1,
                                                             d_flags)))
    same = "same answer" if np.array_equal(host, pushed) else "ANSWERS DIFFER"
    print(f"{label}   kernel + synchronize pair, {threads} threads per block: frontier (push) "
          f"{push_ms:.3f} ms, pull (the kernel before) {pull_ms:.3f} ms; {same}", flush=True)


def main():
    counts = (2, "all") if SMALL else (96, "all")
    print(f"probe_sssp_small: {REPS} calls per median, device "
          f"{'CUDA simulator' if gpu_fast.SIMULATED else cuda.get_current_device().name}", flush=True)
    for name, g in graphs().items():
        for count in counts:
            k = g.n if count == "all" else min(count, g.n)
            sources = (np.arange(g.n) if count == "all" else
                       np.sort(np.random.default_rng(0).choice(g.n, k, replace=False))).astype(np.int64)
            label = f"{name} n={g.n} m={g.m} sources={k}:"
            expected = dijkstra(g.csr_matrix(), directed=True, indices=sources)
            sssp_lines(label, g, sources, expected)
            if count == "all":
                fw_line(label, g, expected)
            host_steps(label, g, sources)


if __name__ == "__main__":
    main()
