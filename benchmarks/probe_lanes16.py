"""16-bit lanes against int32 on the copied path (issue 19). Per size: ``gpu_fast.run`` with
``Tuning.lanes16`` off and on, alternating, medians of the solve's GPU time and of the whole call; the
two answers' distances compared cell by cell, 400 routes of the lanes' answer walked strictly;
then phase 3 alone on lanes (one middle k-block applied again and again, as
``probe_phase3_rate``), its first launch checked against numpy on a sample of rows, its rate in
relaxations per second (two a word).

    python3 -m benchmarks.probe_lanes16 4096 8192 16384 16384u

A size ending in "u" compares on a graph whose last vertex nothing reaches: the lanes end at
their cap in that column, and int32 rounds redo its tiles only. A size ending in "s" times
each step of one lanes solve instead (an event after every launch, summed by step):

    python3 -m benchmarks.probe_lanes16 16384s

A size ending in "r" times the via recovery alone for each tuning in $LANES_RECOVERY (``recovery``).

``LANES_TUNING`` (e.g. "lanes_recover_batch=4") probes another tuning.
"""

import os
import statistics
import sys

from dataclasses import replace

import numpy as np
from numba import cuda

from engine.apsp import gpu_fast
from engine.apsp.matrix import INF
from benchmarks.probe_phase3_rate import check
from benchmarks.common import TUNING, graph, median_launch_seconds, median_run, registers, strict_bad

# LANES_TUNING="lanes_recover_batch=4" probes a tuning other than this machine's.
TUNING = replace(TUNING, **{key: int(value) for key, value in
                            (item.split("=") for item in os.environ.get("LANES_TUNING", "").split())})
# The copied path at every size, in int32 alone or in 16-bit lanes first.
SOLVERS = {lanes: gpu_fast.Solver(replace(TUNING, mapped_max=0, lanes16=lanes)) for lanes in (False, True)}


def compare(n: int, reps: int, unreachable: bool = False) -> None:
    w = graph(n, seed=n)
    if unreachable:
        w[:-1, -1] = INF
    runs = {}
    for _ in range(reps):
        for lanes in (False, True):
            kernel_ms, end_ms, dist, via = median_run(w, 1, SOLVERS[lanes])
            runs.setdefault(lanes, []).append((kernel_ms, end_ms))
            arithmetic = SOLVERS[lanes].last_arithmetic
            if lanes:
                lanes_dist, lanes_via = dist.copy(), via.copy()
            else:
                int32_dist = dist.copy()
    pairs = [tuple(p) for p in np.random.default_rng(n).integers(0, n, (400, 2))]
    for lanes in (False, True):
        kernel = statistics.median(k for k, _ in runs[lanes])
        end = statistics.median(e for _, e in runs[lanes])
        print(f"n={n}{'u' if unreachable else ''} {'lanes16' if lanes else 'int32  '} solve {kernel:8.2f} ms"
              f"  end to end {end:8.2f} ms"
              f"  {n ** 3 / kernel / 1e9:6.2f} x10^12 relax/s", flush=True)
    print(f"n={n}{'u' if unreachable else ''} lanes ran as {arithmetic!r}; "
          f"distances equal {np.array_equal(lanes_dist, int32_dist)}; "
          f"strict-bad routes {strict_bad(w, lanes_dist, lanes_via, pairs)} of 400", flush=True)


def phase3_rate(n: int) -> None:
    B = TUNING.b
    nb = n // B
    rng = np.random.default_rng(0)
    kb = nb // 2
    k, nxt = slice(kb * B, kb * B + B), slice(kb * B + B, kb * B + 2 * B)
    lanes = rng.integers(1, 10_000, (n, n), dtype=np.int32)
    lanes[k, k] = 20_000  # a closed diagonal tile: the k-block's columns (phase 3 takes them) stay
    lanes[k, k][np.diag_indices(B)] = 0
    D = cuda.to_device(lanes[:, 0::2] | lanes[:, 1::2] << 16)
    V = cuda.to_device(np.full((n, n // 2 if TUNING.lanes_marks16 else n), -1, np.int32))  # VL: int16 marks
    inner = gpu_fast.lanes_phase3(TUNING, nb)
    inner(D, V, kb, nb)
    after = D.copy_to_host()
    got = np.empty_like(lanes)
    got[:, 0::2], got[:, 1::2] = after & 0xFFFF, after >> 16
    if TUNING.lanes_lookahead:
        got[nxt, nxt] = closed_next(lanes, got, kb * B, B)  # checked: phase 3's product again there
    check(lanes, got, kb * B)  # the k-block's columns stay: its diagonal tile is closed
    seconds = median_launch_seconds(lambda: inner(D, V, kb, nb))
    rate = (n - B) * n * B / seconds
    print(f"n={n} phase3_lanes{'_wide' if TUNING.lanes_wide else ''} exact on sampled rows True"
          f"{' (and the next diagonal tile closed)' if TUNING.lanes_lookahead else ''}; "
          f"{rate / 1e12:.2f} x10^12 relax/s", flush=True)


def closed_next(before, after, base: int, B: int):
    """With ``lanes_lookahead`` phase 3 also closes the next diagonal tile (base + B): checks
    that tile of ``after`` is phase 3's product on ``before`` closed k after k, and returns the
    product alone (what ``check`` expects there)."""
    k, nxt = slice(base, base + B), slice(base + B, base + 2 * B)
    product = np.minimum(before[nxt, nxt], (before[nxt, k][:, :, None] + before[k, nxt][None]).min(axis=1))
    closed = product.copy()
    for m in range(B):
        closed = np.minimum(closed, closed[:, m:m + 1] + closed[m:m + 1, :])
    if not np.array_equal(after[nxt, nxt], closed):
        raise AssertionError("phase 3's look-ahead closure of the next diagonal tile is wrong")
    return product


def steps(n: int) -> None:
    w = graph(n, seed=n)
    solver = SOLVERS[True]
    solver.run(w)  # loads the kernels, makes and fills the buffers (W holds w after)
    buf, B = solver.buffers.kept, TUNING.b
    main, L = buf["main"], buf["L"]
    nb = L.shape[0] // B
    marks = []

    def after(step):
        marks.append((step, cuda.event()))
        marks[-1][1].record(main)

    after("start")
    gpu_fast.launch_rounds(TUNING, buf["W"], L, buf["VL"], nb, stream=main, after=after, lanes=True, tiles=buf["M"])
    gpu_fast.launch_widen(TUNING, buf, 0, main)
    after("widen")
    exact = (L, buf["TL"]) if solver.last_arithmetic == "lanes16" else None
    VL = gpu_fast.lanes_marks(TUNING, buf, exact is not None, main)
    if TUNING.lanes_vias16:
        after("marks")  # widen_marks, where the vias are not recovered from VL
    gpu_fast.launch_recovery(TUNING, buf["D"], buf["V"], buf["T"], nb, N=buf["N"], stream=main, after=after,
                             lanes=exact, VL=VL)
    main.synchronize()
    totals, rounds = {}, {}
    for (_, before), (step, event) in zip(marks, marks[1:]):
        ms = before.elapsed_time(event)
        totals[step] = totals.get(step, 0.0) + ms
        rounds.setdefault(step, []).append(ms)
    print(f"n={n} steps of a lanes solve, GPU ms: " + ", ".join(f"{s} {ms:.2f}" for s, ms in totals.items())
          + f"; total {sum(totals.values()):.2f}", flush=True)
    for step in ("phases 1+2", "phase 3"):
        print(f"n={n} {step} by rounds, GPU ms: " + by_rounds(rounds[step]), flush=True)
    k = gpu_fast.kernels(TUNING)
    names = ("phase2_lanes", "phase3_lanes_wide" if TUNING.lanes_wide else "phase3_lanes",
             *((f"recover_lanes{'' if VL is None else '16'}_rows", f"recover_lanes{'' if VL is None else '16'}")
               if exact else ("recover",)))
    print(f"n={n} registers a thread: " + ", ".join(f"{name} {registers(getattr(k, name))}" for name in names),
          flush=True)


def recovery(n: int) -> None:
    """The via recovery alone after one exact lanes solve, for each tuning change in
    $LANES_RECOVERY (space-separated; each "key=value,key=value", "-" for none), from the same
    marks each time: transpose + recovery GPU ms (median of 3), and the vias of 2 M sampled
    cells checked (a k off both ends with d(i, k) + d(k, j) = d(i, j), or -1 on a direct edge)."""
    w = graph(n, seed=n)
    solver = SOLVERS[True]
    solver.run(w)
    buf, B = solver.buffers.kept, TUNING.b
    main, L, V = buf["main"], buf["L"], buf["V"]
    nb = L.shape[0] // B
    gpu_fast.launch_rounds(TUNING, buf["W"], L, buf["VL"], nb, stream=main, lanes=True, tiles=buf["M"])
    gpu_fast.launch_widen(TUNING, buf, 0, main)
    gpu_fast.lanes_marks(TUNING, buf, False, main)  # (V's marks: the recovery timed reads them there)
    marks = cuda.device_array_like(V, stream=main)
    marks.copy_to_device(V, stream=main)
    main.synchronize()
    dist = buf["D"].copy_to_host()
    rng = np.random.default_rng(0)
    i, j = (rng.integers(0, n, 2_000_000) for _ in range(2))
    for variant in os.environ.get("LANES_RECOVERY", "-").split():
        tuning = replace(TUNING, **{key: int(value) for key, value in
                                    (item.split("=") for item in variant.split(",") if item != "-")})
        times = []
        for _ in range(3):
            V.copy_to_device(marks, stream=main)
            start, end = cuda.event(), cuda.event()
            start.record(main)
            gpu_fast.launch_recovery(tuning, buf["D"], V, buf["T"], nb, stream=main, lanes=(L, buf["TL"]))
            end.record(main)
            end.synchronize()
            times.append(start.elapsed_time(end))
        via = V.copy_to_host()[i, j]
        k = np.maximum(via, 0)
        good = np.where(via >= 0, (k != i) & (k != j) & (dist[i, k] + dist[k, j] == dist[i, j]),
                        (via == -1) & (np.minimum(w[i, j], INF) == dist[i, j]))
        print(f"n={n} recovery {variant}: transpose + recover {statistics.median(times):.2f} GPU ms "
              f"(runs {' '.join(f'{t:.2f}' for t in times)}); sampled vias bad {int((~good).sum())} of {len(via)}",
              flush=True)


def by_rounds(times: list) -> str:
    """Per-round times summed over rounds 0, 1, 2, 3, 4-7, 8-15, ... (the last group cut at the end)."""
    groups, first = [], 0
    while first < len(times):
        last = max(first + 1, 2 * first) if first >= 4 else first + 1
        part = times[first:last]
        groups.append(f"{first}{f'-{first + len(part) - 1}' if len(part) > 1 else ''} {sum(part):.2f}"
                      f" ({sum(part) / len(part):.3f}/round)")
        first = last
    return ", ".join(groups)


if __name__ == "__main__":
    for arg in sys.argv[1:]:
        size = int(arg.rstrip("usr"))
        if arg.endswith("s"):
            steps(size)
        elif arg.endswith("r"):
            recovery(size)
        elif arg.endswith("u"):
            compare(size, 3, unreachable=True)
        else:
            phase3_rate(size)
            compare(size, 3 if size <= 16384 else 1)
