"""Walking a route out of any variant's result takes time bounded by the route's length, zero-cost
cycles included: a route matrix that cycles is noticed within 2n steps (not 2n², which took 3 s
a route at n = 1,536 on gpu-fast's vias) and the route is rebuilt from the distances.
Routes are checked by summing their edges. (Route times on the H100: benchmarks/probe_trust.py.)"""

import numpy as np
import pytest

from engine.apsp import solve, variants
from engine.apsp.matrix import to_int32_costs
from engine.apsp.routes import RouteMatrix, _walk_via, walk
from engine.gpu_device import simulated
from tests.apsp_reference import assert_routes_sum_to_distances, scipy_distances

GPU = {v.name for v in variants() if v.family == "gpu"}


def zero_cycle_graph(n: int, density: int = 15, seed: int = 0) -> np.ndarray:
    """The issue's graph: each edge with probability density %, integer cost 0-49 (so many
    zero-cost edges and cycles of them), no edge elsewhere."""
    rng = np.random.default_rng(seed)
    cost = np.where(rng.random((n, n)) < density / 100, rng.integers(0, 50, (n, n)), np.inf)
    np.fill_diagonal(cost, 0)
    return cost


@pytest.mark.parametrize("name", [v.name for v in variants()])
def test_routes_on_zero_cost_cycles_add_up_on_every_variant(name):
    # the simulator runs every GPU thread as a Python thread: a small, denser graph there
    n, density = (13, 80) if name in GPU and simulated() else (300, 15)
    cost = zero_cycle_graph(n, density, seed=n)
    zero_edges = int(((cost == 0) & ~np.eye(n, dtype=bool)).sum())
    assert zero_edges >= 2   # the graph has zero-cost edges to cycle on
    result = solve(cost, variant=name)
    assert result.variant == name, result.note
    np.testing.assert_array_equal(result.dist, scipy_distances(cost))
    rng = np.random.default_rng(1)
    pairs = [tuple(map(int, p)) for p in rng.integers(0, n, size=(1500, 2))]
    assert_routes_sum_to_distances(result, cost, pairs)


def test_a_via_matrix_that_always_splits_is_noticed_within_2n_steps_and_rebuilt():
    # Every pair splits at a third vertex, so expanding never ends: the walk gives up after 2n
    # expansions (a route of L edges needs 2L - 1) and rebuilds the route from the distances.
    n = 400
    cost = np.zeros((n, n))
    a, b = np.meshgrid(np.arange(n), np.arange(n), indexing="ij")
    via = (a + b + 1) % n
    via = np.where((via == a) | (via == b), (via + 1) % n, via)
    via = np.where((via == a) | (via == b), (via + 1) % n, via).astype(np.int32)
    assert ((via != a) & (via != b)).all()
    assert _walk_via(via, 0, n - 1) is None
    route = walk(RouteMatrix("via", via), np.zeros((n, n)), to_int32_costs(cost), 0, n - 1)
    assert route == [0, n - 1]   # the fewest-hop route of cost 0


def test_a_predecessor_matrix_that_loops_is_rebuilt_from_the_distances():
    n = 300
    cost = zero_cycle_graph(n, seed=5)
    dist = scipy_distances(cost)
    pred = np.full((n, n), 1, dtype=np.int32)   # every vertex's predecessor is 1: 1 <- 1 <- ...
    pairs = [(0, j) for j in range(2, n) if np.isfinite(dist[0, j])]
    for i, j in pairs:
        route = walk(RouteMatrix("predecessor", pred), dist, to_int32_costs(cost), i, j)
        assert route[0] == i and route[-1] == j
        assert sum(cost[u, v] for u, v in zip(route, route[1:])) == dist[i, j]
