"""The one input contract of every graph family (Floyd–Warshall, SSSP, spanning forests), the one
scipy.sparse.csgraph users expect, checked here once:

- a dense n×n array of any real dtype (integers, float16 to float64): ``+inf`` = no edge, every
  other entry an edge (0 included: a zero-cost edge, unlike scipy's dense default);
- a numpy masked array: a masked entry = no edge, as in ``csgraph_from_masked``;
- any scipy.sparse matrix or array (CSR, CSC, COO, LIL, DOK, DIA, BSR): each stored entry is an
  edge (explicit zeros included), a stored ``+inf`` none.

Everything else is a ``ValueError`` naming the problem: not square, not 2-D, complex, bool (True
and False are no costs), strings or objects. Each family then checks the values it cannot take
(NaN, negative or fractional costs, …), naming the entry.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp


def require_square(shape, what: str = "costs") -> None:
    """``ValueError`` unless ``shape`` is that of an n×n matrix (an adjacency matrix)."""
    if len(shape) != 2 or shape[0] != shape[1]:
        raise ValueError(f"graph {what}: the graph must be a square n×n matrix, got shape "
                         f"{tuple(shape)}")


def require_real(dtype, what: str = "costs") -> None:
    """``ValueError`` unless ``dtype`` holds real numbers (integers or floats)."""
    dtype = np.dtype(dtype)
    if dtype.kind == "b":
        raise ValueError(f"graph {what} must be real numbers, got dtype bool: True/False are no "
                         f"{what} (give numbers, +inf for no edge)")
    if dtype.kind not in "iuf":
        kind = "complex" if dtype.kind == "c" else "not numbers"
        raise ValueError(f"graph {what} must be real numbers, got dtype {dtype} ({kind})")


def _readable(values: np.ndarray, what: str) -> np.ndarray:
    """``values`` in a dtype the compiled kernels read: float16 widened to float32, extended
    precision to float64 where that is exact; anything else as it is."""
    if values.dtype == np.float16:
        return values.astype(np.float32)
    if values.dtype.kind == "f" and values.dtype.itemsize > 8:
        wide = values.astype(np.float64)
        same = (wide == values) | (np.isnan(wide) & np.isnan(values))
        if not same.all():
            i = tuple(int(k) for k in np.argwhere(~same)[0])
            raise ValueError(f"graph {what}: entry {i} ({values[i]}) is not exact in float64")
        return wide
    return values


def validated(graph, what: str = "costs"):
    """``graph`` checked against the contract: the scipy.sparse matrix (its data readable by the
    kernels) or the dense ndarray (masked entries made ``+inf``); the input itself where it
    already is one."""
    if sp.issparse(graph):
        require_square(graph.shape, what)
        require_real(graph.dtype, what)
        if graph.dtype == np.float16 or graph.dtype.itemsize > 8:
            coo = graph.tocoo()
            graph = sp.coo_matrix((_readable(coo.data, what), (coo.row, coo.col)), shape=coo.shape)
        return graph
    if np.ma.isMaskedArray(graph):
        require_square(np.shape(graph), what)
        require_real(graph.dtype, what)
        values = _readable(np.ma.getdata(graph), what)
        if values.dtype.kind != "f":
            values = values.astype(np.float64)
        return np.where(np.ma.getmaskarray(graph), np.inf, values)
    dense = np.asarray(graph)
    require_square(dense.shape, what)
    require_real(dense.dtype, what)
    return _readable(dense, what)


def sparse_entries(graph: sp.spmatrix | sp.sparray):
    """(rows, cols, values) of a validated sparse matrix's stored entries, ``+inf`` ones dropped."""
    coo = graph.tocoo()
    rows, cols, values = coo.row, coo.col, coo.data
    if values.dtype.kind == "f":
        keep = ~np.isposinf(values)
        if not keep.all():
            rows, cols, values = rows[keep], cols[keep], values[keep]
    return rows, cols, values


def dense_entries(graph, what: str = "costs"):
    """(rows, cols, values, shape) of every edge of a graph under the contract: of a dense or
    masked matrix every entry other than ``+inf``, of a sparse one its stored entries."""
    graph = validated(graph, what)
    if sp.issparse(graph):
        return (*sparse_entries(graph), graph.shape)
    rows, cols = np.nonzero(~np.isposinf(graph))
    return rows, cols, graph[rows, cols], graph.shape


def dense_matrix(graph, what: str = "costs") -> np.ndarray:
    """The graph as a dense n×n real matrix, ``+inf`` = no edge (the cheapest of parallel sparse
    entries kept); a dense input is returned as it is (after the checks), not copied."""
    graph = validated(graph, what)
    if not sp.issparse(graph):
        return graph
    rows, cols, values = sparse_entries(graph)
    dense = np.full(graph.shape, np.inf)
    np.minimum.at(dense, (rows, cols), values.astype(np.float64))
    return dense
