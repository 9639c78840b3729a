"""Walk a route out of the matrix a variant produced alongside its distances.

Variants record routes in one of two ways (``RouteMatrix.kind``):

- ``"predecessor"`` — the paper's Path matrix: ``m[v, u]`` is the vertex before ``u`` on the
  route from ``v`` (``-1`` when unreachable);
- ``"via"`` — the intermediate vertex whose relaxation last improved ``(v, u)``
  (``-1`` when the direct edge is the route); the route splits there into two halves.
"""

from dataclasses import dataclass

import numba
import numpy as np

from .matrix import INF


@dataclass(frozen=True)
class RouteMatrix:
    kind: str  # "predecessor" or "via"
    matrix: np.ndarray  # n×n int32


def walk(routes: RouteMatrix | None, dist: np.ndarray, cost: np.ndarray, i: int,
         j: int) -> list[int]:
    """Vertices from ``i`` to ``j``: ``[i]`` when ``i == j``, ``[]`` when unreachable.

    ``dist`` is the float distance matrix, ``cost`` the int32 input the variant solved. The
    walk takes time proportional to the route's length; where the matrix cycles (zero-cost
    cycles can make it) the walk stops after at most 2n steps and the route is rebuilt from
    the distances instead (a compiled search, milliseconds at n in the thousands), as it is
    where there is no matrix (``routes`` None: distances only were solved)."""
    n = dist.shape[0]
    if not (0 <= i < n and 0 <= j < n):
        raise IndexError(f"vertex out of range: ({i}, {j}) for a graph of {n} vertices")
    if i == j:
        return [i]
    if not np.isfinite(dist[i, j]):
        return []
    if routes is None:  # distances only: the route is rebuilt from them
        route = None
    elif routes.kind == "predecessor":
        route = _walk_predecessors(routes.matrix, i, j)
    elif routes.kind == "via":
        route = _walk_via(routes.matrix, i, j)
    else:
        raise ValueError(f"unknown route matrix kind {routes.kind!r}")
    if route is None:   # the matrix cycles, or there is none
        route = _tight_edge_route(dist, cost, i, j)
        if route is None:
            raise RuntimeError(f"distances are not consistent with the costs on route {i}->{j}")
    return _without_loops(route.tolist())


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


def _walk_predecessors(pred, i, j):
    """j, its predecessor, ... back to i, reversed; None where the matrix loops (more than n
    steps) or breaks off. Plain Python: a walk is as long as its route, and nothing to compile
    (the first route on a fresh machine does not wait for a JIT)."""
    row = pred[i]
    route = [j]
    while route[-1] != i:
        p = int(row[route[-1]])
        if p < 0 or len(route) > len(row):
            return None
        route.append(p)
    return np.array(route[::-1], dtype=np.int64)


def _walk_via(via, i, j):
    """Expand (i, j) at its via, depth first, leftmost half first: a route of L edges takes
    2L - 1 expansions, so more than 2n means the splits cycle (None). Plain Python, as above."""
    route = [i]
    stack = [(i, j)]   # pairs still to expand, leftmost on top
    for _ in range(2 * len(via)):
        if not stack:
            return np.array(route, dtype=np.int64)
        a, b = stack.pop()
        k = int(via[a, b])
        if k < 0:
            route.append(b)
        else:
            stack.append((k, b))
            stack.append((a, k))
    return np.array(route, dtype=np.int64) if not stack else None


@numba.njit(cache=True, nogil=True)
def _tight_edge_route(dist, cost, i, j):
    """Fewest-hop shortest route from i to j along edges that keep ``dist[i]`` exact (breadth
    first from i: it cannot cycle); None if the distances admit none."""
    n = dist.shape[0]
    parent = np.full(n, -1, dtype=np.int64)
    parent[i] = i
    queue = np.empty(n, dtype=np.int64)
    queue[0] = i
    head, tail = 0, 1
    while head < tail and parent[j] < 0:
        a = queue[head]
        head += 1
        for b in range(n):
            if parent[b] < 0 and cost[a, b] < INF and dist[i, a] + cost[a, b] == dist[i, b]:
                parent[b] = a
                queue[tail] = b
                tail += 1
    if parent[j] < 0:
        return None
    route = [j]
    while route[-1] != i:
        route.append(parent[route[-1]])
    return np.array(route[::-1], dtype=np.int64)
