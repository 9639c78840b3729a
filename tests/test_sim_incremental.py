"""The simulated day's compiled and incremental paths give exactly what the plain ones give."""

import numpy as np
import pytest

from engine.apsp import solve
from engine.airport.layout_io import bundled_airports, load_airport
from engine.sim.bags import (DELIVERED, FROM_ON_TUG, FROM_WAITING, NO_NODES, ON_TUG, PENDING,
                             WAITING, Bags, ConservationError)
from engine.sim.dispatch import Pickups
from engine.sim.loop.bagops import appear, move
from engine.sim.loop.codes import I_CREATED, N_I
from engine.sim.keygraph import KeyGraph
from engine.sim.network import RoadNetwork, Router
from engine.sim.schedule import BagSet


def _regional():
    airport = load_airport(bundled_airports()["regional"])
    net = RoadNetwork(airport, min(f.speed_mps for f in airport.fleets))
    return net, np.array([n.kind != "junction" for n in airport.nodes])


def test_condensing_after_a_few_changed_nodes_equals_condensing_from_scratch():
    net, key = _regional()
    kept = KeyGraph(net, key, "cpu-blocked")
    rng = np.random.default_rng(1)
    counts = np.zeros(net.n, dtype=np.int64)
    keys = np.flatnonzero(key)
    for step in range(6):
        changed = rng.choice(keys, size=3 if step else len(keys), replace=False)
        counts[changed] = rng.integers(0, 9, len(changed))
        kept.update(counts, "cpu-linear")
        fresh = KeyGraph(net, key, "cpu-blocked")
        fresh.update(counts, "cpu-linear")
        assert np.array_equal(kept.wk, fresh.wk)
        assert np.array_equal(kept.first, fresh.first)
        assert np.array_equal(kept.last, fresh.last)
        assert np.array_equal(kept.dk, fresh.dk)


def _reference_walk(weights, dist, i, j):
    """The canonical route, walked on the dense matrices in plain Python."""
    route = [i]
    while route[-1] != j:
        u = route[-1]
        route.append(min(v for v in range(len(dist)) if v != u and np.isfinite(weights[u, v])
                         and weights[u, v] + dist[v, j] == dist[u, j]))
    return route


def test_routes_take_the_lowest_numbered_vertex_among_equal_shortest_routes():
    # a 4 × 4 grid of equal roads: most pairs have many shortest routes, so ties decide
    side = 4
    n = side * side
    w = np.full((n, n), np.inf)
    for r in range(side):
        for c in range(side):
            u = r * side + c
            for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0)):
                if 0 <= r + dr < side and 0 <= c + dc < side:
                    w[u, (r + dr) * side + c + dc] = 10.0
    np.fill_diagonal(w, 0.0)
    dist = solve(w, "cpu-linear").dist
    src, dst = np.nonzero(np.isfinite(w) & ~np.eye(n, dtype=bool))
    indptr = np.searchsorted(src, np.arange(n + 1))
    router = Router(indptr, dst.astype(np.int64), w, dist)
    for i in range(n):
        for j in range(n):
            assert router.route(i, j).tolist() == _reference_walk(w, dist, i, j)


def test_a_refused_bag_move_changes_nothing():
    bagset = BagSet(*(np.zeros(3, dtype=t) for t in (np.int64, np.int64, float, float,
                                                      np.int8, np.int64)))
    bags = Bags(bagset, n_nodes=2, n_tugs=1)
    B, I = bags.arrays(), np.zeros(N_I, dtype=np.int64)
    appear(np.array([0, 1]), B, Pickups(bags, np.zeros(3), 2).arrays(), I)
    bags.created = int(I[I_CREATED])
    before = [a.copy() for a in (bags.state, bags.node, bags.at_node, bags.counts)]
    with pytest.raises(ConservationError):   # bag 2 never appeared
        move(np.array([1, 2]), FROM_WAITING, ON_TUG, np.nan, False, NO_NODES, 0, B, I)
    with pytest.raises(ConservationError):   # listed twice
        move(np.array([0, 0]), FROM_ON_TUG, DELIVERED, 10.0, True, NO_NODES, -1, B, I)
    after = [bags.state, bags.node, bags.at_node, bags.counts]
    assert all(np.array_equal(a, b) for a, b in zip(before, after))
    assert bags.state.tolist() == [WAITING, WAITING, PENDING] and bags.created == 2
    bags.check()
