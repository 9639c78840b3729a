"""Routes, bag-aware distances and legs inside the loop: ``RouteTables.plain_route``,
``bag_route`` and ``bag_dist``, and a tug's leg started (``Tug.start_leg``) and scheduled.

A bag-aware answer that needs Python first returns its code instead (``REFRESH`` when
``RouteTables.refresh`` would solve; with the from-tugs engine ``NEED_FROM``/``NEED_TO`` for a
row of distances not solved yet), the caller stores how to resume, and the loop returns.

They take ``S``, the pointer to the loop's state tuple (``step.advance``, ``unowned``), of which
they read ``R`` = (indptr, indices, seconds, length_m, plain, plain_s, router w, router dist_to,
pickable) and ``K`` = (kidx, k_indptr, k_indices, k_w, k_dist_to, first, last, kj_j, jk_j,
jk_row, j_indptr, j_indices, j_w, dj_to, key_nodes, junctions, dk, from_rows, have_from,
to_rows, have_to); ``schedule`` takes the event heap's arrays ``H``.
"""

from __future__ import annotations

import numba
import numpy as np

from ..keygraph import key_route
from ..network import timed_leg, walk_route
from ..tugs import DRIVING
from .codes import (ARRIVE, F_BAG_TIME, F_INTERVAL, F_T, I_ARG, I_BAG_VERSION, I_FROM_TUGS,
                    I_PK_VERSION, I_SEQ, I_SOLVED, NEED_FROM, NEED_TO, OK, WIDEN)
from .heap import push
from .unowned import pack, unpack

_EMPTY = np.empty(0, dtype=np.int64)


@numba.njit(cache=True, nogil=True)
def plain_route(i, j, S):
    """The quickest route i -> j (``Router.route``): empty when unreachable, [i] when i == j."""
    B, P, TG, H, R, K, D, I, F, PR = unpack(S)
    indptr, indices, r_w, r_dist_to = R[0], R[1], R[6], R[7]
    if i == j:
        return np.full(1, i, dtype=np.int64)
    if not np.isfinite(r_dist_to[j, i]):
        return _EMPTY.copy()
    return walk_route(indptr, indices, r_w, r_dist_to[j], i, j)


@numba.njit(cache=True, nogil=True)
def must_refresh(I, F):
    """Whether ``RouteTables.refresh`` would solve now."""
    return I[I_SOLVED] == 0 or (I[I_PK_VERSION] != I[I_BAG_VERSION]
                                and F[F_T] - F[F_BAG_TIME] >= F[F_INTERVAL])


@numba.njit(cache=True, nogil=True)
def bag_route(i, j, S):
    """(code, route): ``RouteTables.bag_route`` (the caller has refreshed)."""
    B, P, TG, H, R, K, D, I, F, PR = unpack(S)
    kidx, k_indptr, k_indices, k_w, k_dist_to, first, last = K[:7]
    kj_j, jk_j, jk_row, j_indptr, j_indices, j_w, dj_to, key_nodes, junctions = K[7:16]
    to_rows, have_to = K[19], K[20]
    if I[I_SOLVED] == 0 or kidx[i] < 0 or kidx[j] < 0:
        return OK, plain_route(i, j, S)
    a, b = kidx[i], kidx[j]
    if a == b:
        return OK, np.full(1, i, dtype=np.int64)
    if I[I_FROM_TUGS]:
        if not have_to[b]:
            I[I_ARG] = b
            return NEED_TO, _EMPTY
        path = _bag_walk(to_rows[b], a, b, k_indptr, k_indices, k_w, first, last, kj_j, jk_j,
                         jk_row, j_indptr, j_indices, j_w, dj_to, key_nodes, junctions)
    else:
        path = _bag_walk(k_dist_to[b], a, b, k_indptr, k_indices, k_w, first, last, kj_j, jk_j,
                         jk_row, j_indptr, j_indices, j_w, dj_to, key_nodes, junctions)
    if path.shape[0] == 0:
        return OK, plain_route(i, j, S)
    return OK, path


@numba.njit(cache=True, nogil=True)
def _bag_walk(to_b, a, b, k_indptr, k_indices, k_w, first, last, kj_j, jk_j, jk_row, j_indptr,
              j_indices, j_w, dj_to, key_nodes, junctions):
    if not np.isfinite(to_b[a]):
        return _EMPTY
    return key_route(k_indptr, k_indices, k_w, to_b, a, b, first, last, kj_j, jk_j, jk_row,
                     j_indptr, j_indices, j_w, dj_to, key_nodes, junctions)


@numba.njit(cache=True, nogil=True)
def bag_dist(s, nodes, S):
    """(code, deciseconds): ``RouteTables.bag_dist`` from ``s`` to ``nodes`` (where ``s`` is a
    key node the caller has refreshed)."""
    B, P, TG, H, R, K, D, I, F, PR = unpack(S)
    plain, kidx, dk, from_rows, have_from = R[4], K[0], K[16], K[17], K[18]
    a = kidx[s]
    if a < 0:   # a junction, where an edit may leave a tug: plain travel time
        return OK, plain[s][nodes]
    if I[I_FROM_TUGS]:
        if not have_from[a]:
            I[I_ARG] = s
            return NEED_FROM, np.empty(0)
        return OK, from_rows[a][nodes]
    return OK, dk[a][kidx[nodes]]


@numba.njit(cache=True, nogil=True)
def leg_seconds(path, S):
    """Tug seconds to drive ``path`` (``RoadNetwork.leg_times(path)[0][-1]``)."""
    B, P, TG, H, R, K, D, I, F, PR = unpack(S)
    times, seconds, length = timed_leg(R[0], R[1], R[2], R[3], path, 0.0)
    return times[-1]


@numba.njit(cache=True, nogil=True)
def start_leg(k, path, target, S):
    """Tug ``k`` drives ``path`` to ``target`` from now, its arrival scheduled; ``WIDEN`` (and
    nothing changed) when its rows are too narrow for the route."""
    B, P, TG, H, R, K, D, I, F, PR = unpack(S)
    node, tgt, activity, busy_until, distance_m, busy_s = TG[:6]
    path_row, times_row, path_len, times_len = TG[10], TG[11], TG[12], TG[13]
    n = path.shape[0]
    if n > path_row.shape[1]:
        I[I_ARG] = n
        return WIDEN
    times, seconds, length = timed_leg(R[0], R[1], R[2], R[3], path, F[F_T])
    path_row[k, :n] = path
    times_row[k, :n] = times
    path_len[k] = n
    times_len[k] = n
    tgt[k] = target
    activity[k] = DRIVING
    busy_until[k] = times[n - 1]
    distance_m[k] += length
    busy_s[k] += seconds
    schedule(busy_until[k], ARRIVE, k, H, I)
    return OK


@numba.njit(cache=True, nogil=True)
def start_leg_of(k, path, target, S):
    """``start_leg`` called from Python, with the state tuple itself."""
    return start_leg(k, path, target, pack(S))


@numba.njit(cache=True, nogil=True)
def schedule(t, kind, k, H, I):
    I[I_SEQ] += 1
    push(H[0], H[1], H[2], H[3], H[4], t, I[I_SEQ], kind, k)
