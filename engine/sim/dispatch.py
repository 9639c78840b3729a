"""Who goes where next: all-pairs tables and the two dispatch policies.

``RouteTables`` holds two all-pairs results from ``engine.apsp.solve``: plain tug travel time,
solved once (it never changes), and the paper's bag-aware cost for the bags now waiting, solved
again when the waiting bags change — on every change, or at most every N simulated seconds.

``ShortestPathDispatcher`` (the paper's decision system): an empty tug goes to the pickup that is
closest on the bag-aware distances (less a bonus per bag waiting), takes the most urgent bags
there that can still make their flight (bags already lost are not carried), delivers to the
nearest destination whose bags can still make it, drives bag-aware routes and stops on the way
wherever such bags wait and it has room.

``NearestJobDispatcher`` (the baseline): nearest node with bags on plain travel time, bags first
come first served up to capacity, nearest destination next, plain shortest routes.

Both load a tug as bags are loaded on the ramp, sorted by flight: each of its carts holds the bags
of one stand, so it takes bags for at most ``carts`` stands at once (``within_carts``).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Callable

import numba
import numpy as np

from ..airport.cost import DECISECONDS
from .bags import PENDING, WAITING, Bags
from .keygraph import KeyGraph
from .network import RoadNetwork, Router
from .route_engine import ALL_PAIRS, all_pairs_solver, check_engine, key_graph

STOP_S = 30.0        # hitch/unhitch carts at a stop
PER_BAG_S = 4.0      # load or unload one bag


@dataclass
class Recompute:
    t: float           # simulated seconds
    variant: str       # the variant that really ran
    seconds: float     # wall time of the solve
    kind: str          # "travel-time" (once) or "bag-aware"
    note: str | None = None


class RecomputePolicy:
    """'change' (solve whenever the waiting bags changed) or an interval in simulated seconds."""

    def __init__(self, spec: str | float):
        spec = str(spec).strip().lower()
        if spec in ("change", "every-change", "every"):
            self.interval = 0.0
        else:
            try:
                self.interval = float(spec.rstrip("s"))
            except ValueError:
                raise ValueError(f"recompute policy must be 'change' or a number of simulated "
                                 f"seconds, got {spec!r}") from None
            if not self.interval >= 0:
                raise ValueError(f"recompute interval must be >= 0, got {spec}")

    def __str__(self) -> str:
        return "every change" if self.interval == 0 else f"at most every {self.interval:g} s"


class RouteTables:
    """Plain travel time on the full road graph (solved once) and the bag-aware cost between key
    nodes (``KeyGraph``, solved again as the policy allows)."""

    def __init__(self, net: RoadNetwork, variant: str, policy: RecomputePolicy, t: float = 0.0,
                 engine: str = ALL_PAIRS):
        """``t``: the simulated time of the solves (0 at the start of a day; later when an edit
        changes the roads). ``engine``: a name of ``route_engine.ENGINES``; ``variant`` is one
        of its family (Floyd–Warshall or SSSP)."""
        self.net = net
        self.engine = check_engine(engine)
        self.variant = variant
        self.tug_nodes: Callable[[], np.ndarray] = lambda: np.empty(0, np.int64)  # set by the day
        self.policy = policy
        self.t0 = t
        self.log: list[Recompute] = []
        self.plain_w = net.time_matrix()
        r = all_pairs_solver(engine)(self.plain_w, variant)
        self.log.append(Recompute(t, r.variant, r.seconds, "travel-time", r.note))
        self.plain = r.dist                      # deciseconds
        self.plain_s = self.plain / DECISECONDS  # seconds
        self.keys: KeyGraph | None = None
        self._bag_version = None
        self._bag_time = -np.inf
        self.bag_counts = np.zeros(net.n, dtype=np.int64)

    def set_key_nodes(self, key: np.ndarray) -> None:
        """Where tugs stop and bags wait; solves the static junction subgraph once."""
        self.keys = key_graph(self.engine, self.net, key, self.variant, lambda: self.tug_nodes())
        for variant, seconds, note in self.keys.solves:
            self.log.append(Recompute(self.t0, variant, seconds, "junctions", note))

    def refresh(self, t: float, counts: np.ndarray, version: int) -> None:
        """Solve the bag-aware all-pairs again if the bags changed and the policy allows."""
        k = self.keys
        if not k.solved or (version != self._bag_version
                            and t - self._bag_time >= self.policy.interval):
            r = k.update(counts, self.variant)
            self.log.append(Recompute(t, r.variant, r.seconds + k.build_seconds, "bag-aware",
                                      r.note))
            self.bag_counts = counts.copy()
            self._bag_version, self._bag_time = version, t

    def bag_dist(self, t: float, counts: np.ndarray, version: int, s: int,
                 nodes: np.ndarray) -> np.ndarray:
        """Bag-aware distances (deciseconds) from key node ``s`` to key ``nodes`` (plain travel
        time from a junction, where an edit may leave a tug)."""
        if self.keys.kidx[s] < 0:
            return self.plain[s, nodes]
        self.refresh(t, counts, version)
        return self.keys.dist(s, nodes)

    def plain_route(self, i: int, j: int) -> np.ndarray:
        return self.plain_routes.route(i, j)

    @functools.cached_property
    def plain_routes(self) -> Router:
        return self.net.router(self.plain_w, self.plain)

    def bag_route(self, i: int, j: int) -> np.ndarray:
        k = self.keys
        if k is None or not k.solved or k.kidx[i] < 0 or k.kidx[j] < 0:
            return self.plain_route(i, j)
        path = self.keys.route(i, j)
        return path if len(path) else self.plain_route(i, j)


class Pickups:
    """Waiting bags not yet promised to a tug, per node in arrival order.

    ``count``: unpromised waiting bags per node. ``live``: those of them that can still make their
    deadline from where they wait (latest departure not passed) — what the bag-aware cost counts,
    so bags already lost do not pull routes towards them.
    """

    def __init__(self, bags: Bags, ldt: np.ndarray, n_nodes: int):
        self.bags = bags
        self.ldt = ldt                                     # latest departure from origin
        self.queue: list[list[int]] = [[] for _ in range(n_nodes)]
        self.count = np.zeros(n_nodes, dtype=np.int64)
        self.live = np.zeros(n_nodes, dtype=np.int64)
        self.expired = np.zeros(len(ldt), dtype=bool)     # no longer counted in ``live``
        self._order = np.lexsort((np.arange(len(ldt)), ldt))
        self._ldt_sorted = ldt[self._order].tolist()      # the sweep in ``expire`` reads these
        self._ptr = 0
        self.version = 0

    def add(self, ids: np.ndarray) -> None:
        origin = self.bags.set.origin
        nodes = origin[ids]
        for b, p in zip(ids.tolist(), nodes.tolist()):
            self.queue[p].append(b)
        _tally(ids, nodes, 1, self.count, self.live, self.expired)
        self.version += 1

    def remove(self, ids: np.ndarray, nodes: np.ndarray) -> None:
        """Bags that stop being available (promised, loaded, or misconnected while waiting),
        waiting at ``nodes`` (one per bag)."""
        if len(ids):
            _tally(ids, nodes, -1, self.count, self.live, self.expired)
            self.expired[ids] = True
            self.version += 1

    def release(self, ids: np.ndarray, t: float) -> None:
        """Promised bags a tug will not fetch after all: available again to every tug."""
        if not len(ids):
            return
        b = self.bags
        b.reserved[ids] = -1
        origin = b.set.origin
        for p in np.unique(origin[ids]).tolist():
            q = set(self.queue[p])
            self.queue[p].extend(x for x in ids[origin[ids] == p].tolist() if x not in q)
        np.add.at(self.count, origin[ids], 1)
        fresh = ids[self.ldt[ids] >= t]
        self.expired[fresh] = False     # the sweep in ``expire`` has not reached them yet
        np.add.at(self.live, origin[fresh], 1)
        self.version += 1

    def expire(self, t: float) -> None:
        """Bags whose latest departure has passed stop counting as live."""
        hi, ldt = self._ptr, self._ldt_sorted
        while hi < len(ldt) and ldt[hi] < t:
            hi += 1
        if hi == self._ptr:
            return
        ids = self._order[self._ptr:hi]
        self._ptr = hi
        b = self.bags
        ids = ids[~self.expired[ids]]
        self.expired[ids] = True
        waiting = ids[(b.state[ids] == WAITING) & (b.reserved[ids] < 0)]
        if len(waiting):
            np.subtract.at(self.live, b.node[waiting], 1)
            self.version += 1

    def retime(self, ldt: np.ndarray, t: float) -> None:
        """New latest departures (an edit changed the roads or the bags' gates): ``live`` and the
        sweep of ``expire`` re-derived at time ``t`` as if these had held all along."""
        b = self.bags
        self.ldt = ldt
        self._order = np.lexsort((np.arange(len(ldt)), ldt))
        self._ldt_sorted = ldt[self._order].tolist()
        self._ptr = int(np.searchsorted(ldt[self._order], t, side="left"))
        free = (b.state == WAITING) & (b.reserved < 0)
        self.expired = ~(free | (b.state == PENDING)) | (ldt < t)
        self.live = np.bincount(b.node[free & ~self.expired], minlength=len(self.live))
        self.version += 1

    def available(self, p: int) -> np.ndarray:
        """Unreserved waiting bags at ``p`` in arrival order (compacts the queue)."""
        q = self.queue[p]
        if not q:
            return np.empty(0, dtype=np.int64)
        ids = np.asarray(q, dtype=np.int64)
        ok = (self.bags.state[ids] == WAITING) & (self.bags.reserved[ids] < 0)
        ids = ids[ok]
        if not ok.all():
            self.queue[p] = ids.tolist()
        return ids


def latest_departure(bagset, plain_s: np.ndarray) -> np.ndarray:
    """When a bag must leave its origin to make its deadline on the quickest road route."""
    return bagset.deadline - plain_s[bagset.origin, bagset.dest] - STOP_S - PER_BAG_S


class ShortestPathDispatcher:
    """The paper's decision system: bag-aware all-pairs distances pick the job, bag-aware routes
    take the tug there, and the tug collects bags waiting where its route passes."""

    name = "shortest-path"
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
        cands = np.flatnonzero((pk.live > 0) & sim.pickable)
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

    def select(self, sim, tug, p: int, arrive: float) -> np.ndarray:
        """Bags at ``p`` that can still make their deadline if loaded at ``arrive``, most urgent
        first, as many as the tug has room for. Bags already lost are left for the deadline."""
        ids = sim.pickups.available(p)
        if not len(ids):
            return ids
        ids = ids[sim.pickups.ldt[ids] >= arrive + STOP_S]
        ids = within_carts(sim, tug, ids[np.lexsort((ids, sim.pickups.ldt[ids]))])
        return ids[: max(0, tug.capacity - int(sim.bags.on_tug[tug.id]))]

    def top_up(self, sim, tug, node: int) -> np.ndarray:
        return self.select(sim, tug, node, sim.t)

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


def within_carts(sim, tug, ids: np.ndarray) -> np.ndarray:
    """The bags of ``ids`` (kept in order) that ``tug`` can take when each of its carts is loaded
    for one stand, as bags are sorted by flight: bags for stands it already carries to, then
    bags for new stands while it has carts to spare."""
    if not tug.carts or not len(ids):
        return ids
    dest = sim.bags.set.dest
    return ids[_fits_carts(dest[ids], np.unique(dest[sim.onboard(tug)]), tug.carts)]


@numba.njit(cache=True, nogil=True)
def _fits_carts(dests, carried, carts):
    stands = np.empty(max(carts, carried.shape[0]), dtype=np.int64)
    n = carried.shape[0]
    stands[:n] = carried
    keep = np.zeros(dests.shape[0], dtype=np.bool_)
    for i in range(dests.shape[0]):
        for j in range(n):
            if stands[j] == dests[i]:
                keep[i] = True
                break
        if not keep[i] and n < carts:
            stands[n] = dests[i]
            n += 1
            keep[i] = True
    return keep


@numba.njit(cache=True, nogil=True)
def _tally(ids, nodes, sign, count, live, expired):
    """Count bags ``ids`` in (sign 1) or out of (-1) their nodes: ``count`` all of them,
    ``live`` those not yet expired."""
    for i in range(ids.shape[0]):
        count[nodes[i]] += sign
        if not expired[ids[i]]:
            live[nodes[i]] += sign


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


class NearestJobDispatcher:
    name = "baseline"

    def choose_pickup(self, sim, tug):
        pk, s = sim.pickups, tug.node
        if sim.bags.on_tug[tug.id] >= tug.capacity:
            return None
        cands = np.flatnonzero((pk.count > 0) & sim.pickable)
        d = sim.tables.plain[s, cands]
        cands, d = cands[np.isfinite(d)], d[np.isfinite(d)]
        for k in np.lexsort((cands, d))[:8]:
            p = int(cands[k])
            ids = self.select(sim, tug, p)
            if len(ids):
                return p, ids
        return None

    def select(self, sim, tug, p: int):
        room = tug.capacity - sim.bags.on_tug[tug.id]
        return within_carts(sim, tug, sim.pickups.available(p))[:max(room, 0)]

    def top_up(self, sim, tug, node: int):
        return self.select(sim, tug, node)

    def choose_delivery(self, sim, tug, ids: np.ndarray) -> int | None:
        dest = np.unique(sim.bags.set.dest[ids])
        d = sim.tables.plain[tug.node, dest]
        ok = np.isfinite(d)
        if not ok.any():
            return None
        dest, d = dest[ok], d[ok]
        return int(dest[np.lexsort((dest, d))[0]])

    def route(self, sim, i: int, j: int, loaded: bool = False) -> np.ndarray:
        return sim.tables.plain_route(i, j)

    def stop_on_the_way(self, sim, tug, path):
        return None


POLICIES = {"shortest-path": ShortestPathDispatcher, "baseline": NearestJobDispatcher}


def make_dispatcher(name: str):
    try:
        return POLICIES[name]()
    except KeyError:
        raise ValueError(f"unknown dispatch policy {name!r}; choose one of: "
                         + ", ".join(POLICIES)) from None

