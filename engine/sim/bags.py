"""Where every bag is: one state per bag, counts kept per node and per tug, checked on demand.

A bag enters the simulation when it becomes ready; from then on it is in exactly one of
WAITING (at a node), ON_TUG, DELIVERED, MISCONNECTED. The last two are final. Every move goes
through one method here, which refuses a move from the wrong state, so a bag can be neither lost
nor counted twice; ``check()`` re-derives every count from the per-bag arrays.
"""

from __future__ import annotations

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

    def _move(self, ids: np.ndarray, expect, new: int, t: float | None = None) -> None:
        ids = np.asarray(ids, dtype=np.int64)
        if not len(ids):
            return
        if len(np.unique(ids)) != len(ids):
            raise ConservationError(f"bag listed twice in one move: {ids.tolist()}")
        old = self.state[ids]
        if not np.isin(old, expect).all():
            bad = ids[~np.isin(old, expect)][0]
            raise ConservationError(f"bag {bad} is {self.state[bad]}, cannot become {new}")
        if (old >= 0).any():
            np.subtract.at(self.counts, old[old >= 0], 1)
        self.counts[new] += len(ids)
        self.created += int((old == PENDING).sum())
        was_waiting = ids[old == WAITING]
        if len(was_waiting):
            np.subtract.at(self.at_node, self.node[was_waiting], 1)
            self.node[was_waiting] = -1
            self.reserved[was_waiting] = -1
            self.version += 1
        was_on = ids[old == ON_TUG]
        if len(was_on):
            np.subtract.at(self.on_tug, self.tug[was_on], 1)
            self.tug[was_on] = -1
        self.state[ids] = new
        if t is not None:
            self.done_time[ids] = t

    def appear(self, ids: np.ndarray) -> None:
        """Bags become ready at their origin and start waiting there."""
        ids = np.asarray(ids, dtype=np.int64)
        self._move(ids, (PENDING,), WAITING)
        self.node[ids] = self.set.origin[ids]
        np.add.at(self.at_node, self.node[ids], 1)
        self.version += 1

    def load(self, ids: np.ndarray, tug: int, capacity: int) -> None:
        ids = np.asarray(ids, dtype=np.int64)
        if self.on_tug[tug] + len(ids) > capacity:
            raise ConservationError(f"tug {tug} would carry {self.on_tug[tug] + len(ids)} > {capacity}")
        self._move(ids, (WAITING,), ON_TUG)
        self.tug[ids] = tug
        self.on_tug[tug] += len(ids)

    def deliver(self, ids: np.ndarray, t: float) -> None:
        self._move(ids, (ON_TUG,), DELIVERED, t)

    def misconnect(self, ids: np.ndarray, t: float) -> None:
        self._move(ids, (WAITING, ON_TUG), MISCONNECTED, t)

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
