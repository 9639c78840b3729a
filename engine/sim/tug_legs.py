"""A tug's legs in the running day: dispatched (deliver what it carries, else fetch bags, else
idle), driving to a stop, arriving (bags boarded), finishing (bags delivered) — each tug has at
most one event (ARRIVE or DONE) waiting in the day's heap. The compiled passes of a stop are in
``tug_stop``; ``Simulation`` holds the state these methods read and change.
"""

from __future__ import annotations

import heapq

import numpy as np

from .bags import DELIVERED, ON_TUG
from .dispatch import PER_BAG_S, STOP_S
from .stops import still_promised
from .tug_stop import arrive_at, finish_at
from .tugs import HANDLING, IDLE, Tug

ARRIVE, DONE = 0, 1


def _frozen(ids: np.ndarray) -> np.ndarray:
    ids.flags.writeable = False
    return ids


NO_BAGS = _frozen(np.empty(0, dtype=np.int64))


class TugLegs:
    """The tug events of ``Simulation`` (a mixin: it needs the day's bags, pickups, tables,
    dispatcher, tugs, their load lists ``_load`` and the event heap ``_events``)."""

    def _schedule(self, t: float, kind: int, tug: Tug) -> None:
        self._seq += 1
        heapq.heappush(self._events, (t, self._seq, kind, tug.id))

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
        """The stop ends: the bags for it delivered, then the tug's next leg. Where the policy
        drives loaded tugs on the quickest route and no bags are promised to this one, a tug
        still carrying bags goes on to its stand in the same compiled pass (``finish_at``);
        else ``_dispatch`` decides."""
        b, k, d, plain = self.bags, tug.id, self.dispatcher, self.tables.plain_routes
        load, target = self._load[k], -1
        if len(load) and d.loaded_plain and not len(tug.pickup):
            code, bad, created, bumps, rest, target, *leg = finish_at(
                tug.node, self.t, load, d.delivery, self.net.indptr, self.net.indices, plain.w,
                plain.dist_to, self.net.seconds, self.net.length_m, b.set.dest, b.set.deadline,
                self.tables.plain_s, self.tables.plain, b.state, b.node, b.tug, b.reserved,
                b.done_time, b.at_node, b.on_tug, b.counts, b._mark)
            b._moved(code, bad, created, bumps, load, DELIVERED)
            self._load[k] = _frozen(rest)
        elif len(load):
            self._load[k] = _frozen(b.deliver_at(load, tug.node, self.t))
        if self.capacities[k] != tug.capacity:   # a capacity edit waits for the bags aboard
            self.capacities[k] = max(tug.capacity, int(b.on_tug[k]))
        if target >= 0:
            self._start(tug, target, *leg)
        else:
            self._dispatch(tug)
