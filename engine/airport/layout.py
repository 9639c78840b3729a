"""The airport as plain data: nodes, service roads, tug fleets and the bags waiting at the start.

No Qt, no I/O: ``layout_io`` reads and writes these objects, ``cost`` turns them into the
matrices Floyd–Warshall solves. Node order in ``Airport.nodes`` is the matrix order.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

KINDS = ("gate", "sort", "depot", "junction")


@dataclass(frozen=True)
class Node:
    id: str
    kind: str      # "gate" | "sort" | "depot" | "junction"
    name: str      # what people call it (a stand name like "A12"); equals id when not given
    x: float       # metres, east
    y: float       # metres, north
    source: str = ""   # where it comes from (an import's "osm node 123" or "inferred: ..."); "" = not said


@dataclass(frozen=True)
class Road:
    a: str
    b: str
    length_m: float
    seconds: float          # travel time a->b (and b->a unless one_way)
    one_way: bool = False
    source: str = ""        # where it comes from (an import's "osm way 45" or "inferred: ..."); "" = not said


def tug_seconds(road: Road, speed_mps: float) -> float:
    """Seconds a tug of top speed ``speed_mps`` needs for ``road``: it never beats its own top
    speed, whatever the road allows."""
    return max(float(road.seconds), float(road.length_m) / speed_mps)


@dataclass(frozen=True)
class Fleet:
    depot: str        # node id where the tugs start (usually a "depot" node)
    count: int        # tugs
    capacity: int     # bags per tug (carts included)
    speed_mps: float  # cruising speed of a loaded tug
    carts: int = 0    # carts a tug tows, each loaded for one flight: a tug carries bags for at
                      # most this many flights at once (0: no such limit)


@dataclass(frozen=True)
class ScheduleParams:
    """How the airport's generated day looks: flight waves, bags per flight, connections. The
    defaults are a generic banked day; a layout file's ``schedule`` overrides any of them."""
    bank_period_s: float = 5400.0       # a wave of arrivals then departures every 90 min
    first_bank_s: float = 1350.0        # the first wave's arrivals start here
    banks: int = 0                      # waves in the day (0: until the day ends)
    gate_use: float = 0.6               # chance a free gate turns an aircraft in a wave
    transfer_mean: float = 10.0         # transfer bags per inbound flight (Poisson mean)
    checkin_mean: float = 12.0          # check-in bags per outbound flight (Poisson mean)
    min_connection_s: float = 1800.0    # shortest legal connection
    max_connection_s: float = 3 * 3600.0
    loading_margin_s: float = 600.0     # bags must be at the gate this long before departure
    unload_min_s: float = 300.0         # transfer bags ready 5-15 min after arrival
    unload_max_s: float = 900.0
    starting_deadline_s: tuple[float, float] = (1800.0, 5400.0)


@dataclass
class Airport:
    name: str
    description: str
    inspired_by: str
    nodes: list[Node]
    roads: list[Road]
    fleets: list[Fleet]
    bags: dict[str, int] = field(default_factory=dict)  # bags waiting per node id at the start
    schedule: ScheduleParams = ScheduleParams()          # how its generated day looks

    # -- lookup --------------------------------------------------------------------------------
    @property
    def node_ids(self) -> list[str]:
        """Node ids in matrix order."""
        return [n.id for n in self.nodes]

    def _positions(self) -> dict[str, int]:
        key = (id(self.nodes), len(self.nodes))
        cached = self.__dict__.get("_index_cache")
        if cached is None or cached[0] != key:
            cached = (key, {n.id: i for i, n in enumerate(self.nodes)})
            self.__dict__["_index_cache"] = cached
        return cached[1]

    def index(self, node_id: str) -> int:
        """Matrix row/column of ``node_id``; KeyError naming it when there is no such node."""
        try:
            return self._positions()[node_id]
        except KeyError:
            raise KeyError(f"no node {node_id!r} in airport {self.name!r}") from None

    def node(self, node_id: str) -> Node:
        return self.nodes[self.index(node_id)]

    def of_kind(self, kind: str) -> list[Node]:
        return [n for n in self.nodes if n.kind == kind]

    def gates(self) -> list[Node]:
        return self.of_kind("gate")

    def sorts(self) -> list[Node]:
        return self.of_kind("sort")

    def depots(self) -> list[Node]:
        return self.of_kind("depot")

    def junctions(self) -> list[Node]:
        return self.of_kind("junction")

    def bag_vector(self) -> np.ndarray:
        """Bags waiting at each node at the start, in node order (int64)."""
        v = np.zeros(len(self.nodes), dtype=np.int64)
        for node_id, count in self.bags.items():
            v[self.index(node_id)] = count
        return v

    def directed_edges(self) -> list[tuple[str, str, float]]:
        """Every drivable (from, to, seconds): each two-way road gives two."""
        out = []
        for r in self.roads:
            out.append((r.a, r.b, r.seconds))
            if not r.one_way:
                out.append((r.b, r.a, r.seconds))
        return out

    def counts(self) -> dict[str, int]:
        """Nodes per kind (every kind listed, zeros included)."""
        c = {k: 0 for k in KINDS}
        for n in self.nodes:
            c[n.kind] = c.get(n.kind, 0) + 1
        return c

    def tugs(self) -> int:
        return sum(f.count for f in self.fleets)

    def __eq__(self, other):  # the caches are not part of the value
        if not isinstance(other, Airport):
            return NotImplemented
        return (self.name, self.description, self.inspired_by, self.nodes, self.roads,
                self.fleets, self.bags, self.schedule) == (
                    other.name, other.description, other.inspired_by, other.nodes, other.roads,
                    other.fleets, other.bags, other.schedule)
