"""The bag-aware all-pairs problem on the paper's vertices — gates, sort stations, depots (where
tugs stop and bags wait) — computed exactly from the full road graph, routes kept on real roads.

Bags wait only at key nodes, so a bag-aware cost differs from plain travel time only on roads
touching a key node; roads between two junctions never change. So:

- once: shortest paths on the junction-only subgraph (``D_J``), from the junctions a key node's
  road leads to and to those with a road into a key node (the rows and columns of all pairs
  that the condensed graph and its routes read);
- on each bag change: the condensed graph on key nodes, whose edge u -> v is the cheapest road
  path from u to v through junctions only (first road u -> j1, ``D_J[j1, j2]``, last road
  j2 -> v) or a direct road; then all-pairs on it with the chosen variant.

Every route between key nodes splits at the key nodes it passes into such segments, so the
condensed distances equal the full graph's exactly; a condensed route is expanded back to the
roads (first road, junction route, last road). On a hub (~230 key nodes among ~2,250) a
recompute costs milliseconds instead of a second, so it can follow every change of the bags.
"""

from __future__ import annotations

import time
from typing import Callable

import numba
import numpy as np

from ..apsp import solve
from ..airport.cost import bag_aware_weights
from .network import RoadNetwork, Router, csr_flat, walk_route


def rows_of(all_pairs: Callable) -> Callable:
    """``tables(w, sources, targets, variant)`` out of an all-pairs solver ``all_pairs(w,
    variant)``: distances from ``sources`` (rows), to ``targets`` (rows, of the transpose), and
    the solve's result (``variant``, ``seconds``, ``note``)."""
    def tables(w: np.ndarray, sources: np.ndarray, targets: np.ndarray, variant: str):
        r = all_pairs(w, variant)
        return r.dist[sources], np.ascontiguousarray(r.dist[:, targets].T), r
    return tables


class KeyGraph:
    """``junction_tables(w, sources, targets, variant)``: the shortest paths of the static
    junction subgraph from and to the junctions next to key nodes (default: rows of
    Floyd–Warshall's all pairs, ``engine.apsp.solve``; see ``rows_of``)."""

    def __init__(self, net: RoadNetwork, key: np.ndarray, variant: str,
                 junction_tables: Callable = rows_of(solve)):
        self.net = net
        e = net.edges
        self.key_nodes = np.flatnonzero(key)
        self.junctions = np.flatnonzero(~key)
        n = net.n
        self.kidx = np.full(n, -1, dtype=np.int64)
        self.kidx[self.key_nodes] = np.arange(len(self.key_nodes))
        jidx = np.full(n, -1, dtype=np.int64)
        jidx[self.junctions] = np.arange(len(self.junctions))
        src_key, dst_key = key[e.src], key[e.dst]
        self.kj = np.flatnonzero(src_key & ~dst_key)      # edges key -> junction
        self.jk = np.flatnonzero(~src_key & dst_key)      # edges junction -> key
        self.kk = np.flatnonzero(src_key & dst_key & (e.src != e.dst))
        jj = np.flatnonzero(~src_key & ~dst_key & (e.src != e.dst))
        # order the key -> junction edges by source so each key node's are contiguous
        self.kj = self.kj[np.lexsort((self.kj, self.kidx[e.src[self.kj]]))]
        self.kj_u = self.kidx[e.src[self.kj]]
        self.kj_j = jidx[e.dst[self.kj]]
        self.kj_ptr = np.searchsorted(self.kj_u, np.arange(len(self.key_nodes) + 1))
        self.jk_j = jidx[e.src[self.jk]]
        self.jk_v = self.kidx[e.dst[self.jk]]
        self.kk_u, self.kk_v = self.kidx[e.src[self.kk]], self.kidx[e.dst[self.kk]]
        nj = len(self.junctions)
        # junction-only subgraph: static (no bags wait at junctions)
        wj = np.full((nj, nj), np.inf)
        np.minimum.at(wj, (jidx[e.src[jj]], jidx[e.dst[jj]]), e.deciseconds[jj])
        np.fill_diagonal(wj, 0.0)
        self.wj = wj
        # the rows of D_J the condensed weights read (from the junctions a key node's road
        # leads to) and those its routes read (to the junctions with a road into a key node)
        self.j_from, self.j_to = np.unique(self.kj_j), np.unique(self.jk_j)
        self.kj_row = np.searchsorted(self.j_from, self.kj_j)
        self.jk_row = np.searchsorted(self.j_to, self.jk_j)
        self.solves = []
        if nj:
            dj_from, self.dj_to, r = junction_tables(wj, self.j_from, self.j_to, variant)
            self.solves.append((r.variant, r.seconds, r.note))
            # a condensed weight goes from a key node's road out to a road into one: only the
            # distances between those junctions are read
            self.dj_from = np.ascontiguousarray(dj_from[:, self.j_to])
        else:
            self.dj_from = self.dj_to = np.zeros((0, 0))
        src = jidx[e.src[jj]]
        order = np.lexsort((jidx[e.dst[jj]], src))
        self.j_indptr = np.searchsorted(src[order], np.arange(nj + 1)).astype(np.int64)
        self.j_indices = jidx[e.dst[jj]][order].astype(np.int64)
        self.j_w = wj.ravel()[csr_flat(self.j_indptr, self.j_indices, nj)]  # beside CSR entries
        nk = len(self.key_nodes)
        # the condensed graph is complete: every other key node is a neighbour (no self-loops)
        self.k_indptr = np.arange(0, nk * (nk - 1) + 1, max(nk - 1, 1), dtype=np.int64)[:nk + 1]
        grid = np.tile(np.arange(nk, dtype=np.int64), (nk, 1))
        self.k_indices = grid[~np.eye(nk, dtype=bool)].ravel()
        self.k_flat = csr_flat(self.k_indptr, self.k_indices, nk)
        self.wk = self.dk = self.first = self.last = self.k_routes = None
        # Kept between updates, since a change of the bags changes few roads: per key node u the
        # cheapest way from u into each junction with a road into a key node (and the road it
        # takes), recomputed where u's roads out changed; and the junction-route part of the
        # condensed weights, recomputed in those rows and in the columns of key nodes whose
        # roads in changed.
        self._into = np.full((nk, len(self.j_to)), np.inf)
        self._into_road = np.full((nk, len(self.j_to)), -1, dtype=np.int64)
        self._via = np.full((nk, nk), np.inf)
        self._via_first = np.full((nk, nk), -1, dtype=np.int64)
        self._via_last = np.full((nk, nk), -1, dtype=np.int64)
        self._kj_w = np.full(len(self.kj), np.nan)
        self._jk_w = np.full(len(self.jk), np.nan)
        self.jk_order = np.lexsort((np.arange(len(self.jk)), self.jk_v))   # roads in, per key node
        self.jk_ptr = np.searchsorted(self.jk_v[self.jk_order], np.arange(nk + 1))
        self.build_seconds = 0.0
        self.on_update: Callable | None = None   # each bag-aware solve, reported (``update``)

    def update(self, counts: np.ndarray, variant: str):
        """Condensed bag-aware costs for the bags ``counts`` waiting per node; then solve, and
        report the solve to ``on_update(self, result, started)`` if one is set (the day does:
        ``Simulation.on_recompute``)."""
        started = time.perf_counter()
        r = self._update(counts, variant)
        if self.on_update is not None:
            self.on_update(self, r, started)
        return r

    def _update(self, counts: np.ndarray, variant: str):
        self.condense(counts)
        return self.solve(variant)

    def solve(self, variant: str):
        """All pairs of the condensed graph with ``variant`` (race mode runs others on it):
        distances only, the routes are walked out of them (``Router``)."""
        r = solve(self.wk, variant, routes=False)
        self.dk = r.dist
        self.k_routes = Router(self.k_indptr, self.k_indices, self.wk, self.dk, self.k_flat,
                               copy=False)
        return r

    def racer(self):
        """``solve_again(variant)``: the last bag-aware problem solved again with ``variant``,
        nothing kept (race mode). It holds that problem's own matrix, so it solves the same one
        after later updates too (a race runs in a thread of its own, behind the simulation)."""
        wk = self.wk
        return lambda variant: solve(wk, variant, routes=False)

    @property
    def solved(self) -> bool:
        """A bag-aware solve has run (distances and routes can be asked for)."""
        return self.dk is not None

    @property
    def solved_n(self) -> int:
        """Vertices of the graph the bag-aware solve runs on."""
        return self.wk.shape[0]

    def condense(self, counts: np.ndarray) -> np.ndarray:
        """The condensed weights (``wk``, ``first``, ``last``) for ``counts``; returns the
        bag-aware weight of every road direction."""
        start = time.perf_counter()
        w = bag_aware_weights(self.net.edges, counts)
        kj_w, jk_w = w[self.kj], w[self.jk]
        nk = len(self.key_nodes)
        rows, cols = np.zeros(nk, dtype=np.bool_), np.zeros(nk, dtype=np.bool_)
        rows[self.kj_u[kj_w != self._kj_w]] = True
        cols[self.jk_v[jk_w != self._jk_w]] = True
        self._kj_w, self._jk_w = kj_w, jk_w
        self.wk, self.first, self.last = _condense(
            self.kj_ptr, kj_w, rows, self._into, self._into_road, self.jk_ptr,
            self.jk_order, self.jk_row, jk_w, np.flatnonzero(cols), self._via, self._via_first,
            self._via_last, self.kk_u, self.kk_v, w[self.kk], self.kj_row, self.dj_from)
        self.build_seconds = time.perf_counter() - start
        return w


@numba.njit(cache=True, nogil=True)
def key_route(k_indptr, k_indices, k_w, to_b, a, b, first, last, kj_j, jk_j, jk_row, j_indptr,
              j_indices, j_w, j_dist_to, key_nodes, junctions):
    """A bag-aware route between key nodes in one pass (the loop's ``routes.bag_route``): the
    condensed route a -> b walked on ``to_b``, then each hop's first road, junction route and
    last road (or its direct road).
    ``j_dist_to[jk_row[l]]``: distances to road l's tail."""
    hops = walk_route(k_indptr, k_indices, k_w, to_b, a, b)
    out = np.empty(key_nodes.shape[0] + junctions.shape[0], dtype=np.int64)  # >= any route
    out[0] = key_nodes[hops[0]]
    m = 1
    for h in range(hops.shape[0] - 1):
        x, y = hops[h], hops[h + 1]
        f = first[x, y]
        if f >= 0:
            l = last[x, y]
            j1, j2 = kj_j[f], jk_j[l]
            if j1 == j2:
                out[m] = junctions[j1]
                m += 1
            else:
                for j in walk_route(j_indptr, j_indices, j_w, j_dist_to[jk_row[l]], j1, j2):
                    out[m] = junctions[j]
                    m += 1
        out[m] = key_nodes[y]
        m += 1
    return out[:m].copy()


@numba.njit(cache=True, nogil=True)
def _condense(kj_ptr, kj_w, rows, into, into_road, jk_ptr, jk_order, jk_row, jk_w, cols,
              via, via_first, via_last, kk_u, kk_v, kk_w, kj_row, dj_from):
    """The condensed weights ``wk`` and each one's first and last road (-1: a direct road).
    Brings ``into`` up to date in ``rows`` and ``via`` in ``rows`` and ``cols`` (see __init__).
    ``dj_from[kj_row[k]]``: distances from road k's head to the tails of the roads into key
    nodes, numbered ``jk_row``."""
    nk, nj = via.shape[0], dj_from.shape[1]
    for u in range(nk):
        best = into[u]
        arg = into_road[u]
        if rows[u]:
            for j2 in range(nj):
                best[j2] = np.inf
                arg[j2] = -1
            for k in range(kj_ptr[u], kj_ptr[u + 1]):
                d_j1 = dj_from[kj_row[k]]
                for j2 in range(nj):
                    c = kj_w[k] + d_j1[j2]
                    if c < best[j2]:
                        best[j2] = c
                        arg[j2] = k
            for v in range(nk):
                _via_cell(u, v, best, arg, jk_ptr, jk_order, jk_row, jk_w, via, via_first,
                          via_last)
        else:
            for v in cols:
                _via_cell(u, v, best, arg, jk_ptr, jk_order, jk_row, jk_w, via, via_first,
                          via_last)
    wk = via.copy()
    first = via_first.copy()
    last = via_last.copy()
    for k in range(kk_u.shape[0]):
        u, v = kk_u[k], kk_v[k]
        if kk_w[k] <= wk[u, v]:
            wk[u, v] = kk_w[k]
            first[u, v] = -1
            last[u, v] = -1
    for u in range(nk):
        wk[u, u] = 0.0
        first[u, u] = -1
    return wk, first, last


@numba.njit(cache=True, nogil=True, inline="always")
def _via_cell(u, v, best, arg, jk_ptr, jk_order, jk_row, jk_w, via, via_first, via_last):
    """u -> v through junctions only: the cheapest road into v after ``best`` (u's way into
    the tail of each road into a key node, ``jk_row``); ties go to the lowest road number."""
    c_best, f, l = np.inf, -1, -1
    for t in range(jk_ptr[v], jk_ptr[v + 1]):
        k = jk_order[t]
        c = best[jk_row[k]] + jk_w[k]
        if c < c_best:
            c_best, f, l = c, arg[jk_row[k]], k
    via[u, v] = c_best
    via_first[u, v] = f
    via_last[u, v] = l
