"""Cost matrices: travel time and the paper's bag-aware cost, solved through engine.apsp."""

import time

import numpy as np
import pytest

from engine.apsp import solve
from engine.airport.cost import (BAG_DISCOUNT, bag_aware_cost_matrix, edge_arrays, travel_time_matrix)
from engine.airport.layout_io import bundled_airports, load_airport


@pytest.fixture(scope="module")
def paper():
    return load_airport(bundled_airports()["paper-5"])


def route_names(airport, result, a, b):
    return [airport.node_ids[i] for i in result.route(airport.index(a), airport.index(b))]


def test_travel_time_is_whole_deciseconds_inf_without_road_zero_on_diagonal(paper):
    t = travel_time_matrix(paper)
    i = paper.index
    assert t[i("A1"), i("A4")] == 10 and t[i("A4"), i("A5")] == 60 and t[i("A1"), i("A5")] == 30
    assert t[i("A4"), i("A1")] == np.inf          # one-way
    assert (np.diag(t) == 0).all()
    finite = t[np.isfinite(t)]
    assert (finite == np.round(finite)).all() and t.dtype == np.float64


def test_plain_travel_time_sends_the_handler_straight_from_a1_to_a5(paper):
    r = solve(travel_time_matrix(paper), variant="cpu-linear")
    assert route_names(paper, r, "A1", "A5") == ["A1", "A5"]
    assert r.dist[paper.index("A1"), paper.index("A5")] == 30


def test_bag_aware_cost_sends_the_handler_a1_a4_a5_collecting_12_bags(paper):
    r = solve(bag_aware_cost_matrix(paper, paper.bag_vector()), variant="cpu-linear")
    route = route_names(paper, r, "A1", "A5")
    assert route == ["A1", "A4", "A5"]
    assert sum(paper.bags.get(g, 0) for g in route) == 12


def test_a5_can_never_reach_a2_whatever_the_bags(paper):
    rng = np.random.default_rng(1)
    for bags in [paper.bag_vector(), np.zeros(5, int), rng.integers(0, 50, 5)]:
        r = solve(bag_aware_cost_matrix(paper, bags), variant="cpu-linear")
        assert r.dist[paper.index("A5"), paper.index("A2")] == np.inf
        assert r.route(paper.index("A5"), paper.index("A2")) == []


def test_bag_aware_cost_is_whole_numbers_at_least_one_on_every_road(paper):
    rng = np.random.default_rng(0)
    for bags in (np.zeros(5, int), rng.integers(0, 200, 5)):
        c = bag_aware_cost_matrix(paper, bags)
        t = travel_time_matrix(paper)
        road = np.isfinite(t) & ~np.eye(5, dtype=bool)
        assert (np.isfinite(c) == np.isfinite(t)).all()
        assert (c[road] >= 1).all() and (c[road] == np.round(c[road])).all()
        assert (c[road] <= t[road]).all()                     # bags only ever make a road cheaper


def test_with_no_bags_the_bag_aware_cost_is_the_travel_time(paper):
    assert np.array_equal(bag_aware_cost_matrix(paper, np.zeros(5, int)), travel_time_matrix(paper))


def test_bag_aware_cost_follows_the_formula(paper):
    bags = paper.bag_vector()
    c = bag_aware_cost_matrix(paper, bags)
    i, j = paper.index("A4"), paper.index("A5")
    assert c[i, j] == max(1, round(60 * BAG_DISCOUNT ** (7 + 4)))


def test_cost_changes_when_bags_change(paper):
    before = bag_aware_cost_matrix(paper, paper.bag_vector())
    bags = paper.bag_vector()
    bags[paper.index("A4")] = 0                      # A4's bags were collected
    r = solve(bag_aware_cost_matrix(paper, bags), variant="cpu-linear")
    assert not np.array_equal(before, bag_aware_cost_matrix(paper, bags))
    assert route_names(paper, r, "A1", "A5") == ["A1", "A5"]


def test_bags_of_the_wrong_shape_or_negative_are_refused(paper):
    with pytest.raises(ValueError):
        bag_aware_cost_matrix(paper, np.zeros(4, int))
    with pytest.raises(ValueError):
        bag_aware_cost_matrix(paper, np.array([0, 0, -1, 0, 0]))


def test_edge_arrays_are_rebuilt_when_the_road_list_changes(paper):
    import copy
    a = copy.deepcopy(paper)
    first = edge_arrays(a)
    assert edge_arrays(a) is first
    a.roads = a.roads[:-1]
    assert edge_arrays(a) is not first and len(edge_arrays(a).src) == len(first.src) - 1


def test_hub_bag_aware_matrix_builds_in_a_few_milliseconds():
    hub = load_airport(bundled_airports()["hub-atl"])
    bags = hub.bag_vector()
    bag_aware_cost_matrix(hub, bags)                 # edge arrays built once
    times = []
    for _ in range(5):
        start = time.perf_counter()
        c = bag_aware_cost_matrix(hub, bags)
        times.append(time.perf_counter() - start)
    assert c.shape == (len(hub.nodes),) * 2
    assert sorted(times)[2] < 0.2                    # measured ~6 ms; FW on it takes seconds
