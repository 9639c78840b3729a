"""Where every bag is: one state per bag, counts kept per node and per tug, checked on demand.

A bag enters the simulation when it becomes ready; from then on it is in exactly one of
WAITING (at a node), ON_TUG, DELIVERED, MISCONNECTED. The last two are final. Every move goes
through one kernel here (``move_kernel``, called by the day's compiled loop:
``engine/sim/loop/bagops.py``), which refuses a move from the wrong state, so a bag can be
neither lost nor counted twice; ``check()`` re-derives every count from the per-bag arrays.
"""

from __future__ import annotations

import numba
import numpy as np

from .schedule import BagSet

PENDING, WAITING, ON_TUG, DELIVERED, MISCONNECTED = -1, 0, 1, 2, 3
STATE_NAMES = {WAITING: "waiting", ON_TUG: "on_tug", DELIVERED: "delivered",
               MISCONNECTED: "misconnected"}


class ConservationError(AssertionError):
    """A bag was lost, duplicated or moved from a state it was not in."""


class Bags:
    def __init__(self, bagset: BagSet, n_nodes: int, n_tugs: int):
        self.set = bagset
        n = len(bagset)
        self.state = np.full(n, PENDING, dtype=np.int8)
        self.node = np.full(n, -1, dtype=np.int64)        # where it waits (WAITING only)
        self.tug = np.full(n, -1, dtype=np.int64)         # which tug holds it (ON_TUG only)
        self.reserved = np.full(n, -1, dtype=np.int64)    # tug sent to fetch it (WAITING only)
        self.done_time = np.full(n, np.nan)               # delivery or misconnection time
        self.at_node = np.zeros(n_nodes, dtype=np.int64)  # WAITING bags per node
        self.on_tug = np.zeros(n_tugs, dtype=np.int64)    # bags per tug
        self.counts = np.zeros(4, dtype=np.int64)         # per state, created bags only
        self.created = 0
        self.version = 0                                  # bumps whenever at_node changes
        self._mark = np.zeros(n, dtype=np.bool_)          # scratch: duplicate check in a move

    def arrays(self) -> tuple:
        """What the compiled loop's moves take (``engine/sim/loop/bagops.py``)."""
        return (self.state, self.node, self.tug, self.reserved, self.done_time, self.at_node,
                self.on_tug, self.counts, self._mark, self.set.origin, self.set.dest,
                self.set.deadline)

    def count(self, state: int) -> int:
        return int(self.counts[state])

    def check(self, capacities: np.ndarray | None = None) -> None:
        """Re-derive every count from the per-bag arrays; ``ConservationError`` on any mismatch."""
        s = self.state
        created = int((s != PENDING).sum())
        per_state = np.bincount(s[s >= 0], minlength=4)
        if created != self.created or not np.array_equal(per_state, self.counts):
            raise ConservationError(f"counts {self.counts.tolist()} (created {self.created}) but "
                                    f"bags say {per_state.tolist()} (created {created})")
        if per_state.sum() != created:
            raise ConservationError("a created bag is in no state")
        w = s == WAITING
        if (self.node[w] < 0).any() or (self.node[~w] >= 0).any():
            raise ConservationError("a bag has a node without waiting, or waits nowhere")
        if not np.array_equal(np.bincount(self.node[w], minlength=len(self.at_node)), self.at_node):
            raise ConservationError("bags per node do not match the waiting bags")
        o = s == ON_TUG
        if (self.tug[o] < 0).any() or (self.tug[~o] >= 0).any():
            raise ConservationError("a bag is on a tug without being ON_TUG, or the reverse")
        if not np.array_equal(np.bincount(self.tug[o], minlength=len(self.on_tug)), self.on_tug):
            raise ConservationError("bags per tug do not match the bags on tugs")
        if (self.reserved[~w] >= 0).any():
            raise ConservationError("a bag not waiting is still reserved")
        if capacities is not None and (self.on_tug > capacities).any():
            raise ConservationError("a tug carries more than its capacity")


MOVED, _DUPLICATE, _WRONG_STATE = 0, 1, 2
NO_NODES = np.empty(0, dtype=np.int64)


def _allowed(*states: int) -> np.ndarray:
    """The states a move accepts, as a mask indexed by state + 1."""
    mask = np.zeros(5, dtype=np.bool_)
    mask[np.asarray(states) + 1] = True
    return mask


FROM_PENDING, FROM_WAITING, FROM_ON_TUG = _allowed(PENDING), _allowed(WAITING), _allowed(ON_TUG)
FROM_OPEN = _allowed(WAITING, ON_TUG)


@numba.njit(cache=True, nogil=True)
def move_kernel(ids, allowed, new, t, set_time, to_node, to_tug, state, node, tug, reserved,
                done_time, at_node, on_tug, counts, mark):
    """One move of ``Bags``, validated in full before anything changes (compiled: a day makes
    ~100,000 of them, and it releases the interpreter lock for the GUI's thread).
    Returns (code, first bad bag, bags created, version bumps)."""
    dup = False
    for b in ids:
        if mark[b]:
            dup = True
        mark[b] = True
    for b in ids:
        mark[b] = False
    if dup:
        return _DUPLICATE, -1, 0, 0
    for b in ids:
        if not allowed[state[b] + 1]:
            return _WRONG_STATE, b, 0, 0
    created = 0
    left_node = False
    for i in range(ids.shape[0]):
        b = ids[i]
        old = state[b]
        if old == PENDING:
            created += 1
        else:
            counts[old] -= 1
        if old == WAITING:
            at_node[node[b]] -= 1
            node[b] = -1
            reserved[b] = -1
            left_node = True
        elif old == ON_TUG:
            on_tug[tug[b]] -= 1
            tug[b] = -1
        state[b] = new
        counts[new] += 1
        if set_time:
            done_time[b] = t
        if new == WAITING:
            node[b] = to_node[i]
            at_node[to_node[i]] += 1
        elif new == ON_TUG:
            tug[b] = to_tug
            on_tug[to_tug] += 1
    return MOVED, -1, created, int(left_node) + int(new == WAITING)


@numba.njit(cache=True, nogil=True)
def split_to(ids, dest, p):
    """The bags of ``ids`` for ``p`` and the others, each in order."""
    to = np.empty(ids.shape[0], dtype=np.int64)
    rest = np.empty(ids.shape[0], dtype=np.int64)
    a = c = 0
    for b in ids:
        if dest[b] == p:
            to[a] = b
            a += 1
        else:
            rest[c] = b
            c += 1
    return to[:a].copy(), rest[:c].copy()


@numba.njit(cache=True, nogil=True)
def deliver_kernel(load, dest, p, t, state, node, tug, reserved, done_time, at_node, on_tug,
                   counts, mark):
    """A tug's stop: the move of the bags of its ``load`` for ``p``, and the rest of it."""
    at, rest = split_to(load, dest, p)
    code, bad, created, version = MOVED, -1, 0, 0
    if at.shape[0]:
        code, bad, created, version = move_kernel(
            at, FROM_ON_TUG, DELIVERED, t, True, NO_NODES, -1, state, node, tug, reserved,
            done_time, at_node, on_tug, counts, mark)
    return code, bad, created, version, rest
