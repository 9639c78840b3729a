"""CPU Kruskal: every edge in (weight, id) order joins two trees or is skipped (union-find with
path halving), Numba-compiled, one thread."""

import time

import numba
import numpy as np

from .result import forest_arrays


def run(g):
    start = time.perf_counter()
    ids = _kruskal(g.n, g.u, g.v, g.key)
    seconds = time.perf_counter() - start
    return forest_arrays(g, ids), seconds, None


@numba.njit(cache=True)
def find(parent, x):
    """The root of x's tree, halving the path on the way."""
    while parent[x] != x:
        parent[x] = parent[parent[x]]
        x = parent[x]
    return x


@numba.njit(cache=True)
def _kruskal(n, u, v, key):
    parent = np.arange(n, dtype=np.int64)
    chosen = np.empty(max(n - 1, 0), np.int64)
    k = 0
    for e in np.argsort(key):  # keys are distinct: any sort gives the (weight, id) order
        if k == n - 1:
            break
        a, b = find(parent, u[e]), find(parent, v[e])
        if a != b:
            parent[max(a, b)] = min(a, b)
            chosen[k] = e
            k += 1
    return np.sort(chosen[:k])
