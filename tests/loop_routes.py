"""The day's loop's own bag-aware routes and distances, asked from a test: the compiled
``bag_route`` and ``bag_dist`` the dispatchers call, on a ``Simulation``'s state, with the rows
the loop asks Python for (from-tugs) answered as ``DayLoop`` answers them."""

import numba

from engine.sim.loop.codes import OK
from engine.sim.loop.routes import bag_dist, bag_route
from engine.sim.loop.unowned import pack


@numba.njit
def _route(i, j, S):
    return bag_route(i, j, pack(S))


@numba.njit
def _dist(s, nodes, S):
    return bag_dist(s, nodes, pack(S))


def solve(sim, counts, variant):
    """The day's bag-aware costs solved for ``counts`` waiting bags per node (rows the loop
    kept from an earlier solve dropped, as a refresh drops them)."""
    sim.tables.keys.update(counts, variant)
    sim.loop.have_from[:] = False
    sim.loop.have_to[:] = False


def _ask(sim, call):
    while True:
        sim.loop._sync_in(sim, False)
        code, out = call(sim.loop.state(sim))
        if code == OK:
            return out
        sim.loop._answer(sim, code)


def loop_route(sim, i, j):
    """The bag-aware route i -> j the loop drives."""
    return _ask(sim, lambda S: _route(int(i), int(j), S))


def loop_dist(sim, s, nodes):
    """The loop's bag-aware distances (deciseconds) from ``s`` to ``nodes``."""
    return _ask(sim, lambda S: _dist(int(s), nodes, S))
