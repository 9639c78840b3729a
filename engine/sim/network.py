"""The road network as tugs drive it: adjacency, per-road tug times, and routes walked out of a
distance matrix with a fixed tie-break, so every Floyd–Warshall variant gives the same route.

Why not ``APSPResult.route``: variants agree on distances (exact integers) but may break ties
between equal-cost routes differently; the simulation must not depend on the variant, so a route
is rebuilt from ``dist`` alone, taking at each vertex the lowest-numbered neighbour that stays on
a shortest route.
"""

from __future__ import annotations

import numba
import numpy as np

from ..airport.cost import DECISECONDS, edge_arrays
from ..airport.layout import Airport, tug_seconds


class RoadNetwork:
    """CSR adjacency of the drivable directions, with each direction's tug time and length."""

    def __init__(self, airport: Airport, speed_mps: float):
        e = edge_arrays(airport)
        index = {n.id: i for i, n in enumerate(airport.nodes)}
        secs, lens = [], []
        for r in airport.roads:
            t = tug_seconds(r, speed_mps)
            secs.append(t), lens.append(float(r.length_m))
            if not r.one_way:
                secs.append(t), lens.append(float(r.length_m))
        self.n = e.n
        self.edges = e
        self.speed_mps = float(speed_mps)
        src, dst = e.src, e.dst
        sec = np.asarray(secs, dtype=np.float64)
        length = np.asarray(lens, dtype=np.float64)
        # One entry per (u, v): the quickest of parallel roads.
        order = np.lexsort((sec, dst, src))
        src, dst, sec, length = src[order], dst[order], sec[order], length[order]
        keep = np.ones(len(src), dtype=bool)
        keep[1:] = (src[1:] != src[:-1]) | (dst[1:] != dst[:-1])
        keep &= src != dst
        src, dst, sec, length = src[keep], dst[keep], sec[keep], length[keep]
        self.indptr = np.zeros(self.n + 1, dtype=np.int64)
        np.add.at(self.indptr, src + 1, 1)
        self.indptr = np.cumsum(self.indptr)
        self.indices = dst.astype(np.int64)
        self.seconds = sec                       # tug seconds per CSR entry
        self.length_m = length
        self.x = np.array([nd.x for nd in airport.nodes], dtype=np.float64)
        self.y = np.array([nd.y for nd in airport.nodes], dtype=np.float64)
        self.index = index

    def time_matrix(self) -> np.ndarray:
        """Tug travel time per road in whole deciseconds (>= 1); inf elsewhere, 0 on the diagonal."""
        m = np.full((self.n, self.n), np.inf)
        src = np.repeat(np.arange(self.n), np.diff(self.indptr))
        m[src, self.indices] = np.maximum(1.0, np.rint(self.seconds * DECISECONDS))
        np.fill_diagonal(m, 0.0)
        return m

    def router(self, weights: np.ndarray, dist: np.ndarray) -> "Router":
        """Canonical shortest routes under ``weights`` (the matrix ``dist`` was solved from)."""
        return Router(self.indptr, self.indices, weights, dist)

    def leg_times(self, path: np.ndarray) -> tuple[np.ndarray, float]:
        """Cumulative tug seconds at each vertex of ``path`` (starting at 0) and its length (m)."""
        times, _, length = self.leg(path, 0.0)
        return times, length

    def leg(self, path: np.ndarray, t0: float) -> tuple[np.ndarray, float, float]:
        """A leg driven along ``path`` from time ``t0``: the time it reaches each vertex
        (``t0`` + the cumulative tug seconds), its tug seconds and its length (m)."""
        return timed_leg(self.indptr, self.indices, self.seconds, self.length_m, path, t0)

    def is_road(self, u: int, v: int) -> bool:
        lo, hi = self.indptr[u], self.indptr[u + 1]
        return bool((self.indices[lo:hi] == v).any())


class Router:
    """Routes walked out of one all-pairs result on a CSR graph (each row's indices ascending): at
    each vertex the lowest-numbered neighbour that stays on a shortest route. The walk reads each
    road's weight beside its CSR entry and the distances *to* the target as one contiguous row of
    ``dist``'s transpose, so a route on the 2,000-junction hub touches a few cache lines, not one
    per step."""

    def __init__(self, indptr: np.ndarray, indices: np.ndarray, weights: np.ndarray,
                 dist: np.ndarray, flat: np.ndarray | None = None, copy: bool = True):
        """``flat``: where each CSR entry lands in the raveled weights (``csr_flat``), when the
        caller keeps it to build many routers on one graph. ``copy=False`` reads the transpose
        as a view (for a matrix small enough to stay in cache)."""
        self.indptr, self.indices = indptr, indices
        flat = csr_flat(indptr, indices, weights.shape[1]) if flat is None else flat
        self.w = np.ascontiguousarray(weights, dtype=np.float64).ravel()[flat]
        self.dist_to = np.ascontiguousarray(dist.T, dtype=np.float64) if copy else dist.T
        self._routes: dict[tuple[int, int], np.ndarray] = {}

    def route(self, i: int, j: int) -> np.ndarray:
        """Vertices of the route i -> j (read-only, kept: a day asks for the same routes again
        and again); empty when unreachable, ``[i]`` when i == j."""
        path = self._routes.get((i, j))
        if path is None:
            if i == j:
                path = np.array([i], dtype=np.int64)
            elif not np.isfinite(self.dist_to[j, i]):
                path = np.empty(0, dtype=np.int64)
            else:
                path = walk_route(self.indptr, self.indices, self.w, self.dist_to[j], i, j)
            path.flags.writeable = False
            self._routes[(i, j)] = path
        return path


def csr_flat(indptr: np.ndarray, indices: np.ndarray, n_cols: int) -> np.ndarray:
    """Index of each CSR entry (u, indices[k]) in a raveled n × ``n_cols`` matrix."""
    return np.repeat(np.arange(len(indptr) - 1), np.diff(indptr)) * n_cols + indices


@numba.njit(cache=True, nogil=True)
def walk_route(indptr, indices, w, dist_to_j, i, j):
    """The route i -> j: from each vertex u, the lowest v with w(u, v) + d(v, j) == d(u, j) (the
    first, as each row's ``indices`` ascend: every CSR graph here is built so)."""
    n = indptr.shape[0] - 1
    out = np.empty(n, dtype=np.int64)
    out[0] = i
    m = 1
    u = i
    while u != j:
        nxt = -1
        target = dist_to_j[u]
        for k in range(indptr[u], indptr[u + 1]):
            if w[k] + dist_to_j[indices[k]] == target:
                nxt = indices[k]
                break
        if nxt < 0 or m >= n:
            raise RuntimeError("distance matrix inconsistent with its weights")
        out[m] = nxt
        m += 1
        u = nxt
    return out[:m].copy()


@numba.njit(cache=True, nogil=True)
def timed_leg(indptr, indices, seconds, length_m, path, t0):
    """``RoadNetwork.leg``: each vertex's time is ``t0`` + the seconds summed up to it, as
    ``t0 + cumulative`` in numpy gives it."""
    if path.shape[0] == 0:
        raise ValueError("a leg needs a route")
    t = np.empty(path.shape[0], dtype=np.float64)
    t[0] = t0 + 0.0
    rel = total = 0.0
    for a in range(path.shape[0] - 1):
        u, v = path[a], path[a + 1]
        found = False
        for k in range(indptr[u], indptr[u + 1]):
            if indices[k] == v:
                rel += seconds[k]
                t[a + 1] = t0 + rel
                total += length_m[k]
                found = True
                break
        if not found:
            raise RuntimeError("route leaves the roads")
    return t, rel, total
