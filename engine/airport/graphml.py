"""GraphML import and export through networkx, so layouts drawn in other tools can come in.

Export writes a directed graph: one edge per road (a -> b) with ``length_m``, ``seconds`` and
``one_way``, ``road`` (its position in the file, so the order survives) and ``source`` when
set; nodes carry ``kind``, ``name``, ``x``, ``y``, ``bags`` and ``source`` when set; the graph carries
``name``, ``description``, ``inspired_by``, ``fleets`` (a JSON list) and ``schedule`` (a JSON
object, when the day differs from the defaults). Import reads that back
unchanged, and is lenient with foreign files: an undirected graph gives two-way roads, a missing
kind is a junction, a missing length is the straight-line distance, missing seconds come from
the default speed, and with no fleets each depot gets a default fleet. Everything then passes the
same validation as a JSON file (``LayoutError``).
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import networkx as nx

from .layout import Airport
from ..input_error import MAX_FILE_BYTES, shown
from .layout_io import LayoutError, airport_from_dict, airport_to_dict

DEFAULT_FLEET = {"count": 4, "capacity": 40, "speed_mps": 5.5}


def airport_to_graph(airport: Airport) -> nx.DiGraph:
    doc = airport_to_dict(airport)
    g = nx.DiGraph(name=airport.name, description=airport.description,
                   inspired_by=airport.inspired_by, fleets=json.dumps(doc["fleets"]))
    if doc["schedule"]:
        g.graph["schedule"] = json.dumps(doc["schedule"])
    for n in airport.nodes:
        g.add_node(n.id, kind=n.kind, name=n.name, x=float(n.x), y=float(n.y),
                   bags=int(airport.bags.get(n.id, 0)), **({"source": n.source} if n.source else {}))
    for i, r in enumerate(airport.roads):
        g.add_edge(r.a, r.b, length_m=float(r.length_m), seconds=float(r.seconds),
                   one_way=bool(r.one_way), road=i, **({"source": r.source} if r.source else {}))
    return g


def save_graphml(airport: Airport, path) -> None:
    nx.write_graphml(airport_to_graph(airport), str(path))


def graph_to_airport(g: nx.Graph, source="<graph>") -> Airport:
    """Build and validate an ``Airport`` from a networkx graph (``LayoutError`` on problems)."""
    directed = g.is_directed()
    nodes, bags, problems = [], {}, []
    for node_id, d in g.nodes(data=True):
        item = {"id": str(node_id), "kind": d.get("kind", "junction"), "name": str(d.get("name", node_id))}
        for key in ("x", "y"):
            if key in d:
                item[key] = _float(d[key])
        if "source" in d:
            item["source"] = d["source"]
        nodes.append(item)
        if d.get("bags"):
            bags[str(node_id)] = _int(d["bags"])
    xy = {n["id"]: (n.get("x"), n.get("y")) for n in nodes}
    roads = []
    edges = list(g.edges(data=True))
    if all("road" in d for _, _, d in edges):   # our own export: keep the file's road order
        edges.sort(key=lambda e: _int(e[2]["road"]) if isinstance(_int(e[2]["road"]), int) else 0)
    for a, b, d in edges:
        a, b = str(a), str(b)
        road = {"a": a, "b": b}
        if "length_m" in d:
            road["length_m"] = _float(d["length_m"])
        elif None not in xy[a] + xy[b] and all(isinstance(v, float) for v in xy[a] + xy[b]):
            road["length_m"] = round(math.dist(xy[a], xy[b]), 1)
        if "seconds" in d:
            road["seconds"] = _float(d["seconds"])
        road["one_way"] = bool(d.get("one_way", False)) if directed else False
        if "source" in d:
            road["source"] = d["source"]
        roads.append(road)
    try:
        fleets = json.loads(g.graph["fleets"]) if "fleets" in g.graph else None
    except (TypeError, ValueError, RecursionError) as exc:
        problems.append(f"graph attribute 'fleets': not a JSON list ({shown(str(exc))})")
        fleets = []
    if fleets is None:
        fleets = [{"depot": n["id"], **DEFAULT_FLEET} for n in nodes if n["kind"] == "depot"]
    try:
        schedule = json.loads(g.graph.get("schedule", "{}"))
    except (TypeError, json.JSONDecodeError) as exc:
        problems.append(f"graph attribute 'schedule': not a JSON object ({exc})")
    if problems:
        raise LayoutError(source, problems)
    doc = {"name": str(g.graph.get("name") or Path(str(source)).stem),
           "description": str(g.graph.get("description", "")),
           "inspired_by": str(g.graph.get("inspired_by", "")),
           "nodes": nodes, "roads": roads, "fleets": fleets, "bags": bags, "schedule": schedule}
    return airport_from_dict(doc, source=source)


def load_graphml(path) -> Airport:
    path = Path(path)
    try:
        if path.stat().st_size > MAX_FILE_BYTES:
            raise LayoutError(path, [f"the file: {path.stat().st_size:,} bytes, more than the "
                                     f"{MAX_FILE_BYTES:,} a layout may have"])
        g = nx.read_graphml(str(path))
    except LayoutError:
        raise
    except Exception as exc:  # networkx raises several kinds for malformed XML
        raise LayoutError(path, [f"the file: not readable as GraphML ({shown(str(exc))})"]) from None
    return graph_to_airport(g, source=path)


def _float(v):
    try:
        return float(v)
    except (TypeError, ValueError, OverflowError):
        return v  # validation names it


def _int(v):
    try:
        return int(v)
    except (TypeError, ValueError, OverflowError):
        return v
