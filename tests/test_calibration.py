"""The bundled airports' generated days carry the published figures airports/README.md cites
("Calibrated days"): flights a day, bags a flight, transfer share, connections."""

import numpy as np
import pytest

from engine.airport.layout_io import bundled_airports, load_airport
from engine.sim.schedule import TRANSFER, generate_flights, make_bags


def _day(name, seed):
    a = load_airport(bundled_airports()[name])
    gates = np.array([a.index(n.id) for n in a.gates()])
    sorts = np.array([a.index(n.id) for n in a.sorts()])
    flights = generate_flights(gates, 24.0, seed, a.schedule)
    bags = make_bags(flights, sorts, gates, {}, seed, a.schedule)
    return a, flights, bags


def _connections_min(a, flights, bags):
    """Scheduled connection of each transfer bag: outbound departure less inbound arrival."""
    arrival = {}
    for f in flights:
        arrival.setdefault(f.gate, []).append(f.arrival)
    tr = bags.kind == TRANSFER
    dep = np.array([flights[i].departure for i in bags.flight[tr]])
    arr = np.array([max(t for t in arrival[g] if t <= r) for g, r in zip(bags.origin[tr], bags.ready[tr])])
    return (dep - arr) / 60.0


@pytest.mark.parametrize("seed", [0, 1])
def test_the_hubs_day_is_atlantas(seed):
    a, flights, bags = _day("hub-atl", seed)
    assert 1000 <= len(flights) <= 1130            # ~1,063 turns: 775,818 movements in 2023
    per_departure = len(bags) / len(flights)
    assert 70 <= per_departure <= 82               # ~135 passengers x ~0.56 checked bags
    assert 0.55 <= np.mean(bags.kind == TRANSFER) <= 0.65   # ~60% of passengers connect
    conn = _connections_min(a, flights, bags)
    assert conn.min() >= 35                        # Delta's domestic minimum connection at ATL
    assert 72 <= conn.mean() <= 82                 # Delta: connections average 74-77 min
    hours = np.array([f.arrival for f in flights]) // 3600
    assert np.ptp(np.bincount(hours.astype(int))[1:18]) < 0.5 * len(flights) / 18   # a rolling hub


def test_the_regional_days_bags_are_mostly_checked_in_at_the_airport():
    a, flights, bags = _day("regional", 0)
    assert 80 <= len(flights) <= 130
    assert 90 <= len(bags) / len(flights) <= 115
    assert np.mean(bags.kind == TRANSFER) < 0.1
    assert _connections_min(a, flights, bags).min() >= 35


@pytest.mark.parametrize("seed", [0, 1])
def test_schiphols_day_is_its_2024_traffic(seed):
    a, flights, bags = _day("eham", seed)
    assert 600 <= len(flights) <= 700              # ~647 turns: 473,814 flights in 2024
    assert 125 <= len(bags) / len(flights) <= 150  # ~141 passengers a movement, ~one bag each
    assert 0.32 <= np.mean(bags.kind == TRANSFER) <= 0.40   # 24.3 of 66.8 million connected
    assert _connections_min(a, flights, bags).min() >= 40
