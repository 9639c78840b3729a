"""Sparse graph families a reader of the graph literature expects, seeded and vectorised, as
edge arrays ``(n, tails, heads, costs)`` that each algorithm family turns into its own graph:
road-like grids (long diameter), GTgraph-style uniform random graphs (short diameter) and R-MAT
(power-law degrees). Costs are integers 1..999."""

import math

import numpy as np

MAX_COST = 999
FAMILIES = ("grid", "uniform", "rmat")


def road_grid_edges(side: int, seed: int = 0, removed: float = 0.1):
    """A side × side grid of two-way roads between 4-neighbours, ``removed`` of the roads
    dropped at random, each road one cost 1..999 in both directions (both directions listed)."""
    rng = np.random.default_rng(seed)
    ids = np.arange(side * side, dtype=np.int64).reshape(side, side)
    a = np.r_[ids[:, :-1].ravel(), ids[:-1, :].ravel()]
    b = np.r_[ids[:, 1:].ravel(), ids[1:, :].ravel()]
    keep = rng.random(len(a)) >= removed
    a, b = a[keep], b[keep]
    cost = rng.integers(1, MAX_COST + 1, len(a))
    return side * side, np.r_[a, b], np.r_[b, a], np.r_[cost, cost]


def uniform_random_edges(n: int, m: int, seed: int = 0):
    """GTgraph's random model: m directed edges with uniform random ends."""
    rng = np.random.default_rng(seed)
    return n, rng.integers(0, n, m), rng.integers(0, n, m), rng.integers(1, MAX_COST + 1, m)


def rmat_edges(scale: int, edge_factor: int = 8, seed: int = 0, abc: tuple = (0.57, 0.19, 0.19)):
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
    return n, perm[rows], perm[cols], rng.integers(1, MAX_COST + 1, m)


def family_edges(family: str, n: int, degree: int, seed: int = 0):
    """(label, edge arrays) of ``family`` at size ``n``: a grid of isqrt(n)², n uniform random
    vertices with degree·n edges, R-MAT of 2^round(log2 n) vertices and degree edges each."""
    if family == "grid":
        side = max(2, math.isqrt(n))
        return f"grid-{side}x{side}", road_grid_edges(side, seed)
    if family == "uniform":
        return f"uniform-{n}-d{degree}", uniform_random_edges(n, degree * n, seed)
    scale = max(1, round(math.log2(max(n, 2))))
    return f"rmat-{scale}-d{degree}", rmat_edges(scale, degree, seed)
