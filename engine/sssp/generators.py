"""The graph families of engine/graph_families as SSSP graphs: road-like grids, GTgraph-style
uniform random graphs and R-MAT. Costs are integers 1..999."""

from .. import graph_families as families
from .graph import SparseGraph, from_edges

MAX_COST = families.MAX_COST


def road_grid(side: int, seed: int = 0, removed: float = 0.1) -> SparseGraph:
    """A side × side grid of two-way roads between 4-neighbours, ``removed`` of the roads
    dropped at random, each road one cost 1..999 in both directions."""
    return from_edges(*families.road_grid_edges(side, seed, removed))


def uniform_random(n: int, m: int, seed: int = 0) -> SparseGraph:
    """GTgraph's random model: m directed edges with uniform random ends (parallel ones merged)."""
    return from_edges(*families.uniform_random_edges(n, m, seed))


def rmat(scale: int, edge_factor: int = 8, seed: int = 0, abc: tuple = (0.57, 0.19, 0.19)) -> SparseGraph:
    """R-MAT 2^scale vertices, edge_factor edges per vertex (see graph_families.rmat_edges)."""
    return from_edges(*families.rmat_edges(scale, edge_factor, seed, abc))


def family_graph(family: str, n: int, degree: int, seed: int = 0):
    """(label, SparseGraph) of ``family`` at size ``n`` (graph_families.family_edges)."""
    label, edges = families.family_edges(family, n, degree, seed)
    return label, from_edges(*edges)
