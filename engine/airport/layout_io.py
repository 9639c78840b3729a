"""Read, check and write airport layout files (JSON; the format is in ``airports/README.md``).

Loading is pure: it builds a new ``Airport`` or raises ``LayoutError`` listing every problem
found; it never returns a half-loaded airport and never touches one loaded before.
"""

from __future__ import annotations

import json
import math
from collections import deque
from dataclasses import asdict, fields, replace
from pathlib import Path

from ..input_error import InputError, read_json, shown
from .layout import KINDS, Airport, Fleet, Node, Road, ScheduleParams, tug_seconds

FORMAT = "bagroute-airport"
VERSION = 1
DEFAULT_SPEED_KMH = 20.0   # apron service roads: tugs towing carts are limited to ~20-25 km/h

AIRPORTS_DIR = Path(__file__).resolve().parents[2] / "airports"

_TOP_KEYS = {"format", "version", "name", "description", "inspired_by", "default_speed_kmh",
             "nodes", "roads", "fleets", "bags", "schedule"}
_NODE_KEYS = {"id", "kind", "name", "x", "y", "source"}
_ROAD_KEYS = {"a", "b", "length_m", "seconds", "speed_kmh", "one_way", "source"}
_FLEET_KEYS = {"depot", "count", "capacity", "speed_mps", "carts"}
# the generated day's parameters a file may set (engine.airport.layout.ScheduleParams), each in
# a range that keeps a day finite: seconds within a day, at most 1,000 waves or bags a flight
SCHEDULE_KEYS = tuple(f.name for f in fields(ScheduleParams) if f.name != "starting_deadline_s")
_DAY_S = 86400.0
_SCHEDULE_RANGES = {"bank_period_s": (60.0, _DAY_S), "banks": (0.0, 1000.0), "gate_use": (0.0, 1.0),
                    "transfer_mean": (0.0, 1000.0), "checkin_mean": (0.0, 1000.0)}
_ZERO_OK = {"first_bank_s", "banks", "transfer_mean", "checkin_mean", "loading_margin_s",
            "unload_min_s", "unload_max_s"}

# Limits past which a value is refused with its reason rather than simulated into nonsense.
MAX_NODES = 20_000          # an all-pairs matrix of int32 costs: 1.6 GB at this size
MAX_METRES = 1e7            # positions and road lengths: 10,000 km
MAX_TUGS = 10_000           # per fleet
MAX_CAPACITY = 100_000      # bags per tug
MAX_BAGS = 100_000          # bags waiting per node at the start
# Routes are exact int32 deciseconds (engine.apsp.matrix.INF = 2**30 - 1): a simple route's
# time, bounded by every node's slowest road out, must stay below it (about 3.4 years).
MAX_ROUTE_DECISECONDS = 2**30 - 2


class LayoutError(InputError):
    """A layout that cannot be used: ``str()`` gives one "file: item: problem" line each."""


# -- reading -----------------------------------------------------------------------------------

def load_airport(path) -> Airport:
    """Read and validate the airport in ``path``; raise ``LayoutError`` with every problem."""
    path = Path(path)
    return airport_from_dict(read_json(path, LayoutError), source=path)


def airport_from_dict(data, source="<data>") -> Airport:
    """Validate a decoded layout document and build the ``Airport``; ``LayoutError`` otherwise."""
    p: list[str] = []
    if not isinstance(data, dict):
        raise LayoutError(source, ["top level: expected a JSON object {...}"])
    for key in sorted(set(data) - _TOP_KEYS):
        p.append(f"top level: unknown field {key!r}")
    if data.get("format", FORMAT) != FORMAT:
        p.append(f"top level: format is {shown(data.get('format'))}, expected {FORMAT!r}")
    if data.get("version", VERSION) != VERSION:
        p.append(f"top level: version {shown(data.get('version'))} is not supported (expected {VERSION})")
    name = _text(data, "name", "top level", p, required=True)
    description = _text(data, "description", "top level", p)
    inspired_by = _text(data, "inspired_by", "top level", p)
    default_speed = data.get("default_speed_kmh", DEFAULT_SPEED_KMH)
    if not _positive(default_speed):
        p.append(f"top level: default_speed_kmh must be a positive number, got {shown(default_speed)}")
        default_speed = DEFAULT_SPEED_KMH

    nodes = _nodes(data.get("nodes"), p)
    ids = {n.id for n in nodes}
    roads = _roads(data.get("roads"), ids, float(default_speed), p)
    fleets = _fleets(data.get("fleets"), ids, p)
    bags = _bags(data.get("bags", {}), ids, p)
    schedule = schedule_from_dict(data.get("schedule", {}), p)
    if not p:
        _check_reachability(nodes, roads, fleets, p)
    if not p:
        _check_route_times(nodes, roads, fleets, p)
    if p:
        raise LayoutError(source, p)
    return Airport(name=name, description=description, inspired_by=inspired_by,
                   nodes=nodes, roads=roads, fleets=fleets, bags=bags, schedule=schedule)


def _text(obj, key, item, p, required=False) -> str:
    value = obj.get(key)
    if value is None:
        if required:
            p.append(f"{item}: missing {key!r}")
        return ""
    if not isinstance(value, str):
        p.append(f"{item}: {key!r} must be text, got {shown(value)}")
        return ""
    if required and not value.strip():
        p.append(f"{item}: {key!r} is empty")
    return value


def _number(value) -> bool:
    """A finite JSON number (not a boolean; an integer too large for a float is not one)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    return abs(value) < 10**300 if isinstance(value, int) else math.isfinite(value)


def _positive(value) -> bool:
    return _number(value) and value > 0


def _count(value, minimum, maximum=None) -> bool:
    return (isinstance(value, int) and not isinstance(value, bool) and value >= minimum
            and (maximum is None or value <= maximum))


def _list(value, what, p) -> list:
    if value is None:
        p.append(f"top level: missing {what!r} (a list)")
        return []
    if not isinstance(value, list):
        p.append(f"top level: {what!r} must be a list")
        return []
    return value


def _objects(raw: list, noun: str, p):
    """Yield ``(number, obj)`` (number from 1) for each item of ``raw`` that is a JSON object;
    report every other item as "<noun> #<number>: expected an object"."""
    for number, obj in enumerate(raw, start=1):
        if isinstance(obj, dict):
            yield number, obj
        else:
            p.append(f"{noun} #{number}: expected an object, got {shown(obj)}")


class _Item:
    """One node, road or fleet being checked: its problems go to ``p`` as "<label>: <what>",
    and ``ok`` stays True while it has none."""

    def __init__(self, label: str, obj: dict, allowed: set, p: list):
        self.label, self.p, self.ok = label, p, True
        for key in sorted(set(obj) - allowed):
            self.problem(f"unknown field {key!r}")

    def problem(self, what: str) -> None:
        self.p.append(f"{self.label}: {what}")
        self.ok = False


def _nodes(raw, p) -> list[Node]:
    raw = _list(raw, "nodes", p)
    if not raw and "top level: missing 'nodes' (a list)" not in p:
        p.append("top level: 'nodes' is empty; an airport needs at least one node")
    if len(raw) > MAX_NODES:
        p.append(f"top level: {len(raw):,} nodes, more than the {MAX_NODES:,} an all-pairs "
                 "matrix is solved for here")
        return []
    nodes, seen = [], {}
    for number, obj in _objects(raw, "node", p):
        node_id = obj.get("id")
        if not isinstance(node_id, str) or not node_id.strip():
            p.append(f"node #{number}: missing or empty 'id'")
            continue
        item = f"node #{number} ({shown(node_id)})"
        if node_id in seen:
            p.append(f"{item}: duplicate id, already used by node #{seen[node_id]}")
            continue
        seen[node_id] = number
        it = _Item(item, obj, _NODE_KEYS, p)
        kind = obj.get("kind")
        if kind not in KINDS:
            it.problem(f"bad kind {shown(kind)}; expected one of {', '.join(KINDS)}")
        name = obj.get("name", node_id)
        if not isinstance(name, str):
            it.problem(f"'name' must be text, got {shown(name)}")
        for key in ("x", "y"):
            if key not in obj:
                it.problem(f"missing position {key!r} (metres)")
            elif not _number(obj[key]) or abs(obj[key]) > MAX_METRES:
                it.problem(f"position {key!r} must be a number of metres within ±{MAX_METRES:g}, "
                           f"got {shown(obj[key])}")
        source = _source(obj, it)
        if it.ok:
            nodes.append(Node(node_id, kind, name, float(obj["x"]), float(obj["y"]), source))
        else:
            nodes.append(Node(node_id, "junction", node_id, 0.0, 0.0))  # placeholder: ids stay known
    return nodes


def _roads(raw, ids, default_speed_kmh, p) -> list[Road]:
    raw = _list(raw, "roads", p)
    roads, seen = [], {}
    for number, obj in _objects(raw, "road", p):
        a, b = obj.get("a"), obj.get("b")
        it = _Item(f"road #{number} ({_end(a)} -> {_end(b)})", obj, _ROAD_KEYS, p)
        for end, value in (("a", a), ("b", b)):
            if value is None:
                it.problem(f"missing end {end!r}")
            elif not isinstance(value, str):
                it.problem(f"end {end!r} must be a node id (text), got {shown(value)}")
            elif value not in ids:
                it.problem(f"unknown node {shown(value)}")
        if it.ok and a == b:
            it.problem("a road must join two different nodes")
        length = obj.get("length_m")
        if length is None:
            it.problem("missing length_m")
        elif not _number(length) or not 0 <= length <= MAX_METRES:
            it.problem(f"length_m must be a number of metres from 0 to {MAX_METRES:g}, "
                       f"got {shown(length)}")
        one_way = obj.get("one_way", False)
        if not isinstance(one_way, bool):
            it.problem(f"one_way must be true or false, got {shown(one_way)}")
        seconds = obj.get("seconds")
        speed = obj.get("speed_kmh", default_speed_kmh)
        if seconds is not None:
            if not _positive(seconds):
                it.problem(f"seconds must be a positive number, got {shown(seconds)}")
        elif not _positive(speed):
            it.problem(f"speed_kmh must be a positive number, got {shown(speed)}")
        source = _source(obj, it)
        if not it.ok:
            continue
        if seconds is None:
            seconds = round(float(length) / (float(speed) / 3.6), 1) or 0.1
        for key in ((a, b),) if one_way else ((a, b), (b, a)):
            if key in seen:
                it.problem(f"duplicate road, {key[0]} -> {key[1]} is already road #{seen[key]}")
            seen.setdefault(key, number)
        if it.ok:
            roads.append(Road(a, b, float(length), float(seconds), one_way, source))
    return roads


def _source(obj, it: _Item) -> str:
    """The item's optional ``source`` text (where an importer found it, or why it inferred it)."""
    source = obj.get("source", "")
    if not isinstance(source, str):
        it.problem(f"'source' must be text, got {shown(source)}")
        return ""
    return source


def _fleets(raw, ids, p) -> list[Fleet]:
    raw = _list(raw, "fleets", p)
    if isinstance(raw, list) and not raw and "top level: missing 'fleets' (a list)" not in p:
        p.append("top level: 'fleets' is empty; an airport needs at least one tug fleet")
    fleets = []
    for number, obj in _objects(raw, "fleet", p):
        depot = obj.get("depot")
        it = _Item(f"fleet #{number} (depot {_end(depot)})", obj, _FLEET_KEYS, p)
        if depot is None:
            it.problem("missing 'depot'")
        elif not isinstance(depot, str) or depot not in ids:
            it.problem(f"unknown depot {shown(depot)}")
        for key, most in (("count", MAX_TUGS), ("capacity", MAX_CAPACITY)):
            if not _count(obj.get(key), 1, most):
                it.problem(f"{key} must be a whole number from 1 to {most:,}, got {shown(obj.get(key))}")
        if not _positive(obj.get("speed_mps")):
            it.problem(f"speed_mps must be a positive number, got {shown(obj.get('speed_mps'))}")
        if not _count(obj.get("carts", 0), 0):
            it.problem(f"carts must be a whole number >= 0 (0: no limit), got {shown(obj.get('carts'))}")
        if it.ok:
            fleets.append(Fleet(depot, obj["count"], obj["capacity"], float(obj["speed_mps"]),
                                obj.get("carts", 0)))
    return fleets


def _bags(raw, ids, p) -> dict[str, int]:
    if not isinstance(raw, dict):
        p.append("top level: 'bags' must be an object {node id: bags}")
        return {}
    bags = {}
    for node_id, count in raw.items():
        if node_id not in ids:
            p.append(f"bags at {shown(node_id)}: unknown node")
        elif not _count(count, 0, MAX_BAGS):
            p.append(f"bags at {node_id!r}: must be a whole number from 0 to {MAX_BAGS:,}, "
                     f"got {shown(count)}")
        else:
            bags[node_id] = count
    return bags


def schedule_from_dict(raw, p, item: str = "schedule") -> ScheduleParams:
    """A file's ``schedule`` over the defaults: every value a number of the right range (each
    problem goes to ``p`` as "ITEM: what is wrong")."""
    if not isinstance(raw, dict):
        p.append(f"top level: {item!r} must be an object {{parameter: number}}")
        return ScheduleParams()
    before = len(p)
    for key in sorted(set(raw) - set(SCHEDULE_KEYS)):
        p.append(f"{item}: unknown parameter {key!r}; expected one of {', '.join(SCHEDULE_KEYS)}")
    values = {k: raw[k] for k in SCHEDULE_KEYS if k in raw}
    for key, v in values.items():
        low, high = _SCHEDULE_RANGES.get(key, (0.0, _DAY_S))
        whole = key == "banks"
        ok = _number(v) and low <= v <= high and (v > 0 or key in _ZERO_OK)
        if not ok or (whole and not float(v).is_integer()):
            what = "a whole number" if whole else "a number"
            lowest = f"{low:g}" if low or key in _ZERO_OK else f"above {low:g}"
            p.append(f"{item}: {key} must be {what} from {lowest} to {high:g}, got {shown(v)}")
    if len(p) > before:
        return ScheduleParams()
    sp = replace(ScheduleParams(), **{k: (int(v) if k == "banks" else float(v))
                                      for k, v in values.items()})
    if sp.max_connection_s <= sp.min_connection_s:
        p.append(f"{item}: max_connection_s must be more than min_connection_s")
    if sp.unload_max_s < sp.unload_min_s:
        p.append(f"{item}: unload_max_s must be at least unload_min_s")
    return sp


def _check_reachability(nodes, roads, fleets, p) -> None:
    """Every gate must be reachable by road from at least one fleet's depot."""
    out: dict[str, list[str]] = {n.id: [] for n in nodes}
    for r in roads:
        out[r.a].append(r.b)
        if not r.one_way:
            out[r.b].append(r.a)
    seen = {f.depot for f in fleets}
    queue = deque(seen)
    while queue:
        for nxt in out[queue.popleft()]:
            if nxt not in seen:
                seen.add(nxt)
                queue.append(nxt)
    for n in nodes:
        if n.kind == "gate" and n.id not in seen:
            p.append(f"node {n.id!r} (gate {n.name}): no tug can reach it from any depot")


def _check_route_times(nodes, roads, fleets, p) -> None:
    """Every route's time must fit the exact int32 deciseconds routes are solved in: a simple
    route leaves each node at most once, so the sum of every node's slowest road out bounds it
    (the bound ``engine.apsp.matrix.to_int32_costs`` applies). Names the slowest road if not."""
    speed = min(f.speed_mps for f in fleets)
    slowest: dict[str, tuple[float, int]] = {}
    for number, r in enumerate(roads, start=1):
        t = tug_seconds(r, speed)
        for a in (r.a,) if r.one_way else (r.a, r.b):
            slowest[a] = max(slowest.get(a, (0.0, 0)), (t, number))
    total = sum(max(1.0, round(min(t, 1e15) * 10)) for t, _ in slowest.values())
    if total > MAX_ROUTE_DECISECONDS:
        t, number = max(slowest.values())
        r = roads[number - 1]
        p.append(f"road {r.a} -> {r.b}: a tug needs {t:.4g} s to drive it (at most "
                 f"{speed:g} m/s); routes through roads this slow could take {total / 10:.4g} s, "
                 f"more than the {MAX_ROUTE_DECISECONDS / 10:.4g} s exact routes allow")


def _end(value) -> str:
    """A road end or depot as written, for an item's label."""
    return value if isinstance(value, str) else shown(value)


# -- writing -----------------------------------------------------------------------------------

def _num(v: float):
    return int(v) if float(v).is_integer() else round(float(v), 3)


def airport_to_dict(airport: Airport) -> dict:
    """The JSON document for ``airport`` (defaults left out: name == id, one_way false)."""
    nodes = []
    for n in airport.nodes:
        d = {"id": n.id, "kind": n.kind}
        if n.name != n.id:
            d["name"] = n.name
        d["x"], d["y"] = _num(n.x), _num(n.y)
        if n.source:
            d["source"] = n.source
        nodes.append(d)
    roads = []
    for r in airport.roads:
        d = {"a": r.a, "b": r.b, "length_m": _num(r.length_m), "seconds": _num(r.seconds)}
        if r.one_way:
            d["one_way"] = True
        if r.source:
            d["source"] = r.source
        roads.append(d)
    fleets = []
    for f in airport.fleets:
        d = {"depot": f.depot, "count": f.count, "capacity": f.capacity, "speed_mps": _num(f.speed_mps)}
        if f.carts:
            d["carts"] = f.carts
        fleets.append(d)
    return {
        "format": FORMAT, "version": VERSION,
        "name": airport.name, "description": airport.description, "inspired_by": airport.inspired_by,
        "fleets": fleets,
        "bags": {k: v for k, v in airport.bags.items()},
        "schedule": schedule_to_dict(airport.schedule),
        "nodes": nodes, "roads": roads,
    }


def schedule_to_dict(schedule: ScheduleParams) -> dict:
    """The parameters that differ from the defaults, in field order (what a file writes)."""
    default, own = asdict(ScheduleParams()), asdict(schedule)
    return {k: _num(own[k]) for k in SCHEDULE_KEYS if own[k] != default[k]}


def dumps_airport(airport: Airport) -> str:
    """Compact but readable JSON: header fields indented, one node / road / fleet per line."""
    d = airport_to_dict(airport)
    dump = lambda v: json.dumps(v, ensure_ascii=False, separators=(", ", ": "))  # noqa: E731
    lines = ["{"]
    for key in ("format", "version", "name", "description", "inspired_by"):
        lines.append(f'  "{key}": {dump(d[key])},')
    lines.append(f'  "bags": {dump(d["bags"])},')
    if d["schedule"]:
        lines.append(f'  "schedule": {dump(d["schedule"])},')
    for key in ("fleets", "nodes", "roads"):
        items = d[key]
        last = key == "roads"
        if not items:
            lines.append(f'  "{key}": []' + ("" if last else ","))
            continue
        lines.append(f'  "{key}": [')
        lines += [f"    {dump(item)}" + ("," if i < len(items) - 1 else "") for i, item in enumerate(items)]
        lines.append("  ]" + ("" if last else ","))
    lines.append("}")
    return "\n".join(lines) + "\n"


def save_airport(airport: Airport, path) -> None:
    """Write ``airport`` to ``path`` (UTF-8, deterministic byte for byte)."""
    Path(path).write_text(dumps_airport(airport), encoding="utf-8", newline="\n")


def bundled_airports() -> dict[str, Path]:
    """Name (file stem) -> file of every airport shipped in ``airports/``, sorted by name."""
    return {f.stem: f for f in sorted(AIRPORTS_DIR.glob("*.json"))}


def load_bundled_or_file(name: str) -> Airport:
    """The bundled airport called ``name``, else the layout file at path ``name``."""
    bundled = bundled_airports()
    return load_airport(bundled[name] if name in bundled else name)
