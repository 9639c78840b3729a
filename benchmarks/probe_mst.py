"""The spanning-forest goal graphs of issue 16 on the GPU, measured step by step: for each GPU
variant the solve (kernels only, graph resident, median of 5), a warm ``spanning_forest`` call
(median of 5), the host part of that call apart (the answer's copy back into host memory), its
rounds or levels, and a per-step breakdown of one solve from CUDA
events queued between the launches; gpu-fast-mst also per round with its rounds as launch
pairs (worklist sizes, union-find chain lengths), its rounds as launch pairs against one
cooperative launch of several sizes, and other light-edge targets. Every answer's edge ids are
compared with cpu-kruskal's (the same forest: ties by edge id); the grid's total also with
scipy's (scipy takes ~17 s on the uniform graph, so it is skipped there).

    python3 -m benchmarks.probe_mst                      # on the GPU machine
    NUMBA_ENABLE_CUDASIM=1 PROBE_MST_N=40 python3 -m benchmarks.probe_mst     # simulator, ~6 min

``PROBE_MST_N``: vertices of the uniform graph (5,000,000; 6 edges each, GTgraph's 30 M) and
about those of the grid (2048² = 4,194,304); ``PROBE_MST_VARIANTS``: which (default both).
"""

import os
import statistics
import time

import numpy as np
from numba import cuda

from engine.gpu_device import gpu_name, simulated
from engine.gpu_launch import THREADS, blocks_for
from engine.graph_families import family_edges
from engine.mst import from_edges, get_variant, gpu_boruvka, gpu_fast, spanning_forest
from engine.mst.gpu_common import upload

from .common import event_steps

N = int(os.environ.get("PROBE_MST_N", 5_000_000))
GRID_N = 4_194_304 if N == 5_000_000 else N
VARIANTS = os.environ.get("PROBE_MST_VARIANTS", "gpu-fast-mst gpu-boruvka").split()
REPS = 2 if simulated() else 5  # the simulator runs a solve in seconds
SCIPY_MAX_EDGES = 10_000_000  # scipy's minimum_spanning_tree: ~4 s on the grid, ~17 s at 30 M


def ms(seconds):
    return f"{1e3 * seconds:.3f}"


def build(family, n):
    start = time.perf_counter()
    label, edges = family_edges(family, n, 6)
    g = from_edges(*edges)
    g.key  # noqa: B018 — the keys are part of the graph, made before any clock
    print(f"graph {label} n={g.n} m={g.m} built in {time.perf_counter() - start:.1f} s", flush=True)
    return label, g


def reference(label, g):
    start = time.perf_counter()
    kruskal = spanning_forest(g, "cpu-kruskal")
    line = (f"reference {label} cpu-kruskal total={kruskal.total!r} k={len(kruskal.edge_ids)} "
            f"components={kruskal.components} {time.perf_counter() - start:.1f} s")
    if g.m <= SCIPY_MAX_EDGES:
        from engine.bench.mst_problem import time_peer
        _, total, seconds = time_peer("scipy", g)
        line += f"; scipy total={total!r} ({seconds:.1f} s) agrees {np.isclose(total, kruskal.total, rtol=1e-9)}"
    else:
        line += f"; scipy skipped (m > {SCIPY_MAX_EDGES}: ~17 s on the H100)"
    print(line, flush=True)
    return kruskal


def upload_ms(g, variant):
    cuda.synchronize()
    start = time.perf_counter()
    upload(g)
    if variant == "gpu-boruvka":
        gpu_boruvka.resident(g)
    cuda.synchronize()
    return time.perf_counter() - start


def measure(label, g, variant, kruskal):
    """The solve, a warm call and its host part, exactness, the note."""
    up = upload_ms(g, variant)
    v = get_variant(variant)
    v.run(g)  # JIT and first launch, outside every clock
    solves, runs, warm = [], [], []
    for _ in range(REPS):
        start = time.perf_counter()
        _, seconds, note = v.run(g)
        runs.append(time.perf_counter() - start)
        solves.append(seconds)
    for _ in range(REPS):
        f = spanning_forest(g, variant)
        warm.append(f.seconds)
    exact = f.variant == variant and np.array_equal(f.edge_ids, kruskal.edge_ids)
    solve, run = statistics.median(solves), statistics.median(runs)
    print(f"{variant} {label} solve {ms(solve)} ms (median of {REPS}; all {' '.join(ms(s) for s in solves)}) "
          f"warm {ms(statistics.median(warm))} ms; host part: run() beyond the solve {ms(run - solve)} ms "
          f"(the answer's copy back); upload {ms(up)} ms; "
          f"exact {exact} (total {f.total!r}); {f.note}", flush=True)


def solved_with_events(make):
    """The solver ``make(after)`` builds, and [(step, GPU ms)] of its one ``solve()``."""
    made = []

    def queue(record):
        made.append(make(record))
        made[0].solve()

    steps = event_steps(queue)
    return made[0], steps


def by_step(steps) -> str:
    total = {}
    for step, t in steps:
        total[step] = total.get(step, 0.0) + t
    return " ".join(f"{k} {v:.3f}" for k, v in total.items()) + f"; sum {sum(total.values()):.3f}"


def fast_details(label, g, kruskal):
    """One solve's steps by CUDA events (one launch: sample, rounds, compact); the rounds as
    launch pairs, per round, with their union-find chains; then the solve with the rounds as
    launch pairs against one cooperative launch of every co-resident block or of fewer blocks a
    multiprocessor, and for other light-edge targets."""
    solver, steps = solved_with_events(lambda record: gpu_fast.Solver(g, after=record))
    print(f"gpu-fast-mst {label} steps (ms, CUDA events, one solve): {by_step(steps)}", flush=True)
    try:
        gpu_fast.PERSISTENT = False
        solver, steps = solved_with_events(lambda record: gpu_fast.Solver(g, after=record))
        print(f"gpu-fast-mst {label} as launch pairs, steps: {by_step(steps)}", flush=True)
        rounds = [t for step, t in steps if step in ("select", "filter")]
        chooses = [t for step, t in steps if step == "choose"]
        print(f"gpu-fast-mst {label} rounds {' '.join(solver.phases)}; kept per round {solver.worklists()}; "
              f"select ms per round {' '.join(f'{t:.3f}' for t in rounds)}; "
              f"choose ms per round {' '.join(f'{t:.3f}' for t in chooses)}", flush=True)
        print(f"gpu-fast-mst {label} after each round (hook chains: longest, mean; trees): "
              + "; ".join(f"{d} {mean:.2f} {trees}" for d, mean, trees in chain_depths(g)), flush=True)
    finally:
        gpu_fast.PERSISTENT = True
    for persistent, per_sm in ((False, None), (True, None), (True, 1), (True, 2), (True, 4), (True, None)):
        gpu_fast.PERSISTENT, gpu_fast.ROUNDS_BLOCKS_PER_SM = persistent, per_sm
        gpu_fast.rounds_kernel.cache_clear()
        try:
            ids = get_variant("gpu-fast-mst").run(g)[0].ids
            solves = [get_variant("gpu-fast-mst").run(g)[1] for _ in range(REPS)]
        finally:
            gpu_fast.PERSISTENT, gpu_fast.ROUNDS_BLOCKS_PER_SM = True, None
            gpu_fast.rounds_kernel.cache_clear()
        how = ("launch pairs" if not persistent else
               f"one launch, {per_sm or 'all co-resident'} blocks a multiprocessor")
        print(f"gpu-fast-mst {label} rounds as {how}: solve {ms(statistics.median(solves))} ms (median of "
              f"{REPS}; all {' '.join(ms(t) for t in solves)}); same forest {np.array_equal(ids, kruskal.edge_ids)}",
              flush=True)
    default = gpu_fast.LIGHT_PER_VERTEX
    try:
        for target in (2,) if simulated() else (1, 2, 3, 4):
            gpu_fast.LIGHT_PER_VERTEX = target
            solves = [get_variant("gpu-fast-mst").run(g)[1] for _ in range(3)]
            print(f"gpu-fast-mst {label} light edges per vertex {target:g}: solve "
                  f"{ms(statistics.median(solves))} ms (median of 3)", flush=True)
    finally:
        gpu_fast.LIGHT_PER_VERTEX = default


@cuda.jit
def _depths(parent, depth):
    """depth[x]: steps from x to its root (read only)."""
    for x in range(cuda.grid(1), parent.size, cuda.gridsize(1)):
        d, y = 0, x
        while parent[y] != y:
            y = parent[y]
            d += 1
        depth[x] = d


def chain_depths(g) -> list:
    """(longest, mean, trees) of the union-find chains after each round of one (untimed) solve."""
    seen = []
    depth = cuda.device_array(g.n, np.int32)

    def measure(step):
        if step == "choose":
            _depths[blocks_for(g.n), THREADS](solver.parent, depth)
            d = depth.copy_to_host()
            seen.append((int(d.max()), float(d.mean()), int((d == 0).sum())))

    solver = gpu_fast.Solver(g, after=measure)
    solver.solve()
    return seen


def boruvka_details(label, g, kruskal):
    levels, steps = solved_with_events(lambda record: gpu_boruvka.Levels(g, after=record))
    print(f"gpu-boruvka {label} steps (ms, CUDA events, one solve): {by_step(steps)}", flush=True)
    level, per_level = 0, [[]]
    for step, t in steps:
        per_level[level].append((step, t))
        if step == "7 vertex list":
            level += 1
            per_level.append([])
    for i, (size, level_steps) in enumerate(zip(levels.sizes, per_level)):
        print(f"gpu-boruvka {label} level {i} (vertices, edges) {size} duplicates removed "
              f"{levels.removed_duplicates[i]}: {by_step(level_steps)}", flush=True)
    print(f"gpu-boruvka {label} after the levels: {by_step(per_level[-1])}", flush=True)
    for name, settings in BORUVKA_SETTINGS[:1] if simulated() else BORUVKA_SETTINGS:  # ~30 s a solve there
        saved = {k: getattr(gpu_boruvka, k) for k in settings}
        try:
            for k, value in settings.items():
                setattr(gpu_boruvka, k, value)
            solves = [get_variant("gpu-boruvka").run(g)[1] for _ in range(3)]
            ids = get_variant("gpu-boruvka").run(g)[0].ids
        finally:
            for k, value in saved.items():
                setattr(gpu_boruvka, k, value)
        print(f"gpu-boruvka {label} {name} {settings}: solve {ms(statistics.median(solves))} ms "
              f"(median of 3); same forest {np.array_equal(ids, kruskal.edge_ids)}", flush=True)


# gpu-boruvka's knobs, one setting at a time against the defaults (the row above them)
BORUVKA_SETTINGS = [
    ("duplicates removed at every level (the edges split at every level)", {"DENSE": 2**62}),
    ("duplicates removed only where dense", {"FIRST_LOOK": None}),
    ("duplicates removed only where dense, 1/2", {"FIRST_LOOK": None, "DENSE": 2}),
    ("duplicates removed only where dense, 1/32", {"FIRST_LOOK": None, "DENSE": 32}),
    ("one thread a vertex's segmented min", {"EDGES_PER_LANE": 2**40}),
    ("lanes of 4 edges", {"EDGES_PER_LANE": 4}),
    ("lanes of 16 edges", {"EDGES_PER_LANE": 16}),
]


def main():
    began = time.perf_counter()
    print(f"device {gpu_name()}; PROBE_MST_N={N}", flush=True)
    for family, n in (("uniform", N), ("grid", GRID_N)):
        label, g = build(family, n)
        kruskal = reference(label, g)
        for variant in VARIANTS:
            measure(label, g, variant, kruskal)
            if variant == "gpu-fast-mst":
                fast_details(label, g, kruskal)
            else:
                boruvka_details(label, g, kruskal)
        g.device.clear()
        del g
    print(f"probe done in {time.perf_counter() - began:.0f} s", flush=True)


if __name__ == "__main__":
    main()
