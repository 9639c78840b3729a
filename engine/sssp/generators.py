"""Sparse graph families a reader of the SSSP literature expects, seeded and vectorised:
road-like grids (long diameter), GTgraph-style uniform random graphs (short diameter) and R-MAT
(power-law degrees). Costs are integers 1..999."""

import numpy as np

from .graph import SparseGraph, _from_edges

MAX_COST = 999


def road_grid(side: int, seed: int = 0, removed: float = 0.1) -> SparseGraph:
    """A side × side grid of two-way roads between 4-neighbours, ``removed`` of the roads
    dropped at random, each road one cost 1..999 in both directions."""
    rng = np.random.default_rng(seed)
    ids = np.arange(side * side, dtype=np.int64).reshape(side, side)
    a = np.r_[ids[:, :-1].ravel(), ids[:-1, :].ravel()]
    b = np.r_[ids[:, 1:].ravel(), ids[1:, :].ravel()]
    keep = rng.random(len(a)) >= removed
    a, b = a[keep], b[keep]
    cost = rng.integers(1, MAX_COST + 1, len(a))
    return _from_edges(side * side, np.r_[a, b], np.r_[b, a], np.r_[cost, cost])


def uniform_random(n: int, m: int, seed: int = 0) -> SparseGraph:
    """GTgraph's random model: m directed edges with uniform random ends (parallel ones merged)."""
    rng = np.random.default_rng(seed)
    return _from_edges(n, rng.integers(0, n, m), rng.integers(0, n, m),
                       rng.integers(1, MAX_COST + 1, m))


def rmat(scale: int, edge_factor: int = 8, seed: int = 0,
         abc: tuple = (0.57, 0.19, 0.19)) -> SparseGraph:
    """R-MAT (Chakrabarti et al., GTgraph/Graph500 parameters): 2^scale vertices, edge_factor
    edges per vertex, each edge's quadrant picked bit by bit with probabilities a, b, c, d."""
    rng = np.random.default_rng(seed)
    n, m = 1 << scale, edge_factor << scale
    a, b, c = abc
    rows = np.zeros(m, np.int64)
    cols = np.zeros(m, np.int64)
    for bit in range(scale):
        r = rng.random(m)
        down = r >= a + b                       # quadrants c and d
        right = ((r >= a) & (r < a + b)) | (r >= a + b + c)  # quadrants b and d
        rows |= down.astype(np.int64) << bit
        cols |= right.astype(np.int64) << bit
    perm = rng.permutation(n)  # hide the recursive structure from vertex ids
    return _from_edges(n, perm[rows], perm[cols], rng.integers(1, MAX_COST + 1, m))
