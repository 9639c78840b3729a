"""The answer every SSSP variant gives: distances from each source, routes, how it was obtained.

Routes are not kept by the kernels (parallel relaxations would race on them); a source's route
tree is rebuilt on first use from the exact distances: a breadth-first walk over the *tight*
edges (those with d[u] + c(u, v) = d[v]), which always yields a shortest route and never loops,
even through zero-cost cycles.
"""

from dataclasses import dataclass, field

import numpy as np
import scipy.sparse as sp
from scipy.sparse.csgraph import breadth_first_order

from .graph import SparseGraph


@dataclass
class SSSPResult:
    dist: np.ndarray        # len(sources) × n float64, np.inf where unreachable
    sources: np.ndarray     # the source of each row
    variant: str            # the variant that actually ran
    seconds: float          # wall time of the solve (graph upload included if it was not resident)
    kernel_seconds: float   # compute only (device-synchronised for GPU variants)
    device: str             # e.g. "CPU (2 threads)" or "NVIDIA H100 80GB HBM3"
    graph: SparseGraph = field(repr=False)
    note: str | None = None  # e.g. the Δ chosen, or why a GPU variant fell back to the CPU
    _trees: dict = field(default_factory=dict, repr=False)

    def route(self, s: int, t: int) -> list[int]:
        """Vertices from source ``s`` to ``t``; ``[s]`` when s == t; ``[]`` when unreachable."""
        rows = np.flatnonzero(self.sources == s)
        if not len(rows):
            raise ValueError(f"vertex {s} is not one of this result's sources")
        if not 0 <= t < self.graph.n:
            raise ValueError(f"vertex {t} is not in this {self.graph.n}-vertex graph")
        d = self.dist[rows[0]]
        if not np.isfinite(d[t]):
            return []
        if s == t:
            return [s]
        pred = self._tree(int(s), d)
        route = [int(t)]
        while route[-1] != s:
            route.append(int(pred[route[-1]]))
        return route[::-1]

    def _tree(self, s: int, d: np.ndarray) -> np.ndarray:
        if s not in self._trees:
            g = self.graph
            tails = np.repeat(np.arange(g.n), np.diff(g.indptr))
            tight = (d[tails] + g.weights == d[g.indices]) & np.isfinite(d[tails])
            edges = sp.csr_matrix((np.ones(int(tight.sum())), (tails[tight], g.indices[tight])),
                                  shape=(g.n, g.n))
            self._trees[s] = breadth_first_order(edges, s, directed=True, return_predecessors=True)[1]
        return self._trees[s]
