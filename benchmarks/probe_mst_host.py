"""A spanning forest answered in host memory (issue 35): warm ``spanning_forest(g, "gpu-fast-mst")``
calls on the resident uniform 5 M / 30 M graph and the 2,048² grid, their medians, and where
the time goes — the solve (kernels, device-synchronised), the answer's way to host memory, and
the rest of the call — with the device-to-host copy rate measured alone for the floor it sets.

It imports only ``engine``, so the same file times any commit's code: run it with that tree's
root on ``PYTHONPATH`` (the graphs are built once and kept as ``.npy`` files in
``PROBE_MST_GRAPHS``, so a second tree times the very same graphs)::

    python3 benchmarks/probe_mst_host.py after          # this tree (checks the forests too)
    PYTHONPATH=/path/to/main python3 /path/to/this/benchmarks/probe_mst_host.py before
    NUMBA_ENABLE_CUDASIM=1 PROBE_MST_N=40 python3 benchmarks/probe_mst_host.py after   # simulator

``benchmarks/mst_host.sh`` runs both on the GPU machine with the MST GPU tests. Writes
``mst-host-<tag>.json`` to ``$OUT`` (or the current folder) and prints a table last.
"""

import json
import os
import statistics
import sys
import time
from pathlib import Path

import numpy as np
from numba import cuda

from engine.gpu_device import gpu_name, simulated
from engine.gpu_launch import timed_on_device
from engine.graph_families import family_edges
from engine.mst import EdgeGraph, from_edges, gpu_fast, spanning_forest
from engine.mst.gpu_common import upload

N = int(os.environ.get("PROBE_MST_N", 5_000_000))
GRID_N = 4_194_304 if N == 5_000_000 else N
REPS = 3 if simulated() else int(os.environ.get("PROBE_MST_REPS", 25))
GRAPHS = Path(os.environ.get("PROBE_MST_GRAPHS", "/tmp/probe_mst_graphs"))
NEW_ANSWER = hasattr(gpu_fast.Forest, "to_host")  # this tree's answer path, or main's before it


def graph(family: str, n: int):
    """(label, EdgeGraph) built once and kept in ``GRAPHS`` (keys made, graph uploaded)."""
    path = GRAPHS / f"{family}-{n}"
    if not path.exists():
        label, edges = family_edges(family, n, 6)
        g = from_edges(*edges)
        path.mkdir(parents=True)
        for name in ("u", "v", "w"):
            np.save(path / f"{name}.npy", getattr(g, name))
        (path / "meta.json").write_text(json.dumps({"label": label, "n": g.n}))
    meta = json.loads((path / "meta.json").read_text())
    g = EdgeGraph(meta["n"], *(np.load(path / f"{name}.npy") for name in ("u", "v", "w")))
    g.key  # noqa: B018 — the keys are part of the graph, made before any clock
    upload(g)
    return meta["label"], g


def stats(seconds: list) -> dict:
    ms = sorted(1e3 * s for s in seconds)
    return {"median": statistics.median(ms), "min": ms[0], "p90": ms[int(0.9 * (len(ms) - 1))], "n": len(ms)}


def warm_calls(g, hold: bool = True) -> dict:
    """Warm ``spanning_forest`` calls as a user makes them: wall clock around the call, and the
    solve it reports; the last answer held meanwhile (two answers alive: ``hold``) or let go
    before each call."""
    f = spanning_forest(g, "gpu-fast-mst")
    assert f.variant == "gpu-fast-mst", f.note
    walls, solves = [], []
    for _ in range(REPS):
        if not hold:
            f = None
        start = time.perf_counter()
        f = spanning_forest(g, "gpu-fast-mst")
        walls.append(time.perf_counter() - start)
        solves.append(f.kernel_seconds)
    return {"call": stats(walls), "solve": stats(solves), "answer": f}


def phases(g) -> dict:
    """The call's parts apart, by the host clock (device-synchronised where the device works):
    building the solver, the solve, the answer's way to host memory, the note."""
    parts = {"setup": [], "solve": [], "to host": [], "note": []}
    for _ in range(REPS):
        t0 = time.perf_counter()
        solver = g.device.get("gpu-fast solver") or gpu_fast.Solver(g)  # as a call makes it
        t1 = time.perf_counter()
        timed_on_device(solver.solve)
        t2 = time.perf_counter()
        if NEW_ANSWER:
            solver.forest.to_host()
        else:  # main before issue 35: the ids copied back, the arrays gathered on the host
            from engine.mst.solve import forest_arrays
            forest_arrays(g, solver.forest.ids_to_host())
        t3 = time.perf_counter()
        solver.note()
        t4 = time.perf_counter()
        for name, s in zip(parts, (t1 - t0, t2 - t1, t3 - t2, t4 - t3)):
            parts[name].append(s)
    return {name: stats(s) for name, s in parts.items()}


def copy_rate(nbytes: int) -> dict:
    """Device-to-host copy rate (GB/s, median of 10) into page-locked and into ordinary memory."""
    device = cuda.to_device(np.arange(nbytes // 8, dtype=np.int64))
    rates = {}
    for kind, host in (("pinned", cuda.pinned_array(nbytes // 8, np.int64)),
                       ("pageable", np.empty(nbytes // 8, np.int64))):
        times = []
        for _ in range(10):
            cuda.synchronize()
            start = time.perf_counter()
            device.copy_to_host(host)
            times.append(time.perf_counter() - start)
        rates[kind] = nbytes / statistics.median(times) / 1e9
    return rates


def exact(g, f) -> str:
    """The answer against cpu-kruskal's (ids, ends, weights, total: the same bits)."""
    k = spanning_forest(g, "cpu-kruskal")
    same = (np.array_equal(f.edge_ids, k.edge_ids) and np.array_equal(f.edges, k.edges)
            and np.array_equal(f.weights, k.weights) and f.total == k.total)
    return f"{'same as' if same else 'DIFFERS from'} cpu-kruskal (k={len(k.edge_ids)}, total {k.total!r})"


def main():
    tag = sys.argv[1] if len(sys.argv) > 1 else "run"
    began = time.perf_counter()
    report = {"tag": tag, "device": gpu_name(), "new_answer": NEW_ANSWER, "reps": REPS, "graphs": {}}
    if not simulated():
        report["copy GB/s"] = {f"{mb} MB": copy_rate(mb << 20) for mb in (16, 64, 128)}
    print(f"{tag}: device {report['device']}; answer path {'on device, pooled pinned' if NEW_ANSWER else 'main'}",
          flush=True)
    for family, n in (("uniform", N), ("grid", GRID_N)):
        label, g = graph(family, n)
        let_go = warm_calls(g, hold=False)["call"]
        warm = warm_calls(g)
        f = warm.pop("answer")
        arrays = (f.edges, f.weights, f.edge_ids)
        row = {"n": g.n, "m": g.m, "k": len(f.edge_ids), "answer MB": sum(a.nbytes for a in arrays) / 2**20,
               "dtypes": [str(a.dtype) for a in arrays],
               "memory": type(getattr(f.edges.base, "base", f.edges)).__name__, **warm,
               "call, answer let go": let_go, "phases": phases(g)}
        if tag == "after":
            row["check"] = exact(g, f)
        report["graphs"][label] = row
        print(f"{label}: {json.dumps(row)}", flush=True)
        del f
        g.device.clear()
    out = Path(os.environ.get("OUT", "."))
    (out / f"mst-host-{tag}.json").write_text(json.dumps(report, indent=1))
    print(f"\n{tag} on {report['device']} ({time.perf_counter() - began:.0f} s); ms, median of {REPS} "
          f"[min, p90]; copy GB/s {json.dumps(report.get('copy GB/s'))}")
    print(f"{'graph':20s} {'k':>8s} {'MB':>6s} {'call':>22s} {'let go':>7s} {'solve':>7s} {'setup':>7s} "
          f"{'p.solve':>7s} {'to host':>7s} {'note':>6s}  check")
    for label, r in report["graphs"].items():
        c, p = r["call"], r["phases"]
        print(f"{label:20s} {r['k']:8d} {r['answer MB']:6.1f} {c['median']:7.3f} [{c['min']:6.3f}, {c['p90']:6.3f}] "
              f"{r['call, answer let go']['median']:7.3f} {r['solve']['median']:7.3f} {p['setup']['median']:7.3f} "
              f"{p['solve']['median']:7.3f} "
              f"{p['to host']['median']:7.3f} {p['note']['median']:6.3f}  {r.get('check', '')}")


if __name__ == "__main__":
    main()
