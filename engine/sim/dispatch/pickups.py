"""Waiting bags as dispatchers see them: per pickup node, in arrival order, with the latest time
each can leave its origin and still make its flight; and how bags fit a tug's carts.

Tugs load bags as they are loaded on the ramp, sorted by flight: each of its carts holds the bags
of one stand, so it takes bags for at most ``carts`` stands at once (``within_carts``).
"""

from __future__ import annotations

import math

import numba
import numpy as np

from ..bags import ON_TUG, PENDING, WAITING, Bags
from ..loop.queues import Queues

STOP_S = 30.0        # hitch/unhitch carts at a stop
PER_BAG_S = 4.0      # load or unload one bag


class Pickups:
    """Waiting bags not yet promised to a tug, per node in arrival order (the compiled loop adds,
    removes, releases and expires them: ``engine/sim/loop/bagops.py``).

    ``count``: unpromised waiting bags per node. ``live``: those of them that can still make their
    deadline from where they wait (latest departure not passed) — what the bag-aware cost counts,
    so bags already lost do not pull routes towards them.
    """

    def __init__(self, bags: Bags, ldt: np.ndarray, n_nodes: int):
        self.bags = bags
        self.ldt = ldt                                     # latest departure from origin
        self.queues = Queues(n_nodes, len(ldt))              # per node, in arrival order
        self.count = np.zeros(n_nodes, dtype=np.int64)
        self.live = np.zeros(n_nodes, dtype=np.int64)
        self.expired = np.zeros(len(ldt), dtype=bool)     # no longer counted in ``live``
        self.ldt_order = np.lexsort((np.arange(len(ldt)), ldt))
        self.ldt_sorted = _swept(ldt[self.ldt_order])     # the expiry sweep reads these
        self.swept_to = 0
        self.next_expiry = self.ldt_sorted[0]             # the sweep has work after this time
        self.free_lo = self.free_hi = 0                   # ``free`` looks at bags lo..hi-1
        self.version = 0
        self._nodes_key: tuple = (None, None)             # ``live_nodes``' cache: version, mask
        self._nodes = np.empty(0, dtype=np.int64)

    def retime(self, ldt: np.ndarray, t: float) -> None:
        """New latest departures (an edit changed the roads or the bags' gates): ``live`` and the
        expiry sweep re-derived at time ``t`` as if these had held all along."""
        b = self.bags
        self.ldt = ldt
        self.ldt_order = np.lexsort((np.arange(len(ldt)), ldt))
        self.ldt_sorted = _swept(ldt[self.ldt_order])
        self.swept_to = int(np.searchsorted(ldt[self.ldt_order], t, side="left"))
        self.next_expiry = self.ldt_sorted[self.swept_to]
        free = (b.state == WAITING) & (b.reserved < 0)
        self.expired = ~(free | (b.state == PENDING)) | (ldt < t)
        self.live = np.bincount(b.node[free & ~self.expired], minlength=len(self.live))
        self.version += 1

    def arrays(self) -> tuple:
        """What the compiled loop's moves take (``engine/sim/loop/bagops.py``)."""
        q = self.queues
        return (self.count, self.live, self.expired, self.ldt, self.ldt_order, self.ldt_sorted,
                q.head, q.tail, q.nxt, q.queued)

    def live_nodes(self, mask: np.ndarray | None = None) -> np.ndarray:
        """Nodes (of ``mask``, if given) where live bags wait, read-only; kept until the bags
        change (``version``), as every idle tug of a dispatch round asks the same."""
        version, last = self._nodes_key
        if version != self.version or last is not mask:
            self._nodes = live_at(self.live, mask)
            self._nodes.flags.writeable = False
            self._nodes_key = (self.version, mask)
        return self._nodes

    def free(self) -> np.ndarray:
        """Every waiting bag not promised to a tug, by id. Bags appear in id order, so only ids
        from the oldest bag not yet delivered or lost up to the newest one can wait."""
        self.free_lo, ids = free_from(self.bags.state, self.bags.reserved, self.free_lo, self.free_hi)
        return ids


def _swept(ldt: np.ndarray) -> np.ndarray:
    """Sorted latest departures ending in inf (the sweep needs no bounds check)."""
    return np.append(ldt.astype(np.float64), math.inf)


@numba.njit(cache=True, nogil=True)
def bags_to_take(ids, ldt, leave, dest, carried, carts, room):
    """The bags a tug takes at a stop (``loop.policies.urgent``): the bags of ``ids`` that can
    leave at ``leave``, by latest departure then id, that fit the carts (``carts`` 0: any), at
    most ``room``. Bags already lost are left for the deadline (no tug chases them)."""
    ids = ids[ldt[ids] >= leave]
    ids = ids[np.argsort(ids, kind="mergesort")]
    ids = ids[np.argsort(ldt[ids], kind="mergesort")]
    if carts:
        ids = ids[fits_carts(dest[ids], dest[carried], carts)]
    return ids[:room].copy()


def latest_departure(bagset, plain_s: np.ndarray) -> np.ndarray:
    """When a bag must leave its origin to make its deadline on the quickest road route."""
    return bagset.deadline - plain_s[bagset.origin, bagset.dest] - STOP_S - PER_BAG_S


def within_carts(sim, tug, ids: np.ndarray) -> np.ndarray:
    """The bags of ``ids`` (kept in order) that ``tug`` can take when each of its carts is loaded
    for one stand, as bags are sorted by flight: bags for stands it already carries to, then
    bags for new stands while it has carts to spare."""
    if not tug.carts or not len(ids):
        return ids
    dest = sim.bags.set.dest
    return ids[fits_carts(dest[ids], dest[sim.onboard(tug)], tug.carts)]


@numba.njit(cache=True, nogil=True)
def fits_carts(dests, carried, carts):
    """Which ``dests`` fit: a stand already ``carried`` to (repeats allowed), else a new one
    while carts are spare."""
    stands = np.empty(max(carts, carried.shape[0]), dtype=np.int64)
    n = 0
    for c in carried:
        if c not in stands[:n]:
            stands[n] = c
            n += 1
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
def expire_passed(ids, expired, state, reserved, node, live):
    """Expiry (``loop.bagops.expire``) of the bags ``ids`` whose latest departure passed: each counted in
    ``live`` no more; whether one waiting unpromised left it."""
    changed = False
    for b in ids:
        if not expired[b]:
            expired[b] = True
            if state[b] == WAITING and reserved[b] < 0:
                live[node[b]] -= 1
                changed = True
    return changed


@numba.njit(cache=True, nogil=True)
def tally(ids, nodes, sign, count, live, expired):
    """Count bags ``ids`` in (sign 1) or out of (-1) their nodes: ``count`` all of them,
    ``live`` those not yet expired."""
    for i in range(ids.shape[0]):
        count[nodes[i]] += sign
        if not expired[ids[i]]:
            live[nodes[i]] += sign


@numba.njit(cache=True, nogil=True)
def free_from(state, reserved, lo, hi):
    """``Pickups.free``: the first of bags lo..hi-1 not yet delivered or lost, and the waiting
    unpromised bags from there on."""
    while lo < hi and state[lo] > ON_TUG:
        lo += 1
    ids = np.empty(hi - lo, dtype=np.int64)
    m = 0
    for b in range(lo, hi):
        if state[b] == WAITING and reserved[b] < 0:
            ids[m] = b
            m += 1
    return lo, ids[:m].copy()


@numba.njit(cache=True, nogil=True)
def live_at(live, mask):
    """``Pickups.live_nodes``: the nodes (of ``mask``, unless None) where ``live`` > 0."""
    out = np.empty(live.shape[0], dtype=np.int64)
    m = 0
    for p in range(live.shape[0]):
        if live[p] > 0 and (mask is None or mask[p]):
            out[m] = p
            m += 1
    return out[:m].copy()
