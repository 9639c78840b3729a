"""What-if edits carried out in the running day (``engine.sim.edits`` decides what changes):
new roads, closed gates, tugs added, retired, resized or sent to a new depot.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from ..airport.layout import Airport
from .bags import ON_TUG, PENDING
from .dispatch import Recompute, RouteTables, latest_departure
from .network import RoadNetwork
from .schedule import usable_nodes
from .loop.codes import ARRIVE
from .tugs import DRIVING, IDLE, Tug


class RunningEdits:
    """The edits ``Simulation`` carries out (a mixin over its state)."""

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
        self.loop.heap.drop_tug(tug.id)
        self.loop.schedule(tug.busy_until, ARRIVE, tug.id)

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
        tug = self.tug_table.add(depot, capacity, speed_mps, carts)
        self.tugs.append(tug)
        self.capacities = np.append(self.capacities, capacity)
        self.bags.on_tug = np.append(self.bags.on_tug, 0)
        self.loop.grow(len(self.tugs))
        self.loop.set_free(self.loop.free() + [tug.id])
        self.loop.new_round()
        return tug

    def set_in_service(self, tug: Tug, on: bool) -> None:
        """A retired tug takes no new job: it delivers what it carries, then parks where it is."""
        tug.retired = not on
        free = self.loop.free()
        if tug.activity == IDLE and on and tug.id not in free:
            self.loop.set_free(free + [tug.id])
            self.loop.new_round()
        elif tug.activity == IDLE and not on and tug.id in free:
            free.remove(tug.id)
            self.loop.set_free(free)

    def set_capacity(self, tug: Tug, capacity: int) -> None:
        """Less room applies once the bags aboard fit (they are never put down on the road)."""
        tug.capacity = capacity
        self.tug_table.widen(capacity)
        self.capacities[tug.id] = max(capacity, int(self.bags.on_tug[tug.id]))

    def send(self, tug: Tug, node: int) -> None:
        """An idle tug in service drives to ``node`` on the quickest route (a new depot)."""
        if (tug.activity != IDLE or tug.retired or tug.node == node
                or not np.isfinite(self.tables.plain[tug.node, node])):
            return
        free = self.loop.free()
        if tug.id in free:
            free.remove(tug.id)
            self.loop.set_free(free)
        self.loop.drive_on(self, tug.id, self.tables.plain_route(tug.node, node), node)
