"""A tiny airside scene in OpenStreetMap form, written by the tests themselves as an Overpass JSON
answer, OSM XML or PBF (through pyosmium's writer): three stands (one a way), a gate sharing a
stand's ref, a gate of its own, a stand without a ref, two taxilanes that do not touch, an apron
outline and a named terminal. ``service=True`` adds a service road (real roads)."""

from __future__ import annotations

import json
from pathlib import Path
from xml.sax.saxutils import quoteattr

LAT0, LON0 = 52.30, 4.76
DLAT, DLON = 1 / 111_195.0, 1 / 67_960.0     # about a metre each at this latitude


def at(x: float, y: float) -> tuple[float, float]:
    """(lat, lon) about ``x`` m east and ``y`` m north of the scene's origin."""
    return round(LAT0 + y * DLAT, 7), round(LON0 + x * DLON, 7)


def scene(service: bool = False):
    """(nodes, ways): nodes {id: (lat, lon, tags)}, ways [(id, node ids, tags)]."""
    nodes = {
        1: (*at(0, 60), {"aeroway": "parking_position", "ref": "A1"}),
        2: (*at(60, 60), {"aeroway": "parking_position", "ref": "A2"}),
        3: (*at(0, 90), {"aeroway": "gate", "ref": "A1"}),          # the stand A1's gate
        4: (*at(200, 90), {"aeroway": "gate", "ref": "B7"}),        # a gate with no stand
        5: (*at(400, 60), {"aeroway": "parking_position"}),         # no ref: left out
    }
    plain = {10: (0, 0), 11: (150, 0), 12: (300, 0), 13: (200, 40), 14: (230, 40),
             20: (-50, -50), 21: (350, -50), 22: (350, 130), 23: (-50, 130),
             30: (-20, 100), 31: (260, 100), 32: (260, 160), 33: (-20, 160),
             40: (120, 50), 41: (120, 80), 50: (0, 120), 51: (300, 120)}
    for k, (x, y) in plain.items():
        nodes[k] = (*at(x, y), {})
    ways = [(100, [10, 11, 12], {"aeroway": "taxilane"}),
            (101, [13, 14], {"aeroway": "taxilane"}),                  # touches nothing
            (102, [20, 21, 22, 23, 20], {"aeroway": "apron"}),
            (103, [30, 31, 32, 33, 30], {"aeroway": "terminal", "building": "yes",
                                         "name": "Pier A"}),
            (104, [40, 41], {"aeroway": "parking_position", "ref": "A3"})]
    if service:
        ways.append((105, [50, 51], {"highway": "service", "service": "driveway"}))
    return nodes, ways


def write_overpass_json(path: Path, service: bool = False) -> Path:
    nodes, ways = scene(service)
    elements = [{"type": "node", "id": i, "lat": lat, "lon": lon, **({"tags": t} if t else {})}
                for i, (lat, lon, t) in nodes.items()]
    elements += [{"type": "way", "id": i, "nodes": refs, "tags": t,
                  "geometry": [{"lat": nodes[r][0], "lon": nodes[r][1]} for r in refs]}
                 for i, refs, t in ways]
    path.write_text(json.dumps({"version": 0.6, "elements": elements}), encoding="utf-8")
    return path


def write_osm_xml(path: Path, service: bool = False) -> Path:
    nodes, ways = scene(service)

    def tags(t):
        return "".join(f"<tag k={quoteattr(k)} v={quoteattr(v)}/>" for k, v in t.items())
    lines = ['<?xml version="1.0" encoding="UTF-8"?>', '<osm version="0.6" generator="test">']
    lines += [f'<node id="{i}" version="1" lat="{lat}" lon="{lon}">{tags(t)}</node>'
              for i, (lat, lon, t) in nodes.items()]
    lines += [f'<way id="{i}" version="1">' + "".join(f'<nd ref="{r}"/>' for r in refs)
              + tags(t) + "</way>" for i, refs, t in ways]
    lines.append("</osm>")
    path.write_text("\n".join(lines), encoding="utf-8")
    return path


def write_pbf(path: Path, service: bool = False) -> Path:
    import osmium
    nodes, ways = scene(service)
    writer = osmium.SimpleWriter(str(path))
    try:
        for i, (lat, lon, t) in nodes.items():
            writer.add_node(osmium.osm.mutable.Node(id=i, version=1, location=(lon, lat), tags=t))
        for i, refs, t in ways:
            writer.add_way(osmium.osm.mutable.Way(id=i, version=1, nodes=refs, tags=t))
    finally:
        writer.close()
    return path


WRITERS = {"overpass.json": write_overpass_json, "extract.osm": write_osm_xml,
           "extract.osm.pbf": write_pbf}
