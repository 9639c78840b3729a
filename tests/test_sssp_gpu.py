"""GPU-specific SSSP behaviour beyond the shared variant suite: both launch paths of
gpu-fast-sssp, ELL's refusal of a padded graph, Δ's rules, a graph kept on the device, and
larger graphs on a real GPU.

Under Numba's CUDA simulator (no GPU) the graphs stay tiny: every GPU thread is a Python thread.
"""

import numpy as np
import pytest

from engine.gpu_device import simulated
from engine.sssp import gpu_fast, gpu_spmv, prepare, solve
from engine.sssp.delta import RULES, choose_delta
from tests.sssp_reference import as_coo, assert_routes_are_shortest, awkward_edges, cheapest, scipy_distances

SIM = simulated()
GPU = ["gpu-dijkstra", "gpu-bellman-ford", "gpu-delta-stepping", "gpu-spmv-csr", "gpu-spmv-ell",
       "gpu-fast-sssp"]


@pytest.fixture(params=["persistent", "round by round"])
def large_path(request, monkeypatch):
    """gpu-fast-sssp's large-graph path whatever the size, with and without the grid barrier."""
    monkeypatch.setattr(gpu_fast, "SMALL_MAX", 0)
    if request.param == "round by round":
        monkeypatch.setattr(gpu_fast, "persistent_kernel", lambda: None)
    return request.param


def test_fast_large_path_is_exact_with_negative_costs_and_duplicate_sources(large_path):
    n = 12
    edges = awkward_edges(n, seed=11, negative=True)
    reference = cheapest(n, *edges)
    result = solve(as_coo(n, *edges), [3, 0, 3], "gpu-fast-sssp")
    assert result.variant == "gpu-fast-sssp", result.note
    assert ("persistent" in result.note) == (large_path == "persistent")
    np.testing.assert_array_equal(result.dist, scipy_distances(reference, [3, 0, 3]))
    assert_routes_are_shortest(result, reference)


def test_fast_large_path_batches_sources(monkeypatch):
    monkeypatch.setattr(gpu_fast, "SMALL_MAX", 0)
    monkeypatch.setattr(gpu_fast, "BATCH_ITEMS", 20)  # two sources of 10 vertices per batch
    n = 10
    edges = awkward_edges(n, seed=4)
    sources = [0, 1, 2, 5, 8]
    result = solve(as_coo(n, *edges), sources, "gpu-fast-sssp")
    np.testing.assert_array_equal(result.dist, scipy_distances(cheapest(n, *edges), sources))


def test_ell_refuses_a_graph_padding_would_blow_up_and_solve_falls_back(monkeypatch):
    monkeypatch.setattr(gpu_spmv, "ELL_MAX_BYTES", 64)
    star = np.full((12, 12), np.inf)
    star[1:, 0] = 1  # vertex 0 has in-degree 11: ELL pads 12 rows to 11 columns
    result = solve(star, [5], "gpu-spmv-ell")
    assert result.variant == "cpu-dijkstra"
    assert "gpu-spmv-ell failed (ELLTooLarge: ELL pads every row to the largest in-degree 11" in result.note
    assert result.dist[0, 0] == 1


def test_delta_rules_follow_the_seed():
    cost = np.full((3, 3), np.inf)
    cost[0, 1], cost[0, 2], cost[1, 2] = 2, 9, 4
    g = prepare(cost)
    assert [choose_delta(g, rule) for rule in RULES] == [4, 5, 4]  # median, mean, 9 / degree 2
    assert choose_delta(prepare(np.zeros((2, 2))), "mean") == 1    # Δ is never 0
    note = solve(cost, [0], "gpu-delta-stepping").note
    assert note.startswith("Δ = 5 (the seed's rule 2")


def test_a_prepared_graph_is_uploaded_once_and_solved_again():
    n = 9
    edges = awkward_edges(n, seed=8)
    g = prepare(as_coo(n, *edges))
    first = solve(g, [1], "gpu-fast-sssp")
    uploaded = g.device["reverse"]
    second = solve(g, [2, 1], "gpu-fast-sssp")
    assert g.device["reverse"] is uploaded
    np.testing.assert_array_equal(second.dist[1], first.dist[0])


NEGATIVE_OK = ("gpu-bellman-ford", "gpu-spmv-csr", "gpu-spmv-ell", "gpu-fast-sssp")
# (variant, n, edges per vertex); the seed's O(n²) Dijkstra only on the smaller graph
LARGE = [] if SIM else [(v, 2_000, 3) for v in GPU] + [(v, 20_000, 5) for v in GPU if v != "gpu-dijkstra"]


@pytest.mark.skipif(SIM, reason="larger graphs need a real GPU")
@pytest.mark.parametrize("variant, n, degree", LARGE)
def test_larger_graphs_match_scipy_on_the_gpu(variant, n, degree):
    edges = awkward_edges(n, seed=n, extra=degree, negative=variant in NEGATIVE_OK)
    reference = cheapest(n, *edges)
    sources = [0, 1, n // 2, 1]
    result = solve(as_coo(n, *edges), sources, variant)
    assert result.variant == variant, result.note
    np.testing.assert_array_equal(result.dist, scipy_distances(reference, sources))
    assert_routes_are_shortest(result, reference, targets=range(0, n, max(1, n // 200)))


@pytest.mark.skipif(SIM, reason="larger graphs need a real GPU")
def test_fast_large_path_on_the_gpu_is_exact_on_a_road_grid_and_rmat():
    from engine.sssp.generators import rmat, road_grid
    for graph in (road_grid(300, seed=1), rmat(14, seed=2)):
        sources = [0, 4_000, graph.n - 1]
        result = solve(graph, sources, "gpu-fast-sssp")
        assert "persistent" in result.note
        np.testing.assert_array_equal(result.dist, scipy_distances(graph.csr_matrix(), sources))
