"""``bench --problem mst``: minimum spanning forest variants and their peers (scipy's
``minimum_spanning_tree``, networkx) on uniform random graphs, R-MAT, road-like grids and the
bundled airports' road networks (road lengths, one-way lanes taken as two-way).

Protocol (docs/developer-guide.md): each variant is warmed (JIT, first launch) on a small graph outside the
clock; on the measured graph a GPU variant's upload (edges and adjacency, host to device) is
timed alone, the first call is timed and checked, then warm calls with the graph resident are
repeated and their median reported; every call returns the forest in host memory. The check,
before any time counts: the total equals scipy's (to 1e-9 relative), and the edges are a
spanning forest — n − c of them with c scipy's count of components, and c trees among them.
A ladder (variant, family) stops at the first size over the budget, or before one whose time,
extrapolated linearly in edges from the last, would be.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp
from scipy.sparse.csgraph import connected_components, minimum_spanning_tree

from ..graph_families import FAMILIES, family_edges
from ..mst import EdgeGraph, from_edges, get_variant, spanning_forest
from .options import SPARSE_FAMILIES
from .report import (Report, ReferenceMismatch, fmt_ms, machine_info, median_of, repeat, stopped_and_failed_lines,
                     stopped_html)
from .run import BenchHooks, Run, Stopped

TITLE = "minimum spanning forests (seed 003) on sparse graphs, peers scipy and networkx"
DEFAULT_SIZES = (1024, 65536, 1048576, 4194304)
PEERS = ("scipy", "networkx")
PEER_TIPS = {"scipy": "scipy.sparse.csgraph.minimum_spanning_tree (compiled Kruskal, one thread)",
             "networkx": "networkx.minimum_spanning_edges, Kruskal (Python)"}
OPTION_FLAGS = {"families": "--mst-families", "degree": "--mst-degree"}
NAME = "Minimum spanning forests"
COLUMNS = ("variant", "graph", "n", "m", "ms warm", "ms solve", "ms first", "ms upload", "check",
           "device")
NAMES_DEVICES = False  # peers run on several devices: the plot names the machine
OPTIONS = (SPARSE_FAMILIES,)
WARM_SIDE = 64


@dataclass
class MstPoint:
    variant: str
    graph: str          # "grid-2048x2048", "uniform-5000000-d6", "rmat-20-d6", an airport's name
    family: str
    n: int
    m: int              # undirected edges (parallel ones merged, loops dropped)
    repeats: int
    median_ms: float    # a warm call, graph resident, the forest in host memory
    kernel_median_ms: float  # the solve alone (device-synchronised)
    first_ms: float     # the first call on this graph (JIT warmed elsewhere)
    upload_ms: float | None  # the graph's copy to the GPU (None: CPU)
    edges_per_s: float  # m / median_ms
    total: float        # the forest's total weight
    components: int
    check: str
    device: str


POINT = MstPoint


def registry() -> list:
    from ..mst import variants as mst_variants
    return mst_variants()


def variants(available_only: bool = False) -> list[str]:
    return [v.name for v in registry() if v.available or not available_only] + list(PEERS)


def plan_size(variants, sizes, airports, families=FAMILIES, **_) -> int:
    """The most points ``benchmark`` measures (``airports``: names; None for every bundled)."""
    if airports is None:
        from ..airport.layout_io import bundled_airports
        airports = list(bundled_airports())
    return len(variants) * (len(families) * len(set(sizes)) + len(airports))


def add_arguments(group) -> None:
    group.add_argument("--mst-families", nargs="*", choices=FAMILIES, default=list(FAMILIES),
                       help="generated graph families for --problem mst (default: all)")
    group.add_argument("--mst-degree", type=int, default=6, metavar="D",
                       help="edges per vertex of the uniform and R-MAT graphs (default: 6, "
                            "GTgraph's 5 M vertices / 30 M edges)")


def options(args) -> dict:
    return {"families": args.mst_families, "degree": args.mst_degree}


def airport_graphs(names: list[str] | None) -> dict:
    """The bundled airports' road networks: road lengths as weights, taken as undirected."""
    from ..airport.analysis import road_length_graph
    from ..airport.layout_io import bundled_airports, load_airport
    files = bundled_airports()
    unknown = sorted(set(names or ()) - set(files))
    if unknown:
        raise ValueError(f"no bundled airport {', '.join(unknown)}; bundled: {', '.join(files)}")
    return {name: road_length_graph(load_airport(files[name]))
            for name in (files if names is None else names)}


class Reference:
    """scipy's total and count of components per graph, computed once."""

    def __init__(self):
        self._of: dict = {}

    def seed(self, label: str, g: EdgeGraph, total: float) -> None:
        """Keep the scipy peer's own total instead of computing it again."""
        if label not in self._of:
            self._of[label] = total, _components(g)

    def of(self, label: str, g: EdgeGraph) -> tuple[float, int]:
        if label not in self._of:
            self.seed(label, g, time_peer("scipy", g)[1])
        return self._of[label]


def _components(g: EdgeGraph) -> int:
    return int(connected_components(_cached(g, "scipy", lambda: _shifted_csr(g))[0], directed=False)[0])


def check(reference: Reference, label: str, g: EdgeGraph, edges: np.ndarray, total: float) -> str:
    """Raise ReferenceMismatch unless ``edges`` (k × 2) with ``total`` is a minimum spanning
    forest of ``g`` by scipy's total and components; say how it checked."""
    expected, components = reference.of(label, g)
    if not np.isclose(total, expected, rtol=1e-9, atol=1e-9):
        raise ReferenceMismatch(f"total {total!r}, scipy says {expected!r}")
    if len(edges) != g.n - components:
        raise ReferenceMismatch(f"{len(edges)} edges, a spanning forest of {components} trees "
                                f"has {g.n - components}")
    forest = sp.csr_matrix((np.ones(len(edges)), (edges[:, 0], edges[:, 1])), shape=(g.n, g.n))
    trees = connected_components(forest, directed=False)[0]
    if trees != components:
        raise ReferenceMismatch(f"the edges make {trees} trees, the graph has {components} components")
    return f"scipy total, {components} trees"


def time_peer(name: str, g: EdgeGraph):
    """(edges k × 2, total, seconds) of a peer; its graph built once, outside the clock."""
    if name == "scipy":
        csr = _cached(g, "scipy", lambda: _shifted_csr(g))
        start = time.perf_counter()
        tree = minimum_spanning_tree(csr[0]).tocoo()
        seconds = time.perf_counter() - start
        return np.column_stack((tree.row, tree.col)), float(tree.data.sum()) - csr[1] * tree.nnz, seconds
    import networkx as nx
    nxg = _cached(g, "networkx", lambda: _networkx_graph(g))
    start = time.perf_counter()
    edges = list(nx.minimum_spanning_edges(nxg, algorithm="kruskal", data=True))
    seconds = time.perf_counter() - start
    return (np.array([(a, b) for a, b, _ in edges], np.int64).reshape(-1, 2),
            float(sum(d["weight"] for *_, d in edges)), seconds)


def _shifted_csr(g):
    """scipy's input: weights shifted above zero (scipy reads a stored zero as no edge), which
    moves every spanning forest's total alike; and the shift."""
    shift = 1.0 - min(0.0, float(g.w.min())) if g.m else 0.0
    return sp.csr_matrix((g.w + shift, (g.u, g.v)), shape=(g.n, g.n)), shift


def _networkx_graph(g):
    import networkx as nx
    nxg = nx.Graph()
    nxg.add_nodes_from(range(g.n))
    nxg.add_weighted_edges_from(zip(g.u.tolist(), g.v.tolist(), g.w.tolist()))
    return nxg


def _cached(g, name, build):
    if ("peer", name) not in g.device:
        g.device[("peer", name)] = build()
    return g.device[("peer", name)]


_warmed: set = set()


def _warm(variant: str) -> None:
    if variant not in _warmed:
        from ..gpu_device import simulated
        from ..graph_families import road_grid_edges
        g = from_edges(*road_grid_edges(4 if simulated() else WARM_SIDE, seed=1))
        if variant in PEERS:
            time_peer(variant, g)
        else:
            spanning_forest(g, variant)
        _warmed.add(variant)


def fresh(g: EdgeGraph) -> EdgeGraph:
    """The same graph with nothing on the device (its host-side keys and adjacency kept)."""
    return EdgeGraph(g.n, g.u, g.v, g.w, _key=g.key, _adjacency=g.adjacency())


def upload_seconds(g: EdgeGraph, variant: str) -> float:
    """Copy what ``variant`` reads of ``g`` to the GPU, device-synchronised."""
    from numba import cuda
    from ..mst.gpu_common import upload
    cuda.synchronize()
    start = time.perf_counter()
    upload(g)
    if variant == "gpu-boruvka":
        from ..mst.gpu_boruvka import resident
        resident(g)  # its vertex and edge lists and their keys
    cuda.synchronize()
    return time.perf_counter() - start


def measure(variant: str, g: EdgeGraph, graph: str, family: str, budget_s: float,
            reference: Reference) -> MstPoint:
    """Median time of ``variant`` on ``g`` after a checked first call."""
    upload_ms = None
    _warm(variant)
    g = fresh(g)
    if variant in PEERS:
        edges, total, first = time_peer(variant, g)
        if variant == "scipy":
            reference.seed(graph, g, total)  # scipy is the reference: not run twice
        device = "CPU (1 thread)"

        def once():
            s = time_peer(variant, g)[2]
            return s, s
    else:
        v = get_variant(variant)
        if not v.available:
            raise RuntimeError(f"{variant} unavailable: {v.reason}")
        if v.family == "gpu":
            upload_ms = 1e3 * upload_seconds(g, variant)
        f = spanning_forest(g, variant)
        if f.variant != variant:
            raise RuntimeError(f.note)
        edges, total, first, device = f.edges, f.total, f.seconds, f.device

        def once():
            r = spanning_forest(g, variant)
            return r.seconds, r.kernel_seconds
    how = check(reference, graph, g, edges, total)
    times = repeat(once, first, budget_s)
    median = median_of(times, 0)
    return MstPoint(variant, graph, family, g.n, g.m, len(times), 1e3 * median,
                    1e3 * median_of(times, 1), 1e3 * first, upload_ms,
                    g.m / median if median > 0 else float("inf"), total,
                    g.n - len(edges), how, device)


def answers_of(points, failures, stopped) -> dict:
    return {"stopped": dict(stopped),
            "errors": {f"{f.variant} {f.graph} n={f.n}": f.message for f in failures}}


def benchmark(variants, sizes, budget_s, airports, command, hooks: BenchHooks | None = None,
              families=FAMILIES, degree=6, measure_fn=measure) -> Report:
    """Every (graph, variant) in order, each checked against scipy first; returns the report,
    partial if ``hooks`` stopped the run."""
    hooks = hooks if hooks is not None else BenchHooks()
    graphs = airport_graphs(airports)
    variants = sorted(variants, key=lambda v: v != "scipy")  # scipy first: it is the reference
    plan = [(family, n, v) for family in families for n in sorted(set(sizes)) for v in variants]
    plan += [("airport", name, v) for name in graphs for v in variants]
    report = Report(command=command, machine=machine_info(), budget_s=budget_s, problem="mst")
    stopped, last = {}, {}  # (variant, family) -> why stopped; -> (m, seconds) of the last point
    run = Run(report, hooks, len(plan), lambda points, failures, _: answers_of(points, failures, stopped))
    reference, built = Reference(), {}
    hooks.started(report)
    try:
        for family, size, variant in plan:
            if family == "airport":
                label, g = size, graphs[size]
            else:
                if (family, size) not in built:
                    built.clear()  # one generated graph in memory at a time
                    label, edges = family_edges(family, size, degree)
                    built[family, size] = label, from_edges(*edges)
                label, g = built[family, size]
            key = f"{variant} {family}"
            if key in last and key not in stopped and last[key][1] * g.m / max(last[key][0], 1) > budget_s:
                stopped[key] = (f"{label} not run: ≥ {last[key][1] * g.m / max(last[key][0], 1):.3g} s "
                                f"extrapolated from m={last[key][0]}, over the {budget_s:g} s budget")
            if key in stopped or any(p.graph == label and p.variant == variant for p in report.points):
                run.skip(1)
                continue
            p = run.point(variant, label, g.n, lambda: measure_fn(variant, g, label, family, budget_s, reference))
            if p is None:
                stopped[key] = f"failed on {label}"
            elif family != "airport":
                last[key] = (g.m, p.median_ms / 1e3)
                if p.median_ms / 1e3 > budget_s:
                    stopped[key] = f"{label} took {p.median_ms / 1e3:.3g} s, over the {budget_s:g} s budget"
            report.answers = answers_of(report.points, run.failures, stopped)
    except Stopped:
        pass
    return report


def format_table(report: Report) -> str:
    rows = [f"{'variant':14s} {'graph':20s} {'n':>8s} {'m':>9s} {'ms warm':>10s} {'ms solve':>10s} "
            f"{'ms first':>10s} {'ms upload':>9s} {'edges/s':>9s} {'total':>14s}  check"]
    for p in report.points:
        upload = f"{p.upload_ms:9.2f}" if p.upload_ms is not None else f"{'-':>9s}"
        rows.append(f"{p.variant:14s} {p.graph:20s} {p.n:8d} {p.m:9d} {p.median_ms:10.3f} "
                    f"{p.kernel_median_ms:10.3f} {p.first_ms:10.3f} {upload} {p.edges_per_s:9.2e} "
                    f"{p.total:14.6g}  {p.check}")
    rows += stopped_and_failed_lines(report)
    return "\n".join(rows)


def table_row(p) -> list[str]:
    """A point's cells under ``COLUMNS``."""
    upload = fmt_ms(p.upload_ms) if p.upload_ms is not None else "—"
    return [p.variant, p.graph, f"{p.n:,}", f"{p.m:,}", fmt_ms(p.median_ms),
            fmt_ms(p.kernel_median_ms), fmt_ms(p.first_ms), upload, p.check, p.device]


def ladder_of(p) -> str | None:
    """A spanning-forest point's curve in the plot: its family; None for an airport."""
    return None if p.family == "airport" else p.family


def summary_html(report: Report) -> str:
    """Where ladders stopped."""
    return stopped_html(report)
