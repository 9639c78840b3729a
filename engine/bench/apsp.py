"""The Floyd–Warshall benchmark: time a variant on one graph, check every result, answer the
paper, write the report (``engine.bench.run`` sequences the points of a run).

Protocol (DESIGN.md): JIT and first launch are warmed up outside the timed region, GPU work is
synchronised before a clock is read, each point is repeated and its median reported, and each
timed result is checked against a reference (scipy on the whole matrix up to ``FULL_CHECK_N``,
beyond that scipy's Dijkstra from sampled sources, plus routes summed edge by edge).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
from scipy.sparse.csgraph import csgraph_from_dense, dijkstra, floyd_warshall

from ..apsp import solve
from . import report as _report
from .report import PEER_DEVICE, ReferenceMismatch, Report, machine_info, median_of, repeat  # noqa: F401

FULL_CHECK_N = 600
SAMPLED_SOURCES = 12
# Measured ceilings of the FW relaxation (../shared/gpu/README.md: CUDA C microbenchmark).
CEILINGS = {"H100": 16.0e12}
PEERS = ("scipy", "networkx")
DEFAULT_LADDER = (64, 128, 256, 500, 512, 1024, 2048, 4096, 8192, 16384, 32768)


@dataclass
class Point:
    variant: str
    graph: str            # "random-15%", "random-85%" or an airport name
    n: int
    repeats: int
    median_ms: float      # end to end: the variant's whole run from the int32 matrix in host
                          # memory to distances and routes there (host↔device copies, padding);
                          # solve()'s input validation and float conversion are not in it
    kernel_median_ms: float  # the solve alone (device-synchronised)
    relaxations_per_s: float  # n³ / kernel time
    ceiling_fraction: float | None
    check: str            # how the result was checked
    device: str
    first_ms: float | None = None  # the untimed first call, end to end: JIT compile (or kernels
                                   # loaded from the disk cache), first launch, buffers


def ceiling_for(device: str) -> float | None:
    return next((c for key, c in CEILINGS.items() if key in device), None)


def time_peer(name: str, cost: np.ndarray) -> tuple[np.ndarray, float]:
    """scipy's or networkx's Floyd–Warshall on the same matrix: (distances, seconds)."""
    start = time.perf_counter()
    if name == "scipy":
        dist = floyd_warshall(csgraph_from_dense(cost, null_value=np.inf), directed=True)
    else:
        import networkx as nx
        g = nx.from_numpy_array(np.where(np.isfinite(cost), cost, 0), create_using=nx.DiGraph)
        zero = np.argwhere((cost == 0) & ~np.eye(len(cost), dtype=bool))
        g.add_weighted_edges_from((int(i), int(j), 0.0) for i, j in zero)
        dist = nx.floyd_warshall_numpy(g, nodelist=range(len(cost)))
    return dist, time.perf_counter() - start


def check_result(cost: np.ndarray, dist: np.ndarray, route=None, seed: int = 0) -> str:
    """Compare with scipy (whole matrix when small, sampled Dijkstra rows when large) and walk
    sampled routes. Raises ReferenceMismatch; returns how it checked."""
    n = len(cost)
    graph = csgraph_from_dense(cost, null_value=np.inf)
    rng = np.random.default_rng(seed)
    if n <= FULL_CHECK_N:
        rows, expected, how = np.arange(n), floyd_warshall(graph, directed=True), "scipy full"
    else:
        rows = rng.choice(n, size=SAMPLED_SOURCES, replace=False)
        expected, how = dijkstra(graph, directed=True, indices=rows), f"scipy dijkstra {SAMPLED_SOURCES} rows"
    if not np.array_equal(dist[rows], expected):
        bad = np.argwhere(dist[rows] != expected)[0]
        raise ReferenceMismatch(f"distance ({rows[bad[0]]}, {bad[1]}) is {dist[rows][tuple(bad)]}, "
                                f"reference {expected[tuple(bad)]}")
    if route is not None:
        for i, j in rng.integers(0, n, size=(64, 2)):
            r = route(int(i), int(j))
            total = sum(cost[a, b] for a, b in zip(r, r[1:])) if r else np.inf
            if total != dist[i, j]:
                raise ReferenceMismatch(f"route {i}->{j} costs {total}, distance {dist[i, j]}")
        how += " + 64 routes"
    return how


def measure(variant: str, cost: np.ndarray, graph: str, budget_s: float,
            min_repeats: int = 3, max_repeats: int = 15) -> Point:
    """Median time of ``variant`` on ``cost`` after a checked warm-up run."""
    n = len(cost)
    peer = variant in PEERS
    if peer:
        dist, first = time_peer(variant, cost)
        check = check_result(cost, dist)
        device = PEER_DEVICE
    else:
        result = solve(cost, variant=variant)  # warm-up: JIT, first launch, allocations
        if result.variant != variant:
            raise RuntimeError(result.note)
        check = check_result(cost, result.dist, result.route)
        first, device = result.seconds, result.device
        del result  # its buffers go back to the pools: a timed call finds them, as a caller
                    # that lets go of each answer would (at n = 25,600 one timed call is all the
                    # budget allows, and allocating another 4 GB of page-locked memory is not a solve)

    def once():
        if peer:
            seconds = time_peer(variant, cost)[1]
            return seconds, seconds
        r = solve(cost, variant=variant)
        return r.seconds, r.kernel_seconds

    times = repeat(once, first, budget_s, min_repeats, max_repeats)
    kernel = median_of(times, 1)
    ceiling = ceiling_for(device)
    return Point(variant, graph, n, len(times), 1e3 * median_of(times, 0), 1e3 * kernel,
                 n**3 / kernel if kernel > 0 else float("inf"),
                 (n**3 / kernel) / ceiling if ceiling and kernel > 0 else None, check, device,
                 first_ms=1e3 * first)


def largest_within(times: dict[int, float], budget_s: float) -> int | None:
    """The largest measured n whose solve-time median (ms) fits the budget."""
    fitting = [n for n, ms in times.items() if ms / 1e3 <= budget_s]
    return max(fitting) if fitting else None


def is_random_graph(graph: str) -> bool:
    """A point of a size ladder on the paper's random graphs (any n), not a fixed airport."""
    return graph.startswith("random-")


def paper_answers(points: list[Point], budget_s: float) -> dict:
    """Per variant and random graph: the largest n solved within the budget (solve time, and
    end to end), the smallest measured n over it (solve time; None: the budget was never
    reached), the largest n tried, and the times at n = 500 (solve only and end to end)."""
    seen: dict = {}
    for p in points:
        if is_random_graph(p.graph):
            a = seen.setdefault(p.variant, {}).setdefault(p.graph, ({}, {}))
            a[0][p.n], a[1][p.n] = p.kernel_median_ms, p.median_ms
    return {variant: {graph: {
        "largest_n_within_budget": largest_within(solve, budget_s),
        "largest_n_within_budget_end_to_end": largest_within(end_to_end, budget_s),
        "budget_exceeded_at": min((n for n, ms in solve.items() if ms / 1e3 > budget_s), default=None),
        "largest_n_tried": max(solve, default=None),
        "ms_at_500": solve.get(500),
        "ms_at_500_end_to_end": end_to_end.get(500)}
        for graph, (solve, end_to_end) in graphs.items()} for variant, graphs in seen.items()}


def format_table(report: Report) -> str:
    rows = [f"{'variant':14s} {'graph':12s} {'n':>6s} {'ms e2e':>10s} {'ms solve':>10s} "
            f"{'ms first':>10s} {'relax/s':>9s} {'ceiling':>8s}  check"]
    for p in report.points:
        ceiling = f"{100 * p.ceiling_fraction:7.1f}%" if p.ceiling_fraction else f"{'-':>8s}"
        first = f"{p.first_ms:10.1f}" if p.first_ms is not None else f"{'-':>10s}"
        rows.append(f"{p.variant:14s} {p.graph:12s} {p.n:6d} {p.median_ms:10.3f} "
                    f"{p.kernel_median_ms:10.3f} {first} {p.relaxations_per_s:9.2e} {ceiling}  "
                    f"{p.check}")
    rows.append("")
    rows.append(f"Largest n solved within {report.budget_s:g} s (solve / end to end), "
                f"and n = 500 (solve / end to end):")
    for variant, graphs in report.answers.items():
        for graph, a in graphs.items():
            at500 = (f"{a['ms_at_500']:.3f} / {a['ms_at_500_end_to_end']:.3f} ms"
                     if a["ms_at_500"] is not None else "-")
            rows.append(f"  {variant:14s} {graph:12s} {largest_text(a)}   n=500: {at500}")
    return "\n".join(rows)


def largest_text(a: dict) -> str:
    """"largest n 512 / 480", or "budget not reached (largest tried: 1024)" where no size went
    over it: then the top of the ladder says nothing about the budget."""
    if a.get("budget_exceeded_at") is None and a.get("largest_n_tried") is not None:
        return f"budget not reached (largest tried: {a['largest_n_tried']})"
    return (f"largest n {a.get('largest_n_within_budget')!s:>6s} / "
            f"{a.get('largest_n_within_budget_end_to_end')!s:>6s}")


def write_csv(report: Report, path) -> None:
    _report.write_csv(report, path, Point)


def load_report(path) -> Report:
    """A saved benchmark (the JSON written by ``python main.py bench``)."""
    return _report.read_report(path, Point)
