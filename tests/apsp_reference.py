"""Reference answers and checks shared by the Floyd–Warshall tests."""

import networkx as nx
import numpy as np
from scipy.sparse.csgraph import csgraph_from_dense, floyd_warshall


def scipy_distances(cost: np.ndarray) -> np.ndarray:
    """scipy's answer; ``null_value=np.inf`` keeps zero-cost edges as edges."""
    return floyd_warshall(csgraph_from_dense(cost, null_value=np.inf), directed=True)


def networkx_distances(cost: np.ndarray) -> np.ndarray:
    g = nx.DiGraph()
    n = cost.shape[0]
    g.add_nodes_from(range(n))
    rows, cols = np.nonzero(np.isfinite(cost) & ~np.eye(n, dtype=bool))
    g.add_weighted_edges_from((int(i), int(j), float(cost[i, j])) for i, j in zip(rows, cols))
    return nx.floyd_warshall_numpy(g, nodelist=range(n))


def assert_routes_sum_to_distances(result, cost: np.ndarray, pairs=None) -> None:
    """Every route walks real edges from i to j and its edge costs add up to dist[i, j]."""
    n = cost.shape[0]
    pairs = pairs if pairs is not None else [(i, j) for i in range(n) for j in range(n)]
    for i, j in pairs:
        route = result.route(i, j)
        if not np.isfinite(result.dist[i, j]):
            assert route == [], f"unreachable {i}->{j} got route {route}"
            continue
        assert route[0] == i and route[-1] == j, f"route {i}->{j} is {route}"
        assert len(set(route)) == len(route), f"route {i}->{j} repeats a vertex: {route}"
        total = sum(cost[a, b] for a, b in zip(route, route[1:]))
        assert total == result.dist[i, j], f"route {i}->{j} {route} costs {total}, dist {result.dist[i, j]}"
