"""The dispatch policies' per-tug choices inside the loop (``engine/sim/dispatch``: the classes
keep their names, settings and the fleet's round plan; these are their ``choose_pickup``,
``choose_delivery``, ``select``/``top_up``, ``route`` and ``stop_on_the_way``, with every
tie-break kept). Each returns a code first (``OK``, or what Python must do before the choice can
be made again). Each takes ``S``, the pointer to the loop's state tuple (``step.advance``,
``unowned.unpack``).
"""

from __future__ import annotations

import numba
import numpy as np

from ...airport.cost import DECISECONDS
from ..dispatch.fleet import JOB_FOUND, JOB_TIED, first_stand, one_job, stops_on
from ..dispatch.pickups import PER_BAG_S, STOP_S, bags_to_take, fits_carts, live_at
from ..dispatch.rules import nearest_alive_dest
from ..bags import WAITING
from .bagops import available, free
from .codes import (BASELINE, EDF, F_T, FLEET, I_POLICY, OK, P_BAG_ROUTES, P_BONUS,
                    P_CANDIDATES, P_COLLECT, P_DETOUR, P_MARGIN, P_REWARD, P_SLACK, PLAN_JOB,
                    PLAN_NOJOB, PLAN_NONE, REFRESH, SHORTEST, TIED)
from .unowned import unpack
from .routes import bag_dist, bag_route, leg_seconds, must_refresh, plain_route

_NONE = np.empty(0, dtype=np.int64)


@numba.njit(cache=True, nogil=True)
def lexsort2(minor, major):
    """``np.lexsort((minor, major))``: by ``major``, ties by ``minor``."""
    order = np.argsort(minor, kind="mergesort")
    return order[np.argsort(major[order], kind="mergesort")]


@numba.njit(cache=True, nogil=True)
def _load(k, TG):
    return TG[16][k, :TG[17][k]]


@numba.njit(cache=True, nogil=True)
def urgent(k, p, arrive, S):
    """The bags at ``p`` that can still leave in time if loaded at ``arrive``, most urgent
    first, as many as fit (``pickups.bags_to_take``)."""
    B, P, TG, H, R, K, D, I, F, PR = unpack(S)
    ids = available(p, B, P)
    if ids.shape[0] == 0:
        return ids
    capacity, carts, on_tug = TG[8], TG[7], B[6]
    room = max(0, capacity[k] - on_tug[k])
    carried = _load(k, TG) if carts[k] else _NONE
    return bags_to_take(ids, P[3], arrive + STOP_S, B[10], carried, carts[k], room)


@numba.njit(cache=True, nogil=True)
def within_carts(k, ids, S):
    B, P, TG, H, R, K, D, I, F, PR = unpack(S)
    carts = TG[7][k]
    if not carts or ids.shape[0] == 0:
        return ids
    dest = B[10]
    return ids[fits_carts(dest[ids], dest[_load(k, TG)], carts)]


@numba.njit(cache=True, nogil=True)
def baseline_select(k, p, S):
    """The baseline's bags at ``p``: first come first served, as many as fit."""
    B, P, TG, H, R, K, D, I, F, PR = unpack(S)
    room = TG[8][k] - B[6][k]
    return within_carts(k, available(p, B, P), S)[:max(room, 0)]


@numba.njit(cache=True, nogil=True)
def top_up(k, p, S):
    """Bags a tug takes where it stops, beside those promised to it."""
    B, P, TG, H, R, K, D, I, F, PR = unpack(S)
    if I[I_POLICY] == BASELINE:
        return baseline_select(k, p, S)
    return urgent(k, p, F[F_T], S)


@numba.njit(cache=True, nogil=True)
def choose_delivery(k, ids, S):
    """The stand to deliver to next (-1: none of ``ids`` can make it)."""
    B, P, TG, H, R, K, D, I, F, PR = unpack(S)
    dest, deadline, s, now = B[10], B[11], TG[0][k], F[F_T]
    plain, plain_s = R[4], R[5]
    policy = I[I_POLICY]
    if policy == FLEET:
        return first_stand(ids, dest, deadline, plain_s, s, now, D[5], D[6])
    if policy == EDF:
        eta = now + plain_s[s][dest[ids]] + STOP_S
        ok = ids[deadline[ids] >= eta]
        return dest[ok[lexsort2(ok, deadline[ok])[0]]] if ok.shape[0] else -1
    if policy == BASELINE:
        stands = np.unique(dest[ids])
        d = plain[s][stands]
        keep = np.isfinite(d)
        if not keep.any():
            return -1
        stands, d = stands[keep], d[keep]
        return stands[lexsort2(stands, d)[0]]
    return nearest_alive_dest(ids, dest, deadline, plain_s[s], plain[s], now)


@numba.njit(cache=True, nogil=True)
def choose_pickup(k, S):
    """(code, pickup, bags): where an empty-handed tug fetches bags (-1: nowhere)."""
    B, P, TG, H, R, K, D, I, F, PR = unpack(S)
    policy = I[I_POLICY]
    if policy == FLEET:
        return _fleet_pickup(k, S)
    capacity, s, now = TG[8][k], TG[0][k], F[F_T]
    if B[6][k] >= capacity:
        return OK, -1, _NONE
    plain, plain_s, pickable = R[4], R[5], R[8]
    if policy == EDF:
        bnode = B[1]
        ids = free(B, I)
        ids = ids[pickable[bnode[ids]]]
        arrive = now + plain_s[s][bnode[ids]]
        ids = ids[P[3][ids] >= arrive + STOP_S]
        for b in ids[lexsort2(ids, B[11][ids])][:8]:
            p = bnode[b]
            pick = urgent(k, p, now + plain_s[s, p], S)
            if pick.shape[0]:
                return OK, p, pick
        return OK, -1, _NONE
    if policy == BASELINE:
        cands = np.flatnonzero((P[0] > 0) & pickable)
        d = plain[s][cands]
        keep = np.isfinite(d)
        cands, d = cands[keep], d[keep]
        for i in lexsort2(cands, d)[:8]:
            ids = baseline_select(k, cands[i], S)
            if ids.shape[0]:
                return OK, cands[i], ids
        return OK, -1, _NONE
    live = P[1]   # shortest-path
    cands = live_at(live, pickable)
    cands = cands[np.isfinite(plain_s[s][cands])]
    if cands.shape[0] == 0:
        return OK, -1, _NONE
    if K[0][s] >= 0 and must_refresh(I, F):
        return REFRESH, -1, _NONE
    code, bag = bag_dist(s, cands, S)
    if code != OK:
        return code, -1, _NONE
    arrive = now + plain_s[s][cands]
    score = bag / DECISECONDS - PR[P_BONUS] * np.minimum(live[cands], capacity)
    for i in lexsort2(cands, score)[:int(PR[P_CANDIDATES])]:
        ids = urgent(k, cands[i], arrive[i], S)
        if ids.shape[0]:
            return OK, cands[i], ids
    return OK, -1, _NONE


@numba.njit(cache=True, nogil=True)
def _fleet_pickup(k, S):
    """The fleet's job for tug ``k``: its entry of this round's plan, else the cheapest job for
    it alone (``TIED``: a tie that Python's ``best_job_tied`` breaks)."""
    B, P, TG, H, R, K, D, I, F, PR = unpack(S)
    plan_kind, plan_p, plan, plan_len = TG[18], TG[19], TG[20], TG[21]
    kind = plan_kind[k]
    if kind == PLAN_JOB or kind == PLAN_NOJOB:
        plan_kind[k] = PLAN_NONE
        if kind == PLAN_NOJOB:
            return OK, -1, _NONE
        ids = plan[k, :plan_len[k]]
        ids = ids[(B[0][ids] == WAITING) & (B[3][ids] < 0)].copy()
        return OK, (plan_p[k] if ids.shape[0] else -1), ids
    capacity = TG[8][k]
    room = capacity - B[6][k]
    if room <= 0:
        return OK, -1, _NONE
    now = F[F_T]
    live_nodes = live_at(P[1], None)
    status, p, ids = one_job(
        live_nodes, free(B, I), R[8], R[5], TG[0][k], int(PR[P_CANDIDATES]), B[1], B[10],
        B[11], P[3], now + STOP_S, max(capacity, 1), room, B[10][_load(k, TG)], TG[7][k], now,
        PR[P_REWARD], PR[P_SLACK])
    if status == JOB_TIED:
        return TIED, -1, _NONE
    return OK, (p if status == JOB_FOUND else -1), ids


@numba.njit(cache=True, nogil=True)
def route(i, j, loaded, S):
    """(code, route) i -> j by the policy in force."""
    B, P, TG, H, R, K, D, I, F, PR = unpack(S)
    policy = I[I_POLICY]
    bag_routes = PR[P_BAG_ROUTES] != 0
    if (policy != FLEET and policy != SHORTEST) or not bag_routes or (policy == FLEET and loaded):
        return OK, plain_route(i, j, S)
    if must_refresh(I, F):
        return REFRESH, _NONE
    code, path = bag_route(i, j, S)
    if code != OK or policy != FLEET:
        return code, path
    if leg_seconds(path, S) > R[5][i, j] + PR[P_DETOUR]:
        return OK, plain_route(i, j, S)
    return OK, path


@numba.njit(cache=True, nogil=True)
def stop_on_the_way(k, path, S):
    """The node inside ``path`` to stop at first for bags on the way (-1: none)."""
    B, P, TG, H, R, K, D, I, F, PR = unpack(S)
    policy, now = I[I_POLICY], F[F_T]
    live, pickable = P[1], R[8]
    if policy == FLEET:
        promised = TG[14][k, :TG[15][k]]
        if (PR[P_BAG_ROUTES] == 0 or path.shape[0] < 3 or promised.shape[0] == 0
                or B[6][k]):
            return -1
        plain_s = R[5]
        s, p = path[0], path[-1]
        slack, stops = stops_on(path, promised, B[10], B[11], plain_s,
                                2 * (STOP_S + PER_BAG_S * promised.shape[0]), live, pickable)
        slack -= now
        for q in stops:
            ids = urgent(k, q, now + plain_s[s, q], S)
            late = plain_s[s, q] + plain_s[q, p] + STOP_S + PER_BAG_S * ids.shape[0]
            if ids.shape[0] and late <= slack - PR[P_MARGIN]:
                return q
        return -1
    if policy != SHORTEST or PR[P_COLLECT] == 0 or path.shape[0] < 3 or B[6][k] >= TG[8][k]:
        return -1
    inner = path[1:-1]
    ldt = P[3]
    for p in inner[(live[inner] > 0) & pickable[inner]]:
        ids = available(p, B, P)
        if within_carts(k, ids[ldt[ids] >= now + STOP_S], S).shape[0]:
            return p
    return -1
