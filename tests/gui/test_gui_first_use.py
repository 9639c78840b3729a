"""The app on a fresh GPU machine (mimicked: the GPU variant's kernels are compiling), or on a
machine without a GPU whose Numba cache is cold (mimicked): the route finder's first route is
the CPU's, from a solver with nothing to compile, and the status bar names the solver that drew
it (docs/gpu-first-use.md); a day on a cold CPU starts the warm-up too, a warm one does not."""

import importlib

import numpy as np
import pytest

from engine import variant_warmup
from engine.airport.cost import travel_time_matrix
from engine.airport.layout_io import bundled_airports
from gui.main_window import MainWindow
from gui.route import solver_worker
from tests.apsp_reference import scipy_distances

from tests.gui.conftest import SOLVE_TIMEOUT_MS


@pytest.fixture
def started(monkeypatch):
    """The warm-ups started, each a compile that has not ended yet."""
    for name in ("_SIZES", "_RUNNING", "_FAILED"):
        monkeypatch.setattr(variant_warmup, name, {})
    started = []

    def start(family, variant, sizes, on_done=None):
        variant_warmup._SIZES.setdefault(variant, set()).update(sizes)
        variant_warmup._RUNNING[variant] = 1
        started.append((family, variant, tuple(sizes)))
        return True

    monkeypatch.setattr(solver_worker, "simulated", lambda: False)
    monkeypatch.setattr(variant_warmup, "start", start)
    return started


def assert_drawn_by(window, solver: str, report: str) -> None:
    """The route shown is ``solver``'s, exact, and the status bar begins with ``report``."""
    assert window.result.variant == solver
    assert window.solve_report().startswith(report)
    assert solver in window.panel.solver_line.text()
    ids = window.airport.node_ids
    i, j = ids.index(window.from_id), ids.index(window.to_id)
    expected = scipy_distances(travel_time_matrix(window.airport))[i, j]
    assert np.isfinite(expected) and window.summary.cost == expected


def test_while_the_gpu_compiles_the_status_bar_names_the_cpu_solver_of_the_route_shown(
        qtbot, started, settings):
    settings.setValue("solver/variant", "gpu-fast")
    window = MainWindow(bundled_airports()["eham"], settings=settings)   # a road network
    qtbot.addWidget(window)
    window.show()
    qtbot.waitUntil(lambda: window.summary is not None, timeout=SOLVE_TIMEOUT_MS)

    n = len(window.airport.nodes)
    assert ("apsp", "gpu-fast", (n,)) in started
    assert_drawn_by(window, "scipy-dijkstra",
                    "gpu-fast compiling for this GPU (first use); ran scipy-dijkstra on the CPU "
                    "meanwhile")
    window.close()


@pytest.mark.parametrize("variant, first", [
    ("cpu-blocked", "cpu-blocked compiling for this CPU (first use)"),
    ("auto", "auto measuring this machine's variants (first use)")])
def test_on_a_cold_cpu_the_first_route_is_scipys_and_the_status_bar_says_so(
        qtbot, started, monkeypatch, settings, variant, first):
    """A machine without a GPU, its Numba cache empty (mimicked), on the default airport."""
    monkeypatch.setattr(variant_warmup, "cold", lambda runner: True)
    monkeypatch.setattr(importlib.import_module("engine.apsp.solve"), "calibrated", lambda: False)
    settings.setValue("solver/variant", variant)
    window = MainWindow(bundled_airports()["paper-5"], settings=settings)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitUntil(lambda: window.summary is not None, timeout=SOLVE_TIMEOUT_MS)

    assert started == [("apsp", variant, (len(window.airport.nodes),))]
    assert_drawn_by(window, "scipy-floyd-warshall",
                    f"{first}; ran scipy-floyd-warshall on the CPU meanwhile")
    window.close()


def test_on_a_warm_cpu_no_warm_up_starts(qtbot, started, monkeypatch, settings):
    monkeypatch.setattr(variant_warmup, "cold", lambda runner: False)
    settings.setValue("solver/variant", "cpu-blocked")
    window = MainWindow(bundled_airports()["paper-5"], settings=settings)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitUntil(lambda: window.summary is not None, timeout=SOLVE_TIMEOUT_MS)
    assert started == [] and window.result.variant == "cpu-blocked"
    assert window.result.note is None
    window.close()


@pytest.mark.parametrize("cold", [True, False])
def test_a_day_on_a_cpu_starts_the_warm_up_once_where_the_cache_is_cold(qtbot, started,
                                                                        monkeypatch, cold):
    from engine.airport.layout_io import load_airport
    from engine.sim import SimConfig, Simulation
    from engine.sim.route_engine import solve_sizes
    from gui.day import worker as day_worker
    monkeypatch.setattr(day_worker, "simulated", lambda: False)
    monkeypatch.setattr(variant_warmup, "cold", lambda runner: cold)
    sim = Simulation(load_airport(bundled_airports()["paper-5"]),
                     SimConfig(hours=0.5, seed=1, variant="cpu-blocked"))
    worker = day_worker.SimWorker(checkpoints=False)
    worker.variant = "cpu-blocked"
    worker._compile_in_background(sim)
    worker._compile_in_background(sim)   # (each step asks: the cache is looked at once)
    sizes = solve_sizes(sim.tables.engine, sim.tables.keys)[1]
    assert started == ([("apsp", "cpu-blocked", tuple(sizes))] if cold else [])
