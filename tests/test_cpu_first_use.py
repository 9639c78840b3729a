"""A CPU variant's first use on a cold Numba cache, and ``auto``'s first measurements: they are
made in the warm-up child (engine/variant_warmup.py) while scipy answers, exactly, compiling nothing
(docs/gpu-first-use.md, "On a machine without a GPU"); a warm cache starts no child."""

import os
import subprocess
import sys

import numpy as np
import pytest

from engine import variant_warmup
from engine.apsp import solve
from engine.apsp.dijkstra import FLOYD_WARSHALL
from tests.apsp_reference import assert_routes_sum_to_distances, scipy_distances
from tests.test_variant_warmup import first_answer, road_like

BLOCKED = "engine.apsp.cpu_blocked:run"


@pytest.fixture(autouse=True)
def no_warm_ups(monkeypatch):
    for name in ("_SIZES", "_RUNNING", "_FAILED"):
        monkeypatch.setattr(variant_warmup, name, {})


@pytest.mark.parametrize("variant, graph, meanwhile", [
    ("cpu-blocked", "dense", "scipy-floyd-warshall"),
    ("cpu-blocked", "road", "scipy-dijkstra"),
    ("cpu-linear", "dense", "scipy-floyd-warshall"),
])
def test_the_first_answer_while_a_cpu_variant_compiles_compiles_nothing(tmp_path, variant, graph,
                                                                        meanwhile):
    ran, note, compiled, exact = first_answer(tmp_path, variant, graph)
    assert ran == meanwhile and exact
    assert note == f"{variant} compiling for this CPU (first use); ran {meanwhile} on the CPU meanwhile"
    assert compiled == []


def test_while_auto_first_measures_scipy_answers_and_says_so(tmp_path):
    ran, note, compiled, exact = first_answer(tmp_path, "auto", "dense")
    assert ran == "scipy-floyd-warshall" and exact and compiled == []
    assert note == ("auto measuring this machine's variants (first use); ran "
                    "scipy-floyd-warshall on the CPU meanwhile")


def test_scipys_floyd_warshall_is_exact_with_free_roads_and_unreachable_vertices(monkeypatch):
    """Zero costs are edges, unreachable pairs are inf with no route: as every variant's."""
    w = road_like(120)
    monkeypatch.setattr("engine.apsp.dijkstra.sparse", lambda n, edges: False)
    variant_warmup._SIZES["cpu-blocked"], variant_warmup._RUNNING["cpu-blocked"] = {1}, 1
    r = solve(w, "cpu-blocked")
    assert r.variant == FLOYD_WARSHALL.name and r.routes.kind == "predecessor"
    np.testing.assert_array_equal(r.dist, scipy_distances(w))
    assert np.isinf(r.dist[0, -1]) and r.route(0, len(w) - 1) == []
    rng = np.random.default_rng(1)
    assert_routes_sum_to_distances(r, w, [tuple(p) for p in rng.integers(0, len(w), (200, 2))])



@pytest.mark.parametrize("dense, meanwhile", [(True, "scipy-floyd-warshall"), (False, "scipy-dijkstra")])
def test_scipys_answers_name_the_one_thread_they_ran_on(monkeypatch, dense, meanwhile):
    """scipy's solvers never run in parallel: the result's device is one CPU thread, not the
    size of Numba's pool (which the status bar showed as "CPU (2 threads)")."""
    monkeypatch.setattr("engine.apsp.dijkstra.sparse", lambda n, edges: not dense)
    variant_warmup._SIZES["cpu-blocked"], variant_warmup._RUNNING["cpu-blocked"] = {1}, 1
    r = solve(road_like(40), "cpu-blocked")
    assert r.variant == meanwhile and r.device == "CPU (1 thread)"

def cold_in(cache) -> bool:
    check = f"from engine import variant_warmup; print(variant_warmup.cold({BLOCKED!r}))"
    done = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True,
                          env=dict(os.environ, NUMBA_CACHE_DIR=str(cache)), timeout=300,
                          check=True)
    return done.stdout.split()[-1] == "True"


def test_the_warm_up_child_fills_the_cache_and_then_nothing_is_cold(tmp_path, monkeypatch):
    """An empty cache is cold; after the child's compile it is not (so a second launch starts no
    child), and auto's measurements are saved for the app."""
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "numba"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert cold_in(tmp_path / "numba")
    assert variant_warmup.start("apsp", "auto", (30,))
    assert variant_warmup.wait("auto", timeout=600) == "ready"
    assert not cold_in(tmp_path / "numba")
    assert (tmp_path / "bagroute" / "apsp-auto.json").is_file()


def test_a_variant_with_no_cached_kernels_is_not_cold():
    assert not variant_warmup.cold("engine.apsp.dijkstra:run")



def test_a_day_solved_while_cpu_blocked_compiles_is_the_same_day():
    """The meanwhile solvers are exact and the day reads only distances: same KPIs, every
    bag-aware recompute included, whoever solved them."""
    from engine.airport.layout_io import bundled_airports, load_airport
    from engine.sim import SimConfig, Simulation
    from engine.sim.kpi import deterministic, summary

    def day():
        sim = Simulation(load_airport(bundled_airports()["regional"]),
                         SimConfig(hours=4.0, seed=1, variant="cpu-blocked"))
        sim.run_until(sim.end_time)
        return sim

    plain = day()
    variant_warmup._SIZES["cpu-blocked"], variant_warmup._RUNNING["cpu-blocked"] = {1}, 1
    meanwhile = day()
    assert {r.variant for r in plain.tables.log} == {"cpu-blocked"}
    ran = {r.variant for r in meanwhile.tables.log}
    assert ran and "cpu-blocked" not in ran and ran <= {"scipy-dijkstra", "scipy-floyd-warshall"}
    assert any(r.kind == "bag-aware" for r in meanwhile.tables.log)
    assert deterministic(summary(plain)) == deterministic(summary(meanwhile))


def test_where_a_gpu_variant_cannot_run_the_fallbacks_first_use_is_made_apart(monkeypatch):
    """No GPU and a cold cache: cpu-blocked, the fallback that would run, compiles in the child
    while scipy answers; the note says both."""
    from engine.apsp.random_graph import paper_random_graph
    from engine.apsp.solve import first_use
    from engine.registry import Variant
    monkeypatch.setattr(Variant, "reason",
                        property(lambda v: "no GPU" if v.family == "gpu" else None))
    monkeypatch.setattr(variant_warmup, "cold", lambda runner: True)
    assert first_use("gpu-fast") == "cpu-blocked" and first_use("cpu-linear") == "cpu-linear"
    variant_warmup._SIZES["cpu-blocked"], variant_warmup._RUNNING["cpu-blocked"] = {1}, 1
    w = paper_random_graph(12, 30, seed=3)
    r = solve(w, "gpu-fast")
    assert r.variant == "scipy-floyd-warshall"
    assert r.note == ("gpu-fast unavailable (no GPU); cpu-blocked compiling for this CPU (first "
                      "use); ran scipy-floyd-warshall on the CPU meanwhile")
    np.testing.assert_array_equal(r.dist, scipy_distances(w))
    monkeypatch.setattr(variant_warmup, "cold", lambda runner: False)
    assert first_use("cpu-blocked") is None
