"""The route engine: Floyd–Warshall on key nodes or SSSP from the tugs on the full road graph.
Both are exact and walk routes with one tie-break, so the dispatcher decides the same and the
day's KPIs are identical."""

import numpy as np
import pytest

from engine.airport.layout_io import bundled_airports, load_airport
from engine.sim import SimConfig, Simulation
from engine.sim.kpi import deterministic, summary
from tests.loop_routes import loop_dist, loop_route, solve


def day(name, hours, engine, variant):
    sim = Simulation(load_airport(bundled_airports()[name]),
                     SimConfig(hours=hours, seed=1, route_engine=engine, variant=variant))
    sim.run_until(sim.end_time)
    return sim


@pytest.mark.parametrize("name, hours", [("regional", 6.0), ("hub-atl", 0.5)])
def test_both_route_engines_give_the_same_day(name, hours):
    fw = day(name, hours, "all-pairs", "cpu-blocked")
    sssp = day(name, hours, "from-tugs", "cpu-dijkstra")
    a, b = summary(fw), summary(sssp)
    assert a["delivered_on_time"] > 0 and a["tug_distance_km"] > 0
    assert deterministic(a) == deterministic(b)
    assert {r.variant for r in sssp.tables.log} == {"cpu-dijkstra"}
    assert any(r.kind == "bag-aware" for r in sssp.tables.log)


def test_tug_distances_and_routes_equal_the_key_node_ones():
    airport = load_airport(bundled_airports()["regional"])
    fw = Simulation(airport, SimConfig(hours=1, variant="cpu-blocked"))
    sssp = Simulation(airport, SimConfig(hours=1, route_engine="from-tugs",
                                         variant="cpu-bellman-ford"))
    rng = np.random.default_rng(3)
    keys = np.flatnonzero(fw.key_mask)
    assert np.array_equal(keys, np.flatnonzero(sssp.key_mask))
    tugs = rng.choice(keys, len(sssp.tugs))
    sssp.tug_table.node[:len(tugs)] = tugs        # the tugs the from-tugs engine solves from
    counts = np.zeros(fw.net.n, np.int64)
    counts[rng.choice(keys, 20)] = rng.integers(1, 30, 20)
    solve(fw, counts, "cpu-blocked")
    solve(sssp, counts, "cpu-bellman-ford")
    for s in [*tugs[:3], keys[0]]:  # from a tug, and from a node no solve started at
        np.testing.assert_array_equal(loop_dist(sssp, s, keys), loop_dist(fw, s, keys))
        for t in rng.choice(keys, 10):   # the routes the day's loop drives
            np.testing.assert_array_equal(loop_route(sssp, s, t), loop_route(fw, s, t))


def test_an_unknown_route_engine_is_refused_by_name():
    with pytest.raises(ValueError, match="from-tugs"):
        Simulation(load_airport(bundled_airports()["paper-5"]), SimConfig(route_engine="magic"))
