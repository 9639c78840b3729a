"""The simulation a GUI worker thread or the headless command steps: ``step(dt)``, ``run_until(t)``.

Event-driven inside a step: bags become ready, tugs reach stops and finish handling, deadlines pass
(a bag not delivered by its deadline is misconnected, wherever it is). Idle tugs are dispatched in
rounds every ``dispatch_tick_s`` simulated seconds; a tug that finishes a stop is dispatched at
once. Nothing depends on wall-clock time, so the same inputs and seed give the same day. The
events run in one compiled loop (``engine.sim.loop``, docs/event-loop.md) that returns here for
what only Python does: a KPI sample, the fleet's round plan, a bag-aware solve.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, replace
from typing import Callable

import numpy as np

from ..airport.layout import Airport
from .bags import Bags, ConservationError
from .bound import unavoidable
from .dispatch import (DEFAULT_POLICY, Pickups, RecomputePolicy, RouteTables, latest_departure,
                       make_dispatcher)
from .kpi import sample, summary
from .network import RoadNetwork
from .running_edits import RunningEdits
from .schedule import (Flight, Schedule, ScheduleParams, generate_flights, make_bags,
                       usable_nodes)
from .loop.driver import DayLoop
from .tugs import DRIVING, Tug, TugTable


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
    bags_per_node: np.ndarray    # waiting bags per node, node order
    routes: dict[int, list[int]]  # tug id -> node indices of the route it is driving
    activity: np.ndarray         # per tug: 0 idle, 1 driving, 2 handling
    load: np.ndarray             # bags on each tug
    kpis: dict                   # the KPI sample at t (created, waiting, on_tug, ..., mbr)
    finished: bool


class Simulation(RunningEdits):
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

        self.tug_table = TugTable()
        self.tugs: list[Tug] = []
        for i, (f, d) in enumerate(zip(fleets, depots)):
            count = f.count
            if config.tugs is not None:   # the requested total, shared out over the fleets
                count = config.tugs // len(fleets) + (1 if i < config.tugs % len(fleets) else 0)
            for _ in range(count):
                self.tugs.append(self.tug_table.add(d, f.capacity, f.speed_mps, carts=f.carts))
        self.capacities = np.array([t.capacity for t in self.tugs], dtype=np.int64)

        self.bags = Bags(bagset, self.net.n, len(self.tugs))
        self.pickups = Pickups(self.bags, latest_departure(bagset, self.tables.plain_s), self.net.n)
        self.unavoidable = unavoidable(self.net, bagset, self.pickable,
                                       sorted({t.depot for t in self.tugs}))
        self.deadline_order = np.lexsort((np.arange(len(bagset)), bagset.deadline))
        # when bags become ready and their deadlines, each ending in inf (no bounds check)
        self.ready = np.append(bagset.ready.astype(np.float64), math.inf)
        self.deadlines = np.append(bagset.deadline[self.deadline_order].astype(np.float64),
                                    math.inf)
        self.series: list[dict] = []
        self.next_sample = 0.0
        self.loop = DayLoop(self)   # the events, the free tugs, where the loop stopped
        self.wall_s = time.perf_counter() - start

    # -- stepping ------------------------------------------------------------------------------
    def step(self, dt: float) -> None:
        """Advance ``dt`` simulated seconds (not past the end of the day)."""
        self.run_until(min(self.end_time, self.t + dt))

    def run_until(self, t_end: float, check: bool = False) -> None:
        """Process every event up to ``t_end``; with ``check``, verify conservation after each."""
        start = time.perf_counter()
        t_end = min(t_end, self.end_time)
        self.loop.run(self, t_end, check)
        self.t = max(self.t, t_end)
        self.sample_up_to(self.t)
        self.wall_s += time.perf_counter() - start

    @property
    def finished(self) -> bool:
        return self.t >= self.end_time

    def _recomputed(self, keys, result, started: float) -> None:
        if self.on_recompute is not None:
            self.on_recompute(keys, result, started)

    def set_variant(self, name: str) -> None:
        """Solve the next recomputes with ``name`` (a variant of the route engine's family)."""
        self.tables.variant = name

    def onboard(self, tug: Tug) -> np.ndarray:
        """The bags on ``tug``, in the order they were loaded (read-only)."""
        return self.tug_table.row("load", tug.id)

    def tug_nodes(self) -> np.ndarray:
        """The node each tug is at or last reached (where the route engine solves from)."""
        return np.array([t.node for t in self.tugs], dtype=np.int64)

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
            load = self.onboard(tug)
            if (len(load) != self.bags.on_tug[tug.id]
                    or (len(load) and (self.bags.tug[load] != tug.id).any())):
                raise ConservationError(f"tug {tug.id}'s load list {load.tolist()} does not match "
                                        "the bags on it")

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
        return Snapshot(self.t, self.bags_per_node(), self.routes(),
                        np.array([t.activity for t in self.tugs]), self.bags.on_tug.copy(),
                        sample(self), self.finished)

    def sample_up_to(self, t: float) -> None:
        """The KPI samples due up to ``t`` appended to ``series``."""
        while self.next_sample <= t:
            saved, self.t = self.t, self.next_sample
            self.series.append(sample(self))
            self.t = saved
            self.next_sample += self.config.kpi_every_s
