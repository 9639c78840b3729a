"""One input contract for all three families (engine/graph_input.py), scipy.sparse.csgraph's: the
same graph as a dense array of any real dtype, a masked array or any scipy.sparse format gives
every family scipy's answer, and everything else is a ValueError naming the problem.

GPU variants run under Numba's CUDA simulator where there is no GPU: the graph has 6 vertices.
"""

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.sparse.csgraph import (
    csgraph_from_dense,
    dijkstra,
    floyd_warshall,
    minimum_spanning_tree,
)

from engine.apsp import solve as apsp_solve
from engine.apsp import variants as apsp_variants
from engine.mst import spanning_forest
from engine.mst import variants as mst_variants
from engine.sssp import solve as sssp_solve
from engine.sssp import variants as sssp_variants
from tests.hang_guard import gpu_time_limit

pytestmark = gpu_time_limit

INF = np.inf
# Undirected (symmetric), whole costs, no zero off the diagonal (scipy's dense zero = no edge,
# ours = a zero-cost edge: the graph avoids the one place the conventions differ), vertex 5 alone.
W = np.array([[INF, 4, 1, INF, 7, INF],
              [4, INF, 2, 5, INF, INF],
              [1, 2, INF, 8, 3, INF],
              [INF, 5, 8, INF, 1, INF],
              [7, INF, 3, 1, INF, INF],
              [INF, INF, INF, INF, INF, INF]])
N = len(W)
REF = csgraph_from_dense(W, null_value=INF)


def answer(family, graph, variant=None):
    """The family's answer: all distances (Floyd–Warshall, SSSP from every vertex), or the
    spanning forest's total weight."""
    if family == "apsp":
        return apsp_solve(graph, variant or "cpu-linear").dist
    if family == "sssp":
        return sssp_solve(graph, list(range(N)), variant or "cpu-dijkstra").dist
    return spanning_forest(graph, variant or "cpu-kruskal").total


def scipy_answer(family, graph):
    if family == "apsp":
        return floyd_warshall(graph, directed=True)
    if family == "sssp":
        return dijkstra(graph, directed=True)
    return minimum_spanning_tree(graph).sum()


FAMILIES = ["apsp", "sssp", "mst"]
EXPECTED = {f: scipy_answer(f, REF) for f in FAMILIES}

FLOATS = [np.float16, np.float32, np.float64, np.longdouble]
INTEGERS = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]
SPARSE = ["csr", "csc", "coo", "lil", "dok", "dia", "bsr"]


def masked(dtype):
    """W as a masked array of ``dtype``: a masked entry = no edge (integers have no inf)."""
    return np.ma.masked_array(np.where(np.isinf(W), 0, W).astype(dtype), mask=np.isinf(W))


def sparse(fmt, dtype=np.float64, array=False):
    rows, cols = np.nonzero(np.isfinite(W))
    coo = (sp.coo_array if array else sp.coo_matrix)((W[rows, cols].astype(dtype), (rows, cols)),
                                                     shape=W.shape)
    return coo.asformat(fmt)


FORMS = ([pytest.param(lambda d=d: W.astype(d), id=f"dense-{np.dtype(d).name}") for d in FLOATS]
         + [pytest.param(lambda d=d: masked(d), id=f"masked-{np.dtype(d).name}")
            for d in INTEGERS + FLOATS]
         + [pytest.param(lambda f=f: sparse(f), id=f"sparse-{f}") for f in SPARSE]
         + [pytest.param(lambda f=f: sparse(f, np.int32, array=True), id=f"sparse-array-{f}-int32")
            for f in ("csr", "coo")])


@pytest.mark.parametrize("family", FAMILIES)
@pytest.mark.parametrize("make", FORMS)
def test_every_accepted_form_gives_scipys_answer(family, make):
    graph = make()
    ours = answer(family, graph)
    np.testing.assert_array_equal(ours, EXPECTED[family])
    scipy_takes = not sp.issparse(graph) or (sp.isspmatrix(graph)
                                             and graph.format in ("csr", "csc", "lil"))
    if not scipy_takes:
        # scipy's Floyd–Warshall refuses the other formats, and scipy 1.11's csgraph sparse
        # arrays' int64 indices; ours takes them all
        coo = graph.tocoo()
        graph = sp.csr_matrix((coo.data, (coo.row.astype(np.int32), coo.col.astype(np.int32))),
                              shape=coo.shape)
    np.testing.assert_array_equal(ours, scipy_answer(family, graph))  # scipy on the same input


GPU = ([("apsp", v.name) for v in apsp_variants() if v.family == "gpu"]
       + [("sssp", v.name) for v in sssp_variants() if v.family == "gpu"]
       + [("mst", v.name) for v in mst_variants() if v.family == "gpu"])


@pytest.mark.parametrize("family,variant", GPU)
def test_gpu_kernels_take_the_same_forms(family, variant):
    for graph in (W.astype(np.float16), masked(np.uint8), sparse("csc")):
        np.testing.assert_array_equal(answer(family, graph, variant), EXPECTED[family])


def test_a_zero_is_a_zero_cost_edge_dense_or_unmasked_where_scipys_dense_default_drops_it():
    w = np.array([[INF, 0.0], [INF, INF]])
    assert apsp_solve(w, "cpu-linear").dist[0, 1] == 0
    unmasked_zero = np.ma.masked_array([[9, 0], [9, 9]], mask=[[1, 0], [1, 1]])
    assert apsp_solve(unmasked_zero, "cpu-linear").dist[0, 1] == 0
    assert floyd_warshall(w)[0, 1] == INF   # scipy's dense input: 0 = no edge
    stored_zero = sp.csr_matrix(([0.0], ([0], [1])), shape=(2, 2))
    assert sssp_solve(stored_zero, [0]).dist[0, 1] == 0


def test_parallel_sparse_entries_keep_the_cheapest_in_every_family():
    g = sp.coo_matrix(([5.0, 2.0, 2.0], ([0, 0, 1], [1, 1, 0])), shape=(2, 2))
    assert apsp_solve(g, "cpu-linear").dist[0, 1] == 2
    assert sssp_solve(g, [0]).dist[0, 1] == 2
    assert spanning_forest(g).total == 2


BAD = [
    (lambda: W.astype(complex), r"real numbers, got dtype complex128 \(complex\)"),
    (lambda: sparse("csr", np.complex64), r"real numbers, got dtype complex64 \(complex\)"),
    (lambda: np.isfinite(W), r"got dtype bool: True/False are no"),
    (lambda: sparse("csr").astype(bool), r"got dtype bool: True/False are no"),
    (lambda: np.array([["a", "b"], ["c", "d"]]), r"real numbers, got dtype <U1 \(not numbers\)"),
    (lambda: np.array([[None, 1], [1, None]]), r"real numbers, got dtype object \(not numbers\)"),
    (lambda: np.zeros((2, 3)), r"square n×n matrix, got shape \(2, 3\)"),
    (lambda: np.zeros(4), r"square n×n matrix, got shape \(4,\)"),
    (lambda: np.zeros((2, 2, 2)), r"square n×n matrix, got shape \(2, 2, 2\)"),
    (lambda: sp.csr_matrix((2, 3)), r"square n×n matrix, got shape \(2, 3\)"),
    (lambda: np.ma.masked_array(np.zeros((2, 3))), r"square n×n matrix, got shape \(2, 3\)"),
]
NAN = [
    (lambda: np.array([[INF, np.nan], [1.0, INF]]), "nan"),
    (lambda: sp.csr_matrix(np.array([[0, np.nan], [1.0, 0]])), "nan"),
    (lambda: np.ma.masked_array([[1.0, np.nan], [1.0, 1.0]], mask=[[1, 0], [0, 1]]), "nan"),
]


@pytest.mark.parametrize("family", FAMILIES)
@pytest.mark.parametrize("make,message", BAD + NAN)
def test_everything_else_is_a_value_error_naming_the_problem(family, make, message):
    with pytest.raises(ValueError, match=message):
        answer(family, make())


@pytest.mark.parametrize("family", FAMILIES)
def test_a_masked_nan_is_no_edge(family):
    w = np.ma.masked_array(np.where(np.isinf(W), np.nan, W), mask=np.isinf(W))
    np.testing.assert_array_equal(answer(family, w), EXPECTED[family])
