"""Turn a user's graph into the undirected edge list every spanning-forest variant solves.

Input: engine.graph_input's contract, scipy.sparse.csgraph's (a scipy.sparse matrix: stored
entries are edges, explicit zeros included, ``+inf`` = none; a dense n×n array: ``+inf`` or a
masked entry = no edge, every other entry an edge). The graph is taken
as undirected: i→j and j→i are one edge of the cheaper weight, parallel edges keep the cheapest
and self-loops are dropped (no spanning forest holds one). Edges are numbered in (u, v) order
with u < v; every variant breaks weight ties by that number, so all return the same forest.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numba
import numpy as np
import scipy.sparse as sp

from ..graph_input import dense_entries


@dataclass(eq=False)
class EdgeGraph:
    """A validated undirected graph: edge e joins ``u[e] < v[e]`` with weight ``w[e]``, edges in
    (u, v) order. GPU copies and buffers are made once and kept in ``device``."""
    n: int
    u: np.ndarray  # int32
    v: np.ndarray  # int32
    w: np.ndarray  # float64
    device: dict = field(default_factory=dict, repr=False)
    _key: np.ndarray | None = field(default=None, repr=False)
    _adjacency: tuple | None = field(default=None, repr=False)

    @property
    def m(self) -> int:
        return len(self.u)

    @property
    def key(self) -> np.ndarray:
        """int64 per edge, ordered like (weight, edge id): one comparison breaks every tie."""
        if self._key is None:
            self._key = order_keys(self.w)
        return self._key

    def adjacency(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(indptr, neighbour, edge id): both directions of every edge in CSR, each row in edge
        id order — the vertex lists Borůvka's variants scan."""
        if self._adjacency is None:
            self._adjacency = _adjacency(self.n, self.u, self.v)
        return self._adjacency

    def csr_matrix(self) -> sp.csr_matrix:
        """Upper-triangular scipy CSR of the edges (explicit zeros kept), for references."""
        return sp.csr_matrix((self.w, (self.u, self.v)), shape=(self.n, self.n))


KEY_FLIP = np.uint64(1 << 63)  # unsigned → signed order: int64 atomics and comparisons work


def order_keys(w: np.ndarray) -> np.ndarray:
    """(weight rank) << 32 | edge id as int64 in the same order as (weight, edge id).

    The rank is the weight's float32 bit pattern made order-preserving when every weight is
    exact in float32 (no sort needed); otherwise its rank among the distinct weights."""
    m = len(w)
    if m >= 1 << 32:
        raise ValueError(f"graph has {m} edges; spanning forests take fewer than 2³²")
    w = w + 0.0  # -0.0 → 0.0: equal weights must get equal ranks
    with np.errstate(over="ignore"):  # a weight beyond float32 becomes inf: not exact, so ranked
        single = w.astype(np.float32)
    if np.array_equal(single.astype(np.float64), w):
        bits = single.view(np.uint32).astype(np.uint64)
        rank = np.where(bits >> np.uint64(31), ~bits & np.uint64(0xFFFFFFFF), bits | np.uint64(1 << 31))
    else:
        rank = np.unique(w, return_inverse=True)[1].astype(np.uint64)
    return (((rank << np.uint64(32)) | np.arange(m, dtype=np.uint64)) ^ KEY_FLIP).view(np.int64)


def as_graph(graph) -> EdgeGraph:
    """Validate ``graph`` (engine.graph_input's contract, or an ``EdgeGraph``). ``ValueError`` for
    input outside the contract, or a NaN or −inf weight (naming the edge)."""
    if isinstance(graph, EdgeGraph):
        return graph
    rows, cols, weights, (n, _) = dense_entries(graph, "weights")
    return from_edges(n, rows, cols, weights)


def from_edges(n: int, rows, cols, weights) -> EdgeGraph:
    """The undirected graph of the edges rows[i]–cols[i] (+inf weights = no edge)."""
    weights = np.asarray(weights, np.float64)
    bad = np.isnan(weights) | np.isneginf(weights)
    if bad.any():
        e = int(np.flatnonzero(bad)[0])
        raise ValueError(f"edge {int(rows[e])}–{int(cols[e])} has weight {weights[e].item()!r}; spanning "
                         "forest weights must be numbers (+inf = no edge)")
    keep = ~np.isposinf(weights)
    u, v, w = _undirected_edges(n, np.asarray(rows, np.int64)[keep], np.asarray(cols, np.int64)[keep],
                                weights[keep])
    return EdgeGraph(n, u, v, w)


@numba.njit(cache=True, parallel=True)
def _undirected_edges(n, rows, cols, weights):
    """Edges (u < v) in (u, v) order, the cheapest of each pair, self-loops dropped: a counting
    sort by the smaller end, then each row sorted by the larger."""
    start = np.zeros(n + 1, np.int64)
    for e in range(len(rows)):
        if rows[e] != cols[e]:
            start[min(rows[e], cols[e]) + 1] += 1
    for a in range(n):
        start[a + 1] += start[a]
    fill = start[:-1].copy()
    heads = np.empty(start[n], np.int64)
    ws = np.empty(start[n], np.float64)
    for e in range(len(rows)):
        a, b = rows[e], cols[e]
        if a != b:
            a, b = min(a, b), max(a, b)
            heads[fill[a]], ws[fill[a]] = b, weights[e]
            fill[a] += 1
    kept = np.zeros(n + 1, np.int64)
    for a in numba.prange(n):
        lo, hi = start[a], start[a + 1]
        order = np.argsort(heads[lo:hi])
        row_heads, row_weights = heads[lo:hi][order], ws[lo:hi][order]
        count = 0
        for i in range(hi - lo):
            if count and row_heads[i] == heads[lo + count - 1]:
                ws[lo + count - 1] = min(ws[lo + count - 1], row_weights[i])
            else:
                heads[lo + count], ws[lo + count] = row_heads[i], row_weights[i]
                count += 1
        kept[a + 1] = count
    for a in range(n):
        kept[a + 1] += kept[a]
    u = np.empty(kept[n], np.int32)
    v = np.empty(kept[n], np.int32)
    w = np.empty(kept[n], np.float64)
    for a in numba.prange(n):
        for i in range(kept[a + 1] - kept[a]):
            u[kept[a] + i], v[kept[a] + i], w[kept[a] + i] = a, heads[start[a] + i], ws[start[a] + i]
    return u, v, w


@numba.njit(cache=True)
def _adjacency(n, u, v):
    indptr = np.zeros(n + 1, np.int64)
    for e in range(len(u)):
        indptr[u[e] + 1] += 1
        indptr[v[e] + 1] += 1
    for x in range(n):
        indptr[x + 1] += indptr[x]
    fill = indptr[:-1].copy()
    neighbour = np.empty(2 * len(u), np.int32)
    edge = np.empty(2 * len(u), np.int32)
    for e in range(len(u)):
        neighbour[fill[u[e]]], edge[fill[u[e]]] = v[e], e
        fill[u[e]] += 1
        neighbour[fill[v[e]]], edge[fill[v[e]]] = u[e], e
        fill[v[e]] += 1
    return indptr, neighbour, edge
