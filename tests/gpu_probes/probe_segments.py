"""gpu-fast with each k-block cut into SEGMENTS (an improved cell marked with the segment of its
last improvement, so the recovery tests B / SEGMENTS candidates), with and without the
recovery's blocks taken in bands of rows: n = 8192 (PROBE_N) checked and timed, GPU time per kernel from
CUDA events, n = 500 with its host steps.

Needs the experiment applied first: ``git apply tests/gpu_probes/segments.patch`` (it lost:
GPU_NOTES.md). Arguments: configurations ``SEGMENTS,BAND_MB``, e.g. ``2,16 1,16 1,0 4,16``."""
import sys
import time

import numpy as np

from engine.apsp import gpu_fast
from engine.apsp.gpu_common import ceil_div
from engine.apsp.matrix import INF

from .common import checked, graph, median_run, on_device, registers, strict_bad, timing_event


def configure(segments: int, band_bytes: int) -> float:
    """Rebuild every kernel for this configuration; the seconds it took."""
    gpu_fast.SEGMENTS = segments
    gpu_fast.SPAN = gpu_fast.B // segments
    gpu_fast.RECOVER_ROWS = gpu_fast.THREADS ** 2 // gpu_fast.SPAN
    gpu_fast.RECOVER_BAND_BYTES = band_bytes
    gpu_fast._kernels.cache_clear(), gpu_fast._one_launch.cache_clear(), gpu_fast._BUFFERS.clear()
    start = time.perf_counter()
    gpu_fast._kernels(), gpu_fast._one_launch()
    return time.perf_counter() - start


def phases(w) -> dict:
    """GPU milliseconds of each kernel type over a whole many-launch solve (CUDA events)."""
    k, W, D, V, T, nb, tile = on_device(w)
    size = nb * gpu_fast.B
    marks = []

    def record(tag):
        e = timing_event()
        e.record()
        marks.append((tag, e))

    record("start")
    k.pad[size, tile](W, D, V), record("pad")
    for kb in range(nb):
        k.phase2[2 * (nb - 1), tile](D, V, kb, nb), record("phase1+2")
        k.phase3[(nb - 1, nb - 1), tile](D, V, kb, nb), record("phase3")
    k.transpose[(nb, nb), tile](D, T), record("transpose")
    band = max(1, gpu_fast.RECOVER_BAND_BYTES // (4 * size * gpu_fast.RECOVER_ROWS))
    grid = (size // gpu_fast.RECOVER_COLUMNS) * (size // gpu_fast.RECOVER_ROWS)
    k.recover[grid, tile](D, V, T, band), record("recover")
    marks[-1][1].synchronize()
    total = {}
    for (_, a), (tag, b) in zip(marks, marks[1:]):
        total[tag] = total.get(tag, 0) + a.elapsed_time(b)
    return {tag: round(ms, 2) for tag, ms in total.items()}


def host_steps(w, reps: int = 30) -> dict:
    """Median milliseconds of each host step of ``gpu_fast.run`` on the kept-buffer path."""
    n = len(w)
    nb = ceil_div(n, gpu_fast.B)
    steps = {}
    for _ in range(reps):
        t0 = time.perf_counter()
        buf = gpu_fast._buffers(n, nb * gpu_fast.B)
        buf["w"][...] = w
        t1 = time.perf_counter()
        buf["W"].copy_to_device(buf["w"])
        t2 = time.perf_counter()
        gpu_fast._solve_on_device(buf["W"], buf["DV"][0], buf["DV"][1], buf["T"], nb)
        t3 = time.perf_counter()
        dv = buf["DV"].copy_to_host(buf["dv"])
        t4 = time.perf_counter()
        dv[0, :n, :n].copy(), dv[1, :n, :n].copy()
        t5 = time.perf_counter()
        for key, s in dict(fill=t1 - t0, h2d=t2 - t1, solve=t3 - t2, d2h=t4 - t3,
                           copies=t5 - t4, total=t5 - t0).items():
            steps.setdefault(key, []).append(1e3 * s)
    return {key: round(float(np.median(v)), 3) for key, v in steps.items()}


def main(configs):
    assert hasattr(gpu_fast, "SEGMENTS"), "apply tests/gpu_probes/segments.patch"
    rng = np.random.default_rng(0)
    small = graph(500, 15, seed=5)
    from scipy.sparse.csgraph import shortest_path
    reference = shortest_path(np.where(small >= INF, 0, small).astype(float), method="D")
    reference = np.where(np.isinf(reference), INF, reference).astype(np.int64)
    for segments, band_mb in configs:
        seconds = configure(segments, band_mb << 20)
        k = gpu_fast._kernels()
        regs = {name: registers(getattr(k, name)) for name in ("phase2", "phase3", "recover")}
        print(f"S={segments} band={band_mb}MB compile {seconds:.1f}s regs {regs}", flush=True)
        w, _, _ = checked(rng)
        print("   phases ms", phases(w), flush=True)
        kernel_ms, end_ms, dist, via = median_run(small, 40)
        pairs = [tuple(p) for p in rng.integers(0, 500, (400, 2))]
        print(f"   n=500 kernel {kernel_ms:.3f} e2e {end_ms:.3f} exact {np.array_equal(dist, reference)} "
              f"strict-bad {strict_bad(small, dist, via, pairs)}", flush=True)
        print("   host n=500", host_steps(small), flush=True)


if __name__ == "__main__":
    main([tuple(int(x) for x in c.split(",")) for c in sys.argv[1:]])
