"""What a frame shows of the day (no Qt): every driving tug's leg with its timetable, each tug
placed on its road at any instant of that leg."""

import numpy as np

from engine.airport.layout_io import bundled_airports, load_airport
from engine.sim import SimConfig, Simulation
from engine.sim.frame import day_facts, tug_frame, tug_infos
from engine.sim.tugs import DRIVING


def test_a_frame_places_each_driving_tug_on_its_leg_and_gives_its_timetable():
    sim = Simulation(load_airport(bundled_airports()["regional"]),
                     SimConfig(hours=2, seed=0, variant="cpu-blocked"))
    sim.run_until(1800.0)
    frame = tug_frame(sim)
    driving = [t for t in sim.tugs if t.activity == DRIVING and len(t.path) >= 2]
    assert driving and list(frame.driving) == [t.id for t in driving]
    for tug in driving:
        times = frame.leg_times(tug.id)
        assert np.allclose(times, tug.times, rtol=0, atol=1e-6)   # through slot * SPAN + t
        start, end = frame.positions(times[0])[tug.id], frame.positions(times[-1])[tug.id]
        assert np.allclose(start, (sim.net.x[tug.path[0]], sim.net.y[tug.path[0]]))
        assert np.allclose(end, (sim.net.x[tug.path[-1]], sim.net.y[tug.path[-1]]))
    idle = next(t for t in sim.tugs if t.activity != DRIVING)
    assert frame.leg_times(idle.id) is None
    assert np.allclose(frame.positions(sim.t)[idle.id], (sim.net.x[idle.node], sim.net.y[idle.node]))
    infos = tug_infos(sim)
    assert [i.id for i in infos] == [t.id for t in sim.tugs]
    assert sum(i.load for i in infos) == sim.snapshot().kpis["on_tug"]


def test_the_day_facts_say_what_the_simulation_panel_states():
    airport = load_airport(bundled_airports()["regional"])
    sim = Simulation(airport, SimConfig(hours=2, seed=0, variant="cpu-blocked", tugs=6))
    facts = day_facts(sim)
    assert facts["tugs"] == 6 and facts["end"] == 7200.0
    assert facts["bags"] == len(sim.bags.set) and facts["flights"] == len(sim.schedule.flights)
    assert facts["route_engine"] == "all-pairs"
    assert facts["key_nodes"] == len(sim.tables.keys.key_nodes) < len(airport.nodes)


def test_a_frame_places_any_subset_of_tugs_as_it_places_them_all_and_infos_match_each_tug():
    sim = Simulation(load_airport(bundled_airports()["regional"]),
                     SimConfig(hours=2, seed=1, variant="cpu-blocked"))
    sim.run_until(2400.0)
    frame = tug_frame(sim)
    for t in (sim.t - 30.0, sim.t, sim.t + 45.0):
        every = frame.positions(t)
        some = np.array([5, 0, len(sim.tugs) - 1, 3])
        assert np.array_equal(frame.positions(t, some), every[some])
        assert frame.positions(t, np.empty(0, dtype=np.int64)).shape == (0, 2)
    for info, tug in zip(tug_infos(sim), sim.tugs):   # what the per-tug arrays say, tug by tug
        on = sim.onboard(tug)
        assert info.dests == sorted(set(sim.bags.set.dest[on].tolist()))
        assert info.pickups == int(np.count_nonzero(sim.bags.reserved[tug.pickup] == tug.id))
        assert info.load == len(on) and info.node == tug.node and info.activity == tug.activity
    assert any(i.dests for i in tug_infos(sim)) and any(i.pickups for i in tug_infos(sim))
