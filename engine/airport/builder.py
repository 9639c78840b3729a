"""Build believable airport layouts from a few apron primitives (used for the bundled files and
the synthetic generator; the committed JSON in ``airports/`` is what ships).

The apron model, per face of a pier (gates along one side of a concourse building)::

    building | head-of-stand road (2-way, slow) | stand: gate, fwd hold, aft hold | service lane (1-way)

Stands are separated by equipment lanes (2-way) joining the head road to the service lane. The two
service lanes of a pier run in opposite directions, so tugs circulate one way round the pier, as on
real aprons; pier tips join the perimeter service roads, and a baggage tunnel joins the bag rooms.
"""

from __future__ import annotations

import math

import numpy as np

from .layout import Airport, Fleet, Node, Road, ScheduleParams

# Speeds and tugs from published figures; airports/README.md cites each ("Calibrated days").
KMH_SERVICE = 24.0   # apron service and perimeter roads: the 15 mph ramp limit
KMH_STAND = 8.0      # head-of-stand road, stand and equipment lanes: 5 mph near aircraft
KMH_TUNNEL = 15.0    # baggage tunnel and ramps (invented)
TUG_SPEED_MPS = 6.7  # a tug cruises at the ramp limit (15 mph); roads cap it below that
CARTS = 4            # carts a tug tows, each loaded for one flight
TUG_CAPACITY = 160   # 4 carts of about 40 bags (an LD3 container holds about 40)


class Builder:
    """Collects nodes and roads; lengths from positions, seconds from length and speed."""

    def __init__(self):
        self.nodes: dict[str, Node] = {}
        self.roads: list[Road] = []
        self._pairs: set[tuple[str, str]] = set()

    def node(self, node_id, kind, x, y, name=None) -> str:
        if node_id in self.nodes:
            raise ValueError(f"duplicate node id {node_id}")
        self.nodes[node_id] = Node(node_id, kind, name or node_id, round(float(x), 1), round(float(y), 1))
        return node_id

    def road(self, a, b, kmh, one_way=False) -> None:
        if a == b or (a, b) in self._pairs or (not one_way and (b, a) in self._pairs):
            return
        na, nb = self.nodes[a], self.nodes[b]
        length = round(math.hypot(na.x - nb.x, na.y - nb.y), 1)
        seconds = max(0.1, round(length / (kmh / 3.6), 1))
        self.roads.append(Road(a, b, length, seconds, one_way))
        self._pairs.add((a, b))
        if not one_way:
            self._pairs.add((b, a))

    def path(self, ids, kmh, one_way=False) -> None:
        for a, b in zip(ids, ids[1:]):
            self.road(a, b, kmh, one_way)

    def airport(self, name, description, inspired_by, fleets, bags,
                schedule=ScheduleParams()) -> Airport:
        return Airport(name, description, inspired_by, list(self.nodes.values()), list(self.roads),
                       fleets, bags, schedule)


def stand_row(b: Builder, prefix: str, gates: list[str], origin, along, out, spacing: float,
              lane_forward: bool, building: float = 20.0) -> tuple[list[str], list[str]]:
    """One face of gates, from ``origin`` (on the building axis) along unit vector ``along``, the
    apron on the ``out`` side. Returns (head road ids, service lane ids), both in ``along`` order;
    the lane runs along ``along`` when ``lane_forward`` else against it (one-way)."""
    ox, oy = origin
    ax, ay = along
    ux, uy = out

    def at(s, d):
        return ox + ax * s + ux * d, oy + ay * s + uy * d

    head, lane = [], []
    for i in range(len(gates) + 1):           # stand boundaries
        s = i * spacing
        hb = b.node(f"{prefix}h{i}", "junction", *at(s, building + 5))
        mb = b.node(f"{prefix}e{i}", "junction", *at(s, building + 30))
        pb = b.node(f"{prefix}p{i}", "junction", *at(s, building + 55))
        lb = b.node(f"{prefix}l{i}", "junction", *at(s, building + 75))
        b.path([hb, mb, pb, lb], KMH_STAND)    # equipment lane: staging area, GSE parking
        head.append(hb)
        lane.append(lb)
        if i == len(gates):
            break
        s = (i + 0.5) * spacing                # the stand itself
        g = b.node(gates[i], "gate", *at(s, building + 12))
        hg = b.node(f"{prefix}H{i}", "junction", *at(s, building + 5))
        fwd = b.node(f"{gates[i]}f", "junction", *at(s, building + 25), name=f"{gates[i]} fwd hold")
        aft = b.node(f"{gates[i]}a", "junction", *at(s, building + 52), name=f"{gates[i]} aft hold")
        lg = b.node(f"{prefix}L{i}", "junction", *at(s, building + 75))
        b.path([hg, g, fwd, aft, lg], KMH_STAND)
        head.append(hg)
        lane.append(lg)
    b.path(head, KMH_STAND)
    b.path(lane if lane_forward else lane[::-1], KMH_SERVICE, one_way=True)
    return head, lane


def pier(b: Builder, code: str, gate_names: list[str], cx: float, cy: float, spacing: float):
    """A north–south concourse centred at (cx, cy), gates on both faces, one-way lanes round it.
    Returns (north tip id, south tip id, centre junction ids west/east lanes)."""
    west = gate_names[: (len(gate_names) + 1) // 2]
    east = gate_names[len(west):]
    half = max(len(west), len(east), 1) * spacing / 2
    _, wl = stand_row(b, f"{code}w", west, (cx - 0.0, cy - half), (0, 1), (-1, 0), spacing, lane_forward=False)
    _, el = stand_row(b, f"{code}e", east, (cx + 0.0, cy - half), (0, 1), (1, 0), spacing, lane_forward=True)
    n_tip = b.node(f"{code}N", "junction", cx, cy + half + 40, name=f"Concourse {code.rstrip('.')} north tip")
    s_tip = b.node(f"{code}S", "junction", cx, cy - half - 40, name=f"Concourse {code.rstrip('.')} south tip")
    # counter-clockwise: east lane runs north, over the north tip, west lane runs south
    b.road(el[-1], n_tip, KMH_SERVICE, one_way=True)
    b.road(n_tip, wl[-1], KMH_SERVICE, one_way=True)
    b.road(wl[0], s_tip, KMH_SERVICE, one_way=True)
    b.road(s_tip, el[0], KMH_SERVICE, one_way=True)
    mid_w = wl[len(wl) // 2]
    mid_e = el[len(el) // 2]
    return n_tip, s_tip, mid_w, mid_e


def chain(b: Builder, prefix: str, points: list[tuple[float, float]], kmh: float, step: float,
          one_way=False) -> list[str]:
    """A road through ``points`` with a junction at least every ``step`` metres; returns ids."""
    ids = []
    for k, (p, q) in enumerate(zip(points, points[1:])):
        parts = max(1, math.ceil(math.hypot(q[0] - p[0], q[1] - p[1]) / step))
        for t in range(parts + (k == len(points) - 2)):
            f = t / parts
            ids.append(b.node(f"{prefix}{len(ids)}", "junction", p[0] + (q[0] - p[0]) * f, p[1] + (q[1] - p[1]) * f))
    b.path(ids, kmh, one_way)
    return ids


def nearest(b: Builder, ids: list[str], x: float, y: float) -> str:
    return min(ids, key=lambda i: (b.nodes[i].x - x) ** 2 + (b.nodes[i].y - y) ** 2)


def midfield(b: Builder, piers: list[tuple[str, list[str], float, float]], west_x: float, east_x: float,
             bag_rooms: set[str], cy: float = 0.0, tag: str = "") -> dict:
    """Parallel midfield concourses (code, gate names, centre x, stand spacing) between a west and
    an east terminal: perimeter service roads north and south, a baggage tunnel at y = 0 joining
    every concourse's bag room. Returns the perimeter and tunnel junction ids and the piers' tips."""
    tips = {}
    top = bottom = cy
    for code, gates, cx, spacing in piers:
        n_tip, s_tip, mid_w, mid_e = pier(b, code, gates, cx, cy, spacing)
        tips[code] = (n_tip, s_tip, mid_w, mid_e)
        top = max(top, b.nodes[n_tip].y)
        bottom = min(bottom, b.nodes[s_tip].y)
    north = chain(b, f"{tag}PN", [(west_x, top + 60), (east_x, top + 60)], KMH_SERVICE, 60)
    south = chain(b, f"{tag}PS", [(west_x, bottom - 60), (east_x, bottom - 60)], KMH_SERVICE, 60)
    tunnel = chain(b, f"{tag}BT", [(west_x, cy - 8.0), (east_x, cy - 8.0)], KMH_TUNNEL, 70)
    for code, gates, cx, spacing in piers:
        n_tip, s_tip, mid_w, mid_e = tips[code]
        b.road(n_tip, nearest(b, north, cx, top + 60), KMH_SERVICE)
        b.road(s_tip, nearest(b, south, cx, bottom - 60), KMH_SERVICE)
        kind = "sort" if code in bag_rooms else "junction"
        room = b.node(f"{code}BR", kind, cx, cy - 20.0, name=f"Concourse {code.rstrip('.')} bag room")
        b.road(room, nearest(b, tunnel, cx, cy - 8.0), KMH_TUNNEL)
        b.road(room, mid_w, KMH_TUNNEL)
        b.road(room, mid_e, KMH_TUNNEL)
    return {"north": north, "south": south, "tunnel": tunnel, "tips": tips, "top": top + 60,
            "bottom": bottom - 60}


def starting_bags(gates: list[str], rng: np.random.Generator, high: int = 10) -> dict[str, int]:
    counts = rng.integers(0, high + 1, size=len(gates))
    return {g: int(c) for g, c in zip(gates, counts) if c}


# -- the bundled airports ----------------------------------------------------------------------

# ATL's day (airports/README.md, "Calibrated days", cites each figure): a rolling hub, a wave
# every 30 min for 18 hours from 00:30 of the simulated day, ~1,060 turns (775,818 movements in
# 2023), ~135 passengers a movement, ~0.56 checked bags a passenger, ~60% of them connecting;
# Delta's 35-min domestic minimum connection, connections averaging ~77 min.
ATL_DAY = ScheduleParams(bank_period_s=1800.0, first_bank_s=1800.0, banks=36, gate_use=0.17,
                         transfer_mean=45.0, checkin_mean=30.0, min_connection_s=2100.0,
                         max_connection_s=7200.0)
ATL_TUGS_PER_DEPOT = 150   # 600 in all: the knee of the fleet curve (README, "Scenario sweeps")

ATL_CONCOURSES = [("T", 17, 45.0), ("A", 29, 45.0), ("B", 32, 45.0), ("C", 34, 45.0),
                  ("D", 40, 42.0), ("E", 28, 65.0), ("F", 15, 75.0)]


def build_hub() -> Airport:
    """ATL-like hub: seven parallel midfield concourses T, A–F (195 contact gates, the published
    per-concourse counts) plus 30 remote hardstands, between a domestic (west) and an
    international (east) terminal."""
    b = Builder()
    piers, x = [], 380.0
    for code, count, spacing in ATL_CONCOURSES:
        piers.append((code, [f"{code}{i}" for i in range(1, count + 1)], x, spacing))
        x += 360.0
    west_x, east_x = 60.0, x - 360.0 + 320.0
    net = midfield(b, piers, west_x, east_x, bag_rooms={"B", "D"})
    dom = b.node("SORT-DOM", "sort", west_x - 40, -8.0, name="Domestic Terminal bag room")
    intl = b.node("SORT-INTL", "sort", east_x + 40, -8.0, name="International Terminal bag room")
    b.road(dom, net["tunnel"][0], KMH_TUNNEL)
    b.road(intl, net["tunnel"][-1], KMH_TUNNEL)
    for room, ends in ((dom, 0), (intl, -1)):   # airside ramps from the terminal bag rooms
        b.road(room, net["north"][ends], KMH_SERVICE)
        b.road(room, net["south"][ends], KMH_SERVICE)
    # remote hardstands: a row of 15 beyond each perimeter road, same stand geometry
    remote = [f"R{k}" for k in range(1, 31)]
    for side, road, dy, names in (("N", net["north"], 1, remote[:15]), ("S", net["south"], -1, remote[15:])):
        y0 = (net["top"] if side == "N" else net["bottom"]) + dy * 10
        x0 = west_x + 420
        head, lane = stand_row(b, f"R{side}", names, (x0, y0), (1, 0), (0, dy), 62.0,
                               lane_forward=True, building=0.0)
        b.road(head[0], nearest(b, road, x0, y0), KMH_STAND)
        b.road(head[-1], nearest(b, road, x0 + 15 * 62, y0), KMH_STAND)
        b.road(nearest(b, road, x0 - 60, y0), lane[0], KMH_SERVICE, one_way=True)
        b.road(lane[-1], nearest(b, road, x0 + 15 * 62 + 60, y0), KMH_SERVICE, one_way=True)
    depots = []
    for name, dx, side in (("GSE-NW", west_x + 200, "north"), ("GSE-SW", west_x + 200, "south"),
                           ("GSE-NE", piers[5][2] - 180, "north"), ("GSE-SE", piers[5][2] - 180, "south")):
        y = net["top"] + 60 if side == "north" else net["bottom"] - 60
        d = b.node(name, "depot", dx, y, name=f"Tug depot {name[4:]}")
        b.road(d, nearest(b, net[side], dx, y), KMH_SERVICE)
        depots.append(d)
    gates = [n.id for n in b.nodes.values() if n.kind == "gate"]
    rng = np.random.default_rng(2026)
    fleets = [Fleet(d, ATL_TUGS_PER_DEPOT, TUG_CAPACITY, TUG_SPEED_MPS, CARTS) for d in depots]
    return b.airport(
        "Hub (ATL-like)",
        "Large hub: seven parallel midfield concourses T, A, B, C, D, E, F between the domestic "
        "terminal (west) and the international terminal (east); 195 contact gates plus 30 remote "
        "hardstands on the north and south aprons. Each concourse has a slow two-way head-of-stand "
        "road along the building and one-way service lanes behind the stands circulating "
        "counter-clockwise round the pier; perimeter service roads join the pier tips; a two-way "
        "baggage tunnel under the concourses (as ATL's) joins the bag rooms: the terminals' and "
        "concourses B and D's are sort stations. Four tug depots; the day is calibrated (see "
        "airports/README.md).",
        "Hartsfield–Jackson Atlanta (ATL): parallel midfield concourses T, A–F with the published "
        "per-concourse gate counts T 17, A 29, B 32, C 34, D 40, E 28, F 15 (about 195 gates; "
        "counts vary slightly by source and year). Distances and stand spacing are approximate; "
        "the remote stands, depots and bag-room placement are invented.",
        fleets, starting_bags(gates, rng, 8), ATL_DAY)


# A regional airport's day: a wave every 90 min for 18 hours from 00:30, ~100 turns on 28 stands,
# ~100 bags a departure (most passengers check a bag), few connections (5 bags a flight).
REGIONAL_DAY = ScheduleParams(bank_period_s=5400.0, first_bank_s=1800.0, banks=12, gate_use=0.35,
                              transfer_mean=5.0, checkin_mean=100.0, min_connection_s=2100.0,
                              max_connection_s=7200.0)
REGIONAL_TUGS = 24   # where its fleet curve flattens (README, "Scenario sweeps")


def build_regional() -> Airport:
    """One linear terminal, 28 contact stands on its airside face, one bag hall, one depot."""
    b = Builder()
    gates = [f"{i}" for i in range(1, 29)]
    spacing = 48.0
    head, lane = stand_row(b, "W", [f"G{g}" for g in gates], (0.0, 0.0), (1, 0), (0, 1), spacing,
                           lane_forward=True)
    length = len(gates) * spacing
    # the service lane runs east behind the stands; a return road further out runs west
    back = chain(b, "RR", [(length + 40, 160), (-40, 160)], KMH_SERVICE, 80, one_way=True)
    b.road(lane[-1], back[0], KMH_SERVICE, one_way=True)
    b.road(back[-1], lane[0], KMH_SERVICE, one_way=True)
    for k in range(1, len(back) - 1, 2):       # cut-throughs from the return road to the lane
        b.road(back[k], nearest(b, lane, b.nodes[back[k]].x, 95), KMH_SERVICE, one_way=True)
    sort = b.node("SORT", "sort", length / 2, -30, name="Terminal bag hall")
    b.road(sort, head[len(head) // 2], KMH_STAND)
    b.road(sort, head[0], KMH_STAND)
    b.road(sort, head[-1], KMH_STAND)
    depot = b.node("DEPOT", "depot", length + 90, 60, name="GSE depot")
    b.road(depot, lane[-1], KMH_SERVICE)
    b.road(depot, back[0], KMH_SERVICE)
    rng = np.random.default_rng(7)
    ids = [f"G{g}" for g in gates]
    return b.airport(
        "Regional",
        "Regional airport: one linear terminal with 28 contact stands (G1–G28) on its airside "
        "face, a two-way head-of-stand road along the building, a one-way service lane behind "
        "the stands running east and a one-way return road further out running west, one "
        "terminal bag hall (sort station) and one tug depot east of the apron.",
        "A generic single-terminal regional airport with a linear terminal and one row of contact "
        "stands (the shape of many 20–40 stand European regional airports); dimensions "
        "approximate, not a copy of any one airport.",
        [Fleet(depot, REGIONAL_TUGS, TUG_CAPACITY, TUG_SPEED_MPS, CARTS)], starting_bags(ids, rng, 8),
        REGIONAL_DAY)


# The paper's Fig. 4 (Fig. 1 "slightly modified"; its picture is not in the text). Travel times
# in seconds, one-way roads, 1-indexed as in Table 1: (from, to, seconds, where it comes from).
PAPER_5_ROADS = [
    ("A1", "A2", 5, "Table 1 row 1"),
    ("A1", "A4", 1, "Fig. 4 text (Table 1 has 2)"),
    ("A1", "A5", 3, "Fig. 4 text (not in Table 1)"),
    ("A2", "A3", 2, "Table 1 row 2"),
    ("A3", "A1", 3, "Table 1 row 3"),
    ("A3", "A5", 7, "Table 1 row 3"),
    ("A4", "A3", 4, "Table 1 row 4"),
    ("A4", "A5", 6, "Fig. 4 text (Table 1 has 1)"),
]
PAPER_5_XY = {"A1": (0.0, 20.0), "A2": (30.0, 45.0), "A3": (60.0, 20.0), "A4": (20.0, -10.0),
              "A5": (50.0, -15.0)}


def build_paper_5() -> Airport:
    nodes = [Node(g, "gate", g, *PAPER_5_XY[g]) for g in ("A1", "A2", "A3", "A4", "A5")]
    roads = []
    for a, b, seconds, _ in PAPER_5_ROADS:
        (xa, ya), (xb, yb) = PAPER_5_XY[a], PAPER_5_XY[b]
        roads.append(Road(a, b, round(math.hypot(xa - xb, ya - yb), 1), float(seconds), True))
    return Airport(
        "paper-5",
        "The seed paper's worked example (Fig. 4 / Table 1): five gates, "
        "one-way roads, travel times in seconds and the bags waiting at A1, A4, A5. Stated facts "
        "kept: A1->A4 = 1 s, A4->A5 = 6 s, A1->A5 = 3 s; bags A1 = 1, A4 = 7, A5 = 4; A5 cannot "
        "reach A2, ever. Inferred (Fig. 4's picture is not in the text): the other roads are "
        "Table 1's (A1->A2 5, A2->A3 2, A3->A1 3, A3->A5 7, A4->A3 4); Table 1's A5->A1 and "
        "A5->A2 are dropped, because from A1 the road A1->A2 would let A5 reach A2, so A5 is a "
        "dead end (a drop-off gate); A2 and A3 hold no bags (not stated); the tugs start at A1 "
        "(the paper has no depot); positions and lengths in metres are only for drawing.",
        "Seed paper 000_a39e6fe1d737dc0d, section PROBLEM STATEMENT, Fig. 4 and Table 1.",
        nodes, roads, [Fleet("A1", 1, 20, 5.0)], {"A1": 1, "A4": 7, "A5": 4})


def write_bundled(directory=None) -> None:
    """Regenerate the committed files in ``airports/`` (python -m engine.airport.builder)."""
    from .layout_io import AIRPORTS_DIR, save_airport
    directory = directory or AIRPORTS_DIR
    for stem, build in (("paper-5", build_paper_5), ("regional", build_regional), ("hub-atl", build_hub)):
        save_airport(build(), f"{directory}/{stem}.json")


if __name__ == "__main__":
    write_bundled()
