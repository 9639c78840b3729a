"""What-if edits to a running day: close or reopen a road or a gate, move, add or retire tugs,
change a fleet's speed or capacity, or the dispatch policy.

Each edit is a small frozen dataclass naming nodes by id, with a one-line ``text``.
``apply_edit(sim, edit)`` changes the ``Simulation`` from its current time and returns an
``Applied``: the edit as resolved (which gate took the flights, which tugs moved: redo repeats it
exactly), its inverse (undo), and the all-pairs solves an edit of the road graph ran. The running
airport is replaced, never changed in place, so whoever holds the original (the window, an
unedited twin of the day) keeps it. An edited airport saves as an ordinary layout file
(``save_edited``, named "... (edited)"): closed roads left out, a closed gate kept as a junction
(tugs drive past it, no flight uses it), each fleet as many tugs as are in service at its depot.
The edited *day* replays from a scenario file (``engine.sim.scenario_file``), not from it.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from ..airport.layout import Airport, Road
from ..airport.layout_io import airport_from_dict, airport_to_dict, save_airport
from .dispatch import Recompute, make_dispatcher
from .simulation import Simulation


class EditError(ValueError):
    """An edit that cannot apply here (unknown road or gate, no tug to move, ...); nothing changed."""


def _clock(t: float) -> str:
    s = int(t)
    return f"{s // 3600:02d}:{s % 3600 // 60:02d}:{s % 60:02d}"


# -- the edits -----------------------------------------------------------------------------------

@dataclass(frozen=True)
class CloseRoad:
    a: str
    b: str

    @property
    def text(self) -> str:
        return f"close road {self.a}–{self.b}"

    def apply(self, sim: Simulation):
        roads = sim.airport.roads
        i = _road_index(roads, self.a, self.b)
        road = roads[i]
        solves = sim.set_roads(replace(sim.airport, roads=roads[:i] + roads[i + 1:]))
        return CloseRoad(road.a, road.b), OpenRoad(road, i), solves


@dataclass(frozen=True)
class OpenRoad:
    road: Road
    index: int = -1      # where it goes back in the layout's list of roads (-1: at the end)

    @property
    def text(self) -> str:
        return f"reopen road {self.road.a}–{self.road.b}"

    def apply(self, sim: Simulation):
        r, roads = self.road, list(sim.airport.roads)
        for end in (r.a, r.b):
            _node(sim.airport, end)
        if any(_joins(x, r.a, r.b) or _joins(r, x.a, x.b) for x in roads):
            raise EditError(f"road {r.a}–{r.b} is open already")
        roads.insert(len(roads) if self.index < 0 else min(self.index, len(roads)), r)
        solves = sim.set_roads(replace(sim.airport, roads=roads))
        return OpenRoad(r, roads.index(r)), CloseRoad(r.a, r.b), solves


@dataclass(frozen=True)
class CloseGate:
    gate: str
    to: str | None = None     # the gate taking its flights; None: the nearest free one

    @property
    def text(self) -> str:
        return f"close gate {self.gate} (flights to {self.to or 'the nearest free gate'})"

    def apply(self, sim: Simulation):
        a = sim.airport
        g = _gate(a, self.gate)
        h = nearest_free_gate(sim, g) if self.to is None else _gate(a, self.to)
        if h == g or not sim.pickable[h]:
            raise EditError(f"gate {self.to} cannot take the flights of {self.gate}: "
                            + ("it is the same gate" if h == g else "no tug can reach it"))
        nodes = list(a.nodes)
        nodes[g] = replace(nodes[g], kind="junction")
        sim.airport = replace(a, nodes=nodes)
        sim.set_gate_map({**sim.gate_map, g: h})
        return CloseGate(self.gate, a.nodes[h].id), OpenGate(self.gate), []


@dataclass(frozen=True)
class OpenGate:
    gate: str

    @property
    def text(self) -> str:
        return f"reopen gate {self.gate}"

    def apply(self, sim: Simulation):
        a = sim.airport
        g = _node(a, self.gate)
        if g not in sim.gate_map:
            raise EditError(f"gate {self.gate} is not closed")
        nodes = list(a.nodes)
        nodes[g] = replace(nodes[g], kind="gate")
        gate_map = dict(sim.gate_map)
        h = gate_map.pop(g)
        sim.airport = replace(a, nodes=nodes)
        sim.set_gate_map(gate_map)
        return OpenGate(self.gate), CloseGate(self.gate, a.nodes[h].id), []


@dataclass(frozen=True)
class MoveTugs:
    src: str
    dst: str
    count: int = 1
    tugs: tuple[int, ...] = ()   # which ones (chosen when empty: idle first, then least loaded)

    @property
    def text(self) -> str:
        return f"move {_tugs_text(self.count)} from {self.src} to {self.dst}"

    def apply(self, sim: Simulation):
        a = sim.airport
        if self.src == self.dst:
            raise EditError(f"tugs moved from {self.src} to the same depot")
        f = a.fleets[_fleet(a, self.dst)]
        _fleet(a, self.src)
        src, dst = a.index(self.src), a.index(self.dst)
        ids = _choose_tugs(sim, src, self.count, self.tugs, in_service=True, what=self.src)
        for k in ids:
            tug = sim.tugs[k]
            tug.depot, tug.speed_mps = dst, f.speed_mps
            sim.set_capacity(tug, f.capacity)
            sim.send(tug, dst)
        return (MoveTugs(self.src, self.dst, len(ids), ids),
                MoveTugs(self.dst, self.src, len(ids), ids), [])


@dataclass(frozen=True)
class AddTugs:
    depot: str
    count: int = 1
    tugs: tuple[int, ...] = ()   # retired tugs to bring back (undoing a retirement), or the new
                                 # ones as an earlier run of the day numbered them; else new ones

    @property
    def text(self) -> str:
        return f"add {_tugs_text(self.count)} at {self.depot}"

    def apply(self, sim: Simulation):
        a = sim.airport
        f = a.fleets[_fleet(a, self.depot)]
        node = a.index(self.depot)
        n = len(sim.tugs)
        if self.tugs and min(self.tugs) >= n:   # the tugs an earlier day added (a replay): new
            if self.tugs != tuple(range(n, n + len(self.tugs))):
                raise EditError(f"tugs {', '.join(str(k + 1) for k in self.tugs)} cannot be "
                                f"added now: the next new tug is {n + 1}")
            ids = tuple(sim.add_tug(node, f.capacity, f.speed_mps, f.carts).id
                        for _ in self.tugs)
        elif self.tugs:
            ids = _choose_tugs(sim, node, self.count, self.tugs, in_service=False, what=self.depot)
            for k in ids:
                sim.set_capacity(sim.tugs[k], f.capacity)
                sim.set_in_service(sim.tugs[k], True)
        else:
            if self.count < 1:
                raise EditError(f"add at least one tug at {self.depot}, not {self.count}")
            ids = tuple(sim.add_tug(node, f.capacity, f.speed_mps, f.carts).id
                        for _ in range(self.count))
        return AddTugs(self.depot, len(ids), ids), RetireTugs(self.depot, len(ids), ids), []


@dataclass(frozen=True)
class RetireTugs:
    depot: str
    count: int = 1
    tugs: tuple[int, ...] = ()

    @property
    def text(self) -> str:
        return f"retire {_tugs_text(self.count)} at {self.depot}"

    def apply(self, sim: Simulation):
        a = sim.airport
        _fleet(a, self.depot)
        ids = _choose_tugs(sim, a.index(self.depot), self.count, self.tugs, in_service=True,
                           what=self.depot)
        if sum(not t.retired for t in sim.tugs) - len(ids) < 1:
            raise EditError("at least one tug must stay in service")
        for k in ids:
            sim.set_in_service(sim.tugs[k], False)
        return RetireTugs(self.depot, len(ids), ids), AddTugs(self.depot, len(ids), ids), []


@dataclass(frozen=True)
class SetSpeed:
    depot: str
    speed_mps: float

    @property
    def text(self) -> str:
        return f"tugs at {self.depot} drive {self.speed_mps:g} m/s"

    def apply(self, sim: Simulation):
        if not self.speed_mps > 0:
            raise EditError(f"speed must be above 0 m/s, got {self.speed_mps}")
        speed = float(self.speed_mps)
        edited, old, node = _with_fleet(sim.airport, self.depot, speed_mps=speed)
        for tug in sim.tugs:
            if tug.depot == node:
                tug.speed_mps = speed
        # the roads are timed for the slowest fleet: solved again only when that changes
        slowest = [min(f.speed_mps for f in x.fleets) for x in (edited, sim.airport)]
        if slowest[0] != slowest[1]:
            solves = sim.set_roads(edited)
        else:
            sim.airport, solves = edited, []
        return SetSpeed(self.depot, speed), SetSpeed(self.depot, old.speed_mps), solves


@dataclass(frozen=True)
class SetCapacity:
    depot: str
    capacity: int

    @property
    def text(self) -> str:
        return f"tugs at {self.depot} carry {self.capacity} bags"

    def apply(self, sim: Simulation):
        if not (isinstance(self.capacity, (int, np.integer)) and self.capacity >= 1):
            raise EditError(f"capacity must be a whole number >= 1, got {self.capacity!r}")
        capacity = int(self.capacity)
        sim.airport, old, node = _with_fleet(sim.airport, self.depot, capacity=capacity)
        for tug in sim.tugs:
            if tug.depot == node:
                sim.set_capacity(tug, capacity)
        return SetCapacity(self.depot, capacity), SetCapacity(self.depot, old.capacity), []


@dataclass(frozen=True)
class SetPolicy:
    policy: str

    @property
    def text(self) -> str:
        return f"dispatch by {self.policy}"

    def apply(self, sim: Simulation):
        try:
            dispatcher = make_dispatcher(self.policy)
        except ValueError as exc:
            raise EditError(str(exc)) from None
        old, sim.dispatcher = sim.dispatcher.name, dispatcher
        return SetPolicy(self.policy), SetPolicy(old), []


Edit = (CloseRoad | OpenRoad | CloseGate | OpenGate | MoveTugs | AddTugs | RetireTugs | SetSpeed
        | SetCapacity | SetPolicy)


def fleet_edits(sim: Simulation, total: int) -> list[Edit]:
    """The edits that bring the tugs in service to ``total``, shared over the fleets as a day of
    ``SimConfig(tugs=total)`` shares them: new tugs where a fleet has too few, retirements where
    it has too many (what the app applies when its Fleet setting changes mid-day)."""
    if total < 1:
        raise EditError(f"a day needs at least 1 tug, got {total}")
    fleets, out = sim.airport.fleets, []
    for i, f in enumerate(fleets):
        want = total // len(fleets) + (1 if i < total % len(fleets) else 0)
        node = sim.airport.index(f.depot)
        have = sum(1 for t in sim.tugs if t.depot == node and not t.retired)
        if want > have:
            out.append(AddTugs(f.depot, want - have))
        elif want < have:
            out.append(RetireTugs(f.depot, have - want))
    return out


# -- applying ------------------------------------------------------------------------------------

@dataclass
class Applied:
    edit: Edit                   # as resolved: applying it again repeats exactly this change
    inverse: Edit                # applying it undoes the change
    t: float                     # simulated time it took effect
    solves: list[Recompute] = field(default_factory=list)   # all-pairs solved again, if any
    sizes: dict[str, int] = field(default_factory=dict)      # vertices per kind of solve
    seconds: float = 0.0         # wall time of the whole edit

    @property
    def text(self) -> str:
        return self.edit.text

    def report(self) -> str:
        """One line: the edit, when, and which variant solved each all-pairs again, how fast."""
        line = f"{self.edit.text} at {_clock(self.t)}"
        if not self.solves:
            return line + " (roads unchanged: no all-pairs solve)"
        names = {"junctions": "junction all-pairs", "travel-time": "travel-time all-pairs"}
        parts = [f"{names.get(r.kind, r.kind)} ({self.sizes.get(r.kind, 0):,} nodes) "
                 f"{r.variant} {r.seconds * 1000:.0f} ms" + (f" [{r.note}]" if r.note else "")
                 for r in sorted(self.solves, key=lambda r: r.kind != "junctions")]
        return f"{line}: {'; '.join(parts)}"


def apply_edit(sim: Simulation, edit: Edit) -> Applied:
    """Apply ``edit`` to the running day at its current time; ``EditError`` (nothing changed)
    when it cannot apply."""
    start = time.perf_counter()
    resolved, inverse, solves = edit.apply(sim)
    sizes = {"travel-time": sim.net.n, "junctions": len(sim.tables.keys.junctions)}
    return Applied(resolved, inverse, sim.t, solves, sizes, time.perf_counter() - start)


def nearest_free_gate(sim: Simulation, g: int) -> int:
    """The open gate a tug can reach that is nearest ``g`` by road (then in a straight line) and
    has no flight on the ground while one of ``g``'s flights still to go is; if every gate has,
    the nearest open one."""
    a = sim.airport
    gates = np.array([i for i, n in enumerate(a.nodes)
                      if n.kind == "gate" and i != g and sim.pickable[i]], dtype=np.int64)
    if not len(gates):
        raise EditError(f"no other open gate a tug can reach to take {a.nodes[g].id}'s flights")
    future = [f for f in sim.schedule.flights if f.departure > sim.t]
    moving = [f for f in future if f.gate == g]
    busy = {f.gate for f in future for m in moving
            if f.gate != g and f.arrival < m.departure and m.arrival < f.departure}
    free = gates[[int(h) not in busy for h in gates]]
    pool = free if len(free) else gates
    x, y = sim.net.x, sim.net.y
    crow = np.hypot(x[pool] - x[g], y[pool] - y[g])
    return int(pool[np.lexsort((pool, crow, sim.tables.plain_s[g, pool]))[0]])


def edited_layout(sim: Simulation) -> Airport:
    """The airport as edited: each fleet as many tugs as are in service at its depot, maybe none
    (fleets sharing a depot keep their counts)."""
    a = sim.airport
    depots = [f.depot for f in a.fleets]
    fleets = []
    for f in a.fleets:
        count = f.count
        if depots.count(f.depot) == 1:
            node = a.index(f.depot)
            count = sum(1 for t in sim.tugs if t.depot == node and not t.retired)
        fleets.append(replace(f, count=count))
    return replace(a, fleets=fleets)


EDITED = " (edited)"


def save_edited(layout: Airport, path, history: list[str]) -> Airport:
    """Write ``layout`` (from ``edited_layout``) to ``path`` as a layout file named
    "NAME (edited)", whose description lists the edits in ``history`` and says that its day is
    not the original's (a closed gate is a junction, so the same seed draws other flights: a
    scenario file replays the edited day); fleets with no tug left out. Checked as the file will
    be read (``LayoutError`` naming the problem, nothing written, when the edits leave it
    invalid, e.g. a gate no tug can reach)."""
    note = ("What-if edits: " + "; ".join(history) + ". A day generated on this layout is not "
            "the original's with these edits (closed gates take no flights here, so the same "
            "seed draws another schedule): a scenario file replays that day."
            if history else "")
    description = " ".join(x for x in (layout.description, note) if x)
    name = layout.name if layout.name.endswith(EDITED) else layout.name + EDITED
    fleets = [f for f in layout.fleets if f.count]
    checked = airport_from_dict(airport_to_dict(replace(layout, name=name,
                                                        description=description,
                                                        fleets=fleets)), source=Path(path))
    save_airport(checked, path)
    return checked


# -- looking things up ---------------------------------------------------------------------------

def _node(a: Airport, node_id: str) -> int:
    try:
        return a.index(node_id)
    except KeyError as exc:
        raise EditError(exc.args[0]) from None


def _gate(a: Airport, node_id: str) -> int:
    i = _node(a, node_id)
    if a.nodes[i].kind != "gate":
        raise EditError(f"{node_id} is not an open gate (it is a {a.nodes[i].kind})")
    return i


def _joins(r: Road, a: str, b: str) -> bool:
    """Road ``r`` leads from ``a`` to ``b``."""
    return (r.a, r.b) == (a, b) or (not r.one_way and (r.b, r.a) == (a, b))


def _road_index(roads: list[Road], a: str, b: str) -> int:
    for i, r in enumerate(roads):
        if (r.a, r.b) == (a, b):
            return i
    for i, r in enumerate(roads):
        if _joins(r, a, b):
            return i
    raise EditError(f"no open road {a}–{b}")


def _fleet(a: Airport, depot: str) -> int:
    found = [i for i, f in enumerate(a.fleets) if f.depot == depot]
    if len(found) != 1:
        raise EditError(f"no tug fleet at {depot}" if not found else
                        f"{len(found)} fleets share depot {depot}: edit the layout file instead")
    return found[0]


def _with_fleet(a: Airport, depot: str, **changes):
    """(the airport with the fleet at ``depot`` changed, that fleet before, the depot's node)."""
    i = _fleet(a, depot)
    fleets = list(a.fleets)
    fleets[i] = replace(a.fleets[i], **changes)
    return replace(a, fleets=fleets), a.fleets[i], a.index(depot)


def _choose_tugs(sim: Simulation, depot: int, count: int, given: tuple[int, ...],
                 in_service: bool, what: str) -> tuple[int, ...]:
    """``given`` checked (each of ``depot``, in service or retired as asked), or ``count`` of
    them: idle ones first, then the least loaded, then the highest numbered."""
    ok = [t for t in sim.tugs if t.depot == depot and t.retired != in_service]
    if given:
        ids = {t.id for t in ok}
        bad = [k for k in given if k not in ids]
        if bad:
            raise EditError(f"tug {bad[0] + 1} is not {'in service' if in_service else 'retired'}"
                            f" at {what}")
        return tuple(given)
    if count < 1 or count > len(ok):
        raise EditError(f"{what} has {len(ok)} tug{'s' if len(ok) != 1 else ''} "
                        f"{'in service' if in_service else 'retired'}, cannot take {count}")
    ok.sort(key=lambda t: (t.activity != 0, int(sim.bags.on_tug[t.id]), -t.id))
    return tuple(sorted(t.id for t in ok[:count]))


def _tugs_text(n: int) -> str:
    return f"{n} tug{'s' if n != 1 else ''}"
