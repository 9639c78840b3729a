"""All pairs of a road graph, exactly, at a fraction of Dijkstra from every vertex: Dijkstra
(scipy) only from the nodes off the chains and on those nodes alone (each chain one road between
its ends; its inner nodes reached from them), each chain node's row from its chain's two ends.

A chain node lies on a road and nothing else: two-way, its only neighbours are the two nodes
before and after it (roads in and out both ways); one-way, one road in and one out. A simple
route from a chain node leaves it along the chain, so it either reaches its end along the chain
or first passes an end A (or B) and goes on by a shortest route from there:

    d(x, y) = min(c(x → A) + d(A, y), c(x → B) + d(B, y), the chain from x to y if y is on it)

Costs are whole numbers, so every sum is exact and the table equals Dijkstra's from every vertex.
On the hub, 1,291 of 2,253 nodes lie on chains.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from scipy.sparse.csgraph import dijkstra


def road_graph(w: np.ndarray) -> sp.csr_matrix:
    """The roads of the dense cost matrix ``w`` (``np.inf``: none) as scipy CSR, zero costs kept
    as edges (``csgraph_from_dense`` does the same through masked arrays, several times slower)."""
    rows, cols = np.nonzero(w != np.inf)
    return sp.csr_matrix((w[rows, cols], (rows, cols)), shape=w.shape)


def road_all_pairs(w: np.ndarray) -> np.ndarray:
    """The n×n distances of the dense cost matrix ``w`` (``np.inf``: no road)."""
    n = len(w)
    g = road_graph(w)
    outs = [set(g.indices[g.indptr[u]:g.indptr[u + 1]].tolist()) - {u} for u in range(n)]
    ins = [set() for _ in range(n)]
    for u in range(n):
        for v in outs[u]:
            ins[v].add(u)
    two_way = [len(outs[u]) == 2 and outs[u] == ins[u] for u in range(n)]
    on_chain = [two_way[u] or (len(outs[u]) == 1 and len(ins[u]) == 1 and outs[u] != ins[u])
                for u in range(n)]
    chains, core = _chains(outs, two_way, on_chain)
    dist = np.empty((n, n))
    dist[core] = _core_rows(g, w, chains, core)
    for nodes in chains:
        _chain_rows(w, nodes, dist)
    return dist


def _along(w, nodes):
    """Costs along the chain ``nodes`` (A, inner..., B): from A to each node, and from each
    node back to A (inf where one-way)."""
    idx = np.array(nodes, dtype=np.int64)
    ahead = np.concatenate(([0.0], np.cumsum(w[idx[:-1], idx[1:]])))
    back = np.concatenate(([0.0], np.cumsum(w[idx[1:], idx[:-1]])))
    return ahead, back


def _core_rows(g, w, chains, core) -> np.ndarray:
    """The rows of the nodes off the chains: Dijkstra on those nodes alone, each chain one road
    between its ends (both ways where it is two-way), then each chain's inner nodes reached
    from its ends (a route from outside a chain enters it at an end)."""
    n, m = g.shape[0], len(core)
    cidx = np.full(n, -1, dtype=np.int64)
    cidx[core] = np.arange(m)
    coo = g.tocoo()
    keep = (cidx[coo.row] >= 0) & (cidx[coo.col] >= 0)
    src, dst, cost = [cidx[coo.row[keep]]], [cidx[coo.col[keep]]], [coo.data[keep]]
    along = [_along(w, nodes) for nodes in chains]
    for nodes, (ahead, back) in zip(chains, along):
        a, b = cidx[nodes[0]], cidx[nodes[-1]]
        if a != b:   # a ring back to its end shortens no route between ends
            src.append([a, b]), dst.append([b, a]), cost.append([ahead[-1], back[-1]])
    src, dst, cost = (np.concatenate(x) for x in (src, dst, cost))
    ok = np.isfinite(cost)
    src, dst, cost = src[ok], dst[ok], cost[ok]
    order = np.lexsort((cost, dst, src))       # parallel roads: the cheapest (CSR would sum)
    src, dst, cost = src[order], dst[order], cost[order]
    first = np.ones(len(src), dtype=bool)
    first[1:] = (src[1:] != src[:-1]) | (dst[1:] != dst[:-1])
    rows = np.empty((m, n))
    rows[:, core] = dijkstra(sp.csr_matrix((cost[first], (src[first], dst[first])), shape=(m, m)))
    for nodes, (ahead, back) in zip(chains, along):
        inner = np.array(nodes[1:-1], dtype=np.int64)
        with np.errstate(invalid="ignore"):   # one-way: inf - inf where there is no way back
            from_b = np.where(np.isfinite(back[-1]), back[-1] - back[1:-1], np.inf)
        rows[:, inner] = np.minimum(rows[:, [nodes[0]]] + ahead[1:-1],
                                    rows[:, [nodes[-1]]] + from_b)
    return rows


def _chains(outs, two_way, on_chain):
    """The chains as node lists from end A to end B (both off the chains; A may be B), and the
    nodes off the chains (a ring of chain nodes alone gets one of them taken off)."""
    n = len(outs)
    core = [u for u in range(n) if not on_chain[u]]
    done = np.zeros(n, dtype=bool)
    chains, start = [], 0
    while True:
        for a in core[start:]:
            for v in sorted(outs[a]):
                if not on_chain[v] or done[v]:
                    continue
                nodes, prev = [a], a
                while on_chain[v] and not done[v]:
                    done[v] = True
                    nodes.append(v)
                    nxt = min(outs[v] - {prev}) if two_way[v] else min(outs[v])
                    prev, v = v, nxt
                nodes.append(v)
                chains.append(nodes)
        start = len(core)
        left = np.flatnonzero(np.array(on_chain) & ~done)
        if not len(left):
            return chains, np.array(sorted(core), dtype=np.int64)
        core.append(int(left[0]))           # a ring: one of its nodes is an end
        on_chain[int(left[0])] = False


def _chain_rows(w, nodes, dist) -> None:
    """Rows of the chain's inner nodes from its ends' rows (see the module docstring)."""
    a, b, inner = nodes[0], nodes[-1], np.array(nodes[1:-1], dtype=np.int64)
    ahead, back = _along(w, nodes)
    to_b = ahead[-1] - ahead[1:-1]
    to_a = back[1:-1]
    rows = np.minimum(to_a[:, None] + dist[a], to_b[:, None] + dist[b])
    k = len(inner)
    i, j = np.meshgrid(np.arange(1, k + 1), np.arange(1, k + 1), indexing="ij")
    with np.errstate(invalid="ignore"):   # one-way: inf - inf where there is no way back
        along = np.where(j > i, ahead[j] - ahead[i], np.where(j < i, back[i] - back[j], 0.0))
    rows[:, inner] = np.minimum(rows[:, inner], np.where(np.isnan(along), np.inf, along))
    dist[inner] = rows
