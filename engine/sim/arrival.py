"""A tug's arrival at a stop in one compiled pass (the day has ~130,000 of them): the bags
promised to it there boarded as far as they fit, then the bags it tops up with there. What it
returns, ``Simulation._arrive`` books (errors, released bags, the pickup queue, the times)."""

from __future__ import annotations

import numba
import numpy as np

from .bags import _FROM_WAITING, _NO_NODES, _OK, ON_TUG, _move_kernel
from .dispatch.pickups import STOP_S, _tally, select
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
