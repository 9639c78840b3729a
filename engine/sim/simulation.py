"""The simulation a GUI worker thread or the headless command steps: ``step(dt)``, ``run_until(t)``.

Event-driven inside a step: bags become ready, tugs reach stops and finish handling, deadlines pass
(a bag not delivered by its deadline is misconnected, wherever it is). Idle tugs are dispatched in
rounds every ``dispatch_tick_s`` simulated seconds; a tug that finishes a stop is dispatched at
once. Nothing depends on wall-clock time, so the same inputs and seed give the same day.
"""

from __future__ import annotations

import heapq
import math
import time
from dataclasses import dataclass, replace
from typing import Callable

import numpy as np

from ..airport.layout import Airport
from .bags import DELIVERED, ON_TUG, PENDING, WAITING, Bags, ConservationError
from .bound import unavoidable
from .dispatch import (DEFAULT_POLICY, PER_BAG_S, STOP_S, Pickups, Recompute, RecomputePolicy,
                       RouteTables, latest_departure, make_dispatcher)
from .kpi import sample, summary
from .network import RoadNetwork
from .schedule import (Flight, Schedule, ScheduleParams, generate_flights, make_bags,
                       usable_nodes)
from .stops import still_promised
from .tug_stop import arrive_at, finish_at
from .tugs import DRIVING, HANDLING, IDLE, Tug

ARRIVE, DONE = 0, 1


def _frozen(ids: np.ndarray) -> np.ndarray:
    ids.flags.writeable = False
    return ids


_NO_BAGS = _frozen(np.empty(0, dtype=np.int64))


@dataclass
class SimConfig:
    hours: float = 24.0
    seed: int = 0
    tugs: int | None = None           # None: the airport's fleets; else (>= 1) spread over them
    variant: str = "auto"            # a variant of the route engine's family; auto = fastest here
    route_engine: str = "all-pairs"   # or "from-tugs" (engine.sim.route_engine.ENGINES)
    policy: str = DEFAULT_POLICY      # a name of engine.sim.dispatch.POLICIES
    recompute: str = "auto"           # "change", seconds between solves, or "auto"
    dispatch_tick_s: float = 10.0
    kpi_every_s: float = 300.0
    flights: list[Flight] | None = None   # a schedule read from CSV; None: generated from seed
    params: ScheduleParams | None = None  # None: the airport's own (its file's schedule)
    load: float = 1.0                     # multiplies the bags per flight


def auto_recompute(n_key_nodes: int) -> str:
    """Every change on small airports (a key-node solve is a millisecond or two); on a hub, where
    the bags change thousands of times a day, at most every 120 simulated seconds."""
    return "change" if n_key_nodes <= 100 else "120"


@dataclass
class Snapshot:
    t: float
    positions: np.ndarray        # tugs × (x, y) metres
    bags_per_node: np.ndarray    # waiting bags per node, node order
    routes: dict[int, list[int]]  # tug id -> node indices of the route it is driving
    activity: np.ndarray         # per tug: 0 idle, 1 driving, 2 handling
    load: np.ndarray             # bags on each tug
    kpis: dict                   # the KPI sample at t (created, waiting, on_tug, ..., mbr)
    finished: bool


class Simulation:
    def __init__(self, airport: Airport, config: SimConfig = SimConfig()):
        if config.tugs is not None and config.tugs < 1:
            raise ValueError(f"a day needs at least 1 tug, got {config.tugs} (tugs=None: the "
                             "airport's own fleets)")
        start = time.perf_counter()
        self.airport, self.config = airport, config
        self.t = 0.0
        self.end_time = config.hours * 3600.0
        fleets = airport.fleets
        speed = min(f.speed_mps for f in fleets)
        self.net = RoadNetwork(airport, speed)
        recompute = config.recompute
        if recompute == "auto":
            n_key = sum(1 for nd in airport.nodes if nd.kind != "junction")
            recompute = auto_recompute(n_key)
        self.tables = RouteTables(self.net, config.variant, RecomputePolicy(recompute),
                                  engine=config.route_engine, tug_nodes=self.tug_nodes)
        self.dispatcher = make_dispatcher(config.policy)

        depots = [airport.index(f.depot) for f in fleets]
        usable = usable_nodes(self.tables.plain, depots)
        self.pickable = usable.copy()
        gates = np.array([airport.index(n.id) for n in airport.gates()], dtype=np.int64)
        gates = gates[usable[gates]]
        sorts = np.array([airport.index(n.id) for n in airport.sorts()], dtype=np.int64)
        sorts = sorts[usable[sorts]] if len(sorts) else sorts
        base = config.params or airport.schedule
        params = replace(base, transfer_mean=base.transfer_mean * config.load,
                         checkin_mean=base.checkin_mean * config.load)
        flights = (config.flights if config.flights is not None
                   else generate_flights(gates, config.hours, config.seed, params))
        starting = {airport.index(k): v for k, v in airport.bags.items() if v > 0}
        sort_of = {}
        if len(sorts):
            for g in {f.gate for f in flights}:
                to_gate = self.tables.plain[sorts, g]
                sort_of[g] = int(sorts[np.lexsort((sorts, to_gate))[0]])
        bagset = make_bags(flights, sorts, gates, starting, config.seed, params, sort_of)
        self.schedule = Schedule(flights, bagset, gates)
        key = np.zeros(self.net.n, dtype=bool)
        key[[airport.index(n.id) for n in airport.nodes if n.kind != "junction"]] = True
        key[depots] = True
        key[list(starting)] = True
        key[bagset.origin] = True
        key[bagset.dest] = True
        self.tables.set_key_nodes(key)
        # each bag-aware recompute, reported to whoever watches the day (the GUI times and races
        # them): ``on_recompute(keys, result, started)``, ``keys`` the KeyGraph that solved
        self.on_recompute: Callable | None = None
        self.tables.keys.on_update = self._recomputed
        self.key_mask, self.depot_nodes = key, depots
        # what-if edits: closed gate -> the gate taking its flights; the day's plan before edits
        self.gate_map: dict[int, int] = {}
        self._origin0, self._dest0 = bagset.origin.copy(), bagset.dest.copy()
        self._flight_gate0 = [f.gate for f in flights]

        self.tugs: list[Tug] = []
        for i, (f, d) in enumerate(zip(fleets, depots)):
            count = f.count
            if config.tugs is not None:   # the requested total, shared out over the fleets
                count = config.tugs // len(fleets) + (1 if i < config.tugs % len(fleets) else 0)
            for _ in range(count):
                self.tugs.append(Tug(len(self.tugs), d, f.capacity, f.speed_mps, d, carts=f.carts))
        self.capacities = np.array([t.capacity for t in self.tugs], dtype=np.int64)
        self._load = [_NO_BAGS for _ in self.tugs]   # per tug, the bags on it in loading order

        self.bags = Bags(bagset, self.net.n, len(self.tugs))
        self.pickups = Pickups(self.bags, latest_departure(bagset, self.tables.plain_s), self.net.n)
        self.unavoidable = unavoidable(self.net, bagset, self.pickable,
                                       sorted({t.depot for t in self.tugs}))
        self._ready_ptr = 0
        self._deadline_order = np.lexsort((np.arange(len(bagset)), bagset.deadline))
        self._deadline_ptr = 0
        # the event scans read Python floats (a day makes ~10^5 of these look-ups), each list
        # ending in inf so a scan needs no bounds check
        self._ready = bagset.ready.tolist() + [math.inf]
        self._deadlines = bagset.deadline[self._deadline_order].tolist() + [math.inf]
        self._events: list[tuple[float, int, int, int]] = []
        self._seq = 0
        self._free: list[int] = [t.id for t in self.tugs]     # idle, to dispatch next round
        self._next_round = 0.0
        self._round_version = -1
        self.series: list[dict] = []
        self._next_sample = 0.0
        self.wall_s = time.perf_counter() - start

    # -- stepping ------------------------------------------------------------------------------
    def step(self, dt: float) -> None:
        """Advance ``dt`` simulated seconds (not past the end of the day)."""
        self.run_until(min(self.end_time, self.t + dt))

    def run_until(self, t_end: float, check: bool = False) -> None:
        """Process every event up to ``t_end``; with ``check``, verify conservation after each."""
        start = time.perf_counter()
        t_end = min(t_end, self.end_time)
        while True:
            t = self._next_time()
            if t > t_end:
                break
            self._advance(t)
            if check:
                self.check()
        self.t = max(self.t, t_end)
        self._sample_up_to(self.t)
        self.wall_s += time.perf_counter() - start

    @property
    def finished(self) -> bool:
        return self.t >= self.end_time

    def _next_time(self) -> float:
        t = self._ready[self._ready_ptr]
        if self._events and self._events[0][0] < t:
            t = self._events[0][0]
        if self._deadlines[self._deadline_ptr] < t:
            t = self._deadlines[self._deadline_ptr]
        if self._free and self.pickups.version != self._round_version:
            t = min(t, max(self._next_round, self.t))
        return float(t)

    def _advance(self, t: float) -> None:
        if self._next_sample <= t:
            self._sample_up_to(t)
        self.t = t
        b = self.bags.set
        # 1. bags becoming ready
        hi = self._ready_ptr
        while self._ready[hi] <= t:
            hi += 1
        if hi > self._ready_ptr:
            ids = np.arange(self._ready_ptr, hi)
            self.bags.appear(ids)
            self.pickups.add(ids)
            self._ready_ptr = hi
        if self.pickups.next_expiry < t:
            self.pickups.expire(t)
        # 2. tugs reaching stops and finishing them
        events = self._events
        while events and events[0][0] <= t:
            _, _, kind, k = heapq.heappop(events)
            if kind == ARRIVE:
                self._arrive(self.tugs[k])
            else:
                self._done(self.tugs[k])
        # 3. deadlines passing
        hi = self._deadline_ptr
        while self._deadlines[hi] <= t:
            hi += 1
        if hi > self._deadline_ptr:
            ids = self._deadline_order[self._deadline_ptr:hi]
            self._deadline_ptr = hi
            st = self.bags.state[ids]
            ids = ids[(st == WAITING) | (st == ON_TUG)]
            on_tugs = ids[self.bags.state[ids] == ON_TUG]
            waiting_free = ids[(self.bags.state[ids] == WAITING) & (self.bags.reserved[ids] < 0)]
            self.pickups.remove(waiting_free, b.origin[waiting_free])
            for k in np.unique(self.bags.tug[on_tugs]).tolist():
                self._unload(k, on_tugs)
            self.bags.misconnect(ids, t)
        # 4. a dispatch round for idle tugs
        if self._free and t >= self._next_round and self.pickups.version != self._round_version:
            self._round_version = self.pickups.version
            free, self._free = self._free, []
            idle = self.dispatcher.plan(self, [self.tugs[k] for k in free])
            for k in free:
                if k in idle:   # no job for it this round: it stays idle, still free
                    self._free.append(k)
                else:
                    self._dispatch(self.tugs[k])
            self._next_round = t + self.config.dispatch_tick_s

    def _schedule(self, t: float, kind: int, tug: Tug) -> None:
        self._seq += 1
        heapq.heappush(self._events, (t, self._seq, kind, tug.id))

    # -- tugs ----------------------------------------------------------------------------------
    def onboard(self, tug: Tug) -> np.ndarray:
        """The bags on ``tug``, in the order they were loaded (read-only)."""
        return self._load[tug.id]

    def _unload(self, tug_id: int, ids: np.ndarray) -> None:
        """Bags leave the tug's load (delivered or misconnected on board)."""
        load = self._load[tug_id]
        self._load[tug_id] = _frozen(load[~np.isin(load, ids)])

    def _promised(self, tug: Tug) -> np.ndarray:
        """Bags promised to ``tug`` that still wait for it."""
        ids = tug.pickup
        if len(ids):
            ids = tug.pickup = still_promised(ids, self.bags.state, self.bags.reserved, tug.id)
        return ids

    def _dispatch(self, tug: Tug) -> None:
        """Give a free tug its next leg: deliver what it carries, else fetch bags, else idle."""
        d = self.dispatcher
        pending = self._promised(tug)
        if len(pending):   # a stop on the way came first: now fetch the bags promised
            p = int(self.bags.node[pending[0]])
            if (self.bags.on_tug[tug.id] < tug.capacity and not tug.retired
                    and np.isfinite(self.tables.plain[tug.node, p])):   # an edit may cut it off
                self._drive(tug, p)
                return
            self.pickups.release(pending, self.t)
            tug.pickup = np.empty(0, dtype=np.int64)
        ids = self.onboard(tug)
        target = d.choose_delivery(self, tug, ids) if len(ids) else None
        if target is not None:
            self._drive(tug, target)
            return
        elif not tug.retired:
            job = d.choose_pickup(self, tug)
            if job is not None:
                p, pick = job
                self.bags.reserved[pick] = tug.id
                self.pickups.remove(pick, np.full(len(pick), p))
                tug.pickup = pick
                self._drive(tug, p)
                return
        tug.activity, tug.path = IDLE, np.empty(0, dtype=np.int64)
        if not tug.retired:
            self._free.append(tug.id)

    def _drive(self, tug: Tug, target: int, path: np.ndarray | None = None) -> None:
        """Start a leg to ``target``: the dispatcher's route (cut short at a stop on the way),
        or ``path`` as given."""
        if path is None:
            path = self.dispatcher.route(self, tug.node, target, self.bags.on_tug[tug.id] > 0)
            stop = self.dispatcher.stop_on_the_way(self, tug, path)
            if stop is not None:
                path = path[: int(np.flatnonzero(path == stop)[0]) + 1]
                target = stop
        self._start(tug, target, path, *self.net.leg(path, self.t))

    def _start(self, tug: Tug, target: int, path: np.ndarray, times: np.ndarray, seconds: float,
               length: float) -> None:
        """The tug drives ``path`` to ``target``, reaching its vertices at ``times``."""
        tug.start_leg(path, times, target)
        tug.distance_m += length
        tug.busy_s += seconds
        self._schedule(tug.busy_until, ARRIVE, tug)

    def _arrive(self, tug: Tug) -> None:
        """At a stop: load the bags promised here, and top up; unloading ends the stop (DONE)."""
        tug.node = p = tug.target
        tug.activity = HANDLING
        b, pk, k = self.bags, self.pickups, tug.id
        queue = pk.queue[p]
        (code, bad, created, bumps, refused, unloading, boarded, extra, load, tug.pickup,
         released, avail, topped) = arrive_at(
            p, k, tug.capacity, self._load[k], tug.pickup, np.array(queue, dtype=np.int64),
            self.pickable[p], self.dispatcher.first_come, tug.carts, self.t, pk.ldt, b.set.dest,
            b.state, b.node, b.tug, b.reserved, b.done_time, b.at_node, b.on_tug, b.counts,
            b._mark, pk.count, pk.live, pk.expired)
        b._moved(code, bad, created, bumps, refused, ON_TUG)
        self._load[k] = _frozen(load)
        if len(released):
            pk.release(released, self.t)
        if topped and len(avail) < len(queue):   # as ``Pickups.available`` compacts it
            pk.queue[p] = avail.tolist()
        if extra:
            pk.version += 1   # as ``Pickups.remove``
        handling = 0.0
        if boarded or extra or unloading:
            handling = STOP_S + PER_BAG_S * (boarded + extra + unloading)
        tug.busy_until = self.t + handling
        tug.busy_s += handling
        self._schedule(tug.busy_until, DONE, tug)

    def _done(self, tug: Tug) -> None:
        """The stop ends: the bags for it delivered, then the tug's next leg; a loaded tug with
        no bags promised to it goes on to its stand in the same compiled pass where the policy
        drives loaded tugs on the quickest route (``finish_at``), else ``_dispatch`` decides."""
        b, k, d, plain = self.bags, tug.id, self.dispatcher, self.tables.plain_routes
        load = self._load[k]
        code, bad, created, bumps, rest, target, *leg = finish_at(
            tug.node, self.t, load, d.loaded_plain and not len(tug.pickup), d.delivery,
            self.net.indptr, self.net.indices, plain.w, plain.dist_to, self.net.seconds,
            self.net.length_m, b.set.dest, b.set.deadline, self.tables.plain_s,
            self.tables.plain, b.state, b.node, b.tug, b.reserved, b.done_time, b.at_node,
            b.on_tug, b.counts, b._mark)
        b._moved(code, bad, created, bumps, load, DELIVERED)
        self._load[k] = _frozen(rest)
        if self.capacities[k] != tug.capacity:   # a capacity edit waits for the bags aboard
            self.capacities[k] = max(tug.capacity, int(b.on_tug[k]))
        if target >= 0:
            self._start(tug, target, *leg)
        else:
            self._dispatch(tug)

    def _recomputed(self, keys, result, started: float) -> None:
        if self.on_recompute is not None:
            self.on_recompute(keys, result, started)

    def set_variant(self, name: str) -> None:
        """Solve the next recomputes with ``name`` (a variant of the route engine's family)."""
        self.tables.variant = name

    def tug_nodes(self) -> np.ndarray:
        """The node each tug is at or last reached (where the route engine solves from)."""
        return np.array([t.node for t in self.tugs], dtype=np.int64)

    # -- what-if edits (``edits`` decides what changes; these carry it out in the running day) -----
    def set_roads(self, airport: Airport) -> list[Recompute]:
        """Drive on ``airport``'s roads, timed for its slowest fleet, from now on: both all-pairs
        solved again (returned), the latest departures and the reachable nodes re-derived, and a
        leg under way that would take a road no longer there turns off at its next node."""
        old = self.net
        net = RoadNetwork(airport, min(f.speed_mps for f in airport.fleets))
        tables = RouteTables(net, self.tables.variant, self.tables.policy, self.t,
                             self.tables.engine, self.tug_nodes)
        tables.set_key_nodes(self.key_mask)
        tables.keys.on_update = self._recomputed
        solves, tables.log = tables.log, self.tables.log + tables.log
        self.airport, self.net, self.tables = airport, net, tables
        self.pickable = usable_nodes(tables.plain, self.depot_nodes)
        self.pickups.retime(latest_departure(self.bags.set, tables.plain_s), self.t)
        for tug in self.tugs:
            if tug.activity == DRIVING:
                self._replan_leg(tug, old)
        return solves

    def _replan_leg(self, tug: Tug, old: RoadNetwork) -> None:
        """From the next node the tug reaches (it finishes the road it is on), the quickest route
        to its stop; or to the nearest key node it can still reach; or it stops there."""
        path, times = tug.path, tug.times
        s = int(np.searchsorted(times, self.t, side="left"))   # first node not yet passed
        ahead = path[s:]
        if len(ahead) < 2 or all(self.net.is_road(int(u), int(v))
                                 for u, v in zip(ahead[:-1], ahead[1:])):
            return
        w, target, plain = int(path[s]), tug.target, self.tables.plain
        if not np.isfinite(plain[w, target]):
            reach = np.flatnonzero(self.key_mask & np.isfinite(plain[w]))
            target = int(reach[np.lexsort((reach, plain[w, reach]))[0]]) if len(reach) else w
        new = self.tables.plain_route(w, target)
        old_rel, old_len = old.leg_times(ahead)
        rel, length = self.net.leg_times(new)
        tug.start_leg(np.concatenate([path[:s], new]),
                      np.concatenate([times[:s], times[s] + rel]), target)
        tug.distance_m += length - old_len
        tug.busy_s += float(rel[-1] - old_rel[-1])
        self._events = [e for e in self._events if e[3] != tug.id]
        heapq.heapify(self._events)
        self._schedule(tug.busy_until, ARRIVE, tug)

    def set_gate_map(self, gate_map: dict[int, int]) -> None:
        """Closed gates, each with the gate taking its flights (node indices; chains followed):
        every bag not yet delivered or lost goes to its flight's gate as mapped, bags not yet
        unloaded appear there, flights not yet gone move there."""
        self.gate_map = dict(gate_map)
        to = np.arange(self.net.n)
        for g in gate_map:
            h = g
            while h in gate_map:
                h = gate_map[h]
            to[g] = h
        b = self.bags
        open_ = b.state <= ON_TUG
        b.set.dest[open_] = to[self._dest0[open_]]
        pending = b.state == PENDING
        b.set.origin[pending] = to[self._origin0[pending]]
        self.schedule.flights = [replace(f, gate=int(to[g0])) if f.departure > self.t else f
                                 for f, g0 in zip(self.schedule.flights, self._flight_gate0)]
        self.pickups.retime(latest_departure(b.set, self.tables.plain_s), self.t)

    def add_tug(self, depot: int, capacity: int, speed_mps: float, carts: int = 0) -> Tug:
        """A new tug, idle at ``depot`` and free for the next dispatch round."""
        tug = Tug(len(self.tugs), depot, capacity, speed_mps, depot, carts=carts)
        self.tugs.append(tug)
        self.capacities = np.append(self.capacities, capacity)
        self._load.append(_NO_BAGS)
        self.bags.on_tug = np.append(self.bags.on_tug, 0)
        self._free.append(tug.id)
        self._round_version = -1
        return tug

    def set_in_service(self, tug: Tug, on: bool) -> None:
        """A retired tug takes no new job: it delivers what it carries, then parks where it is."""
        tug.retired = not on
        if tug.activity == IDLE and on and tug.id not in self._free:
            self._free.append(tug.id)
            self._round_version = -1
        elif tug.activity == IDLE and not on and tug.id in self._free:
            self._free.remove(tug.id)

    def set_capacity(self, tug: Tug, capacity: int) -> None:
        """Less room applies once the bags aboard fit (they are never put down on the road)."""
        tug.capacity = capacity
        self.capacities[tug.id] = max(capacity, int(self.bags.on_tug[tug.id]))

    def send(self, tug: Tug, node: int) -> None:
        """An idle tug in service drives to ``node`` on the quickest route (a new depot)."""
        if (tug.activity != IDLE or tug.retired or tug.node == node
                or not np.isfinite(self.tables.plain[tug.node, node])):
            return
        if tug.id in self._free:
            self._free.remove(tug.id)
        self._drive(tug, node, self.tables.plain_route(tug.node, node))

    # -- what the GUI and the tests read ---------------------------------------------------------
    def check(self) -> None:
        """Bags conserved, no tug over capacity, and every promised bag has a tug coming for it
        (``ConservationError`` otherwise)."""
        self.bags.check(self.capacities)
        reserved = np.flatnonzero(self.bags.reserved >= 0)
        promised = np.zeros(len(self.bags.reserved), dtype=bool)
        for tug in self.tugs:
            promised[tug.pickup] = True
        if not promised[reserved].all():
            raise ConservationError(f"bag {reserved[~promised[reserved]][0]} is promised to a "
                                    "tug that is not coming for it")
        for tug in self.tugs:
            load = self._load[tug.id]
            if (len(load) != self.bags.on_tug[tug.id]
                    or (len(load) and (self.bags.tug[load] != tug.id).any())):
                raise ConservationError(f"tug {tug.id}'s load list {load.tolist()} does not match "
                                        "the bags on it")

    def tug_positions(self) -> np.ndarray:
        """(tugs × 2) x, y in metres, interpolated along the road each tug is driving."""
        out = np.empty((len(self.tugs), 2))
        for i, tug in enumerate(self.tugs):
            out[i, 0], out[i, 1], *_ = tug.position(self.t, self.net.x, self.net.y)
        return out

    def tug_states(self) -> list[dict]:
        """Per tug: position, road being driven (u, v, fraction), activity, load, current route."""
        rows = []
        for tug in self.tugs:
            x, y, u, v, f = tug.position(self.t, self.net.x, self.net.y)
            rows.append({"id": tug.id, "x": x, "y": y, "u": u, "v": v, "fraction": f,
                         "activity": tug.activity, "load": int(self.bags.on_tug[tug.id]),
                         "capacity": tug.capacity,
                         "route": tug.path.tolist() if tug.activity == DRIVING else []})
        return rows

    def routes(self) -> dict[int, list[int]]:
        """Current route (node indices) of every driving tug."""
        return {t.id: t.path.tolist() for t in self.tugs if t.activity == DRIVING}

    def bags_per_node(self) -> np.ndarray:
        """Waiting bags at each node, in node order."""
        return self.bags.at_node.copy()

    def kpis(self) -> dict:
        return summary(self)

    def snapshot(self) -> "Snapshot":
        """Copies of what the map and plots draw, safe to hand to another thread (a Qt signal)."""
        return Snapshot(self.t, self.tug_positions(), self.bags_per_node(), self.routes(),
                        np.array([t.activity for t in self.tugs]), self.bags.on_tug.copy(),
                        sample(self), self.finished)

    def _sample_up_to(self, t: float) -> None:
        while self._next_sample <= t:
            saved, self.t = self.t, self._next_sample
            self.series.append(sample(self))
            self.t = saved
            self._next_sample += self.config.kpi_every_s
