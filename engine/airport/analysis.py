"""Layout analysis: the least service road that connects every node (the minimum spanning
forest of the road network, road lengths as weights), how much more road the layout has, and the
roads whose closure cuts a gate, sort station or depot off from the rest (bridges).

One-way lanes are taken as two-way here: the question is how much road connects the nodes, not
which way tugs may drive it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import networkx as nx
import numpy as np

from ..mst import EdgeGraph, from_edges, spanning_forest
from .layout import Airport

KEY_KINDS = ("gate", "sort", "depot")


@dataclass
class Bridge:
    road: int                 # index into airport.roads
    a: str                    # its ends (node ids)
    b: str
    length_m: float
    cut_off: list[str]        # the key nodes (gate, sort, depot) on the smaller side
    side_nodes: int           # every node on that side


@dataclass
class LayoutAnalysis:
    airport: str
    nodes: int
    roads: int
    one_way_roads: int        # taken as two-way for this analysis
    layout_m: float           # the length of every road
    minimum_m: float          # the least road that connects what the layout connects
    components: int           # separate road networks (1 when everything connects)
    tree_roads: list[int] = field(default_factory=list)  # indices of the roads in the forest
    bridges: list[Bridge] = field(default_factory=list)
    variant: str = ""
    seconds: float = 0.0
    device: str = ""
    note: str | None = None

    @property
    def extra_fraction(self) -> float:
        """How much more road the layout has than the least that connects it (0.38 = 38 %)."""
        return self.layout_m / self.minimum_m - 1 if self.minimum_m > 0 else 0.0

    def summary(self) -> str:
        joined = ("connects every node" if self.components == 1 else
                  f"connects what the layout connects ({self.components} separate road networks)")
        return (f"the layout has {self.extra_fraction:.0%} more road than the least that {joined}: "
                f"{format_length(self.layout_m)} against {format_length(self.minimum_m)}")

    def to_dict(self) -> dict:
        return {"airport": self.airport, "nodes": self.nodes, "roads": self.roads,
                "one_way_roads_taken_as_two_way": self.one_way_roads, "layout_m": self.layout_m,
                "minimum_m": self.minimum_m, "extra_fraction": self.extra_fraction,
                "components": self.components, "summary": self.summary(),
                "minimum_road_indices": self.tree_roads,
                "bridges": [vars(b) for b in self.bridges],
                "variant": self.variant, "seconds": self.seconds, "device": self.device,
                "note": self.note}


def format_length(metres: float) -> str:
    """A road length as the analysis reports it: metres below a kilometre, else km."""
    return f"{metres:,.0f} m" if abs(metres) < 999.5 else f"{metres / 1000:,.2f} km"


def road_length_graph(airport: Airport) -> EdgeGraph:
    """The road network as an undirected graph, road lengths as weights."""
    index = {n.id: i for i, n in enumerate(airport.nodes)}
    a = np.array([index[r.a] for r in airport.roads], np.int64)
    b = np.array([index[r.b] for r in airport.roads], np.int64)
    return from_edges(len(airport.nodes), a, b, [r.length_m for r in airport.roads])


def analyze_layout(airport: Airport, variant: str = "auto") -> LayoutAnalysis:
    """The minimum service-road network, its length against the layout's, and the bridges."""
    forest = spanning_forest(road_length_graph(airport), variant)
    return LayoutAnalysis(
        airport=airport.name, nodes=len(airport.nodes), roads=len(airport.roads),
        one_way_roads=sum(r.one_way for r in airport.roads),
        layout_m=math.fsum(r.length_m for r in airport.roads), minimum_m=forest.total,
        components=forest.components, tree_roads=_roads_of(airport, forest.edges),
        bridges=key_bridges(airport), variant=forest.variant, seconds=forest.seconds,
        device=forest.device, note=forest.note)


def _roads_of(airport: Airport, edges: np.ndarray) -> list[int]:
    """The road each forest edge is (the shortest road between its two nodes)."""
    index = {n.id: i for i, n in enumerate(airport.nodes)}
    best: dict = {}
    for i, r in enumerate(airport.roads):
        pair = tuple(sorted((index[r.a], index[r.b])))
        if pair not in best or r.length_m < airport.roads[best[pair]].length_m:
            best[pair] = i
    return sorted(best[(int(u), int(v))] for u, v in edges)


def key_bridges(airport: Airport) -> list[Bridge]:
    """Roads whose closure leaves some gate, sort station or depot with no road to the key
    nodes on the other side (a bridge with key nodes on both sides). Parallel roads between
    the same two nodes back each other up, so neither is a bridge."""
    graph = nx.MultiGraph()
    graph.add_nodes_from(n.id for n in airport.nodes)
    for i, r in enumerate(airport.roads):
        if r.a != r.b:
            graph.add_edge(r.a, r.b, key=i)
    kind = {n.id: n.kind for n in airport.nodes}
    out = []
    for a, b in nx.bridges(nx.Graph(graph)):
        if graph.number_of_edges(a, b) > 1:
            continue
        road = next(iter(graph[a][b]))
        graph.remove_edge(a, b, key=road)
        side_a = nx.node_connected_component(graph, a)
        side_b = nx.node_connected_component(graph, b)
        graph.add_edge(a, b, key=road)
        key_a = sorted(x for x in side_a if kind[x] in KEY_KINDS)
        key_b = sorted(x for x in side_b if kind[x] in KEY_KINDS)
        if key_a and key_b:
            small, nodes = (key_a, len(side_a)) if len(key_a) <= len(key_b) else (key_b, len(side_b))
            out.append(Bridge(road, airport.roads[road].a, airport.roads[road].b,
                              airport.roads[road].length_m, small, nodes))
    return sorted(out, key=lambda br: br.road)
