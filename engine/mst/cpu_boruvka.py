"""CPU Borůvka: each round, every component's lightest edge out joins it to another; found in
parallel over vertices (each vertex's lightest edge out of its component) then over components,
the joins made as in the seed (mutual pairs broken at the smaller id, roots by pointer jumping).
Numba-compiled, all cores.

Each phase is a function of its own: Numba fuses adjacent parallel loops over the same range,
and these phases read what the previous one wrote for other indices.
"""

import time

import numba
import numpy as np

from .result import forest_arrays

NONE = -1


def run(g):
    indptr, neighbour, edge = g.adjacency()
    start = time.perf_counter()
    ids = _boruvka(g.n, indptr, neighbour, edge, g.u, g.v, g.key)
    seconds = time.perf_counter() - start
    return forest_arrays(g, ids), seconds, None


@numba.njit(cache=True)
def _boruvka(n, indptr, neighbour, edge, u, v, key):
    component = np.arange(n, dtype=np.int64)
    in_forest = np.zeros(len(u), np.bool_)
    while True:
        lightest = _lightest_per_vertex(component, indptr, neighbour, edge, key)
        start, members = _members(component)
        successor = _lightest_per_component(component, lightest, start, members, u, v, key, in_forest)
        if (successor == np.arange(n)).all():  # no component has an edge out: done
            break
        _break_mutual_pairs(successor)
        _relabel(component, _roots(successor))
    return np.flatnonzero(in_forest).astype(np.int64)


@numba.njit(cache=True, parallel=True)
def _lightest_per_vertex(component, indptr, neighbour, edge, key):
    """Each vertex's lightest edge leaving its component, or NONE."""
    lightest = np.empty(len(component), np.int64)
    for x in numba.prange(len(component)):
        best = NONE
        for j in range(indptr[x], indptr[x + 1]):
            e = edge[j]
            if component[neighbour[j]] != component[x] and (best == NONE or key[e] < key[best]):
                best = e
        lightest[x] = best
    return lightest


@numba.njit(cache=True, parallel=True)
def _lightest_per_component(component, lightest, start, members, u, v, key, in_forest):
    """Each component's lightest edge out (over its members), marked in the forest; returns the
    successor of each component (the one that edge leads to; itself when it has none)."""
    n = len(component)
    successor = np.empty(n, np.int64)
    for c in numba.prange(n):
        best = NONE
        for i in range(start[c], start[c + 1]):
            e = lightest[members[i]]
            if e != NONE and (best == NONE or key[e] < key[best]):
                best = e
        successor[c] = c
        if best != NONE:
            successor[c] = component[u[best]] + component[v[best]] - c
            in_forest[best] = True
    return successor


@numba.njit(cache=True, parallel=True)
def _break_mutual_pairs(successor):
    """Two components that picked the same edge point at each other: the smaller id is root."""
    for c in numba.prange(len(successor)):
        s = successor[c]
        if s != c and successor[s] == c and c < s:
            successor[c] = c


@numba.njit(cache=True, parallel=True)
def _roots(successor):
    root = np.empty(len(successor), np.int64)
    for c in numba.prange(len(successor)):
        r = np.int64(c)  # prange's index is unsigned: mixed with int64 it would become a float
        while successor[r] != r:
            r = successor[r]
        root[c] = r
    return root


@numba.njit(cache=True, parallel=True)
def _relabel(component, root):
    for x in numba.prange(len(component)):
        component[x] = root[component[x]]


@numba.njit(cache=True)
def _members(component):
    """Vertices grouped by component: members[start[c]:start[c + 1]] belong to c."""
    n = len(component)
    start = np.zeros(n + 1, np.int64)
    for x in range(n):
        start[component[x] + 1] += 1
    for c in range(n):
        start[c + 1] += start[c]
    fill = start[:-1].copy()
    members = np.empty(n, np.int64)
    for x in range(n):
        members[fill[component[x]]] = x
        fill[component[x]] += 1
    return start, members
