"""All pairs by scipy, nothing to compile, exact like every Floyd–Warshall variant: Dijkstra from
every vertex on sparse graphs (a road network), where it is also the faster of the two, else
scipy's Floyd–Warshall (``meanwhile``). The CPU's answer while a variant's kernels compile on a
fresh machine (``solve``, ``engine.variant_warmup``).

Not registered variants (the picker, benchmark and race list Floyd–Warshall's); results name
them ``scipy-dijkstra`` and ``scipy-floyd-warshall``.
"""

import time

import numpy as np
import scipy.sparse as sp
from scipy.sparse.csgraph import dijkstra, floyd_warshall

from .matrix import INF
from .registry import Variant
from .routes import RouteMatrix

NAME = "scipy-dijkstra"
VARIANT = Variant(NAME, "Dijkstra (scipy) from every vertex, predecessor routes", "cpu",
                  "engine.apsp.dijkstra:run", one_thread=True)
FLOYD_WARSHALL = Variant("scipy-floyd-warshall", "Floyd–Warshall (scipy), predecessor routes",
                         "cpu", "engine.apsp.dijkstra:run_floyd_warshall", one_thread=True)
SOLVERS = frozenset({NAME, FLOYD_WARSHALL.name})   # the names results of this module carry

# A source's Dijkstra costs ~20 ns per vertex and edge, a Floyd–Warshall relaxation ~0.1 ns:
# Dijkstra from every vertex is the cheaper all pairs when n + m is below n² / SPARSE.
SPARSE = 100


def sparse(n: int, edges: int) -> bool:
    """True where Dijkstra from every vertex beats Floyd–Warshall on the CPU."""
    return SPARSE * (n + edges) < n * n


def edges(w: np.ndarray) -> int:
    """The edges of the validated int32 matrix ``w`` (below ``INF``, off its zero diagonal)."""
    return int(np.count_nonzero(w < INF)) - len(w)


def meanwhile(w: np.ndarray) -> Variant:
    """The scipy solver for the validated int32 matrix ``w``: Dijkstra if sparse, else Floyd–Warshall."""
    return VARIANT if sparse(len(w), edges(w)) else FLOYD_WARSHALL


def run(w: np.ndarray, solver=dijkstra) -> tuple[np.ndarray, RouteMatrix, float]:
    """Distances (float64, ``np.inf`` where unreachable) and predecessor routes of the validated
    int32 matrix ``w`` (``INF``: no edge; zero costs are edges), by scipy's ``solver``."""
    start = time.perf_counter()
    rows, cols = np.nonzero(w < INF)
    graph = sp.csr_matrix((w[rows, cols], (rows, cols)), shape=w.shape)  # keeps the zero costs
    dist, pred = solver(graph, return_predecessors=True)
    pred = pred.astype(np.int32)
    pred[pred < 0] = -1
    return dist, RouteMatrix("predecessor", pred), time.perf_counter() - start


def run_floyd_warshall(w: np.ndarray) -> tuple[np.ndarray, RouteMatrix, float]:
    """``run`` by scipy's Floyd–Warshall (a dense graph's)."""
    return run(w, floyd_warshall)
