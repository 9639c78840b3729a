"""The pickup queues as arrays keep the per-node Python lists' semantics exactly: arrival order,
a released bag appended only when no longer listed, ``take`` dropping the bags not available."""

import numpy as np

from engine.sim.bags import DELIVERED, ON_TUG, WAITING
from engine.sim.loop.queues import Queues, append, take


def lists_of(q):
    """The arrays the loop's ``append`` and ``take`` thread the lists through."""
    return q.head, q.tail, q.nxt, q.queued


def listed(q, p):
    """The bags listed at ``p`` in the arrays ``q``, in order (walking ``head`` and ``nxt``)."""
    out, b = [], int(q.head[p])
    while b >= 0:
        out.append(b)
        b = int(q.nxt[b])
    return out


class ListQueues:
    """The lists the arrays replaced (engine/sim/dispatch/pickups.py before the compiled loop)."""

    def __init__(self, n_nodes):
        self.queue = [[] for _ in range(n_nodes)]

    def add(self, ids, nodes):
        for b, p in zip(ids.tolist(), nodes.tolist()):
            self.queue[p].append(b)

    def release(self, ids, origin):
        for p in np.unique(origin[ids]).tolist():
            q = set(self.queue[p])
            self.queue[p].extend(x for x in ids[origin[ids] == p].tolist() if x not in q)

    def take(self, p, state, reserved):
        q = self.queue[p]
        ids = [b for b in q if state[b] == WAITING and reserved[b] < 0]
        self.queue[p] = ids
        return ids


def test_random_days_of_queue_operations_match_the_lists():
    rng = np.random.default_rng(0)
    n_nodes, n_bags = 6, 400
    for _ in range(20):
        origin = rng.integers(0, n_nodes, n_bags)
        state = np.full(n_bags, -1, dtype=np.int8)
        reserved = np.full(n_bags, -1, dtype=np.int64)
        arrays, lists = Queues(n_nodes, n_bags), ListQueues(n_nodes)
        ready = 0
        for _ in range(300):
            op = rng.integers(0, 4)
            if op == 0 and ready < n_bags:          # bags become ready
                ids = np.arange(ready, min(n_bags, ready + rng.integers(1, 6)))
                ready = ids[-1] + 1
                state[ids] = WAITING
                append(ids, origin[ids], *lists_of(arrays))
                lists.add(ids, origin[ids])
            elif op == 1 and ready:                   # some promised, loaded or delivered
                ids = rng.choice(ready, size=min(ready, 4), replace=False)
                what = rng.integers(0, 3)
                waiting = ids[state[ids] == WAITING]
                if what == 0:
                    reserved[waiting] = rng.integers(0, 3)
                else:
                    state[waiting] = ON_TUG if what == 1 else DELIVERED
            elif op == 2 and ready:                   # promised bags released
                ids = np.flatnonzero((reserved >= 0) & (state == WAITING))
                ids = rng.permutation(ids)[: rng.integers(0, 5)]
                reserved[ids] = -1
                append(ids, origin[ids], *lists_of(arrays))
                lists.release(ids, origin)
            else:                                     # a tug asks what waits at a node
                p = int(rng.integers(0, n_nodes))
                got = take(p, state, reserved, *lists_of(arrays))   # what the loop calls
                assert got.tolist() == lists.take(p, state, reserved)
            for p in range(n_nodes):
                assert listed(arrays, p) == lists.queue[p]
