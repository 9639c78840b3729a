"""Turn a user's graph into the exact CSR every SSSP variant solves.

Input: engine.graph_input's contract, scipy.sparse.csgraph's (a scipy.sparse matrix: stored
entries are edges, explicit zeros included, ``inf`` = none; a dense n×n array: ``np.inf`` or a
masked entry = no edge, every other entry an edge, the diagonal a self-loop). Costs must be
whole numbers of at most 2³¹ − 1 in size; parallel edges keep the cheapest. Distances are int64
with the sentinel ``INF`` = 2⁶², so a sum of a distance and a cost never wraps and every
variant is exact.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

import numba
import numpy as np
import scipy.sparse as sp

from ..graph_input import dense_entries, validated

INF = np.int64(2**62)
INF32 = np.int32(2**31 - 1)  # the sentinel of int32 answers (a GPU variant may copy those back)
MAX_COST = 2**31 - 1


@dataclass(eq=False)
class SparseGraph:
    """A validated graph in CSR (rows = tails): ``indices[indptr[u]:indptr[u+1]]`` are the heads
    of u's edges and ``weights`` their int32 costs. GPU copies are made once and kept."""
    n: int
    indptr: np.ndarray   # int64, n + 1
    indices: np.ndarray  # int32, m
    weights: np.ndarray  # int32, m
    _transpose: SparseGraph | None = field(default=None, repr=False)
    device: dict = field(default_factory=dict, repr=False)  # GPU arrays and buffers, by name
    deltas: dict = field(default_factory=dict, repr=False)  # Δ by rule (delta.choose_delta), made once

    @property
    def m(self) -> int:
        return len(self.indices)

    @functools.cached_property
    def min_weight(self) -> int:
        """The cheapest edge (kept: a graph's arrays are never changed after validation)."""
        return int(self.weights.min()) if self.m else 0

    def negative_edge(self) -> tuple[int, int, int] | None:
        """(tail, head, cost) of the first negative edge, or None."""
        bad = np.flatnonzero(self.weights < 0)
        if not len(bad):
            return None
        e = int(bad[0])
        return int(np.searchsorted(self.indptr, e, side="right") - 1), int(self.indices[e]), int(self.weights[e])

    def transpose(self) -> SparseGraph:
        """The reversed graph (rows = heads): the in-edges every pull-style variant reads."""
        if self._transpose is None:
            t = sp.csr_matrix((self.weights, self.indices, self.indptr), shape=(self.n, self.n)).T.tocsr()
            self._transpose = SparseGraph(self.n, t.indptr.astype(np.int64), t.indices.astype(np.int32),
                                          t.data.astype(np.int32))
        return self._transpose

    def csr_matrix(self) -> sp.csr_matrix:
        """The graph as scipy CSR with float64 costs (explicit zeros kept), for references."""
        return sp.csr_matrix((self.weights.astype(np.float64), self.indices, self.indptr),
                             shape=(self.n, self.n))


def as_graph(graph) -> SparseGraph:
    """Validate ``graph`` (engine.graph_input's contract, or an already-validated ``SparseGraph``).
    Raises ValueError naming the first bad edge: NaN, −inf, fractional or too large a cost."""
    if isinstance(graph, SparseGraph):
        return graph
    graph = validated(graph)
    if (isinstance(graph, (sp.csr_matrix, sp.csr_array)) and graph.has_canonical_format
            and not np.isposinf(graph.data).any()):
        rows, (n, _) = None, graph.shape
        indptr, cols, costs = graph.indptr, graph.indices, graph.data
    else:
        rows, cols, costs, (n, _) = dense_entries(graph)
    _check_costs(costs, rows, cols, indptr if rows is None else None)
    if rows is None:
        return SparseGraph(n, indptr.astype(np.int64), cols.astype(np.int32), costs.astype(np.int32))
    return from_edges(n, rows, cols, costs)


def _check_costs(costs, rows, cols, indptr) -> None:
    if costs.dtype.kind in "iub":
        bad = np.abs(costs.astype(np.int64)) > MAX_COST if costs.dtype.itemsize >= 4 else np.zeros(len(costs), bool)
    else:
        bad = ~np.isfinite(costs) | (costs != np.round(costs)) | (np.abs(costs) > MAX_COST)
    if not bad.any():
        return
    e = int(np.flatnonzero(bad)[0])
    tail = int(rows[e]) if rows is not None else int(np.searchsorted(indptr, e, side="right") - 1)
    c = costs[e]
    why = ("NaN" if c != c else "-inf" if np.isneginf(c) else
           f"too large (|cost| ≤ {MAX_COST})" if abs(float(c)) > MAX_COST else "not a whole number")
    raise ValueError(f"edge {tail}→{int(cols[e])} has cost {c.item()!r}: {why}; SSSP costs are exact "
                     "integers")


def from_edges(n, rows, cols, costs) -> SparseGraph:
    """CSR from an edge list, each row sorted by head, keeping the cheapest of parallel edges."""
    rows, cols = np.ascontiguousarray(rows, np.int64), np.ascontiguousarray(cols, np.int64)
    indptr, indices, weights = _csr_cheapest(n, rows, cols, np.ascontiguousarray(costs, np.int64))
    return SparseGraph(n, indptr, indices, weights)


@numba.njit(cache=True, parallel=True)
def _csr_cheapest(n, rows, cols, costs):
    """Counting sort by tail, then per row: sort by (head, cost) and keep each head's first."""
    m = len(rows)
    start = np.zeros(n + 1, np.int64)
    for e in range(m):
        start[rows[e] + 1] += 1
    for v in range(n):
        start[v + 1] += start[v]
    fill = start[:-1].copy()
    keys = np.empty(m, np.int64)  # head << 32 | (cost + 2³¹): one sort orders by head, then cost
    for e in range(m):
        keys[fill[rows[e]]] = (cols[e] << 32) | (costs[e] + 2**31)
        fill[rows[e]] += 1
    kept = np.zeros(n + 1, np.int64)
    for v in numba.prange(n):
        row = np.sort(keys[start[v]:start[v + 1]])
        count = 0
        for i in range(len(row)):
            if i == 0 or (row[i] >> 32) != (row[i - 1] >> 32):
                keys[start[v] + count] = row[i]
                count += 1
        kept[v + 1] = count
    for v in range(n):
        kept[v + 1] += kept[v]
    indices = np.empty(kept[n], np.int32)
    weights = np.empty(kept[n], np.int32)
    for v in numba.prange(n):
        for i in range(kept[v + 1] - kept[v]):
            key = keys[start[v] + i]
            indices[kept[v] + i] = key >> 32
            weights[kept[v] + i] = (key & 0xFFFFFFFF) - 2**31
    return kept, indices, weights


def as_sources(sources, n: int) -> np.ndarray:
    """Source vertices as int64 (one int or a sequence; repeats allowed), each in 0..n−1."""
    s = np.atleast_1d(np.asarray(sources))
    if s.ndim != 1:
        raise ValueError(f"sources must be a vertex id or a 1-D sequence of them, got shape {s.shape}")
    if len(s) and not np.issubdtype(s.dtype, np.integer):
        raise ValueError(f"sources must be integer vertex ids, got {s.dtype}")
    s = s.astype(np.int64)
    out = (s < 0) | (s >= n)
    if out.any():
        raise ValueError(f"source {int(s[np.flatnonzero(out)[0]])} is not a vertex of this "
                         f"{n}-vertex graph (ids 0..{n - 1})")
    return s


PARALLEL_FROM = 1 << 16  # distances from which the conversion runs on every core


def to_float(dist: np.ndarray) -> np.ndarray:
    """int64 (int32) distances with the INF (INF32) sentinel as float64 with ``np.inf``; float64
    ones (already the answer) as they are, not copied."""
    if dist.dtype == np.float64:
        return dist
    sentinel = INF32 if dist.dtype == np.int32 else INF
    if dist.size < PARALLEL_FROM:
        out = dist.astype(np.float64)
        out[dist >= sentinel] = np.inf
        return out
    out = np.empty(dist.shape, np.float64)
    _to_float(np.ascontiguousarray(dist).reshape(-1), dist.dtype.type(sentinel), out.reshape(-1))
    return out


@numba.njit(cache=True, parallel=True)
def _to_float(dist, sentinel, out):
    for i in numba.prange(len(dist)):
        out[i] = np.inf if dist[i] >= sentinel else float(dist[i])
