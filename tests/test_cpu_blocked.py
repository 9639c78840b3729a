"""The threaded block schedule of cpu-blocked stays exact with many blocks and both cores."""

import numpy as np
import pytest

from engine.apsp import solve
from engine.apsp.cpu_blocked import block_size, calc_block, run
from engine.apsp.matrix import to_float_distances, to_int32_costs
from engine.apsp.random_graph import paper_random_graph
from engine.apsp.result import APSPResult
from tests.apsp_reference import assert_routes_sum_to_distances, scipy_distances


def solve_blocked(cost, block, threads):
    w = to_int32_costs(cost)
    dist32, routes, seconds = run(w, block=block, threads=threads)
    return APSPResult(to_float_distances(dist32), routes, "cpu-blocked", seconds, seconds, "CPU", w)


@pytest.mark.parametrize("threads", [1, 2, 3])
@pytest.mark.parametrize("block", [4, 8, 12])
def test_many_blocks_match_scipy_with_zero_cost_edges(block, threads):
    n = 67  # not a multiple of any block size: padded blocks at the edge
    rng = np.random.default_rng(block * 10 + threads)
    cost = paper_random_graph(n, 15, weight_range=5, seed=block)
    cost[rng.random((n, n)) < 0.05] = 0.0
    cost[rng.random((n, n)) < 0.3] = np.inf
    np.fill_diagonal(cost, 0)
    result = solve_blocked(cost, block, threads)
    np.testing.assert_array_equal(result.dist, scipy_distances(cost))
    assert_routes_sum_to_distances(result, cost)


def test_large_graph_uses_several_blocks_and_stays_exact():
    n = 1100
    assert block_size(n) < n
    cost = paper_random_graph(n, 15, seed=5)
    result = solve(cost, variant="cpu-blocked")
    np.testing.assert_array_equal(result.dist, scipy_distances(cost))
    rng = np.random.default_rng(0)
    assert_routes_sum_to_distances(result, cost, [tuple(p) for p in rng.integers(0, n, (500, 2))])


def test_block_size_must_fit_the_unrolled_kernel():
    with pytest.raises(ValueError, match="multiple"):
        run(to_int32_costs(np.zeros((10, 10))), block=6)


@pytest.mark.parametrize("n", [1, 2, 7, 50, 51])
def test_one_block_kernel_gives_calc_blocks_distances_and_via(n):
    # a graph of one block runs calc_whole (two k-steps a pass): the same distances and via
    # matrix as calc_block's one k-step a pass over the same matrix, ties included
    rng = np.random.default_rng(n)
    cost = rng.integers(0, 6, (n, n)).astype(float)   # many zero-cost edges and equal routes
    cost[rng.random((n, n)) < 0.4] = np.inf
    w = to_int32_costs(cost)
    dist, routes, _ = run(w)
    stepwise, via = w.copy(), np.full((n, n), -1, dtype=np.int32)
    calc_block(stepwise, via, 0, 0, 0, n)
    np.testing.assert_array_equal(dist, stepwise)
    np.testing.assert_array_equal(routes.matrix, via)
    np.testing.assert_array_equal(to_float_distances(dist), scipy_distances(cost))


def test_distances_only_skip_the_via_matrix_and_routes_are_walked_from_the_distances():
    n = 41
    rng = np.random.default_rng(7)
    cost = rng.integers(0, 9, (n, n)).astype(float)
    cost[rng.random((n, n)) < 0.6] = np.inf
    full = solve(cost, "cpu-blocked")
    bare = solve(cost, "cpu-blocked", routes=False)
    assert bare.routes is None and bare.variant == "cpu-blocked"
    np.testing.assert_array_equal(bare.dist, full.dist)
    assert_routes_sum_to_distances(bare, cost)
    assert solve(cost, "cpu-linear", routes=False).routes is not None   # it keeps its Path matrix
