"""A tug's legs inside the loop: dispatched (deliver
what it carries, else fetch bags, else idle), driving, arriving (bags boarded), done (bags
delivered); and the bags that become ready or miss their deadline. A step that needs Python
returns its code with the continuation stored (``I_CONT``: dispatch the tug again from the
start, or drive it to its target), so the next call finishes it exactly as it would have run.
"""

from __future__ import annotations

import numba
import numpy as np

from ..bags import ON_TUG, WAITING
from ..dispatch.pickups import PER_BAG_S, STOP_S
from ..stops import count_to, split_promised, still_promised
from ..tugs import HANDLING, IDLE
from .bagops import appear, board, deliver, misconnect, release, remove, remove_at, unload
from .codes import (C_DISPATCH, C_DRIVE, DONE, F_T, I_CONT, I_CONT_TARGET, I_CONT_TUG,
                    I_DEADLINE_PTR, I_FREE_N, I_READY_PTR, OK)
from .policies import choose_delivery, choose_pickup, route, stop_on_the_way, top_up
from .routes import schedule, start_leg
from .unowned import unpack


@numba.njit(cache=True, nogil=True)
def _set_row(row, length, k, ids):
    row[k, :ids.shape[0]] = ids
    length[k] = ids.shape[0]


@numba.njit(cache=True, nogil=True)
def dispatch(k, S):
    """Give a free tug its next leg: deliver what it carries, else fetch bags, else idle."""
    B, P, TG, H, R, K, D, I, F, PR = unpack(S)
    node, activity, retired, capacity = TG[0], TG[2], TG[6], TG[8]
    pickup, pickup_len = TG[14], TG[15]
    on_tug, reserved = B[6], B[3]
    if pickup_len[k]:
        pending = still_promised(pickup[k, :pickup_len[k]], B[0], reserved, k)
        _set_row(pickup, pickup_len, k, pending)
        if pending.shape[0]:   # a stop on the way came first: now fetch the bags promised
            p = B[1][pending[0]]
            if on_tug[k] < capacity[k] and not retired[k] and np.isfinite(R[4][node[k], p]):
                return drive(k, p, S)
            release(pending, F[F_T], B, P, I)
            pickup_len[k] = 0
    load = TG[16][k, :TG[17][k]]
    if load.shape[0]:
        target = choose_delivery(k, load, S)
        if target >= 0:
            return drive(k, target, S)
    if not retired[k]:
        code, p, pick = choose_pickup(k, S)
        if code != OK:
            I[I_CONT], I[I_CONT_TUG] = C_DISPATCH, k
            return code
        if p >= 0:
            reserved[pick] = k
            remove_at(pick, p, P, I)
            _set_row(pickup, pickup_len, k, pick)
            return drive(k, p, S)
    activity[k] = IDLE
    TG[12][k] = 0   # no route
    if not retired[k]:
        free_ids = D[3]
        free_ids[I[I_FREE_N]] = k
        I[I_FREE_N] += 1
    return OK


@numba.njit(cache=True, nogil=True)
def drive(k, target, S):
    """Start a leg to ``target``: the policy's route, cut short at a stop on the way."""
    B, P, TG, H, R, K, D, I, F, PR = unpack(S)
    s = TG[0][k]
    code, path = route(s, target, B[6][k] > 0, S)
    if code == OK:
        to = target
        stop = stop_on_the_way(k, path, S)
        if stop >= 0:
            path = path[:np.flatnonzero(path == stop)[0] + 1]
            to = stop
        code = start_leg(k, path, to, S)
    if code != OK:
        I[I_CONT], I[I_CONT_TUG], I[I_CONT_TARGET] = C_DRIVE, k, target
    return code


@numba.njit(cache=True, nogil=True)
def arrive(k, S):
    """At a stop: load the bags promised here, and top up; unloading ends the stop (DONE)."""
    B, P, TG, H, R, K, D, I, F, PR = unpack(S)
    node, target, activity, busy_until, busy_s = TG[0], TG[1], TG[2], TG[3], TG[5]
    capacity, pickup, pickup_len = TG[8], TG[14], TG[15]
    on_tug, now = B[6], F[F_T]
    p = target[k]
    node[k] = p
    activity[k] = HANDLING
    cap = capacity[k]
    load_len = TG[17][k]
    unloading = count_to(TG[16][k, :load_len], B[10], p) if load_len else 0
    loading = 0
    if pickup_len[k]:
        promised, rest = split_promised(pickup[k, :pickup_len[k]], B[0], B[3], B[1], k, p)
        _set_row(pickup, pickup_len, k, rest)
        room = max(0, cap - on_tug[k])   # < 0 after a capacity edit
        if promised.shape[0] > room:
            release(promised[room:], now, B, P, I)
            promised = promised[:room]
        if promised.shape[0]:
            board(k, promised, S)
            loading = promised.shape[0]
    if R[8][p]:
        room = cap - on_tug[k]
        if room > 0:
            extra = top_up(k, p, S)[:room]
            if extra.shape[0]:
                remove_at(extra, p, P, I)
                board(k, extra, S)
                loading += extra.shape[0]
    handling = 0.0
    if loading or unloading:
        handling = STOP_S + PER_BAG_S * (loading + unloading)
    busy_until[k] = now + handling
    busy_s[k] += handling
    schedule(busy_until[k], DONE, k, H, I)


@numba.njit(cache=True, nogil=True)
def done(k, S):
    """The stop ends: bags for here delivered, a capacity cut applied once the bags fit, and
    the tug dispatched."""
    B, P, TG, H, R, K, D, I, F, PR = unpack(S)
    capacity, capacities = TG[8], TG[9]
    if TG[17][k]:
        deliver(k, TG[0][k], F[F_T], S)
    if capacities[k] != capacity[k]:   # a capacity edit waits for the bags aboard
        capacities[k] = max(capacity[k], B[6][k])
    return dispatch(k, S)


@numba.njit(cache=True, nogil=True)
def bags_ready(t, S):
    """Bags ready by ``t`` start waiting at their origin."""
    B, P, TG, H, R, K, D, I, F, PR = unpack(S)
    ready, I = D[0], I
    lo = hi = I[I_READY_PTR]
    while ready[hi] <= t:
        hi += 1
    appear(np.arange(lo, hi), B, P, I)
    I[I_READY_PTR] = hi


@numba.njit(cache=True, nogil=True)
def deadlines_pass(t, S):
    """Bags whose deadline is ``t`` or earlier and not yet delivered are misconnected,
    waiting or on a tug."""
    B, P, TG, H, R, K, D, I, F, PR = unpack(S)
    deadlines, order = D[1], D[2]
    state, reserved, tug, origin = B[0], B[3], B[2], B[9]
    lo = hi = I[I_DEADLINE_PTR]
    while deadlines[hi] <= t:
        hi += 1
    ids = order[lo:hi]
    I[I_DEADLINE_PTR] = hi
    st = state[ids]
    ids = ids[(st == WAITING) | (st == ON_TUG)]
    on_tugs = ids[state[ids] == ON_TUG]
    waiting_free = ids[(state[ids] == WAITING) & (reserved[ids] < 0)]
    remove(waiting_free, origin[waiting_free], P, I)
    for k in np.unique(tug[on_tugs]):
        unload(k, on_tugs, S)
    misconnect(ids, t, B, I)
