"""A lower bound on the misconnected bags of a day: the bags no dispatcher could deliver.

A bag is unavoidable when even a tug waiting at its origin the moment it is ready (or, for a
bag ready before any tug could get there, a tug driving straight from the nearest depot with
tugs at the start of the day), loading it alone, driving the quickest road route to its stand
and unloading it alone would finish after its deadline — or when no tug can reach it or its
stand at all. Times are exact seconds along the roads (Dijkstra on the tug times, not the
tables' whole deciseconds), so no policy can beat the bound. What-if edits are not counted.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from scipy.sparse.csgraph import dijkstra

from .dispatch import PER_BAG_S, STOP_S
from .network import RoadNetwork
from .schedule import BagSet

_EPS_S = 1e-6    # float sums along a route in another order


def unavoidable(net: RoadNetwork, bags: BagSet, pickable: np.ndarray,
                depots: list[int]) -> np.ndarray:
    """Per bag: True when no dispatcher could deliver it by its deadline."""
    if not len(bags):
        return np.zeros(0, dtype=bool)
    roads = sp.csr_matrix((np.maximum(net.seconds, 1e-9), net.indices, net.indptr), shape=(net.n, net.n))
    origins, at = np.unique(bags.origin, return_inverse=True)
    from_origin = dijkstra(roads, indices=origins)
    drive = from_origin[at, bags.dest]
    first = bags.ready
    if depots:
        from_depot = dijkstra(roads, indices=np.asarray(depots)).min(axis=0)
        first = np.maximum(first, from_depot[bags.origin])
    done = first + drive + 2 * (STOP_S + PER_BAG_S)
    return ~pickable[bags.origin] | ~np.isfinite(done) | (done > bags.deadline + _EPS_S)
