"""A tug's legs in the running day: dispatched (deliver what it carries, else fetch bags, else
idle), driving to a stop, arriving (bags boarded), finishing (bags delivered) — each tug has at
most one event (ARRIVE or DONE) waiting in the day's heap. The compiled pieces of a stop are in
``stops``; ``Simulation`` holds the state these methods read and change.
"""

from __future__ import annotations

import heapq

import numpy as np

from .dispatch import PER_BAG_S, STOP_S
from .stops import count_to, split_promised, still_promised
from .tugs import HANDLING, IDLE, Tug

ARRIVE, DONE = 0, 1


class TugLegs:
    """The tug events of ``Simulation`` (a mixin: it needs the day's bags, pickups, tables,
    dispatcher, tugs (``tug_table``) and the event heap ``_events``)."""

    def _schedule(self, t: float, kind: int, tug: Tug) -> None:
        self._seq += 1
        heapq.heappush(self._events, (t, self._seq, kind, tug.id))

    def onboard(self, tug: Tug) -> np.ndarray:
        """The bags on ``tug``, in the order they were loaded (read-only)."""
        return self.tug_table.row("load", tug.id)

    def _unload(self, tug_id: int, ids: np.ndarray) -> None:
        """Bags leave the tug's load (delivered or misconnected on board)."""
        load = self.tug_table.row("load", tug_id)
        self.tug_table.set_row("load", tug_id, load[~np.isin(load, ids)])

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
        times, seconds, length = self.net.leg(path, self.t)
        tug.start_leg(path, times, target)
        tug.distance_m += length
        tug.busy_s += seconds
        self._schedule(tug.busy_until, ARRIVE, tug)

    def _arrive(self, tug: Tug) -> None:
        """At a stop: load the bags promised here, and top up; unloading ends the stop (DONE)."""
        tug.node = p = tug.target
        tug.activity = HANDLING
        b, k, cap = self.bags, tug.id, tug.capacity
        onboard = self.onboard(tug)
        unloading = count_to(onboard, b.set.dest, p) if len(onboard) else 0
        loading = 0
        if len(tug.pickup):
            promised, tug.pickup = split_promised(tug.pickup, b.state, b.reserved, b.node, k, p)
            room = max(0, cap - int(b.on_tug[k]))   # < 0 after a capacity edit
            if len(promised) > room:
                self.pickups.release(promised[room:], self.t)
                promised = promised[:room]
            if len(promised):
                self._board(tug, promised)
                loading = len(promised)
        if self.pickable[p]:
            room = cap - int(b.on_tug[k])
            if room > 0:
                extra = self.dispatcher.top_up(self, tug, p)[:room]
                if len(extra):
                    self.pickups.remove(extra, np.full(len(extra), p))
                    self._board(tug, extra)
                    loading += len(extra)
        handling = 0.0
        if loading or unloading:
            handling = STOP_S + PER_BAG_S * (loading + unloading)
        tug.busy_until = self.t + handling
        tug.busy_s += handling
        self._schedule(tug.busy_until, DONE, tug)

    def _board(self, tug: Tug, ids: np.ndarray) -> None:
        """Waiting bags ``ids`` loaded onto ``tug``, after those already on it."""
        self.bags.load(ids, tug.id, tug.capacity)
        self.tug_table.set_row("load", tug.id, np.concatenate([self.onboard(tug), ids]))

    def _done(self, tug: Tug) -> None:
        onboard = self.onboard(tug)
        if len(onboard):
            self.tug_table.set_row("load", tug.id, self.bags.deliver_at(onboard, tug.node, self.t))
        if self.capacities[tug.id] != tug.capacity:   # a capacity edit waits for the bags aboard
            self.capacities[tug.id] = max(tug.capacity, int(self.bags.on_tug[tug.id]))
        self._dispatch(tug)
