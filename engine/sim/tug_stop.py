"""A tug's stop in two compiled passes (the day has ~130,000 stops; each pass replaces a dozen
small calls): arriving (``arrive_at``: the promised bags boarded as far as they fit, then the
bags it tops up with) and finishing (``finish_at``: the bags for the stop delivered, and a
loaded tug's next leg to its stand where the policy drives it on the quickest route). What they
return, ``Simulation`` books (errors, released bags, the pickup queue, the leg)."""

from __future__ import annotations

import numba
import numpy as np

from .bags import _FROM_WAITING, _NO_NODES, _OK, ON_TUG, _deliver_kernel, _move_kernel
from .dispatch.delivery import stand_for
from .dispatch.pickups import STOP_S, _tally, select
from .network import _leg, _walk
from .stops import count_to, split_promised, still_promised


@numba.njit(cache=True, nogil=True)
def arrive_at(p, k, cap, load, pickup, queue, pickable, first_come, carts, t, ldt, dest, state,
              node, tug, reserved, done_time, at_node, on_tug, counts, mark, p_count, p_live,
              p_expired):
    """Tug ``k`` (capacity ``cap``, carrying ``load``, promised ``pickup``) reaches ``p`` at
    ``t``: the promised bags waiting at ``p`` board in order while there is room (the rest are
    released); then, where ``p`` is ``pickable`` and room is left, the bags ``select`` takes of
    the unpromised ones in ``queue`` (``p``'s pickup queue) leave the pickups and board.

    Returns (move code, bad bag, bags created, version bumps, the bags of a refused move,
    bags for ``p`` on board, bags boarded, bags topped up, the new load, the promised bags
    still to fetch, the released ones, the compacted queue, whether it was read)."""
    none = np.empty(0, dtype=np.int64)
    unloading = count_to(load, dest, p)
    cur = load.copy()   # the tug's load list is read-only
    promised, rest = split_promised(pickup, state, reserved, node, k, p)
    room = max(0, cap - on_tug[k])
    released = promised[room:].copy()
    promised = promised[:room].copy()
    created = bumps = 0
    if promised.shape[0]:
        code, bad, c, v = _move_kernel(promised, _FROM_WAITING, ON_TUG, np.nan, False,
                                       _NO_NODES, k, state, node, tug, reserved, done_time,
                                       at_node, on_tug, counts, mark)
        if code != _OK:
            return (code, bad, 0, 0, promised, unloading, 0, 0, cur, rest, released, queue,
                    False)
        created, bumps = created + c, bumps + v
        cur = np.concatenate((cur, promised))
    extra = none
    topped = pickable and cap - on_tug[k] > 0
    if topped:
        queue = still_promised(queue, state, reserved, -1)   # promised to no tug
        if queue.shape[0]:
            extra = select(queue, first_come, ldt, t + STOP_S, dest, cur if carts else none,
                           carts, cap - on_tug[k])
        if extra.shape[0]:
            _tally(extra, np.full(extra.shape[0], p), -1, p_count, p_live, p_expired)
            p_expired[extra] = True
            code, bad, c, v = _move_kernel(extra, _FROM_WAITING, ON_TUG, np.nan, False,
                                           _NO_NODES, k, state, node, tug, reserved, done_time,
                                           at_node, on_tug, counts, mark)
            if code != _OK:
                return (code, bad, created, bumps, extra, unloading, promised.shape[0], 0, cur,
                        rest, released, queue, topped)
            created, bumps = created + c, bumps + v
            cur = np.concatenate((cur, extra))
    return (_OK, -1, created, bumps, none, unloading, promised.shape[0], extra.shape[0], cur,
            rest, released, queue, topped)


@numba.njit(cache=True, nogil=True)
def finish_at(p, t, load, rule, indptr, indices, w, dist_to, seconds, length_m, dest, deadline,
              plain_s, plain, state, node, tug, reserved, done_time, at_node, on_tug, counts,
              mark):
    """A tug carrying ``load`` finishes its stop at ``p`` at ``t``: the bags for ``p`` are
    delivered; where bags remain on board, the stand ``rule`` picks (``stand_for``) and the leg
    there on the quickest route (walked on the plain travel times' CSR weights ``w`` and
    ``dist_to``, their transpose, as ``Router`` walks it).

    Returns (move code, bad bag, bags created, version bumps, the bags left on board, the
    stand (-1: none chosen), the leg's path, the times it reaches each vertex, its seconds and
    its length)."""
    code, bad, created, bumps, rest = _deliver_kernel(
        load, dest, p, t, state, node, tug, reserved, done_time, at_node, on_tug, counts, mark)
    target = -1
    if code == _OK and rest.shape[0]:
        target = stand_for(rule, rest, dest, deadline, plain_s, plain, p, t)
    if target < 0:
        return (code, bad, created, bumps, rest, -1, np.empty(0, dtype=np.int64), np.empty(0), 0.0,
                0.0)
    path = (np.full(1, p) if target == p
            else _walk(indptr, indices, w, dist_to[target], p, target))
    times, secs, length = _leg(indptr, indices, seconds, length_m, path, t)
    return code, bad, created, bumps, rest, target, path, times, secs, length
