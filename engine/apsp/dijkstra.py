"""All pairs by Dijkstra (scipy) from every vertex: exact like every Floyd–Warshall variant, and
nothing to compile. The CPU's answer while a GPU variant's kernels compile on a fresh machine
(``solve``), on sparse graphs, where it is also the faster of the two (a road network).

Not a registered variant (the picker, benchmark and race list Floyd–Warshall's); results name
it ``scipy-dijkstra``.
"""

import time

import numpy as np
import scipy.sparse as sp
from scipy.sparse.csgraph import dijkstra

from .matrix import INF
from .registry import Variant
from .routes import RouteMatrix

NAME = "scipy-dijkstra"
VARIANT = Variant(NAME, "Dijkstra (scipy) from every vertex, predecessor routes", "cpu",
                  "engine.apsp.dijkstra:run")

# A source's Dijkstra costs ~20 ns per vertex and edge, a Floyd–Warshall relaxation ~0.1 ns:
# Dijkstra from every vertex is the cheaper all pairs when n + m is below n² / SPARSE.
SPARSE = 100


def sparse(n: int, edges: int) -> bool:
    """True where Dijkstra from every vertex beats Floyd–Warshall on the CPU."""
    return SPARSE * (n + edges) < n * n


def edges(w: np.ndarray) -> int:
    """The edges of the validated int32 matrix ``w`` (below ``INF``, off its zero diagonal)."""
    return int(np.count_nonzero(w < INF)) - len(w)


def run(w: np.ndarray) -> tuple[np.ndarray, RouteMatrix, float]:
    """Distances (float64, ``np.inf`` where unreachable) and predecessor routes of the validated
    int32 matrix ``w`` (``INF``: no edge; zero costs are edges)."""
    start = time.perf_counter()
    rows, cols = np.nonzero(w < INF)
    graph = sp.csr_matrix((w[rows, cols], (rows, cols)), shape=w.shape)
    dist, pred = dijkstra(graph, return_predecessors=True)
    pred = pred.astype(np.int32)
    pred[pred < 0] = -1
    return dist, RouteMatrix("predecessor", pred), time.perf_counter() - start
