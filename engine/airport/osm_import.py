"""An airport layout from OpenStreetMap data (``python main.py airport import-osm``).

What comes from the data, and what is inferred (docs/real-data.md says why; every node and road
carries its ``source``, and the report lists every inferred choice):

- stands: ``aeroway=parking_position`` (node, or the middle of its way) and ``aeroway=gate``
  nodes become gate nodes named by their ``ref``; a gate with a stand's ref is that stand;
- roads: ``highway=service`` ways inside the aerodrome (``aeroway=aerodrome``, else within
  ``AREA_M`` of the stands) are real; where there are none, roads are inferred along the
  ``aeroway=taxilane`` ways and round the outlines of the ``aeroway=apron`` areas. A junction at
  least every ``STEP_M``; road pieces no stand or bag room uses are left out; the pieces left are
  joined by the shortest inferred links; each stand, bag room and depot gets an inferred connector
  to its nearest road node;
- sort stations: buildings whose name says baggage; else one bag room at each named terminal
  (``aeroway=terminal``/``building=terminal``) with a stand within ``TERMINAL_REACH_M``; else
  one at the stands' middle; a tug depot beside each sort station, ``DEPOT_OFFSET_M`` out;
- tugs: ``TUGS_PER_STAND`` a stand, shared over the depots, the bundled airports' tug.

Positions are metres east/north of the stands' mean on a local equirectangular projection (a
few centimetres off over an airport's few kilometres).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from pathlib import Path

import networkx as nx
import numpy as np
from scipy.spatial import cKDTree

from .builder import CARTS, KMH_SERVICE, KMH_STAND, TUG_CAPACITY, TUG_SPEED_MPS
from .layout import Airport, Fleet, Node, Road, ScheduleParams
from .layout_io import MAX_NODES, LayoutError, airport_from_dict, airport_to_dict
from .osm_read import OsmData, OsmError, read_osm

EARTH_RADIUS_M = 6_371_008.8
STEP_M = 80.0               # a road junction at least every this many metres
AREA_M = 1500.0             # without an aerodrome outline: service roads this near a stand
TERMINAL_REACH_M = 300.0    # a terminal gets a bag room when a stand is this near it
DEPOT_OFFSET_M = 25.0       # a depot stands this far beyond its bag room's road node
TUGS_PER_STAND = 2
BAG_NAME = re.compile(r"bag(gage)?[ -]?(hall|room|sort|basement|build)|baggage|bagage|gep[äa]ck|"
                      r"equipaje", re.IGNORECASE)
INFERRED = "inferred: "


@dataclass
class ImportReport:
    """What the import found, inferred and dropped; ``lines()`` is the printed report."""
    file: str
    found: list[str] = field(default_factory=list)
    inferred: list[str] = field(default_factory=list)
    dropped: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        out = [f"Imported {self.file}"]
        for title, items in (("From the data", self.found), ("Inferred (source \"inferred: ...\" "
                             "in the file; edit them there)", self.inferred),
                             ("Left out", self.dropped)):
            out.append(f"{title}: {len(items)}")
            out += [f"  - {line}" for line in items]
        return out


class _Net:
    """Nodes and two-way roads being assembled, with lengths from positions."""

    def __init__(self):
        self.nodes: dict[str, Node] = {}
        self.roads: dict[tuple[str, str], Road] = {}

    def node(self, node_id, kind, x, y, name=None, source="") -> str:
        if node_id not in self.nodes:
            self.nodes[node_id] = Node(node_id, kind, name or node_id, round(x, 1), round(y, 1), source)
        return node_id

    def road(self, a, b, kmh, source) -> None:
        if a == b or (a, b) in self.roads or (b, a) in self.roads:
            return
        na, nb = self.nodes[a], self.nodes[b]
        length = round(math.hypot(na.x - nb.x, na.y - nb.y), 1)
        self.roads[(a, b)] = Road(a, b, length, max(0.1, round(length / (kmh / 3.6), 1)), False, source)

    def graph(self) -> nx.Graph:
        g = nx.Graph()
        g.add_nodes_from(self.nodes)
        g.add_edges_from(self.roads)
        return g

    def drop(self, ids) -> None:
        ids = set(ids)
        for i in ids:
            del self.nodes[i]
        self.roads = {k: r for k, r in self.roads.items() if not ids & set(k)}


def import_osm(path, name: str | None = None, schedule: ScheduleParams = ScheduleParams(),
               tugs_per_stand: float = TUGS_PER_STAND) -> tuple[Airport, ImportReport]:
    """The airport in the OSM file ``path`` and its import report; ``OsmError`` if the file
    cannot be read or holds no stands or roads to build one from."""
    path = Path(path)
    data = read_osm(path)
    report = ImportReport(str(path))
    stands = _stands(data, report)
    if not stands:
        raise OsmError(path, ["the file: no stand (aeroway=parking_position) or gate "
                              "(aeroway=gate) with a ref; nothing to import"])
    lat0 = float(np.mean([s[1] for s in stands]))
    lon0 = float(np.mean([s[2] for s in stands]))
    scale = math.radians(1.0) * EARTH_RADIUS_M

    def xy(lat, lon):
        return (lon - lon0) * scale * math.cos(math.radians(lat0)), (lat - lat0) * scale

    net = _Net()
    for ref, lat, lon, source in stands:
        net.node(ref, "gate", *xy(lat, lon), source=source)
    stand_ids = list(net.nodes)
    stand_xy = np.array([[net.nodes[s].x, net.nodes[s].y] for s in stand_ids])
    if not _roads(data, net, xy, stand_xy, report, path):
        raise OsmError(path, ["the file: no roads to build from (no highway=service, "
                              "aeroway=taxilane or aeroway=apron ways with located points)"])
    rooms = _bag_rooms(data, xy, stand_xy, report)
    road_ids = [i for i, n in net.nodes.items() if n.kind == "junction"]
    tree = cKDTree(np.array([[net.nodes[i].x, net.nodes[i].y] for i in road_ids]))
    attach = {road_ids[k] for k in tree.query(stand_xy)[1]}
    attach |= {road_ids[k] for k in tree.query([(x, y) for _, x, y, _ in rooms])[1]}
    _keep_used_pieces(net, attach, report)
    _join_pieces(net, report)
    road_ids = [i for i, n in net.nodes.items() if n.kind == "junction"]
    tree = cKDTree(np.array([[net.nodes[i].x, net.nodes[i].y] for i in road_ids]))
    for s, k in zip(stand_ids, tree.query(stand_xy)[1]):
        net.road(s, road_ids[k], KMH_STAND, INFERRED + "stand connector to the nearest road")
    report.inferred.append(f"{len(stand_ids)} stand connectors, each stand to its nearest road "
                           f"node at {KMH_STAND:g} km/h")
    depots = _place_rooms(net, rooms, road_ids, tree, report)
    _prune_dead_ends(net)
    per_depot = max(1, math.ceil(tugs_per_stand * len(stand_ids) / len(depots)))
    fleets = [Fleet(d, per_depot, TUG_CAPACITY, TUG_SPEED_MPS, CARTS) for d in depots]
    report.inferred.append(f"fleets: {per_depot} tugs at each of {len(depots)} depots "
                           f"({tugs_per_stand:g} a stand), {TUG_CAPACITY} bags, {CARTS} carts, "
                           f"{TUG_SPEED_MPS:g} m/s")
    return _validated(path, net, data, name, fleets, schedule, report), report


def _stands(data: OsmData, report: ImportReport) -> list[tuple[str, float, float, str]]:
    """(ref, lat, lon, source) of every stand, then every gate whose ref no stand has."""
    found: dict[str, str] = {}
    out, merged = [], 0
    features = [(n.tags, n.lat, n.lon, f"osm node {n.id}") for n in data.nodes]
    features += [(w.tags, *_middle(w.points), f"osm way {w.id}") for w in data.ways]
    for wanted in ("parking_position", "gate"):
        for tags, lat, lon, where in features:
            if tags.get("aeroway") != wanted:
                continue
            ref = tags.get("ref", "").strip()
            if not ref:
                report.dropped.append(f"{where} (aeroway={wanted}): no ref to name it by")
            elif ref in found:
                if wanted == "gate" and found[ref].endswith("parking_position)"):
                    merged += 1
                else:
                    report.dropped.append(f"{where} (aeroway={wanted}): ref {ref!r} already "
                                          f"taken by {found[ref]}")
            else:
                found[ref] = f"{where} (aeroway={wanted})"
                out.append((ref, lat, lon, found[ref]))
    kinds = [s[3].rsplit("=", 1)[1].rstrip(")") for s in out]
    report.found.append(f"{kinds.count('parking_position')} stands (aeroway=parking_position) "
                        f"and {kinds.count('gate')} gates without a stand of their ref "
                        f"(aeroway=gate): gate nodes named by ref; {merged} gates share a "
                        "stand's ref and are that stand")
    return out


def _middle(points) -> tuple[float, float]:
    _, lat, lon = points[len(points) // 2] if len(points) > 2 else (0, *np.mean(
        [(p[1], p[2]) for p in points], axis=0))
    return float(lat), float(lon)


def _closed(w) -> bool:
    return len(w.points) >= 4 and w.points[0][0] == w.points[-1][0]


def _roads(data, net: _Net, xy, stand_xy, report, path) -> bool:
    """Roads from service ways inside the aerodrome, else inferred along taxilanes and apron
    edges; a junction at least every ``STEP_M``. False when there is nothing to build from;
    ``OsmError`` when the roads are too long for a layout's ``MAX_NODES``."""
    inside = _inside_aerodrome(data, xy, stand_xy, report)
    service = [w for w in data.ways if w.tags.get("highway") == "service"
               and any(inside(*xy(lat, lon)) for _, lat, lon in w.points)]
    if service:
        ways = [(w, f"osm way {w.id} (highway=service)") for w in service]
        report.found.append(f"{len(service)} service roads (highway=service) inside the aerodrome")
    else:
        ways = [(w, INFERRED + f"along taxilane osm way {w.id}") for w in data.ways
                if w.tags.get("aeroway") == "taxilane"]
        ways += [(w, INFERRED + f"round the edge of apron osm way {w.id}") for w in data.ways
                 if w.tags.get("aeroway") == "apron" and _closed(w)]
        report.inferred.append(f"roads: the file has no highway=service ways inside the "
                               f"aerodrome, so {len(ways)} roads run along the taxilanes and "
                               f"round the apron outlines at {KMH_SERVICE:g} km/h")
    lengths = [math.dist(xy(*p[1:]), xy(*q[1:])) for w, _ in ways for p, q in zip(w.points, w.points[1:])]
    if sum(lengths) / STEP_M > MAX_NODES:
        raise OsmError(path, [f"the file: its roads run {sum(lengths) / 1000:,.0f} km, more than "
                              f"the {MAX_NODES * STEP_M / 1000:,.0f} km a layout's {MAX_NODES:,} "
                              f"nodes cover at one every {STEP_M:g} m"])
    made = 0
    for w, source in ways:
        ids = []
        for ref, lat, lon in w.points:
            x, y = xy(lat, lon)
            ids.append(net.node(f"n{ref}" if ref > 0 else f"p{x:.0f},{y:.0f}", "junction", x, y,
                                source=source))
        for a, b in zip(ids, ids[1:]):
            pa, pb = net.nodes[a], net.nodes[b]
            parts = max(1, math.ceil(math.hypot(pb.x - pa.x, pb.y - pa.y) / STEP_M))
            chain = [a] + [net.node(f"{a}-{b}.{k}", "junction", pa.x + (pb.x - pa.x) * k / parts,
                                    pa.y + (pb.y - pa.y) * k / parts, source=source)
                           for k in range(1, parts)] + [b]
            for u, v in zip(chain, chain[1:]):
                net.road(u, v, KMH_SERVICE, source)
                made += 1
    return made > 0


def _inside_aerodrome(data, xy, stand_xy, report):
    """A test (x, y) -> bool: inside an ``aeroway=aerodrome`` outline, else near a stand."""
    from matplotlib.path import Path as Outline
    outlines = [Outline([xy(lat, lon) for _, lat, lon in w.points]) for w in data.ways
                if w.tags.get("aeroway") == "aerodrome" and _closed(w)]
    if outlines:
        return lambda x, y: any(o.contains_point((x, y)) for o in outlines)
    tree = cKDTree(stand_xy)
    if any(w.tags.get("highway") == "service" for w in data.ways):
        report.inferred.append(f"aerodrome: no aeroway=aerodrome outline, so service roads "
                               f"within {AREA_M:g} m of a stand count as inside")
    return lambda x, y: tree.query((x, y))[0] <= AREA_M


def _bag_rooms(data, xy, stand_xy, report) -> list[tuple[str, float, float, str]]:
    """(name, x, y, source) of each sort station: baggage buildings, else named terminals near
    a stand, else the stands' middle."""
    places = [(n.tags, [(n.lat, n.lon)], f"osm node {n.id}") for n in data.nodes]
    places += [(w.tags, [(p[1], p[2]) for p in w.points], f"osm way {w.id}") for w in data.ways]
    bags = [(t, pts, where) for t, pts, where in places if BAG_NAME.search(t.get("name", ""))]
    if bags:
        report.found.append(f"{len(bags)} baggage buildings (by name): a sort station each")
        return [(t["name"], *np.mean([xy(*p) for p in pts], axis=0), f"{where} (name "
                 f"{t['name']!r})") for t, pts, where in bags]
    tree = cKDTree(stand_xy)
    rooms = []
    for t, pts, where in places:
        label = t.get("name") or t.get("ref")
        if "terminal" not in (t.get("aeroway"), t.get("building")) or len(pts) < 3:
            continue
        corners = np.array([xy(*p) for p in pts])
        why = ("no name or ref" if not label else f"no stand within {TERMINAL_REACH_M:g} m"
               if tree.query(corners)[0].min() > TERMINAL_REACH_M else "")
        if why:
            report.dropped.append(f"terminal {where}: {why}, so no bag room")
            continue
        x, y = corners.mean(axis=0)
        rooms.append((label, x, y, INFERRED + f"bag room of terminal {label!r} ({where}), at "
                      "its middle"))
    if not rooms:
        x, y = stand_xy.mean(axis=0)
        rooms.append(("Stands", x, y, INFERRED + "bag room at the middle of the stands (no "
                      "terminal or baggage building in the file)"))
    for label, x, y, source in rooms:
        report.inferred.append(f"sort station {label!r} at ({x:.0f}, {y:.0f}) m: "
                               f"{source[len(INFERRED):]}")
    return rooms


def _keep_used_pieces(net: _Net, attach: set, report) -> None:
    """Drop road pieces (connected parts) that no stand or bag room is nearest to."""
    unused = [c for c in nx.connected_components(net.graph())
              if not c & attach and all(net.nodes[i].kind == "junction" for i in c)]
    for c in unused:
        net.drop(c)
    if unused:
        report.dropped.append(f"{len(unused)} road pieces ({sum(map(len, unused))} road nodes) "
                              "that no stand or bag room is nearest to")


def _join_pieces(net: _Net, report) -> None:
    """Join the road pieces into one network, each time by every piece's shortest link to
    another (Borůvka's rule: the links form a minimum spanning tree of the pieces)."""
    while True:
        pieces = [sorted(c) for c in nx.connected_components(net.graph())]
        if len(pieces) <= 1:
            return
        pieces.sort(key=lambda c: c[0])
        links = set()
        for k, piece in enumerate(pieces):
            others = [i for j, c in enumerate(pieces) if j != k for i in c]
            tree = cKDTree(np.array([[net.nodes[i].x, net.nodes[i].y] for i in others]))
            dist, near = tree.query(np.array([[net.nodes[i].x, net.nodes[i].y] for i in piece]))
            best = int(np.argmin(dist))
            links.add(tuple(sorted((piece[best], others[near[best]]))))
        for a, b in sorted(links):
            net.road(a, b, KMH_SERVICE, INFERRED + "link joining two road pieces")
            report.inferred.append(f"link {a} - {b} ({net.roads[(a, b)].length_m:g} m) joining "
                                   "two road pieces")


def _place_rooms(net: _Net, rooms, road_ids, tree, report) -> list[str]:
    """Sort stations joined to their nearest road node, a tug depot beside each; the depots."""
    depots = []
    for k, (label, x, y, source) in enumerate(rooms, start=1):
        sort = net.node(f"SORT-{k}", "sort", x, y, f"{label} bag room", source)
        near = road_ids[int(tree.query((x, y))[1])]
        net.road(sort, near, KMH_STAND, INFERRED + "bag room connector to the nearest road")
        rx, ry = net.nodes[near].x, net.nodes[near].y
        d = math.hypot(rx - x, ry - y) or 1.0
        depot = net.node(f"DEPOT-{k}", "depot", rx + (rx - x) / d * DEPOT_OFFSET_M,
                         ry + (ry - y) / d * DEPOT_OFFSET_M, f"Tug depot {label}",
                         INFERRED + f"tug depot beside the bag room of {label!r}")
        net.road(depot, near, KMH_SERVICE, INFERRED + "depot connector")
        depots.append(depot)
        report.inferred.append(f"tug depot {depot} beside sort station {sort} ({label!r}), "
                               f"{DEPOT_OFFSET_M:g} m beyond its road node {near}")
    return depots


def _prune_dead_ends(net: _Net) -> None:
    """Remove road nodes at dead ends, again and again: no tug has a reason to drive there."""
    g = net.graph()
    ends = [i for i in g if g.degree(i) <= 1 and net.nodes[i].kind == "junction"]
    while ends:
        nxt = set()
        for i in ends:
            nxt.update(g.neighbors(i))
            g.remove_node(i)
        net.drop(ends)
        ends = [i for i in nxt if i in g and g.degree(i) <= 1 and net.nodes[i].kind == "junction"]


def _validated(path, net: _Net, data: OsmData, name, fleets, schedule, report) -> Airport:
    aerodrome = next((t for t in [n.tags for n in data.nodes] + [w.tags for w in data.ways]
                      if t.get("aeroway") == "aerodrome"), {})
    label = name or aerodrome.get("name") or aerodrome.get("icao") or path.stem
    kinds = ("gate", "sort", "depot", "junction")
    nodes = sorted(net.nodes.values(), key=lambda n: kinds.index(n.kind))
    real = sum(not r.source.startswith(INFERRED) for r in net.roads.values())
    airport = Airport(
        label,
        f"Imported from OpenStreetMap ({path.name}) by `python main.py airport import-osm`: "
        f"{sum(n.kind == 'gate' for n in nodes)} stands, {len(net.roads)} roads ({real} from "
        f"the data, {len(net.roads) - real} inferred; each road's and node's 'source' says "
        "which). Data © OpenStreetMap contributors, ODbL.",
        f"{label} as mapped in OpenStreetMap; sort stations, depots, tugs and inferred roads by "
        "the rules in docs/real-data.md.",
        nodes, list(net.roads.values()), fleets, {}, schedule)
    try:
        airport = airport_from_dict(airport_to_dict(airport), source=path)
    except LayoutError as exc:
        raise OsmError(path, exc.problems) from None
    report.found.append(f"layout: {len(nodes)} nodes, {len(net.roads)} roads ({real} from the "
                        f"data, {len(net.roads) - real} inferred); {data.skipped_ways} ways without "
                        f"two located points skipped; {data.relations} relations not read")
    return airport
