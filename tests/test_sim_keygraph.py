"""The bag-aware all-pairs between key nodes equals the full road graph's, on real roads."""

import numpy as np
import pytest

from engine.apsp import solve as solve_apsp
from engine.airport.cost import bag_aware_cost_matrix
from engine.airport.layout_io import bundled_airports, load_airport
from engine.sim import SimConfig, Simulation
from tests.loop_routes import loop_route, solve


@pytest.mark.parametrize("name", ["paper-5", "regional"])
def test_condensed_distances_and_routes_match_the_full_graph(name):
    airport = load_airport(bundled_airports()[name])
    sim = Simulation(airport, SimConfig(hours=1, variant="cpu-blocked"))
    kg, key = sim.tables.keys, sim.key_mask
    rng = np.random.default_rng(0)
    for trial in range(3):
        counts = np.zeros(sim.net.n, dtype=np.int64)
        counts[key] = rng.integers(0, 12, key.sum())
        solve(sim, counts, "cpu-linear")
        full_w = bag_aware_cost_matrix(airport, counts)
        full = solve_apsp(full_w, "cpu-blocked").dist
        keys = np.flatnonzero(key)
        assert np.array_equal(kg.dk, full[np.ix_(keys, keys)])
        for i in keys[:12]:
            for j in keys[-12:]:
                path = loop_route(sim, i, j)   # the route the day's loop drives
                if not np.isfinite(full[i, j]):
                    assert len(path) == 0
                    continue
                assert path[0] == i and path[-1] == j
                cost = sum(full_w[a, b] for a, b in zip(path[:-1], path[1:]))
                assert cost == full[i, j]
