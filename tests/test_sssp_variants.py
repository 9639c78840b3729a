"""Every SSSP variant is exact against scipy and networkx on awkward graphs, and handles
negative costs, bad input and missing GPUs as the API promises.

GPU variants run under Numba's CUDA simulator where there is no GPU: graphs stay tiny there.
"""

import numpy as np
import pytest
import scipy.sparse as sp

from engine.sssp import NegativeCycleError, NegativeWeightError, solve, variants
from engine.sssp.graph import INF, INF32, PARALLEL_FROM, to_float
from engine.sssp.negative import ACCEPTS_NEGATIVE
from tests.hang_guard import gpu_time_limit
from tests.sssp_reference import (as_coo, assert_routes_are_shortest, awkward_edges, cheapest,
                                  networkx_distances, scipy_distances)

pytestmark = gpu_time_limit
ALL = [v.name for v in variants()]
CPU = [v.name for v in variants() if v.family == "cpu"]
NEGATIVE_OK = [name for name in ALL if name in ACCEPTS_NEGATIVE]
NONNEGATIVE_ONLY = [name for name in ALL if name not in ACCEPTS_NEGATIVE]


def check(graph, reference, sources, variant):
    result = solve(graph, sources, variant)
    assert result.variant == variant, result.note
    assert result.dist.shape == (len(sources), reference.shape[0])
    np.testing.assert_array_equal(result.dist, scipy_distances(reference, sources))
    assert_routes_are_shortest(result, reference)
    return result


@pytest.mark.parametrize("variant", ALL)
def test_awkward_graph_matches_scipy_with_parallel_edges_zero_costs_and_duplicate_sources(variant):
    n = 11
    edges = awkward_edges(n, seed=1)
    check(as_coo(n, *edges), cheapest(n, *edges), [0, 4, 4, n - 1], variant)


@pytest.mark.parametrize("variant", ALL)
def test_single_vertex_graph(variant):
    result = check(np.array([[np.inf]]), sp.csr_matrix((1, 1)), [0], variant)
    assert result.route(0, 0) == [0]


@pytest.mark.parametrize("variant", NEGATIVE_OK)
def test_negative_costs_without_a_negative_cycle_match_scipy_bellman_ford(variant):
    n = 10
    edges = awkward_edges(n, seed=7, negative=True)
    reference = cheapest(n, *edges)
    assert (reference.data < 0).any()
    check(as_coo(n, *edges), reference, [2, 5], variant)


@pytest.mark.parametrize("variant", NEGATIVE_OK)
def test_reachable_negative_cycle_names_a_vertex_on_it(variant):
    # 0 -> 1 -> 2 -> 3 -> 1 costs 1 + 1 + (-3): negative; 4 is off the cycle, 5 unreachable
    cost = np.full((6, 6), np.inf)
    cost[0, 1], cost[1, 2], cost[2, 3], cost[3, 1], cost[3, 4] = 1, 1, 1, -3, 2
    with pytest.raises(NegativeCycleError) as caught:
        solve(cost, [0], variant)
    assert caught.value.vertex in (1, 2, 3) and caught.value.source == 0
    assert isinstance(caught.value, ValueError)
    # the same cycle is harmless from a source that cannot reach it
    np.testing.assert_array_equal(solve(cost, [5], variant).dist, [[np.inf] * 5 + [0]])


@pytest.mark.parametrize("variant", NONNEGATIVE_ONLY)
def test_dijkstra_family_refuses_negative_costs_and_names_the_alternatives(variant):
    cost = np.array([[np.inf, 2.0], [-1.0, np.inf]])
    with pytest.raises(NegativeWeightError, match=r"edge 1→0 costs -1.*cpu-bellman-ford"):
        solve(cost, [0], variant)


@pytest.mark.parametrize("variant", CPU)
def test_cpu_variants_match_networkx_on_large_costs(variant):
    n = 40
    edges = awkward_edges(n, seed=3, big=True)
    reference = cheapest(n, *edges)
    result = check(as_coo(n, *edges), reference, [0, 1, 2], variant)
    np.testing.assert_array_equal(result.dist, networkx_distances(reference, [0, 1, 2]))


@pytest.mark.parametrize("variant", CPU)
def test_cpu_variants_match_scipy_on_a_few_thousand_vertices(variant):
    n = 3000
    edges = awkward_edges(n, seed=5, negative=variant == "cpu-bellman-ford")
    check(as_coo(n, *edges), cheapest(n, *edges), [0, 17, 2999, 17], variant)


def test_dense_and_sparse_inputs_give_the_same_answer_and_dense_zero_is_an_edge():
    cost = np.array([[0, 0, np.inf], [np.inf, 0, 5], [1, np.inf, np.inf]])
    dense = solve(cost, [0, 2], "cpu-dijkstra")
    sparse = solve(sp.csr_matrix(np.where(np.isinf(cost), 0, cost)), [0, 2], "cpu-dijkstra")
    np.testing.assert_array_equal(dense.dist, [[0, 0, 5], [1, 1, 0]])
    assert sparse.dist[0, 2] == np.inf  # sparse: only stored entries are edges
    assert dense.route(0, 2) == [0, 1, 2]


def test_auto_picks_a_variant_that_answers_and_says_which():
    n = 9
    edges = awkward_edges(n, seed=2)
    result = solve(as_coo(n, *edges), 3)
    assert result.variant in ALL
    np.testing.assert_array_equal(result.dist, scipy_distances(cheapest(n, *edges), [3]))
    negative = solve(np.array([[np.inf, -2.0], [np.inf, np.inf]]), [0])
    assert negative.variant in NEGATIVE_OK and negative.dist.tolist() == [[0, -2]]


def test_route_rejects_a_vertex_that_is_not_a_source():
    result = solve(np.zeros((3, 3)), [1], "cpu-dijkstra")
    with pytest.raises(ValueError, match="not one of this result's sources"):
        result.route(0, 2)


@pytest.mark.parametrize("cost, message", [
    (np.array([[0, np.nan], [1, 0]]), r"edge 0→1 has cost nan: NaN"),
    (np.array([[0, 1.5], [1, 0]]), r"edge 0→1 has cost 1.5: not a whole number"),
    (np.array([[0, 1], [-np.inf, 0]]), r"edge 1→0 has cost -inf"),
    (np.array([[0, 2.0**40], [1, 0]]), r"edge 0→1 .* too large"),
    (np.zeros((2, 3)), r"square n×n matrix, got shape \(2, 3\)"),
])
def test_bad_costs_are_named(cost, message):
    with pytest.raises(ValueError, match=message):
        solve(cost, [0], "cpu-dijkstra")


@pytest.mark.parametrize("sources, message", [([3], "source 3 is not a vertex of this 3-vertex graph"),
                                              ([[0]], "1-D sequence"), ([0.5], "integer vertex ids")])
def test_bad_sources_are_named(sources, message):
    with pytest.raises(ValueError, match=message):
        solve(np.zeros((3, 3)), sources, "cpu-dijkstra")


def test_unavailable_gpu_variant_falls_back_to_the_cpu_with_a_note(monkeypatch):
    import engine.gpu_device
    monkeypatch.setattr(engine.gpu_device, "gpu_unavailable_reason", lambda: "no GPU in this test")
    result = solve(np.array([[np.inf, 4.0], [np.inf, np.inf]]), [0], "gpu-fast-sssp")
    assert result.variant == "cpu-dijkstra" and result.dist.tolist() == [[0, 4]]
    assert "gpu-fast-sssp unavailable (no GPU in this test)" in result.note


def test_failing_gpu_variant_falls_back_to_bellman_ford_when_costs_are_negative(monkeypatch):
    from engine.sssp import gpu_spmv

    def broken(g, sources):
        raise MemoryError("out of device memory")
    monkeypatch.setattr(gpu_spmv, "run_csr", broken)
    result = solve(np.array([[np.inf, -4.0], [np.inf, np.inf]]), [0], "gpu-spmv-csr")
    assert result.variant == "cpu-bellman-ford" and result.dist.tolist() == [[0, -4]]
    assert "gpu-spmv-csr failed (MemoryError: out of device memory)" in result.note


def test_every_variant_has_a_description_and_a_family():
    names = [v.name for v in variants()]
    assert names == ["cpu-dijkstra", "cpu-bellman-ford", "gpu-dijkstra", "gpu-bellman-ford",
                     "gpu-delta-stepping", "gpu-spmv-csr", "gpu-spmv-ell", "gpu-fast-sssp"]
    assert all(v.description and v.family in ("cpu", "gpu") for v in variants())


@pytest.mark.parametrize("variant", CPU)
@pytest.mark.parametrize("threads", ["one thread", "all cores"])
def test_cpu_variants_give_the_same_answer_on_one_thread_and_over_all_cores(variant, threads,
                                                                             monkeypatch):
    from engine.sssp import cpu_common
    monkeypatch.setattr(cpu_common, "THREADS_MIN_WORK", 10**12 if threads == "one thread" else 0)
    n = 13
    edges = awkward_edges(n, seed=5, negative=variant == "cpu-bellman-ford")
    check(as_coo(n, *edges), cheapest(n, *edges), [1, 0, 7, 7, 12], variant)


@pytest.mark.parametrize("threads", ["one thread", "all cores"])
def test_cpu_bellman_ford_names_a_negative_cycle_on_one_thread_and_over_all_cores(threads,
                                                                                 monkeypatch):
    from engine.sssp import cpu_common
    monkeypatch.setattr(cpu_common, "THREADS_MIN_WORK", 10**12 if threads == "one thread" else 0)
    cost = np.full((5, 5), np.inf)
    cost[0, 1], cost[1, 2], cost[2, 1] = 4, 1, -2
    with pytest.raises(NegativeCycleError) as caught:
        solve(cost, [3, 0], "cpu-bellman-ford")
    assert caught.value.vertex in (1, 2) and caught.value.source == 0


@pytest.mark.parametrize("dtype, sentinel", [(np.int64, INF), (np.int32, INF32)])
def test_integer_answers_become_float64_with_inf_the_same_serially_and_over_all_cores(dtype, sentinel):
    rng = np.random.default_rng(3)
    for size in (PARALLEL_FROM // 2, PARALLEL_FROM * 2):  # numpy below, the parallel pass above
        dist = rng.integers(-1000, 1000, (2, size // 2)).astype(dtype)
        dist[:, ::7] = sentinel
        expected = np.where(dist >= sentinel, np.inf, dist.astype(np.float64))
        got = to_float(dist)
        assert got.dtype == np.float64
        np.testing.assert_array_equal(got, expected)
    answer = np.zeros((2, 3))
    assert to_float(answer) is answer  # already float64: given back as it is
