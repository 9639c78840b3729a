"""The SSSP benchmark: time a variant (or a peer) from a set of sources on one graph, check the
answer against scipy first, report the graph's upload to the GPU apart from the solve.

Protocol (docs/developer-guide.md): each variant's JIT and first launch are warmed on a small graph outside
the timed region; on the measured graph the upload (both CSR directions, host to device) is timed
alone, then the first call (its buffers allocated) is timed and checked, then the warm calls
with the graph resident are repeated and their median reported. Every solve returns its answer
in host memory: a warm time is the solve's ``seconds``, from the sources in to ``r.dist``
(float64, ``np.inf`` unreachable) in host memory — an integer answer's conversion to float64 is
inside it (``engine.sssp.solve``), and gpu-fast-sssp's small graphs have none to do: its kernel
writes float64 straight into mapped host memory from a pool, and ``r.dist`` is that buffer (the
checked first answer is let go before the warm calls, so they reuse its buffer, as an app that
reads each answer and lets it go). Not in it: checking the sources and building the result
object (microseconds), as for the peers. The ``fw-gpu-fast`` peer is timed by its own
``seconds``, which stops at its int32 answer in host memory (``engine.apsp.solve`` converts to
float64 after the clock). The check: scipy's Dijkstra from up to ``CHECKED_SOURCES`` of the sources
(computed once per graph and reused by every variant), distances equal element by element, and
``CHECKED_ROUTES`` routes whose summed edge costs equal their distances.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
from scipy.sparse.csgraph import dijkstra

from ..sssp import SparseGraph, get_variant, solve
from .report import ReferenceMismatch, median_of, repeat

PEERS = ("scipy", "networkx", "fw-gpu-fast")  # fw-gpu-fast: Floyd–Warshall's gpu-fast, all sources
CHECKED_SOURCES = 4
CHECKED_ROUTES = 16
WARM_SIDE = 32        # a 32 × 32 grid warms each variant: one source, and enough sources for
WARM_SOURCES = 64     # the CPU variants' parallel loop; gpu-fast-sssp's large-graph path
LARGE_WARM_SIDE = 80  # needs more vertices than its shared memory holds


@dataclass
class SsspPoint:
    variant: str
    graph: str            # "grid-2048x2048", "uniform-5000000-d6", "rmat-20-d8", an airport's name
    family: str           # "grid", "uniform", "rmat" or "airport"
    n: int
    m: int                # edges (parallel ones merged)
    sources: int          # sources per call
    repeats: int
    median_ms: float      # a warm call, graph resident: sources in, float64 answer in host memory
    kernel_median_ms: float  # the solve alone (device-synchronised)
    first_ms: float       # the first call on this graph (JIT warmed elsewhere; buffers allocated)
    upload_ms: float | None  # the graph's copy to the GPU, both directions (None: CPU)
    edges_per_s: float    # m × sources / median_ms: edges a call would relax once each
    check: str
    device: str


class Reference:
    """scipy's distances from a few of the sources of each (graph, sources), computed once."""

    def __init__(self):
        self._rows: dict = {}

    @staticmethod
    def _picked(sources) -> np.ndarray:
        return np.unique(np.linspace(0, len(sources) - 1, CHECKED_SOURCES).astype(int))

    def rows(self, key, g: SparseGraph, sources: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(indices into ``sources``, scipy's distances from those sources)."""
        if key not in self._rows:
            picked = self._picked(sources)
            self._rows[key] = picked, dijkstra(g.csr_matrix(), directed=True,
                                               indices=sources[picked])
        return self._rows[key]

    def seed(self, key, sources: np.ndarray, scipy_dist: np.ndarray) -> None:
        """Keep scipy's own full answer (the scipy peer's) instead of computing it again."""
        if key not in self._rows:
            picked = self._picked(sources)
            self._rows[key] = picked, scipy_dist[picked]


def check(reference: Reference, key, g: SparseGraph, sources, dist, route=None, seed=0) -> str:
    """Raise ReferenceMismatch unless ``dist`` matches scipy on the checked rows (and ``route``
    walks sampled routes of the first checked source at their distances); say how it checked."""
    picked, expected = reference.rows(key, g, sources)
    got = dist[picked]
    if not np.array_equal(got, expected):
        r, t = np.argwhere(got != expected)[0]
        raise ReferenceMismatch(f"distance from {sources[picked[r]]} to {t} is {got[r, t]}, "
                                f"scipy says {expected[r, t]}")
    how = f"scipy dijkstra {len(picked)} of {len(sources)} sources"
    if route is None:
        return how
    s = int(sources[picked[0]])
    reached = np.flatnonzero(np.isfinite(expected[0]))
    for t in np.random.default_rng(seed).choice(reached, min(CHECKED_ROUTES, len(reached)), False):
        walk = route(s, int(t))
        total = _walked_cost(g, walk)
        if total != expected[0, t] or walk[0] != s or walk[-1] != t:
            raise ReferenceMismatch(f"route {s}->{t} costs {total}, distance {expected[0, t]}")
    return how + f" + {min(CHECKED_ROUTES, len(reached))} routes"


def _walked_cost(g: SparseGraph, walk: list[int]) -> float:
    """The summed edge costs of ``walk`` (inf if it is empty or uses a missing edge)."""
    if not walk:
        return np.inf
    total = 0
    for a, b in zip(walk, walk[1:]):
        heads = g.indices[g.indptr[a]:g.indptr[a + 1]]
        at = np.flatnonzero(heads == b)
        if not len(at):
            return np.inf
        total += int(g.weights[g.indptr[a] + at].min())
    return float(total)


def time_peer(name: str, g: SparseGraph, sources: np.ndarray) -> tuple[np.ndarray, float, float]:
    """A peer's distances (float64, inf unreachable), seconds and compute seconds; the graph is
    built in the peer's own form once per graph, outside the clock."""
    if name == "scipy":
        csr = _cached(g, "scipy", g.csr_matrix)
        start = time.perf_counter()
        dist = dijkstra(csr, directed=True, indices=sources)
        seconds = kernel = time.perf_counter() - start
    elif name == "networkx":
        import networkx as nx
        nxg = _cached(g, "networkx", lambda: _networkx_graph(g))
        start = time.perf_counter()
        dist = np.full((len(sources), g.n), np.inf)
        for row, s in enumerate(sources):
            for t, d in nx.single_source_dijkstra_path_length(nxg, int(s)).items():
                dist[row, t] = d
        seconds = kernel = time.perf_counter() - start
    else:  # fw-gpu-fast: Floyd–Warshall on the dense cost matrix, end to end, the sources' rows
        from ..apsp import solve as apsp_solve
        r = apsp_solve(_cached(g, "dense", lambda: _dense(g)), "gpu-fast")
        if r.variant != "gpu-fast":
            raise RuntimeError(r.note)
        dist, seconds, kernel = r.dist[sources], r.seconds, r.kernel_seconds
    return dist, seconds, kernel


def _cached(g: SparseGraph, name: str, build):
    key = ("peer", name)
    if key not in g.device:
        g.device[key] = build()
    return g.device[key]


def _networkx_graph(g: SparseGraph):
    import networkx as nx
    nxg = nx.DiGraph()
    nxg.add_nodes_from(range(g.n))
    tails = np.repeat(np.arange(g.n), np.diff(g.indptr))
    nxg.add_weighted_edges_from(zip(tails.tolist(), g.indices.tolist(), g.weights.tolist()))
    return nxg


def _dense(g: SparseGraph) -> np.ndarray:
    dense = np.full((g.n, g.n), np.inf)
    tails = np.repeat(np.arange(g.n), np.diff(g.indptr))
    dense[tails, g.indices] = g.weights
    np.fill_diagonal(dense, np.minimum(dense.diagonal(), 0))
    return dense


def peer_available(name: str) -> bool:
    if name != "fw-gpu-fast":
        return True
    from ..apsp import get_variant as apsp_variant
    return apsp_variant("gpu-fast").available


_warmed: set = set()


def _warm(variant: str) -> None:
    """JIT-compile and launch ``variant`` once on a small graph, outside every clock."""
    if variant not in _warmed:
        from ..gpu_device import simulated
        from ..sssp.generators import road_grid
        g = road_grid(4 if simulated() else WARM_SIDE, seed=1)
        if variant == "fw-gpu-fast":  # the other peers compile nothing
            time_peer(variant, g, np.arange(g.n))
        elif variant not in PEERS:
            solve(g, [0], variant)
            if get_variant(variant).family == "cpu":  # the parallel loop is compiled apart
                solve(g, np.arange(min(WARM_SOURCES, g.n)), variant)
            if variant == "gpu-fast-sssp" and not simulated():
                solve(road_grid(LARGE_WARM_SIDE, seed=1), [0, 1], variant)
        _warmed.add(variant)


def fresh(g: SparseGraph) -> SparseGraph:
    """The same graph with nothing on the device (its host-side reverse kept)."""
    return SparseGraph(g.n, g.indptr, g.indices, g.weights, _transpose=g.transpose())


def upload_seconds(g: SparseGraph) -> float:
    """Copy both CSR directions of ``g`` to the GPU, device-synchronised."""
    from numba import cuda
    from ..sssp.gpu_common import upload
    cuda.synchronize()
    start = time.perf_counter()
    upload(g), upload(g, transposed=True)
    cuda.synchronize()
    return time.perf_counter() - start


def measure(variant: str, g: SparseGraph, sources: np.ndarray, graph: str, family: str,
            budget_s: float, reference: Reference) -> SsspPoint:
    """Median time of ``variant`` from ``sources`` on ``g`` after a checked first call."""
    key = (graph, len(sources))
    upload_ms = None
    if variant in PEERS:
        if not peer_available(variant):
            raise RuntimeError(f"{variant} needs a GPU")
        _warm(variant)
        g = fresh(g)
        dist, first, _ = time_peer(variant, g, sources)
        if variant == "scipy":
            reference.seed(key, sources, dist)  # scipy is the reference: no need to run it twice
        how = check(reference, key, g, sources, dist)
        device = "GPU (Floyd–Warshall gpu-fast)" if variant == "fw-gpu-fast" else "CPU (1 thread)"

        def once():
            return time_peer(variant, g, sources)[1:]
    else:
        v = get_variant(variant)
        if not v.available:
            raise RuntimeError(f"{variant} unavailable: {v.reason}")
        _warm(variant)
        g = fresh(g)
        if v.family == "gpu":
            upload_ms = 1e3 * upload_seconds(g)
        result = solve(g, sources, variant)
        if result.variant != variant:
            raise RuntimeError(result.note)
        first, device = result.seconds, result.device
        how = check(reference, key, g, sources, result.dist, result.route)
        del result  # its answer buffer goes back to the pool for the warm calls

        def once():
            r = solve(g, sources, variant)
            return r.seconds, r.kernel_seconds

    times = repeat(once, first, budget_s)
    median = median_of(times, 0)
    return SsspPoint(variant, graph, family, g.n, g.m, len(sources), len(times), 1e3 * median,
                     1e3 * median_of(times, 1), 1e3 * first, upload_ms,
                     g.m * len(sources) / median if median > 0 else float("inf"), how, device)
