"""The simple dispatch rules: each empty tug chooses alone, greedily, when it becomes free.

- ``shortest-path`` (the paper's decision system): the pickup closest on the bag-aware distances
  (less a bonus per bag waiting there), the most urgent bags there that can still make their
  flight, the nearest destination whose bags can still make it; bag-aware routes, stopping on
  the way wherever such bags wait and it has room.
- ``earliest-deadline`` (EDF): the pickup holding the most urgent bag it can still save, the most
  urgent bags there, the destination of the most urgent bag on board; quickest routes.
- ``baseline`` (nearest job): the nearest node with bags on plain travel time, bags first come
  first served, the nearest destination next; quickest routes.
"""

from __future__ import annotations

import numba
import numpy as np

from ...airport.cost import DECISECONDS
from .pickups import STOP_S, urgent_bags, within_carts


class Dispatcher:
    """What the simulation asks a dispatcher (``Simulation._dispatch``). ``plan`` sees every
    tug free in a dispatch round at once, before each is dispatched, and returns the ids of
    those it has no job for (they stay idle, not asked again this round); a rule plans none."""

    name = label = description = ""

    def plan(self, sim, tugs) -> set[int]:
        return set()

    def select(self, sim, tug, p: int, arrive: float) -> np.ndarray:
        return urgent_bags(sim, tug, p, arrive)

    def top_up(self, sim, tug, node: int) -> np.ndarray:
        """Bags a tug takes where it stops, beside those promised to it."""
        return self.select(sim, tug, node, sim.t)

    def route(self, sim, i: int, j: int, loaded: bool = False) -> np.ndarray:
        return sim.tables.plain_route(i, j)

    def stop_on_the_way(self, sim, tug, path: np.ndarray) -> int | None:
        return None


class ShortestPathDispatcher(Dispatcher):
    """The paper's decision system: bag-aware all-pairs distances pick the job, bag-aware routes
    take the tug there, and the tug collects bags waiting where its route passes."""

    name = "shortest-path"
    label = "Shortest path (paper)"
    description = ("Each free tug alone: the pickup closest on bag-aware all-pairs distance, "
                   "bag-aware routes, bags collected on the way.")
    bag_bonus_s = 5.0         # a pickup looks this many seconds closer per bag waiting there
    candidates = 8            # pickups tried, best score first, until one has bags to take
    # Settings measured and kept (README/notes: MBR on regional and the hub, seed 0):
    bag_routes = True         # drive bag-aware routes (False: quickest routes)
    collect_on_the_way = True  # stop where the route passes bags that can still make it

    def choose_pickup(self, sim, tug):
        """Closest pickup on bag-aware distance, less a bonus per live bag waiting there."""
        pk, tables, s, now = sim.pickups, sim.tables, tug.node, sim.t
        if sim.bags.on_tug[tug.id] >= tug.capacity:
            return None
        cands = pk.live_nodes(sim.pickable)
        cands = cands[np.isfinite(tables.plain_s[s, cands])]
        if not len(cands):
            return None
        bag = tables.bag_dist(now, pk.live, pk.version, s, cands)
        arrive = now + tables.plain_s[s, cands]
        score = bag / DECISECONDS - self.bag_bonus_s * np.minimum(pk.live[cands], tug.capacity)
        for k in np.lexsort((cands, score))[: self.candidates]:
            p = int(cands[k])
            ids = self.select(sim, tug, p, float(arrive[k]))
            if len(ids):
                return p, ids
        return None

    def choose_delivery(self, sim, tug, ids: np.ndarray) -> int | None:
        """Nearest destination among the bags on board that can still make it; None when none
        can (they ride along until their deadline passes, and the tug fetches others)."""
        tables = sim.tables
        best = _nearest_alive_dest(ids, sim.bags.set.dest, sim.bags.set.deadline,
                                   tables.plain_s[tug.node], tables.plain[tug.node], sim.t)
        return None if best < 0 else best

    def route(self, sim, i: int, j: int, loaded: bool = False) -> np.ndarray:
        if not self.bag_routes:
            return sim.tables.plain_route(i, j)
        sim.tables.refresh(sim.t, sim.pickups.live, sim.pickups.version)
        return sim.tables.bag_route(i, j)

    def stop_on_the_way(self, sim, tug, path: np.ndarray) -> int | None:
        """First node inside ``path`` where live bags wait that the tug has room for."""
        if (not self.collect_on_the_way or len(path) < 3
                or sim.bags.on_tug[tug.id] >= tug.capacity):
            return None
        inner = path[1:-1]
        for p in inner[(sim.pickups.live[inner] > 0) & sim.pickable[inner]].tolist():
            ids = sim.pickups.available(p)
            if len(within_carts(sim, tug, ids[sim.pickups.ldt[ids] >= sim.t + STOP_S])):
                return p
        return None


@numba.njit(cache=True, nogil=True)
def _nearest_alive_dest(ids, dest, deadline, plain_s_row, plain_row, now):
    """The destination nearest on ``plain_row`` (ties: lowest node) among bags ``ids`` that can
    still reach theirs by its deadline; -1 if none can."""
    best = -1
    for b in ids:
        d = dest[b]
        eta = now + plain_s_row[d] + STOP_S
        if np.isfinite(eta) and deadline[b] >= eta:
            if best < 0 or plain_row[d] < plain_row[best] or (
                    plain_row[d] == plain_row[best] and d < best):
                best = d
    return best


class EarliestDeadlineDispatcher(Dispatcher):
    """Earliest deadline first: each free tug alone serves the most urgent bag it can save."""

    name = "earliest-deadline"
    label = "Earliest deadline first"
    description = ("Each free tug alone: the pickup holding the most urgent bag it can still "
                   "save, most urgent bags first, quickest routes.")

    def choose_pickup(self, sim, tug):
        if sim.bags.on_tug[tug.id] >= tug.capacity:
            return None
        pk, plain_s = sim.pickups, sim.tables.plain_s
        ids = pk.free()
        ids = ids[sim.pickable[sim.bags.node[ids]]]
        arrive = sim.t + plain_s[tug.node, sim.bags.node[ids]]
        ids = ids[pk.ldt[ids] >= arrive + STOP_S]          # NaN-free: inf arrivals drop out
        for b in ids[np.lexsort((ids, sim.bags.set.deadline[ids]))][:8].tolist():
            p = int(sim.bags.node[b])
            pick = self.select(sim, tug, p, sim.t + float(plain_s[tug.node, p]))
            if len(pick):
                return p, pick
        return None

    def choose_delivery(self, sim, tug, ids: np.ndarray) -> int | None:
        """The destination of the most urgent bag on board that can still make it."""
        b = sim.bags.set
        eta = sim.t + sim.tables.plain_s[tug.node, b.dest[ids]] + STOP_S
        ok = ids[b.deadline[ids] >= eta]
        return int(b.dest[ok[np.lexsort((ok, b.deadline[ok]))[0]]]) if len(ok) else None


class NearestJobDispatcher(Dispatcher):
    name = "baseline"
    label = "Baseline (nearest job)"
    description = ("Each free tug alone: the nearest node with bags on plain travel time, bags "
                   "first come first served, quickest routes.")

    def choose_pickup(self, sim, tug):
        pk, s = sim.pickups, tug.node
        if sim.bags.on_tug[tug.id] >= tug.capacity:
            return None
        cands = np.flatnonzero((pk.count > 0) & sim.pickable)
        d = sim.tables.plain[s, cands]
        cands, d = cands[np.isfinite(d)], d[np.isfinite(d)]
        for k in np.lexsort((cands, d))[:8]:
            p = int(cands[k])
            ids = self.select(sim, tug, p, sim.t)
            if len(ids):
                return p, ids
        return None

    def select(self, sim, tug, p: int, arrive: float) -> np.ndarray:
        room = tug.capacity - sim.bags.on_tug[tug.id]
        return within_carts(sim, tug, sim.pickups.available(p))[:max(room, 0)]

    def choose_delivery(self, sim, tug, ids: np.ndarray) -> int | None:
        dest = np.unique(sim.bags.set.dest[ids])
        d = sim.tables.plain[tug.node, dest]
        ok = np.isfinite(d)
        if not ok.any():
            return None
        dest, d = dest[ok], d[ok]
        return int(dest[np.lexsort((dest, d))[0]])
