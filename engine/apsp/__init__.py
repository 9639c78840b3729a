"""All-pairs shortest paths by Floyd–Warshall: every variant of the seed papers behind one API.

    from engine.apsp import variants, solve
    r = solve(cost, variant="gpu-blocked")   # cost: n×n, np.inf where there is no edge
    r.dist, r.route(i, j), r.variant, r.seconds
"""

from .matrix import INF
from .registry import Variant, get_variant, variants
from .result import APSPResult
from .solve import solve

__all__ = ["INF", "APSPResult", "Variant", "get_variant", "solve", "variants"]
