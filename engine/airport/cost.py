"""Cost matrices for Floyd–Warshall: plain travel time, and the paper's bag-aware routing cost.

Both are n×n float64 in node order, integer-valued (``engine.apsp.solve`` needs whole numbers),
``np.inf`` where no road leads directly, 0 on the diagonal.

Travel time is in deciseconds (tenths of a second), rounded, at least 1 per road.

Bag-aware cost (the paper's ``Path_vu = f(bags_v ± bags_u, time_uv)``)::

    cost_uv = max(1, round(time_uv · q ** (bags_u + bags_v)))      q = BAG_DISCOUNT = 0.8

Every bag waiting at either end of a road makes the road look 20 % shorter (multiplicatively):
a road among many bags is worth driving even when it is longer. Costs stay whole numbers >= 1,
so Floyd–Warshall stays valid (no negative edges, no zero-cost cycles) and exact. On ``paper-5``
(bags A1=1, A4=7, A5=4) plain time sends a handler A1 → A5 (30 ds against 70 via A4); the
bag-aware cost sends it A1 → A4 → A5 (2 + 5 = 7 against 10 direct), the paper's 12 bags, not 5.
Why this shape: the paper's example needs a 6 s road (A4→A5, 11 bags at its ends) plus a 1 s road
to beat a 3 s road with 5 bags at its ends, so the discount must more than halve between 5 and 11
bags — an additive bag bonus cannot do it without negative costs, a 1/bags ratio is too weak;
a per-bag factor can, and one number (q) tunes it. ``airports/README.md`` says more.
"""

from __future__ import annotations

import numpy as np

from .layout import Airport

BAG_DISCOUNT = 0.8      # q: each waiting bag at a road's ends multiplies its cost by this
DECISECONDS = 10        # cost units per second of travel


class EdgeArrays:
    """Every drivable direction of every road as numpy arrays, built once per airport."""

    def __init__(self, airport: Airport):
        index = {n.id: i for i, n in enumerate(airport.nodes)}
        src, dst, sec = [], [], []
        for r in airport.roads:
            a, b = index[r.a], index[r.b]
            src.append(a), dst.append(b), sec.append(r.seconds)
            if not r.one_way:
                src.append(b), dst.append(a), sec.append(r.seconds)
        self.n = len(airport.nodes)
        self.src = np.asarray(src, dtype=np.intp)
        self.dst = np.asarray(dst, dtype=np.intp)
        self.deciseconds = np.maximum(1.0, np.rint(np.asarray(sec, dtype=np.float64) * DECISECONDS))
        self.flat = self.src * self.n + self.dst        # where each edge lands in a flat n×n matrix

    def matrix(self, values: np.ndarray) -> np.ndarray:
        """n×n matrix with ``values`` on the edges, inf elsewhere, 0 on the diagonal."""
        m = np.full(self.n * self.n, np.inf)
        m[self.flat] = values
        m[:: self.n + 1] = 0.0
        return m.reshape(self.n, self.n)


def edge_arrays(airport: Airport) -> EdgeArrays:
    """The airport's ``EdgeArrays``, cached on it until its node or road list is replaced or resized."""
    key = (id(airport.nodes), len(airport.nodes), id(airport.roads), len(airport.roads))
    cached = airport.__dict__.get("_edge_cache")
    if cached is None or cached[0] != key:
        cached = (key, EdgeArrays(airport))
        airport.__dict__["_edge_cache"] = cached
    return cached[1]


def travel_time_matrix(airport: Airport) -> np.ndarray:
    """Road travel times in whole deciseconds; inf where no road, 0 on the diagonal."""
    e = edge_arrays(airport)
    return e.matrix(e.deciseconds)


def bag_aware_weights(edges: EdgeArrays, bags: np.ndarray, q: float = BAG_DISCOUNT) -> np.ndarray:
    """Per-edge bag-aware cost: max(1, round(deciseconds · q ** (bags_u + bags_v)))."""
    bags = np.asarray(bags)
    if bags.shape != (edges.n,):
        raise ValueError(f"bags must have one count per node ({edges.n}), got shape {bags.shape}")
    if (bags < 0).any():
        raise ValueError("bags must be >= 0 at every node")
    if not 0.0 < q <= 1.0:
        raise ValueError(f"bag discount q must be in (0, 1], got {q}")
    at_ends = bags[edges.src].astype(np.float64) + bags[edges.dst]
    return np.maximum(1.0, np.rint(edges.deciseconds * np.power(q, at_ends)))


def bag_aware_cost_matrix(airport: Airport, bags: np.ndarray | None = None,
                          q: float = BAG_DISCOUNT) -> np.ndarray:
    """The paper's bag-aware cost for the bags now waiting (per node, node order; default: the
    airport's starting bags). Whole numbers >= 1 on roads, inf elsewhere, 0 on the diagonal."""
    e = edge_arrays(airport)
    if bags is None:
        bags = airport.bag_vector()
    return e.matrix(bag_aware_weights(e, bags, q))
