"""What to say about one route: its nodes, travel time, bags on the way, and its cost (no Qt)."""

from __future__ import annotations

import math
from dataclasses import dataclass

TIME = "time"
BAGS = "bags"
COST_MODES = {TIME: "Travel time", BAGS: "Bag-aware"}


@dataclass(frozen=True)
class RouteSummary:
    source: str
    target: str
    nodes: list[str]          # node ids, source..target; [] when unreachable
    cost: float               # solver distance (np.inf when unreachable)
    travel_seconds: float     # sum of road times along the route
    bags: int                 # bags waiting at the nodes of the route

    @property
    def reachable(self) -> bool:
        return bool(self.nodes)

    @property
    def hops(self) -> int:
        return max(len(self.nodes) - 1, 0)


def summarise(airport, result, source: str, target: str) -> RouteSummary:
    """The route ``source``→``target`` in ``result`` (an APSPResult over ``airport``'s nodes)."""
    i, j = airport.index(source), airport.index(target)
    ids = airport.node_ids
    nodes = [ids[k] for k in result.route(i, j)]
    seconds = {}
    for a, b, s in airport.directed_edges():
        seconds[(a, b)] = min(s, seconds.get((a, b), math.inf))
    travel = sum(seconds.get((a, b), math.nan) for a, b in zip(nodes, nodes[1:]))
    bags = sum(int(airport.bags.get(n, 0)) for n in nodes)
    return RouteSummary(source, target, nodes, float(result.dist[i, j]), float(travel), bags)


def format_seconds(seconds: float) -> str:
    """'42 s', '3 min 05 s', '1 h 02 min'."""
    if not math.isfinite(seconds):
        return "—"
    if seconds < 60:
        return f"{seconds:.3g} s" if seconds < 10 and seconds != int(seconds) else f"{seconds:.0f} s"
    total = int(round(seconds))
    if total < 3600:
        m, s = divmod(total, 60)
        return f"{m} min {s:02d} s"
    h, rest = divmod(total, 3600)
    return f"{h} h {rest // 60:02d} min"


def format_cost(cost: float, mode: str) -> str:
    """The solver's distance in words: deciseconds for travel time, plain units for bag-aware."""
    if not math.isfinite(cost):
        return "∞ (no route)"
    if mode == TIME:
        return format_seconds(cost / 10.0)
    return f"{cost:g}"


def format_duration(seconds: float) -> str:
    """A solve time: µs / ms / s."""
    if seconds < 1e-3:
        return f"{seconds * 1e6:.0f} µs"
    if seconds < 1:
        return f"{seconds * 1e3:.2f} ms"
    return f"{seconds:.2f} s"
