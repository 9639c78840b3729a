"""Where a loaded tug delivers next: each dispatch policy's rule, compiled, behind one call
(``stand_for``) that the dispatchers and the simulation's stop (``engine.sim.tug_stop``) share.

- ``FIRST_STAND`` (fleet): the first stand of the visiting order that delivers the most bags on
  time;
- ``NEAREST_ALIVE`` (shortest-path): the nearest destination whose bags can still make it;
- ``MOST_URGENT`` (earliest-deadline): the destination of the most urgent bag that can;
- ``NEAREST`` (baseline): the nearest reachable destination.
"""

from __future__ import annotations

import itertools

import numba
import numpy as np

from .pickups import PER_BAG_S, STOP_S

FIRST_STAND, NEAREST_ALIVE, MOST_URGENT, NEAREST = 0, 1, 2, 3


@numba.njit(cache=True, nogil=True)
def stand_for(rule, ids, dest, deadline, plain_s, plain, at, now):
    """Where a tug at ``at`` carrying bags ``ids`` goes next at ``now`` by ``rule``; -1: none
    (no bag on board can still make it, or no destination is reachable)."""
    if rule == FIRST_STAND:
        return _first_stand(ids, dest, deadline, plain_s, at, now, _ORDERS, _ORDERS_AT)
    if rule == NEAREST_ALIVE:
        return _nearest_alive(ids, dest, deadline, plain_s[at], plain[at], now)
    best = -1
    for b in ids:
        d = dest[b]
        if rule == MOST_URGENT:   # by deadline, then bag id
            if deadline[b] >= now + plain_s[at, d] + STOP_S and (
                    best < 0 or deadline[b] < deadline[best]
                    or (deadline[b] == deadline[best] and b < best)):
                best = b
        elif np.isfinite(plain[at, d]) and (best < 0 or plain[at, d] < plain[at, best]
                                            or (plain[at, d] == plain[at, best] and d < best)):
            best = d
    return dest[best] if rule == MOST_URGENT and best >= 0 else best


@numba.njit(cache=True, nogil=True)
def _nearest_alive(ids, dest, deadline, plain_s_row, plain_row, now):
    """``NEAREST_ALIVE``: the destination nearest on ``plain_row`` (ties: lowest node) among
    bags ``ids`` that can still reach theirs by its deadline; -1 if none can."""
    best = -1
    for b in ids:
        d = dest[b]
        eta = now + plain_s_row[d] + STOP_S
        if np.isfinite(eta) and deadline[b] >= eta:
            if best < 0 or plain_row[d] < plain_row[best] or (
                    plain_row[d] == plain_row[best] and d < best):
                best = d
    return best


# every visiting order of k = 1-4 stands: rows _ORDERS_AT[k - 1] to _ORDERS_AT[k], k columns used
_ORDERS = np.array([p + (0,) * (4 - k) for k in range(1, 5)
                    for p in itertools.permutations(range(k))], dtype=np.int64)
_ORDERS_AT = np.cumsum([0, 1, 2, 6, 24])


@numba.njit(cache=True, nogil=True)
def _first_stand(ids, dest, deadline, plain_s, at, now, orders, orders_at):
    """``FIRST_STAND``: the first stand of the visiting order (of up to 4 stands) that delivers
    the most bags on time, then soonest; more than 4 stands: the nearest; -1: none."""
    alive = ids[deadline[ids] >= now + plain_s[at, dest[ids]] + STOP_S]
    if alive.shape[0] == 0:
        return -1
    alive = alive[np.argsort(deadline[alive], kind="mergesort")]
    alive = alive[np.argsort(dest[alive], kind="mergesort")]   # by stand, then deadline
    d = dest[alive]
    starts = [0]
    for i in range(1, d.shape[0]):
        if d[i] != d[i - 1]:
            starts.append(i)
    k = len(starts)
    starts.append(d.shape[0])
    if k > 4:
        best = -1
        for s in starts[:-1]:
            if best < 0 or plain_s[at, d[s]] < plain_s[at, best]:
                best = d[s]
        return best
    dl = deadline[alive]
    best, best_on, best_t = -1, -1, np.inf
    for r in range(orders_at[k - 1], orders_at[k]):
        t, u, on = now, at, 0
        for c in range(k):
            lo, hi = starts[orders[r, c]], starts[orders[r, c] + 1]
            t += plain_s[u, d[lo]] + STOP_S + PER_BAG_S * (hi - lo)
            on += hi - lo - np.searchsorted(dl[lo:hi], t)
            u = d[lo]
        if on > best_on or (on == best_on and t < best_t):
            best, best_on, best_t = d[starts[orders[r, 0]]], on, t
    return best
