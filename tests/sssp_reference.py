"""Awkward test graphs and reference answers shared by the SSSP tests.

Graphs come as edge lists with parallel edges, self-loops, zero costs, an isolated vertex and
large costs; the references are built independently of engine.sssp: the cheapest of parallel
edges picked with a dict, then scipy (explicit zeros kept as edges) and networkx.
"""

import networkx as nx
import numpy as np
import scipy.sparse as sp
from scipy.sparse.csgraph import bellman_ford, dijkstra


def awkward_edges(n, seed, extra=3, big=False, negative=False):
    """(tails, heads, costs): ~extra·n random edges, some zero-cost, some parallel (the cheap
    copy after the dear one), self-loops, vertex n-1 isolated. ``negative``: costs reweighted by
    vertex potentials, so some are negative but no cycle is."""
    rng = np.random.default_rng(seed)
    m = extra * n
    live = max(n - 1, 1)
    tails, heads = rng.integers(0, live, m), rng.integers(0, live, m)
    costs = rng.integers(0, 2**31 - 1 if big else 20, m).astype(np.int64)
    costs[rng.random(m) < 0.2] = 0
    dup = rng.integers(0, m, max(1, m // 5))
    tails = np.r_[tails, tails[dup]]
    heads = np.r_[heads, heads[dup]]
    costs = np.r_[costs, costs[dup] // 2]   # the parallel copy is cheaper
    if negative:
        p = rng.integers(0, 15, n)
        costs = costs + p[tails] - p[heads]
    return tails, heads, costs


def cheapest(n, tails, heads, costs) -> sp.csr_matrix:
    """CSR of the cheapest edge per (tail, head), explicit zeros kept."""
    best = {}
    for u, v, c in zip(tails.tolist(), heads.tolist(), costs.tolist()):
        best[u, v] = min(c, best.get((u, v), c))
    if not best:
        return sp.csr_matrix((n, n))
    (r, c), w = zip(*best.keys()), list(best.values())
    return sp.csr_matrix((np.array(w, float), (np.array(r), np.array(c))), shape=(n, n))


def as_coo(n, tails, heads, costs) -> sp.coo_matrix:
    """The edge list as scipy COO with its duplicates (what a user may hand over)."""
    return sp.coo_matrix((costs.astype(float), (tails, heads)), shape=(n, n))


def scipy_distances(csr, sources):
    if (csr.data < 0).any():
        return bellman_ford(csr, directed=True, indices=sources)
    return dijkstra(csr, directed=True, indices=sources)


def networkx_distances(csr, sources):
    g = nx.DiGraph()
    g.add_nodes_from(range(csr.shape[0]))
    coo = csr.tocoo()
    g.add_weighted_edges_from(zip(coo.row.tolist(), coo.col.tolist(), coo.data.tolist()))
    out = np.full((len(sources), csr.shape[0]), np.inf)
    for i, s in enumerate(sources):
        for t, d in nx.single_source_bellman_ford_path_length(g, int(s)).items():
            out[i, t] = d
    return out


def assert_routes_are_shortest(result, csr, targets=None):
    """Each route of each source walks real edges and costs exactly its distance."""
    n = csr.shape[0]
    coo = csr.tocoo()
    dense = dict(zip(zip(coo.row.tolist(), coo.col.tolist()), coo.data.tolist()))
    for row, s in enumerate(result.sources.tolist()):
        for t in (range(n) if targets is None else targets):
            route = result.route(s, t)
            if not np.isfinite(result.dist[row, t]):
                assert route == [], f"unreachable {s}->{t} got {route}"
                continue
            assert route[0] == s and route[-1] == t, f"route {s}->{t} is {route}"
            assert len(set(route)) == len(route), f"route {s}->{t} repeats a vertex: {route}"
            total = sum(dense[a, b] for a, b in zip(route, route[1:]))
            assert total == result.dist[row, t], f"route {s}->{t} {route} costs {total}"
