"""References for the spanning-forest tests, built without the engine's own graph code:
awkward random graphs, and their forests by scipy, networkx and a plain Python Kruskal that
breaks ties the documented way (weight, then the (u, v) pair)."""

import math

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
from scipy.sparse.csgraph import connected_components, minimum_spanning_tree


def awkward_edges(n, seed, m=None, weights=(-3, 6)):
    """Random directed entries on n vertices: self-loops, parallel edges both ways with other
    weights, zero and negative integer weights, and the last vertices left isolated."""
    rng = np.random.default_rng(seed)
    m = 2 * n if m is None else m
    reach = max(1, n - 2)  # vertices n-2, n-1 get no edges: the forest has several trees
    rows, cols = rng.integers(0, reach, m), rng.integers(0, reach, m)
    rows[:2], cols[:2] = 0, 0  # a self-loop
    return rows, cols, rng.integers(*weights, m).astype(np.float64)


def as_coo(n, rows, cols, w):
    return sp.coo_matrix((w, (rows, cols)), shape=(n, n))


def cheapest_pairs(rows, cols, w) -> dict:
    """{(a, b): weight} over unordered pairs a < b, the cheapest entry of each, no loops."""
    best = {}
    for r, c, x in zip(rows.tolist(), cols.tolist(), w.tolist()):
        if r != c:
            k = (min(r, c), max(r, c))
            best[k] = min(best.get(k, math.inf), x)
    return best


def kruskal_by_weight_then_pair(n, pairs: dict) -> list:
    parent = list(range(n))

    def find(x):
        while parent[x] != x:
            x = parent[x]
        return x
    forest = []
    for (a, b), x in sorted(pairs.items(), key=lambda item: (item[1], item[0])):
        ra, rb = find(a), find(b)
        if ra != rb:
            parent[max(ra, rb)] = min(ra, rb)
            forest.append((a, b))
    return sorted(forest)


def scipy_total_and_components(n, pairs: dict) -> tuple[float, int]:
    """scipy's forest total; weights shifted above zero first (scipy drops zero entries), which
    moves every spanning forest's total by the same amount."""
    if not pairs:
        return 0.0, n
    shift = 1 - min(pairs.values())
    a, b = np.array(list(pairs)).T
    m = sp.csr_matrix((np.array(list(pairs.values())) + shift, (a, b)), shape=(n, n))
    tree = minimum_spanning_tree(m)
    components = connected_components(m, directed=False)[0]
    return tree.sum() - shift * (n - components), components


def networkx_total(n, pairs: dict) -> float:
    g = nx.Graph()
    g.add_nodes_from(range(n))
    g.add_weighted_edges_from((a, b, x) for (a, b), x in pairs.items())
    return nx.minimum_spanning_tree(g).size(weight="weight")


@pytest.fixture(params=["one launch", "launch pairs"])
def rounds_path(request, monkeypatch):
    """gpu-fast-mst's rounds in one cooperative launch, or as a launch pair each (its fallback)."""
    from engine.mst import gpu_fast
    monkeypatch.setattr(gpu_fast, "PERSISTENT", request.param == "one launch")
    return request.param
