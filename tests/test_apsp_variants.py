"""Every Floyd–Warshall variant gives scipy's and networkx's distances, and routes that add up.

GPU variants run on the real GPU where there is one and in Numba's CUDA simulator elsewhere
(small graphs there: the simulator runs every GPU thread as a Python thread).
"""

import numpy as np
import pytest

from engine.apsp import INF, matrix, solve, variants
from engine.gpu_device import device_name, simulated
from engine.apsp.random_graph import paper_random_graph
from tests.apsp_reference import assert_routes_sum_to_distances, networkx_distances, scipy_distances

ALL = [v.name for v in variants()]
GPU = [v.name for v in variants() if v.family == "gpu"]
# Sizes that are not multiples of any tile (16, 32, 64, 128, 256).
SIZES = [1, 2, 3, 10, 17] if simulated() else [1, 2, 3, 17, 31, 33, 65, 100, 257, 1000]
CPU_SIZES = [1, 2, 3, 17, 31, 33, 65, 100, 257]

inf = np.inf
# The paper's Table 1 (Cost₀), vertices 1..5 as indices 0..4.
PAPER_COST = np.array([[0, 5, inf, 2, inf],
                       [inf, 0, 2, inf, inf],
                       [3, inf, 0, inf, 7],
                       [inf, inf, 4, 0, 1],
                       [1, 3, inf, inf, 0]])


def sizes_for(name):
    return SIZES if name in GPU else CPU_SIZES


def check(cost, name, route_pairs=None):
    result = solve(cost, variant=name)
    assert result.variant == name, result.note
    expected = scipy_distances(cost)
    np.testing.assert_array_equal(result.dist, expected)
    assert_routes_sum_to_distances(result, cost, route_pairs)
    return result


def sample_pairs(n, count=300, seed=0):
    rng = np.random.default_rng(seed)
    if n * n <= count:
        return None
    return [tuple(map(int, p)) for p in rng.integers(0, n, size=(count, 2))]


@pytest.mark.parametrize("name", ALL)
def test_every_variant_is_available_here(name):
    v = next(v for v in variants() if v.name == name)
    assert v.available, v.reason


@pytest.mark.parametrize("name", ALL)
def test_paper_table_1_example_matches_scipy_and_networkx(name):
    result = check(PAPER_COST, name)
    np.testing.assert_array_equal(result.dist, networkx_distances(PAPER_COST))
    # The paper's worked step: C(3,1) + C(1,2) = 3 + 5 = 8 is the cost from vertex 3 to vertex 2.
    assert result.dist[2, 1] == 8
    assert result.route(2, 1) == [2, 0, 1]


@pytest.mark.parametrize("density", [15, 85])
@pytest.mark.parametrize("name", ALL)
def test_random_paper_graphs_of_awkward_sizes(name, density):
    for n in sizes_for(name):
        cost = paper_random_graph(n, density, weight_range=100, seed=n * density)
        check(cost, name, sample_pairs(n))


@pytest.mark.parametrize("name", ALL)
def test_unreachable_pair_has_no_route(name):
    # Two strongly connected halves joined one way: the second half never reaches the first
    # (the paper's "Can A5 reach A2? No — forever").
    n = 9 if name in GPU and simulated() else 70
    cost = paper_random_graph(n, 85, seed=3)
    half = n // 2
    cost[half:, :half] = inf
    result = check(cost, name)
    assert result.route(n - 1, 0) == []
    assert np.isinf(result.dist[n - 1, 0])
    assert result.route(0, n - 1) != []


@pytest.mark.parametrize("name", ALL)
def test_zero_cost_edges_stay_edges(name):
    n = 13 if name in GPU and simulated() else 65
    rng = np.random.default_rng(7)
    cost = paper_random_graph(n, 15, weight_range=3, seed=7)
    zero = rng.random((n, n)) < 0.3
    cost[zero] = 0.0  # zero-cost roads, including zero-cost cycles
    cost[rng.random((n, n)) < 0.5] = inf
    np.fill_diagonal(cost, 0)
    result = check(cost, name)
    np.testing.assert_array_equal(result.dist, networkx_distances(cost))


@pytest.mark.parametrize("name", ALL)
def test_costs_near_the_int32_limit_stay_exact(name):
    n = 13 if name in GPU and simulated() else 40
    big = int(INF - 1) // n  # a Hamiltonian path of n-1 such edges still fits below INF
    rng = np.random.default_rng(11)
    cost = np.where(rng.random((n, n)) < 0.3, rng.integers(big // 2, big, (n, n)), inf).astype(float)
    path = np.arange(n)
    cost[path[:-1], path[1:]] = big  # a long chain so some routes approach the limit
    np.fill_diagonal(cost, 0)
    result = check(cost, name)
    assert result.dist.max() < INF


def test_overflowing_costs_are_refused_not_wrong():
    cost = np.full((4, 4), 2.0**29)
    with pytest.raises(ValueError, match="too large"):
        solve(cost, variant="cpu-linear")


def test_the_diagonal_does_not_count_towards_the_route_bound():
    # Standing still is free whatever the diagonal says, so a huge diagonal is not an overflow.
    cost = np.full((4, 4), 7.0)
    np.fill_diagonal(cost, 2.0**29)  # four rows of it would exceed the bound if counted
    result = solve(cost, variant="cpu-linear")
    np.testing.assert_array_equal(result.dist, np.where(np.eye(4, dtype=bool), 0.0, 7.0))


@pytest.mark.parametrize("bad, message", [
    (np.zeros((2, 3)), "square"),
    (np.array([[0, np.nan], [1, 0]]), "NaN"),
    (np.array([[0, -1], [1, 0]]), "negative"),
    (np.array([[0, 1.5], [1, 0]]), "fractional"),
    (np.array([[0, 1], [3e9, 0]]), r"too large for exact int32 routes \(3000000000.0\) at \(1, 0\)"),
])
def test_bad_cost_matrices_get_a_clear_error(bad, message):
    with pytest.raises(ValueError, match=message):
        solve(bad, variant="cpu-linear")


@pytest.mark.parametrize("n", [6, 300])  # 300² entries take the threaded conversion
def test_the_first_bad_entry_in_row_order_is_named(n):
    assert (n * n >= matrix.PARALLEL_FROM) == (n == 300)
    cost = np.ones((n, n))
    cost[n - 1, 0] = np.nan
    cost[n - 2, n - 1] = -3.0
    cost[n - 2, 2] = 2.5
    with pytest.raises(ValueError, match=rf"fractional cost \(2.5\) at \({n - 2}, 2\)"):
        solve(cost, variant="cpu-linear")



def test_a_result_names_the_threads_its_variant_ran_on():
    """A variant that never runs in parallel says one thread; cpu-blocked, Numba's pool."""
    cost = paper_random_graph(20, 30, seed=2)
    assert solve(cost, variant="cpu-linear").device == "CPU (1 thread)"
    assert solve(cost, variant="cpu-blocked").device == device_name("cpu")
    assert device_name("cpu", 1) == "CPU (1 thread)" and device_name("cpu", 4) == "CPU (4 threads)"

def test_unknown_variant_lists_the_names():
    with pytest.raises(ValueError, match="cpu-linear"):
        solve(PAPER_COST, variant="quantum")


def test_route_to_itself_is_the_vertex_alone():
    result = solve(PAPER_COST, variant="cpu-linear")
    assert result.route(3, 3) == [3]
    assert result.dist[3, 3] == 0


def test_empty_graph_solves_to_empty_result():
    result = solve(np.zeros((0, 0)), variant="cpu-linear")
    assert result.dist.shape == (0, 0)


def test_auto_picks_a_measured_variant_and_says_which():
    from engine.apsp.auto import calibration
    result = solve(PAPER_COST, variant="auto")
    assert result.variant in calibration()
    assert all(times for times in calibration().values())
    np.testing.assert_array_equal(result.dist, scipy_distances(PAPER_COST))


def test_missing_gpu_falls_back_to_the_cpu_with_a_note(monkeypatch):
    from engine import gpu_device
    gpu_device.forget_probe()
    monkeypatch.setattr(gpu_device, "simulated", lambda: False)
    monkeypatch.setattr(gpu_device, "_ask_child", lambda: None)   # checked in this process
    monkeypatch.setattr("numba.cuda.is_available", lambda: False)
    try:
        result = solve(PAPER_COST, variant="gpu-blocked")
    finally:
        gpu_device.forget_probe()
    assert result.variant == "cpu-blocked"
    assert "gpu-blocked unavailable" in result.note and "CPU" in result.note
    np.testing.assert_array_equal(result.dist, scipy_distances(PAPER_COST))


def test_a_looping_route_matrix_falls_back_to_the_distances():
    # Zero-cost cycles can make a Path matrix loop; the route is rebuilt from tight edges.
    from engine.apsp.matrix import to_int32_costs
    from engine.apsp.result import APSPResult
    from engine.apsp.routes import RouteMatrix
    cost = np.array([[0, 1, inf, inf], [inf, 0, 0, inf], [inf, 0, 0, 2], [inf, inf, inf, 0]])
    looping = np.array([[0, 0, 1, 1], [-1, 1, 1, 2], [-1, 2, 2, 2], [-1, -1, -1, 3]])
    looping[0, 1], looping[0, 2] = 2, 1  # 1 <- 2 <- 1 <- … never reaches 0
    result = APSPResult(scipy_distances(cost), RouteMatrix("predecessor", looping), "test",
                        0.0, 0.0, "CPU", to_int32_costs(cost))
    assert result.route(0, 3) == [0, 1, 2, 3]
    assert_routes_sum_to_distances(result, cost)


def test_via_splits_that_cycle_on_zero_cost_edges_fall_back_to_a_tight_route():
    # gpu-fast finds each via from final distances: on a zero-cost cycle two splits can point at
    # each other (0→2 via 1, 0→1 via 2). The walk must notice and rebuild the route, not spin.
    from engine.apsp.routes import RouteMatrix, walk
    cost = np.array([[0, 0, 5], [0, 0, 0], [9, 0, 0]], dtype=np.int32)
    dist = np.zeros((3, 3))
    via = np.full((3, 3), -1, dtype=np.int32)
    via[0, 2], via[0, 1] = 1, 2
    route = walk(RouteMatrix("via", via), dist, cost, 0, 2)
    assert route[0] == 0 and route[-1] == 2 and len(set(route)) == len(route)
    assert sum(int(cost[a, b]) for a, b in zip(route, route[1:])) == 0


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64, np.int16])
def test_numpy_conversion_is_the_compiled_one(dtype):
    # The first answer on a fresh GPU machine converts with numpy (nothing to compile): the
    # same int32 matrix, row maxima and bad-entry count as Numba's pass, over several blocks.
    rng = np.random.default_rng(3)
    n = 700   # more rows than one block of numpy's pass
    w = rng.integers(0, 1000, (n, n)).astype(np.float64)
    w[rng.random((n, n)) < 0.4] = inf
    np.fill_diagonal(w, rng.integers(0, 5, n))
    if np.issubdtype(dtype, np.integer):
        w[np.isinf(w)] = 0
    w = w.astype(dtype)
    for bad in ([], [np.nan, -1.0, 0.5, 3e9, float(INF)]):
        x = w.astype(np.float64) if bad else w
        for k, value in enumerate(bad):
            x[5 * k + 1, 600 - k] = value
        outs = [np.empty((n, n), np.int32) for _ in range(2)]
        maxima = [np.zeros(n, np.int64) for _ in range(2)]
        counts = [matrix._convert(x, outs[0], maxima[0], threads=False),
                  matrix._convert_numpy(x, outs[1], maxima[1])]
        assert counts[0] == counts[1] == len(bad)
        np.testing.assert_array_equal(outs[0], outs[1])
        np.testing.assert_array_equal(maxima[0], maxima[1])


def test_a_bad_entry_is_named_by_the_numpy_conversion_too():
    with pytest.raises(ValueError, match=r"fractional cost \(1.5\) at \(0, 1\)"):
        matrix.to_int32_costs(np.array([[0, 1.5], [1, 0]]), compiled=False)
    np.testing.assert_array_equal(
        matrix.to_int32_costs(np.array([[5, inf], [2.0, 0]]), compiled=False),
        matrix.to_int32_costs(np.array([[5, inf], [2.0, 0]])))
