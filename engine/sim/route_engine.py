"""The dispatcher's route engine: where its shortest paths come from. Both engines are exact and
walk routes with the same tie-break, so the day is the same whichever runs (only the time the
solves take differs):

- ``all-pairs``: Floyd–Warshall (``engine.apsp``) on the key nodes' condensed graph, solved again
  when the bags change (``KeyGraph``);
- ``from-tugs``: single-source shortest paths (``engine.sssp``) on the full road graph, from the
  nodes where the tugs are, solved again when the bags change (``TugKeyGraph``); a tug asking
  from a node not solved yet gets a solve from there, and a route to a key node reads the
  distances *to* it from a solve on the reversed roads.

The tables solved once (plain travel time, the junction-only graph) are all pairs in both; the
``from-tugs`` engine solves them by SSSP from every vertex with its variant, and the
``all-pairs`` engine's ``auto`` on a road network by Dijkstra (sparse: from every vertex it costs a
fraction of Floyd–Warshall's n³ there, without a GPU; both exact, so the day is the same).
"""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass
from typing import Callable

import numpy as np
import scipy.sparse as sp
from scipy.sparse.csgraph import dijkstra

from ..apsp import dijkstra as dijkstra_apsp, solve as apsp_solve
from ..apsp.solve import AUTO
from ..gpu_device import gpu_unavailable_reason, simulated
from ..sssp import prepare, solve as sssp_solve
from .keygraph import KeyGraph, rows_of
from .kept_tables import solved_once
from .network import RoadNetwork
from .road_all_pairs import road_all_pairs, road_graph

ALL_PAIRS, FROM_TUGS = "all-pairs", "from-tugs"
ENGINES = {ALL_PAIRS: "all pairs on key nodes (Floyd–Warshall)",
           FROM_TUGS: "from the tugs (shortest paths on the full road graph)"}


def check_engine(name: str) -> str:
    if name not in ENGINES:
        raise ValueError(f"route engine must be one of {', '.join(ENGINES)}, got {name!r}")
    return name


def sssp_all_pairs(w: np.ndarray, variant: str):
    """All pairs of the dense matrix ``w`` as SSSP from every vertex (an ``SSSPResult``)."""
    return sssp_solve(w, np.arange(len(w)), variant)


DIJKSTRA = dijkstra_apsp.NAME


@dataclass
class Solved:
    """An all-pairs answer as the tables keep it."""
    dist: np.ndarray | None   # n×n float64, np.inf where unreachable (None: rows kept apart)
    variant: str        # what ran
    seconds: float
    note: str | None = None


def once_all_pairs(w: np.ndarray, variant: str) -> Solved:
    """All pairs of a table solved once with ``variant`` of Floyd–Warshall; ``auto`` on a sparse
    graph with no GPU: Dijkstra (scipy) from the nodes off its chains of roads, the others' rows
    from their chains' ends (``road_all_pairs``; exact, like every variant). Kept for the next
    day on the same roads while ``kept_tables.keeping()`` is on."""
    def solve():
        if not _dijkstra_here(w, variant):
            r = apsp_solve(w, variant)
            return (r.dist,), Solved(None, r.variant, r.seconds, r.note)
        start = time.perf_counter()
        dist = road_all_pairs(w)
        return (dist,), Solved(None, DIJKSTRA, time.perf_counter() - start)
    (dist,), r = solved_once("travel-time", variant, (w,), solve)
    return dataclasses.replace(r, dist=dist)


def once_junction_tables(w: np.ndarray, sources: np.ndarray, targets: np.ndarray, variant: str):
    """``KeyGraph``'s junction tables, solved once: as ``once_all_pairs`` decides, Dijkstra from
    the ``sources`` and, on the reversed roads, from the ``targets`` only; else rows of the
    all pairs of ``variant``. Kept as ``once_all_pairs``'s are."""
    def solve():
        if not _dijkstra_here(w, variant):
            dist_from, dist_to, r = rows_of(apsp_solve)(w, sources, targets, variant)
            return (dist_from, dist_to), Solved(None, r.variant, r.seconds, r.note)
        start = time.perf_counter()
        g = road_graph(w)
        dist_from, dist_to = dijkstra(g, indices=sources), dijkstra(g.T.tocsr(), indices=targets)
        return (dist_from, dist_to), Solved(None, DIJKSTRA, time.perf_counter() - start)
    (dist_from, dist_to), r = solved_once("junctions", variant, (w, sources, targets), solve)
    return dist_from, dist_to, r


def _dijkstra_here(w: np.ndarray, variant: str) -> bool:
    n = len(w)
    return (variant == AUTO and (simulated() or gpu_unavailable_reason() is not None)
            and dijkstra_apsp.sparse(n, np.count_nonzero(w != np.inf)))


def all_pairs_solver(engine: str) -> Callable:
    """``solve(w, variant)`` of the engine's family for the tables solved once."""
    return sssp_all_pairs if check_engine(engine) == FROM_TUGS else once_all_pairs


def variants_of(engine: str) -> list:
    """The registry variants of the engine's family (Floyd–Warshall or SSSP)."""
    if check_engine(engine) == FROM_TUGS:
        from ..sssp import variants
    else:
        from ..apsp import variants
    return variants()


_WARM_UP = np.array([[0, 1, np.inf], [np.inf, 0, 1], [1, np.inf, 0]])


def warm_up(engine: str, variant: str) -> None:
    """JIT-compile ``variant`` of the engine's family on a 3-vertex graph (outside a timing)."""
    all_pairs_solver(engine)(_WARM_UP, variant)


def solve_sizes(engine: str, keys: KeyGraph) -> tuple[str, tuple[int, ...]]:
    """The family and the graph sizes the engine's solves of a day take (``variant_warmup``)."""
    if check_engine(engine) == FROM_TUGS:
        return "sssp", (keys.net.n,)
    return "apsp", (len(keys.key_nodes), len(keys.junctions))


def key_graph(engine: str, net: RoadNetwork, key: np.ndarray, variant: str,
              tug_nodes: Callable[[], np.ndarray]) -> KeyGraph:
    if check_engine(engine) == FROM_TUGS:
        return TugKeyGraph(net, key, variant, tug_nodes)
    return KeyGraph(net, key, variant, junction_tables=once_junction_tables)


class TugKeyGraph(KeyGraph):
    """``KeyGraph``'s answers from SSSP on the full road graph: distances from a tug's node are a
    row of a solve from the tugs; a route walks the condensed graph (the loop's
    ``routes.bag_route``, on ``k_w``) on the distances to its end from a solve on the reversed
    roads (``dist_to_key``)."""

    def __init__(self, net: RoadNetwork, key: np.ndarray, variant: str,
                 tug_nodes: Callable[[], np.ndarray]):
        super().__init__(net, key, variant, junction_tables=rows_of(sssp_all_pairs))
        self.tug_nodes = tug_nodes
        self.variant = variant
        self.graph = self.sources = self.k_w = None
        self._from: dict[int, np.ndarray] = {}   # node -> bag-aware distances from it (all n)
        self._to: dict[int, np.ndarray] = {}     # key index -> distances to it from key nodes

    def _update(self, counts: np.ndarray, variant: str):
        w = self.condense(counts)
        start = time.perf_counter()
        e = self.net.edges
        self.graph = prepare(sp.csr_matrix((w, (e.src, e.dst)), shape=(e.n, e.n)))
        self.k_w = np.ascontiguousarray(self.wk, dtype=np.float64).ravel()[self.k_flat]
        self.build_seconds += time.perf_counter() - start
        self._from, self._to = {}, {}
        self.sources = np.unique(np.asarray(self.tug_nodes(), dtype=np.int64))
        return self.solve(variant)

    def solve(self, variant: str):
        """SSSP from the tugs' nodes on the bag-aware road graph with ``variant``."""
        self.variant = variant
        r = sssp_solve(self.graph, self.sources, variant)
        self._from.update(zip(self.sources.tolist(), r.dist))
        return r

    def racer(self):
        graph, sources = self.graph, self.sources
        return lambda variant: sssp_solve(graph, sources, variant)

    @property
    def solved(self) -> bool:
        return self.graph is not None

    @property
    def solved_n(self) -> int:
        return self.graph.n

    def dist(self, s: int, nodes: np.ndarray) -> np.ndarray:
        """Bag-aware distances from node ``s`` to ``nodes`` (deciseconds)."""
        if s not in self._from:  # the tug stands where no solve started: solve from there
            self._from[s] = sssp_solve(self.graph, [s], self.variant).dist[0]
        return self._from[s][nodes]

    def dist_to_key(self, b: int) -> np.ndarray:
        """Bag-aware distances from every key node to key node number ``b`` (kidx order)."""
        if b not in self._to:
            to = sssp_solve(self.graph.transpose(), [self.key_nodes[b]], self.variant).dist[0]
            self._to[b] = to[self.key_nodes]
        return self._to[b]
