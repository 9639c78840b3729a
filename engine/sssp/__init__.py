"""Single-source shortest paths on sparse graphs (seed 004): Dijkstra, Bellman-Ford, Δ-stepping
and SpMV Bellman-Ford, CPU and GPU, behind one API.

    from engine.sssp import variants, solve
    r = solve(graph, sources, variant="auto")  # graph: scipy.sparse CSR or dense (np.inf = no edge)
    r.dist, r.route(s, t), r.variant, r.seconds, r.device, r.note
"""

from .errors import NegativeCycleError, NegativeWeightError
from .graph import INF, SparseGraph
from .registry import Variant, get_variant, variants
from .result import SSSPResult
from .solve import prepare, solve

__all__ = ["INF", "NegativeCycleError", "NegativeWeightError", "SSSPResult", "SparseGraph",
           "Variant", "get_variant", "prepare", "solve", "variants"]
