"""The simulated day's start-up: the auto variant's timings are measured once per machine and
kept in the cache folder; the tables solved once take Dijkstra on a road network (exact, the
same answer as Floyd–Warshall); the simulate command imports nothing it does not use."""

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from engine.apsp import auto, solve
from engine.apsp.random_graph import paper_random_graph
from engine.sim.route_engine import once_all_pairs

ROOT = Path(__file__).resolve().parent.parent
TABLE = {"cpu-linear": {24: 1e-5, 96: 5e-4, 384: 5e-2}, "cpu-blocked": {24: 8e-6, 96: 6e-5, 384: 5e-3}}


@pytest.fixture
def measured(monkeypatch, tmp_path):
    """The calibration against a fresh cache folder, counting its measurements."""
    calls = []
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(auto, "_measure", lambda: calls.append(1) or TABLE)
    auto.calibration.cache_clear()
    yield calls
    auto.calibration.cache_clear()


def test_calibration_is_measured_once_per_machine_and_read_back(measured, tmp_path, monkeypatch):
    assert auto.calibration() == TABLE and len(measured) == 1
    saved = json.loads((tmp_path / "bagroute" / auto.CACHE_FILE).read_text())
    assert saved["machine"] == auto._machine()
    auto.calibration.cache_clear()                      # a later run on this machine
    assert auto.calibration() == TABLE and len(measured) == 1
    assert auto.choose_variant(230) == "cpu-blocked"
    monkeypatch.setattr(auto, "_machine", lambda: {**saved["machine"], "threads": 64})
    auto.calibration.cache_clear()                      # another machine: measured again
    auto.calibration()
    assert len(measured) == 2


def test_an_unreadable_calibration_file_is_measured_again(measured, tmp_path):
    path = tmp_path / "bagroute" / auto.CACHE_FILE
    path.parent.mkdir(parents=True)
    path.write_text("{not json")
    assert auto.calibration() == TABLE and len(measured) == 1
    assert json.loads(path.read_text())["seconds"]["cpu-blocked"]["384"] == 5e-3


def test_tables_solved_once_take_dijkstra_on_a_road_graph_and_agree_with_floyd_warshall():
    n = 600
    rng = np.random.default_rng(1)
    road = np.full((n, n), np.inf)
    for u in range(n):                          # a ring with a few shortcuts: ~2 roads a vertex
        road[u, (u + 1) % n] = road[(u + 1) % n, u] = rng.integers(1, 50)
    for u, v in rng.integers(0, n, (40, 2)):
        road[u, v] = rng.integers(1, 500)
    np.fill_diagonal(road, 0)
    sparse = once_all_pairs(road, "auto")
    if "gpu" not in sparse.variant:             # a real GPU keeps Floyd–Warshall's auto
        assert sparse.variant == "scipy-dijkstra"
    np.testing.assert_array_equal(sparse.dist, solve(road, "cpu-blocked").dist)
    dense = paper_random_graph(60, 15, seed=2)
    assert once_all_pairs(dense, "auto").variant != "scipy-dijkstra"
    assert once_all_pairs(road, "cpu-linear").variant == "cpu-linear"   # asked for: honoured


def test_simulate_imports_no_flights_reader_and_no_cuda_without_a_driver(tmp_path):
    code = ("import sys, main\n"
            f"main.main(['simulate', 'paper-5', '--hours', '1', '--quiet', '--out', "
            f"{str(tmp_path / 'k.json')!r}])\n"
            "print(sorted(m for m in ('pandas', 'networkx', 'numba.cuda') if m in sys.modules))")
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_ENABLE_CUDASIM"}
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True,
                          text=True)
    assert done.returncode == 0, done.stderr
    imported = done.stdout.strip().splitlines()[-1]
    assert imported == "[]"   # a GPU, if any, is looked for in a child process


def test_road_all_pairs_equals_dijkstra_from_every_vertex_on_chains_rings_and_one_way_roads():
    from scipy.sparse.csgraph import csgraph_from_dense, dijkstra
    from engine.sim.road_all_pairs import road_all_pairs
    rng = np.random.default_rng(0)
    for _ in range(200):
        n = int(rng.integers(1, 30))
        w = np.full((n, n), np.inf)
        order = rng.permutation(n)
        for a, b in zip(order[:-1], order[1:]):       # one long road, some of it one-way
            w[a, b] = rng.integers(0, 6)
            if rng.random() < 0.7:
                w[b, a] = rng.integers(0, 6)
        if n > 2 and rng.random() < 0.5:              # closed into a ring (no junction at all)
            w[order[-1], order[0]] = 1
            if rng.random() < 0.5:
                w[order[0], order[-1]] = 2
        for u, v in rng.integers(0, n, (int(rng.integers(0, 4)), 2)):   # a few crossings
            w[u, v] = rng.integers(0, 9)
        np.fill_diagonal(w, 0)
        np.testing.assert_array_equal(road_all_pairs(w),
                                      dijkstra(csgraph_from_dense(w, null_value=np.inf)))
