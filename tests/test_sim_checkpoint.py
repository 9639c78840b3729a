"""Checkpoints of a running day: a fork runs on to the day the original would have, edits on one
never reach the other, and an edit applied at an earlier time on screen (rewound from a
checkpoint) gives the day that applied it then."""

import json

import pytest

from engine.airport.layout_io import bundled_airports, load_airport
from engine.sim import SimConfig, Simulation, kpi
from engine.sim.checkpoint import Checkpoints, fork
from engine.sim.edit_io import apply_at
from engine.sim.edits import AddTugs, CloseRoad, apply_edit


@pytest.fixture(scope="module")
def regional():
    return load_airport(bundled_airports()["regional"])


def day(airport, **kw):
    return Simulation(airport, SimConfig(hours=2, seed=3, variant="cpu-blocked", **kw))


def kpis(sim):
    return json.dumps(kpi.deterministic(sim.kpis())), sim.series


@pytest.mark.parametrize("engine", ["all-pairs", "from-tugs"])
def test_a_fork_runs_on_to_the_same_day(regional, engine):
    variant = "cpu-blocked" if engine == "all-pairs" else "cpu-dijkstra"
    sim = Simulation(regional, SimConfig(hours=2, seed=3, variant=variant, route_engine=engine))
    sim.run_until(2700.0)
    twin = fork(sim)
    for s in (sim, twin):
        s.run_until(s.end_time, check=True)
    assert kpis(sim) == kpis(twin)


def test_an_edit_on_the_original_never_reaches_the_fork(regional):
    plain = day(regional)
    plain.run_until(plain.end_time)
    sim = day(regional)
    sim.run_until(1800.0)
    twin = fork(sim)
    apply_edit(sim, CloseRoad("SORT", "Wh14"))
    apply_edit(sim, AddTugs("DEPOT", 2))
    twin.run_until(twin.end_time, check=True)
    sim.run_until(sim.end_time, check=True)
    assert len(twin.airport.roads) == len(regional.roads) and len(twin.tugs) == 24
    assert kpis(twin) == kpis(plain) != kpis(sim)


def test_an_edit_rewound_to_the_time_on_screen_is_the_edit_made_then(regional):
    """The worker has run to 2,400 s while the screen shows 1,500 s: the edit applies at 1,500."""
    sim, marks = day(regional), Checkpoints(keep=3)
    for t in (300.0, 600.0, 1200.0, 1800.0, 2400.0):
        sim.run_until(t)
        marks.save(sim)
    assert marks.times() == [1200.0, 1800.0, 2400.0]
    with pytest.raises(KeyError):
        Checkpoints().rewind(10.0)
    rewound = marks.rewind(1500.0)
    assert rewound.t == 1500.0 and marks.times() == [1200.0]
    applied = apply_edit(rewound, CloseRoad("SORT", "Wh14"))
    assert applied.t == 1500.0
    rewound.run_until(rewound.end_time, check=True)
    then = day(regional)
    apply_at(then, CloseRoad("SORT", "Wh14"), 1500.0)
    then.run_until(then.end_time)
    assert kpis(rewound) == kpis(then)


def test_the_twins_tables_ask_the_twin_where_its_tugs_are_and_report_to_it(regional):
    """The seams the tables are given (tug positions, recompute reports) are the day's own
    methods: a fork's tables call the fork, never the day it was copied from."""
    sim = day(regional)
    sim.run_until(600.0)
    twin = fork(sim)
    assert twin.tables.tug_nodes.__self__ is twin and sim.tables.tug_nodes.__self__ is sim
    assert twin.tables.keys.on_update.__self__ is twin
    twin.run_until(1200.0, check=True)
