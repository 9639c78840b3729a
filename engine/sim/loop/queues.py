"""The pickup queues as arrays: per node, the bags waiting there in arrival order, a linked list
threaded through the bags (``head``/``tail`` per node, ``nxt`` per bag, ``queued`` whether a bag
is in its origin's list).

They keep the semantics of the per-node Python lists they replace, on which the ``baseline``
policy's first-come rule and byte-identical days depend: bags are appended as they become ready;
a promised bag released is appended again only if it is no longer listed; ``take`` returns the
listed bags still waiting and promised to no tug, in order, and drops the others from the list.
A bag is listed at most once, at its origin (only a pending bag's origin changes, by an edit).
"""

from __future__ import annotations

import numba
import numpy as np

from ..bags import WAITING


class Queues:
    """The arrays of the per-node queues for ``n_nodes`` nodes and ``n_bags`` bags."""

    def __init__(self, n_nodes: int, n_bags: int):
        self.head = np.full(n_nodes, -1, dtype=np.int64)
        self.tail = np.full(n_nodes, -1, dtype=np.int64)
        self.nxt = np.full(n_bags, -1, dtype=np.int64)
        self.queued = np.zeros(n_bags, dtype=np.bool_)


@numba.njit(cache=True, nogil=True)
def append(ids, nodes, head, tail, nxt, queued):
    """Bags ``ids`` (in order) appended at ``nodes``, each unless already listed."""
    for i in range(ids.shape[0]):
        b = ids[i]
        if queued[b]:
            continue
        p = nodes[i]
        queued[b] = True
        nxt[b] = -1
        if head[p] < 0:
            head[p] = b
        else:
            nxt[tail[p]] = b
        tail[p] = b


@numba.njit(cache=True, nogil=True)
def take(p, state, reserved, head, tail, nxt, queued):
    """The bags listed at ``p`` still waiting and promised to none, in order; the others
    leave the list."""
    n = 0
    b = head[p]
    while b >= 0:
        n += 1
        b = nxt[b]
    out = np.empty(n, dtype=np.int64)
    m = 0
    last = -1
    b = head[p]
    while b >= 0:
        after = nxt[b]
        if state[b] == WAITING and reserved[b] < 0:
            out[m] = b
            m += 1
            if last < 0:
                head[p] = b
            else:
                nxt[last] = b
            last = b
        else:
            queued[b] = False
            nxt[b] = -1
        b = after
    if last < 0:
        head[p] = -1
    else:
        nxt[last] = -1
    tail[p] = last
    return out[:m].copy()
