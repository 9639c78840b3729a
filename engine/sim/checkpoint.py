"""Checkpoints of a running day, so a what-if edit can apply at the simulated time on screen
although the day has already been computed ahead of it (the app's worker runs ahead of the
clock it shows).

    marks = Checkpoints()
    marks.save(sim)                  # after each step the app is handed (cheap: see ``fork``)
    ...
    sim = marks.rewind(t_on_screen)  # a copy of the day at that time; the checkpoints after it
    applied = apply_edit(sim, edit)  #   are dropped, the day goes on from here

``fork(sim)`` is an independent copy of the day: what no step or edit changes in place (the
airport, the road network, the travel-time and junction tables and their routers) is shared,
the rest (bags, tugs, events, the bag-aware tables) is copied. A fork run to the end gives the
day the original would have.
"""

from __future__ import annotations

import copy
from collections import deque

from .simulation import Simulation

# replaced, never changed in place, by the steps and edits (engine.sim.simulation, dispatch)
_SHARED_TABLES = ("net", "plain_w", "plain", "plain_s", "plain_routes")
_SHARED_KEYS = ("net", "dj_from", "dj_to", "wj", "j_w", "j_indptr", "j_indices", "k_indptr",
                "k_indices", "k_flat", "key_nodes", "junctions", "kidx")


def fork(sim: Simulation) -> Simulation:
    """An independent copy of ``sim`` as it is now. A caller's ``on_recompute`` hook is copied
    with it: the app's worker takes its own off first."""
    tables, keys = sim.tables, sim.tables.keys
    shared = [sim.airport, sim.net, sim.config, sim.ready, sim.deadlines, sim.deadline_order,
              sim.pickups.ldt, sim.pickups.ldt_order, sim.pickups.ldt_sorted]
    shared += [vars(tables)[k] for k in _SHARED_TABLES if k in vars(tables)]
    shared += [vars(keys)[k] for k in _SHARED_KEYS if k in vars(keys)]
    twin = copy.deepcopy(sim, {id(x): x for x in shared})
    return twin   # methods of ``sim`` held by its parts (tug_nodes, on_update) are the twin's


class Checkpoints:
    """Forks of one day at the times it was saved, newest last (at most ``keep``)."""

    def __init__(self, keep: int = 8):
        self.marks: deque[Simulation] = deque(maxlen=keep)

    def save(self, sim: Simulation) -> None:
        """Keep a fork of ``sim`` at its current time (replacing one saved at the same time)."""
        while self.marks and self.marks[-1].t >= sim.t:
            self.marks.pop()
        self.marks.append(fork(sim))

    def times(self) -> list[float]:
        return [m.t for m in self.marks]

    def rewind(self, t: float) -> Simulation:
        """A fork of the day at simulated time ``t``: the newest checkpoint at or before ``t``
        run on to ``t`` (kept, with the older ones; the later ones are dropped). ``KeyError``
        when every checkpoint is later than ``t``."""
        while self.marks and self.marks[-1].t > t:
            self.marks.pop()
        if not self.marks:
            raise KeyError(f"no checkpoint at or before {t:g} s")
        sim = fork(self.marks[-1])
        sim.run_until(t)
        return sim
