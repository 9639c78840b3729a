"""A sweep worker keeps the tables a day solves once (``engine.sim.kept_tables``) for its next day
on the same roads: the rows are those of days run each in a fresh process, what-if edits that
change the roads included, and no day can change a kept table."""

import multiprocessing as mp
from concurrent.futures import ProcessPoolExecutor

import numpy as np
import pytest

from engine.airport.layout_io import load_bundled_or_file
from engine.sim import kept_tables, route_engine
from engine.sim.kept_tables import keeping, solved_once
from engine.sim.simulation import SimConfig, Simulation
from engine.sweep.day import run_day
from engine.sweep.pool import seed_major
from engine.sweep.scenario import load_sweep
from tests.sweep_tiny import tiny

# the regional airport with its bag hall road closed at 0:45 and reopened at 3:00 (both change
# the roads: the tables are solved again mid-day), against the same days without; two policies,
# one of which hands rows of the plain table to Numba (earliest-deadline)
EDITS = """
[sweep]
seeds = 2
variant = "cpu-blocked"

[factors]
layout = "regional"
fleet = 8
policy = ["fleet", "earliest-deadline"]
hours = 3.5
edits = ["none", "closed"]

[[edits.closed]]
at = "0:45"
do = "close-road"
a = "SORT"
b = "Wh14"

[[edits.closed]]
at = "3:00"
do = "reopen-road"
a = "SORT"
b = "Wh14"
length_m = 55.0
seconds = 24.8
"""


def day_of(sweep, run):
    return run_day(sweep.airports[run.scenario.layout], run, sweep.variant,
                   sweep.edit_sets[run.scenario.edits])[0]


def test_days_in_one_process_give_the_rows_of_days_each_in_a_fresh_process(tmp_path,
                                                                            monkeypatch):
    sweep = load_sweep(tiny(tmp_path, EDITS))
    runs = seed_major(sweep.runs())
    solves = []
    real = route_engine.apsp_solve
    monkeypatch.setattr(route_engine, "apsp_solve",
                        lambda w, variant: solves.append(len(w)) or real(w, variant))
    kept_tables.forget()
    here = [day_of(sweep, r) for r in runs]
    # each road set solved once (plain travel time and junctions): as the day starts, with the
    # road closed, and reopened (the same roads as at the start: kept), whatever the seed
    assert len(solves) == 4, solves
    # seed 1's days (every table of theirs kept from seed 0's), each in a fresh process
    later = [i for i, r in enumerate(runs) if r.seed == 1]
    spawn = mp.get_context("spawn")
    with ProcessPoolExecutor(2, mp_context=spawn, max_tasks_per_child=1) as fresh:
        there = list(fresh.map(day_of, [sweep] * len(later), [runs[i] for i in later]))
    assert [here[i] for i in later] == there
    assert len({r["mbr_per_1000"] for r in there}) > 1     # the days differ: a real comparison


def test_a_kept_table_is_read_only_and_a_day_outside_a_sweep_keeps_nothing():
    regional = load_bundled_or_file("regional")
    config = SimConfig(hours=1, seed=0, tugs=2, variant="cpu-blocked")
    kept_tables.forget()
    with keeping():
        sim = Simulation(regional, config)
    kept = [t for tables, _, _ in kept_tables._kept.values() for t in tables if t is not None]
    assert kept
    for table in kept:
        with pytest.raises(ValueError, match="read-only"):
            table.flat[0] = 1.0
    # the day's own copies: writeable, as outside a sweep (one type for the compiled loop)
    assert sim.tables.plain.flags.writeable and sim.tables.keys.dj_to.flags.writeable
    assert not any(np.shares_memory(sim.tables.plain, t) for t in kept)
    sim = Simulation(regional, config)
    assert sim.tables.plain.flags.writeable and not any(r.note for r in sim.tables.log)


def test_tables_are_kept_by_content_and_variant():
    kept_tables.forget()
    calls = []

    def solver(w):
        def solve():
            calls.append(w)
            return (w * 2,), route_engine.Solved(None, "cpu-blocked", 1.5)
        return solve
    w = np.arange(9.0).reshape(3, 3)
    with keeping():
        (first,), _ = solved_once("travel-time", "auto", (w,), solver(w))
        (again,), info = solved_once("travel-time", "auto", (w.copy(),), solver(w.copy()))
        assert np.array_equal(again, first) and again is not first and len(calls) == 1
        assert info.variant == "cpu-blocked" and "solved it in 1.50 s" in info.note
        changed = w.copy()
        changed[0, 1] = 5.0          # another road's time
        solved_once("travel-time", "auto", (changed,), solver(changed))
        solved_once("travel-time", "cpu-linear", (w,), solver(w))          # another variant
        solved_once("junctions", "auto", (w,), solver(w))                  # another table
        solved_once("travel-time", "auto", (w.astype(np.float32),), solver(w))  # another dtype
    assert len(calls) == 5
    (outside,), _ = solved_once("travel-time", "auto", (w,), solver(w))
    assert len(calls) == 6 and outside.flags.writeable


def test_the_day_phases_benchmark_shows_the_kept_and_the_solved_days(tmp_path, capsys):
    from benchmarks import sweep_day_phases
    kept_tables.forget()
    path = tiny(tmp_path, EDITS)
    assert sweep_day_phases.main([str(path), "--hours", "0.5", "--seeds", "0,1", "--both"]) == 0
    rows = [line.split(" | ") for line in capsys.readouterr().out.splitlines()
            if line.startswith("| seed")]
    assert [(r[0], r[1]) for r in rows] == [("| seed 0", "solved"), ("| seed 0", "solved"),
                                            ("| seed 1", "kept"), ("| seed 1", "solved")]
