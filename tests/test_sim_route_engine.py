"""The route engine: Floyd–Warshall on key nodes or SSSP from the tugs on the full road graph.
Both are exact and walk routes with one tie-break, so the dispatcher decides the same and the
day's KPIs are identical."""

import numpy as np
import pytest

from engine.airport.layout_io import bundled_airports, load_airport
from engine.sim import SimConfig, Simulation
from engine.sim.kpi import deterministic, summary
from engine.sim.network import RoadNetwork
from engine.sim.route_engine import TugKeyGraph
from engine.sim.keygraph import KeyGraph


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
    net = RoadNetwork(airport, 5.0)
    rng = np.random.default_rng(3)
    key = np.zeros(net.n, bool)
    key[[airport.index(n.id) for n in airport.nodes if n.kind != "junction"]] = True
    keys = np.flatnonzero(key)
    tugs = rng.choice(keys, 6)
    fw = KeyGraph(net, key, "cpu-blocked")
    sssp = TugKeyGraph(net, key, "cpu-bellman-ford", lambda: tugs)
    counts = np.zeros(net.n, np.int64)
    counts[rng.choice(keys, 20)] = rng.integers(1, 30, 20)
    fw.update(counts, "cpu-blocked")
    sssp.update(counts, "cpu-bellman-ford")
    for s in [*tugs[:3], keys[0]]:  # from a tug, and from a node no solve started at
        np.testing.assert_array_equal(sssp.dist(s, keys), fw.dist(s, keys))
        for t in rng.choice(keys, 10):
            np.testing.assert_array_equal(sssp.route(s, t), fw.route(s, t))


def test_an_unknown_route_engine_is_refused_by_name():
    with pytest.raises(ValueError, match="from-tugs"):
        Simulation(load_airport(bundled_airports()["paper-5"]), SimConfig(route_engine="magic"))
