"""The day loop's first-use compile (engine.loop_warmup): what counts as cold, that one short
day compiles what every policy's day runs, and the background child's bookkeeping. (The tests'
session compiled the loop before the first test where it was cold: tests/conftest.py.)"""

import os
import subprocess
import sys

import pytest
from numba.core import event

from engine import loop_warmup
from engine.airport.layout_io import load_bundled_or_file
from engine.sim import SimConfig, Simulation
from engine.sim.dispatch import POLICIES
from main import main
from tests.loop_warmup_fake import FakeChild


def test_an_empty_cache_is_cold_and_the_sessions_is_not(tmp_path):
    check = "from engine import loop_warmup; print(loop_warmup.cold())"
    done = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True,
                          env=dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path)), timeout=300,
                          check=True)
    assert done.stdout.split()[-1] == "True"
    assert not loop_warmup.cold()


class Compiles(event.Listener):
    """The engine.sim functions Numba compiles (not loads from its cache) while listening."""

    def __init__(self):
        self.names = []

    def on_start(self, ev):
        f = ev.data["dispatcher"].py_func
        if f.__module__.startswith("engine.sim"):
            self.names.append(f"{f.__module__}.{f.__name__}")

    def on_end(self, ev):
        pass


@pytest.mark.parametrize("route_engine", ["all-pairs", "from-tugs"])
def test_after_the_short_day_no_policys_day_compiles_anything_of_the_simulation(route_engine):
    """The policies are branches of one compiled loop: the warm-up's one day is enough."""
    loop_warmup.short_day()   # (loads what the session compiled)
    listener = Compiles()
    airport = load_bundled_or_file(loop_warmup.AIRPORT)
    with event.install_listener("numba:compile", listener):
        for policy in POLICIES:
            sim = Simulation(airport, SimConfig(hours=1.0, seed=1, policy=policy,
                                                route_engine=route_engine))
            sim.run_until(3600.0)
            assert sim.kpis()["bags_add_up"]
    assert listener.names == []


def test_the_child_plays_the_short_day():
    done = subprocess.run(loop_warmup.child_command(), capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr


def test_a_warm_cache_starts_no_child(monkeypatch):
    monkeypatch.setattr(loop_warmup, "_thread", None)
    assert not loop_warmup.start()
    assert not loop_warmup.compiling() and loop_warmup.wait(0)


def test_a_cold_cache_starts_one_child_and_a_failed_one_says_why(monkeypatch, tmp_path):
    child = FakeChild(monkeypatch, tmp_path)
    assert child.start() and loop_warmup.compiling()
    assert not child.start()                 # one a process
    assert not loop_warmup.wait(0.01)
    child.fail()
    assert loop_warmup.wait(60)
    assert loop_warmup.failed == "no compiler today"


@pytest.mark.parametrize("cold", [True, False])
def test_the_simulate_command_says_when_it_compiles_the_loop(monkeypatch, tmp_path, capsys, cold):
    monkeypatch.setattr(loop_warmup, "cold", lambda: cold)
    assert main(["simulate", "paper-5", "--hours", "1", "--out", str(tmp_path / "k.json")]) == 0
    said = "compiling the day's loop for this machine (first use only"
    assert (said in capsys.readouterr().err) == cold


def test_after_the_short_day_a_sweeps_day_compiles_nothing_of_the_simulation(tmp_path):
    """A sweep's day reads kept (read-only) tables: the same types as the short day's."""
    from engine.sweep.day import run_day
    from engine.sweep.scenario import load_sweep
    from tests.sweep_tiny import tiny
    loop_warmup.short_day()
    sweep = load_sweep(tiny(tmp_path))
    listener = Compiles()
    with event.install_listener("numba:compile", listener):
        for run in sweep.runs()[:2]:
            assert run_day(sweep.airports[run.scenario.layout], run, sweep.variant)[0]
    assert listener.names == []
