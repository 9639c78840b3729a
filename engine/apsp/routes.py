"""Walk a route out of the matrix a variant produced alongside its distances.

Variants record routes in one of two ways (``RouteMatrix.kind``):

- ``"predecessor"`` — the paper's Path matrix: ``m[v, u]`` is the vertex before ``u`` on the
  route from ``v`` (``-1`` when unreachable);
- ``"via"`` — the intermediate vertex whose relaxation last improved ``(v, u)``
  (``-1`` when the direct edge is the route); the route splits there into two halves.
"""

from dataclasses import dataclass

import numpy as np

from .matrix import INF


@dataclass(frozen=True)
class RouteMatrix:
    kind: str  # "predecessor" or "via"
    matrix: np.ndarray  # n×n int32


def walk(routes: RouteMatrix, dist: np.ndarray, cost: np.ndarray, i: int, j: int) -> list[int]:
    """Vertices from ``i`` to ``j``: ``[i]`` when ``i == j``, ``[]`` when unreachable.

    ``dist`` is the float distance matrix, ``cost`` the int32 input the variant solved."""
    n = dist.shape[0]
    if not (0 <= i < n and 0 <= j < n):
        raise IndexError(f"vertex out of range: ({i}, {j}) for a graph of {n} vertices")
    if i == j:
        return [i]
    if not np.isfinite(dist[i, j]):
        return []
    try:
        if routes.kind == "predecessor":
            return _walk_predecessors(routes.matrix, i, j)
        if routes.kind == "via":
            return _without_loops(_walk_via(routes.matrix, i, j))
    except _Loop:
        return _tight_edge_route(dist, cost, i, j)
    raise ValueError(f"unknown route matrix kind {routes.kind!r}")


class _Loop(Exception):
    """The route matrix cycles (zero-cost cycles): rebuild the route from the distances."""


def _tight_edge_route(dist: np.ndarray, cost: np.ndarray, i: int, j: int) -> list[int]:
    """Fewest-hop shortest route from i to j along edges that keep ``dist[i]`` exact."""
    row = dist[i]
    parent = np.full(len(row), -1)
    parent[i] = i
    frontier = [i]
    while frontier and parent[j] < 0:
        reached = []
        for a in frontier:
            edge = cost[a] < INF
            tight = np.flatnonzero(edge & (row[a] + cost[a] == row) & (parent < 0))
            parent[tight] = a
            reached.extend(tight.tolist())
        frontier = reached
    if parent[j] < 0:
        raise RuntimeError(f"distances are not consistent with the costs on route {i}->{j}")
    route = [j]
    while route[-1] != i:
        route.append(int(parent[route[-1]]))
    return route[::-1]


def _without_loops(route: list[int]) -> list[int]:
    """Cut the loops out of a shortest walk. On a shortest walk a loop can only cost 0 (costs are
    non-negative), so the simple route that remains costs the same."""
    simple: list[int] = []
    position: dict[int, int] = {}
    for v in route:
        if v in position:
            for dropped in simple[position[v] + 1:]:
                del position[dropped]
            del simple[position[v] + 1:]
        else:
            position[v] = len(simple)
            simple.append(v)
    return simple


def _walk_predecessors(pred: np.ndarray, i: int, j: int) -> list[int]:
    route = [j]
    n = pred.shape[0]
    while route[-1] != i:
        p = int(pred[i, route[-1]])
        if p < 0 or len(route) > n:
            raise _Loop()
        route.append(p)
    return route[::-1]


def _walk_via(via: np.ndarray, i: int, j: int) -> list[int]:
    n = via.shape[0]
    route = [i]
    stack = [(i, j)]  # pairs still to expand, leftmost on top
    expansions = 0  # a via split point found from final distances can cycle on zero-cost edges
    while stack:
        a, b = stack.pop()
        k = int(via[a, b])
        expansions += 1
        if expansions > 2 * n * n:
            raise _Loop()
        if k < 0:
            route.append(b)
        else:
            stack.append((k, b))
            stack.append((a, k))
    return route
