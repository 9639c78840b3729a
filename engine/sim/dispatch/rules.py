"""The simple dispatch rules: each empty tug chooses alone, greedily, when it becomes free.

- ``shortest-path`` (the paper's decision system): the pickup closest on the bag-aware distances
  (less a bonus per bag waiting there), the most urgent bags there that can still make their
  flight, the nearest destination whose bags can still make it; bag-aware routes, stopping on
  the way wherever such bags wait and it has room.
- ``earliest-deadline`` (EDF): the pickup holding the most urgent bag it can still save, the most
  urgent bags there, the destination of the most urgent bag on board; quickest routes.
- ``baseline`` (nearest job): the nearest node with bags on plain travel time, bags first come
  first served, the nearest destination next; quickest routes.

The classes are the policies' names, descriptions and settings; their per-tug choices run in the
day's compiled loop (``engine/sim/loop/policies.py``).
"""

from __future__ import annotations

import numba
import numpy as np

from .pickups import STOP_S


class Dispatcher:
    """A policy as the day sees it: ``plan`` sees every tug free in a dispatch round at once,
    before each is dispatched, and returns the ids of those it has no job for (they stay idle,
    not asked again this round); a rule plans none."""

    name = label = description = ""

    def plan(self, sim, tugs) -> set[int]:
        return set()


class ShortestPathDispatcher(Dispatcher):
    """The paper's decision system: bag-aware all-pairs distances pick the job, bag-aware routes
    take the tug there, and the tug collects bags waiting where its route passes."""

    name = "shortest-path"
    label = "Shortest path (paper)"
    description = ("Each free tug alone: the pickup closest on bag-aware all-pairs distance, "
                   "bag-aware routes, bags collected on the way.")
    bag_bonus_s = 5.0         # a pickup looks this many seconds closer per bag waiting there
    candidates = 8            # pickups tried, best score first, until one has bags to take
    # Settings measured and kept (README/notes: MBR on regional and the hub, seed 0):
    bag_routes = True         # drive bag-aware routes (False: quickest routes)
    collect_on_the_way = True  # stop where the route passes bags that can still make it


@numba.njit(cache=True, nogil=True)
def nearest_alive_dest(ids, dest, deadline, plain_s_row, plain_row, now):
    """Shortest-path's delivery: the destination nearest on ``plain_row`` (ties: lowest node)
    among bags ``ids`` that can still reach theirs by its deadline; -1 if none can."""
    best = -1
    for b in ids:
        d = dest[b]
        eta = now + plain_s_row[d] + STOP_S
        if np.isfinite(eta) and deadline[b] >= eta:
            if best < 0 or plain_row[d] < plain_row[best] or (
                    plain_row[d] == plain_row[best] and d < best):
                best = d
    return best


class EarliestDeadlineDispatcher(Dispatcher):
    """Earliest deadline first: each free tug alone serves the most urgent bag it can save."""

    name = "earliest-deadline"
    label = "Earliest deadline first"
    description = ("Each free tug alone: the pickup holding the most urgent bag it can still "
                   "save, most urgent bags first, quickest routes.")


class NearestJobDispatcher(Dispatcher):
    name = "baseline"
    label = "Baseline (nearest job)"
    description = ("Each free tug alone: the nearest node with bags on plain travel time, bags "
                   "first come first served, quickest routes.")
