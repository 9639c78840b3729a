"""What both GPU spanning-forest variants share: the graph's device copy (made once, kept on the
graph), the union-find ``find``, and copying the chosen edges back."""

import numpy as np
from numba import cuda

from ..gpu_launch import THREADS, blocks_for

NO_KEY = np.int64(2**63 - 1)  # above every order_keys key: "no edge yet"


def upload(g):
    """(u, v, key) of every edge on the device; copied once and kept on the graph."""
    if "edges" not in g.device:
        g.device["edges"] = tuple(cuda.to_device(a) for a in (g.u, g.v, g.key))
    return g.device["edges"]


def buffer(g, name: str, size: int, dtype):
    """A device array kept on the graph between solves (reallocated when its size changes)."""
    b = g.device.get(("buffer", name))
    if b is None or b.size != size or b.dtype != np.dtype(dtype):
        b = g.device[("buffer", name)] = cuda.device_array(max(size, 1), dtype)
    return b


def halving_rounds(n) -> int:
    """A bound on the host rounds of a Borůvka loop over n vertices: each round joins every tree
    that still has an edge out to another tree, so those trees at least halve and at most
    bit_length(n) − 1 rounds join anything (pointer doubling likewise flattens a tree of depth
    below 2^b in b steps); then one round that finds nothing left, and one to spare."""
    return int(n).bit_length() + 2


def chosen_edges(in_forest) -> np.ndarray:
    """Ascending ids of the edges flagged in ``in_forest`` (a device uint8 array)."""
    return np.flatnonzero(in_forest.copy_to_host()).astype(np.int64)


@cuda.jit
def fill(a, value):
    for i in range(cuda.grid(1), a.size, cuda.gridsize(1)):
        a[i] = value


def fill_with(a, value):
    fill[blocks_for(a.size), THREADS](a, value)


@cuda.jit(device=True)
def find(parent, x):
    """The root of x's tree, halving the path on the way (racing halvings only ever point a
    vertex at an ancestor, so they are safe)."""
    while parent[x] != x:
        grand = parent[parent[x]]
        parent[x] = grand
        x = grand
    return x
