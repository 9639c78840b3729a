"""Compiled moves of bags and pickups inside the loop: what ``Bags``' moves and ``Pickups``'
``add``, ``remove``, ``release``, ``expire``, ``available`` and ``free`` did, on the loop's arrays
(``B``: bags, ``P``: pickups, ``I``: the int slots; ``board``, ``deliver`` and ``unload``, which
also read the tugs' rows, take ``S``, the pointer to the loop's state tuple)."""

from __future__ import annotations

import numba
import numpy as np

from ..bags import (FROM_OPEN, FROM_PENDING, FROM_WAITING, MISCONNECTED, MOVED, NO_NODES, ON_TUG,
                    WAITING, ConservationError, deliver_kernel, move_kernel)
from ..dispatch.pickups import expire_passed, free_from, tally
from .codes import F_NEXT_EXPIRY, I_BAGS_VERSION, I_CREATED, I_PK_HI, I_PK_LO, I_PK_PTR, I_PK_VERSION
from .queues import append, take
from .unowned import unpack


@numba.njit(cache=True, nogil=True)
def move(ids, allowed, new, t, set_time, to_node, to_tug, B, I):
    """One ``Bags`` move of ``ids`` (none when empty); a refused move raises."""
    if ids.shape[0] == 0:
        return
    state, node, tug, reserved, done_time, at_node, on_tug, counts, mark = B[:9]
    code, bad, created, version = move_kernel(ids, allowed, new, t, set_time, to_node, to_tug,
                                              state, node, tug, reserved, done_time, at_node,
                                              on_tug, counts, mark)
    if code != MOVED:
        raise ConservationError("a bag listed twice in one move, or moved from a wrong state")
    I[I_CREATED] += created
    I[I_BAGS_VERSION] += version


@numba.njit(cache=True, nogil=True)
def appear(ids, B, P, I):
    """Bags ready: waiting at their origin, appended to its queue."""
    origin = B[9]
    nodes = origin[ids]
    move(ids, FROM_PENDING, WAITING, np.nan, False, nodes, -1, B, I)
    count, live, expired = P[0], P[1], P[2]
    append(ids, nodes, P[6], P[7], P[8], P[9])
    tally(ids, nodes, 1, count, live, expired)
    if ids.shape[0]:
        I[I_PK_HI] = max(I[I_PK_HI], ids.max() + 1)
    I[I_PK_VERSION] += 1


@numba.njit(cache=True, nogil=True)
def remove(ids, nodes, P, I):
    """Bags no longer available (promised, loaded, misconnected while waiting)."""
    if ids.shape[0]:
        tally(ids, nodes, -1, P[0], P[1], P[2])
        P[2][ids] = True
        I[I_PK_VERSION] += 1


@numba.njit(cache=True, nogil=True)
def remove_at(ids, p, P, I):
    remove(ids, np.full(ids.shape[0], p, dtype=np.int64), P, I)


@numba.njit(cache=True, nogil=True)
def release(ids, t, B, P, I):
    """Promised bags a tug will not fetch: available again, at the end of their queue."""
    if ids.shape[0] == 0:
        return
    reserved, origin = B[3], B[9]
    count, live, expired, ldt = P[0], P[1], P[2], P[3]
    reserved[ids] = -1
    append(ids, origin[ids], P[6], P[7], P[8], P[9])
    for b in ids:
        count[origin[b]] += 1
    for b in ids:
        if ldt[b] >= t:
            expired[b] = False
            live[origin[b]] += 1
    I[I_PK_VERSION] += 1


@numba.njit(cache=True, nogil=True)
def expire(t, B, P, I, F):
    """Bags whose latest departure passed stop counting as live."""
    order, swept = P[4], P[5]
    lo = hi = I[I_PK_PTR]
    while swept[hi] < t:
        hi += 1
    if hi == lo:
        return
    I[I_PK_PTR] = hi
    F[F_NEXT_EXPIRY] = swept[hi]
    if expire_passed(order[lo:hi], P[2], B[0], B[3], B[1], P[1]):
        I[I_PK_VERSION] += 1


@numba.njit(cache=True, nogil=True)
def available(p, B, P):
    """Unpromised waiting bags at ``p`` in arrival order (compacts the queue)."""
    return take(p, B[0], B[3], P[6], P[7], P[8], P[9])


@numba.njit(cache=True, nogil=True)
def free(B, I):
    """Every waiting bag promised to no tug, by id."""
    lo, ids = free_from(B[0], B[3], I[I_PK_LO], I[I_PK_HI])
    I[I_PK_LO] = lo
    return ids


@numba.njit(cache=True, nogil=True)
def board(k, ids, S):
    """Waiting bags ``ids`` loaded onto tug ``k``, after those already on it."""
    B, P, TG, H, R, K, D, I, F, PR = unpack(S)
    capacity, load, load_len = TG[8], TG[16], TG[17]
    on_tug = B[6]
    if on_tug[k] + ids.shape[0] > capacity[k]:
        raise ConservationError("a tug would carry more than its capacity")
    move(ids, FROM_WAITING, ON_TUG, np.nan, False, NO_NODES, k, B, I)
    n = load_len[k]
    load[k, n:n + ids.shape[0]] = ids
    load_len[k] = n + ids.shape[0]


@numba.njit(cache=True, nogil=True)
def deliver(k, p, t, S):
    """The bags on tug ``k`` for ``p`` delivered at ``t``; the others stay, in order."""
    B, P, TG, H, R, K, D, I, F, PR = unpack(S)
    load, load_len = TG[16], TG[17]
    state, node, tug, reserved, done_time, at_node, on_tug, counts, mark = B[:9]
    code, bad, created, version, rest = deliver_kernel(
        load[k, :load_len[k]], B[10], p, t, state, node, tug, reserved, done_time, at_node,
        on_tug, counts, mark)
    if code != MOVED:
        raise ConservationError("a delivered bag was not on the tug")
    I[I_CREATED] += created
    I[I_BAGS_VERSION] += version
    load[k, :rest.shape[0]] = rest
    load_len[k] = rest.shape[0]


@numba.njit(cache=True, nogil=True)
def unload(k, ids, S):
    """Bags ``ids`` leave tug ``k``'s load list (misconnected on board); the rest keep order."""
    B, P, TG, H, R, K, D, I, F, PR = unpack(S)
    load, load_len = TG[16], TG[17]
    m = 0
    for i in range(load_len[k]):
        b = load[k, i]
        gone = False
        for x in ids:
            if x == b:
                gone = True
                break
        if not gone:
            load[k, m] = b
            m += 1
    load_len[k] = m


@numba.njit(cache=True, nogil=True)
def misconnect(ids, t, B, I):
    move(ids, FROM_OPEN, MISCONNECTED, t, True, NO_NODES, -1, B, I)

