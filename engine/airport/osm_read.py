"""Read OpenStreetMap data as an Overpass API answer (JSON), OSM XML or ``.osm.pbf``: the tagged
nodes and the ways with their coordinates, nothing else. XML and PBF go through pyosmium
(``osmium``); Overpass JSON through ``json``. Relations are counted, not read.

A way keeps the points whose location is known (from the way itself, as Overpass ``out geom``
gives them, or from its nodes in the file); an extract cut at its edge leaves some out, and a
way left with fewer than two points is skipped and counted. A file that cannot be read at all,
or an element that is not OSM, raises ``OsmError`` naming the file, the element and the problem.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..input_error import MAX_FILE_BYTES, InputError, read_json, shown


class OsmError(InputError):
    """An OSM file that cannot be imported: one "file: item: problem" line per problem."""


@dataclass(frozen=True)
class OsmNode:
    id: int
    lat: float
    lon: float
    tags: dict


@dataclass(frozen=True)
class OsmWay:
    id: int
    tags: dict
    points: list          # [(osm node id, lat, lon)] in way order, located points only


@dataclass
class OsmData:
    nodes: list[OsmNode] = field(default_factory=list)   # tagged nodes
    ways: list[OsmWay] = field(default_factory=list)     # ways of at least two located points
    skipped_ways: int = 0                                # ways with fewer than two located points
    relations: int = 0


def read_osm(path) -> OsmData:
    """The tagged nodes and located ways of the OSM file ``path`` (format from its first byte:
    ``{`` Overpass JSON, ``<`` OSM XML, else PBF)."""
    path = Path(path)
    try:
        size = path.stat().st_size
        with path.open("rb") as f:
            head = f.read(64).lstrip()
    except FileNotFoundError:
        raise OsmError(path, ["the file: does not exist"]) from None
    except (OSError, ValueError) as exc:
        raise OsmError(path, [f"the file: cannot be read ({shown(str(exc))})"]) from None
    if size > MAX_FILE_BYTES:
        raise OsmError(path, [f"the file: {size:,} bytes, more than the {MAX_FILE_BYTES:,} a file "
                              "read here may have"])
    if head.startswith(b"{"):
        return _from_json(read_json(path, OsmError), path)
    return _from_osmium(path, "osm" if head.startswith(b"<") else "pbf")


def _located(lat, lon) -> bool:
    """Both numbers (not booleans) within ±90 and ±180 (NaN, infinities and huge ints are not)."""
    def within(v, most):
        return isinstance(v, (int, float)) and not isinstance(v, bool) and -most <= v <= most
    return within(lat, 90) and within(lon, 180)


def _from_json(doc, path: Path) -> OsmData:
    """An Overpass API JSON answer: ``{"elements": [...]}``, ways with ``geometry`` or ``nodes``."""
    elements = doc.get("elements") if isinstance(doc, dict) else None
    if not isinstance(elements, list):
        raise OsmError(path, ["top level: not an Overpass answer (expected an object with an "
                              "'elements' list)"])
    out, problems, where = OsmData(), [], {}
    raw_ways = []
    for number, e in enumerate(elements, start=1):
        if not isinstance(e, dict):
            problems.append(f"element #{number}: expected an object, got {shown(e)}")
            continue
        kind, osm_id, tags = e.get("type"), e.get("id"), e.get("tags", {})
        item = f"element #{number} ({kind} {shown(osm_id)})"
        if kind not in ("node", "way", "relation", "area"):
            problems.append(f"{item}: unknown type {shown(kind)}")
            continue
        if isinstance(osm_id, bool) or not isinstance(osm_id, int):
            problems.append(f"{item}: 'id' must be a whole number")
            continue
        if not isinstance(tags, dict) or not all(isinstance(v, str) for v in tags.values()):
            problems.append(f"{item}: 'tags' must be an object of text values")
            continue
        if kind == "node":
            lat, lon = e.get("lat"), e.get("lon")
            if not _located(lat, lon):
                problems.append(f"{item}: lat/lon must be numbers within ±90/±180, got "
                                f"{shown(lat)}/{shown(lon)}")
                continue
            where[osm_id] = (float(lat), float(lon))
            if tags:
                out.nodes.append(OsmNode(osm_id, float(lat), float(lon), tags))
        elif kind == "way":
            refs, geometry = e.get("nodes", []), e.get("geometry")
            if not isinstance(refs, list) or not all(isinstance(r, int) and not isinstance(r, bool)
                                                     for r in refs):
                problems.append(f"{item}: 'nodes' must be a list of node ids")
                continue
            if geometry is not None and not isinstance(geometry, list):
                problems.append(f"{item}: 'geometry' must be a list of {{lat, lon}}")
                continue
            raw_ways.append((osm_id, tags, refs, geometry or []))
        elif kind == "relation":
            out.relations += 1
    if problems:
        raise OsmError(path, problems)
    for osm_id, tags, refs, geometry in raw_ways:
        points = []
        for k in range(max(len(refs), len(geometry))):
            ref = refs[k] if k < len(refs) else -(k + 1)          # geometry without node ids
            g = geometry[k] if k < len(geometry) else None
            if isinstance(g, dict) and _located(g.get("lat"), g.get("lon")):
                points.append((ref, float(g["lat"]), float(g["lon"])))
            elif ref in where:
                points.append((ref, *where[ref]))
        _add_way(out, osm_id, tags, points)
    return out


def _add_way(out: OsmData, osm_id: int, tags: dict, points: list) -> None:
    if len(points) >= 2:
        out.ways.append(OsmWay(osm_id, tags, points))
    else:
        out.skipped_ways += 1


def _from_osmium(path: Path, fmt: str) -> OsmData:
    """OSM XML or PBF through pyosmium; way points from the ``nd`` locations (Overpass XML
    ``out geom``) or else from the file's nodes."""
    import osmium
    out, where = OsmData(), {}
    try:
        for o in osmium.FileProcessor(osmium.io.File(str(path), fmt)):
            if o.is_node():
                if not o.location.valid():
                    continue
                where[o.id] = (o.location.lat, o.location.lon)
                if len(o.tags):
                    out.nodes.append(OsmNode(o.id, o.location.lat, o.location.lon,
                                             {t.k: t.v for t in o.tags}))
            elif o.is_way():
                points = []
                for n in o.nodes:
                    if n.location.valid():
                        points.append((n.ref, n.location.lat, n.location.lon))
                    elif n.ref in where:
                        points.append((n.ref, *where[n.ref]))
                _add_way(out, o.id, {t.k: t.v for t in o.tags}, points)
            elif o.is_relation():
                out.relations += 1
    except Exception as exc:  # pyosmium raises RuntimeError (and others) for a damaged file
        what = "OSM XML" if fmt == "osm" else "OSM PBF"
        raise OsmError(path, [f"the file: not readable as {what} ({shown(str(exc))})"]) from None
    return out
