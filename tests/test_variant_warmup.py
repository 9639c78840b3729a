"""A GPU variant's first use: its kernels compile in a background process while the CPU answers
(engine/variant_warmup.py), and each kernel compiles only when a size first takes it
(gpu_launch.LazyKernel)."""

import json
import os
import subprocess
import sys

import numpy as np
import pytest

from engine import variant_warmup
from engine.apsp import solve
from engine.apsp.random_graph import paper_random_graph
from engine.gpu_launch import lazy_kernel
from tests.apsp_reference import assert_routes_sum_to_distances, scipy_distances


@pytest.fixture(autouse=True)
def no_warm_ups(monkeypatch):
    for name in ("_SIZES", "_RUNNING", "_FAILED"):
        monkeypatch.setattr(variant_warmup, name, {})


def reference(w):
    return solve(w, "cpu-linear").dist


def test_while_a_variant_compiles_the_cpu_answers_and_says_why(monkeypatch):
    w = paper_random_graph(12, 30, seed=3)
    monkeypatch.setitem(variant_warmup._SIZES, "gpu-fast", {12})
    monkeypatch.setitem(variant_warmup._RUNNING, "gpu-fast", 1)
    assert variant_warmup.state("gpu-fast") == "compiling"
    r = solve(w, "gpu-fast")
    assert r.variant == "cpu-blocked"
    assert "gpu-fast compiling for this GPU (first use)" in r.note
    np.testing.assert_array_equal(r.dist, reference(w))


def road_like(n: int = 600, seed: int = 5) -> np.ndarray:
    """A sparse road-like graph: a two-way ring of roads with one-way chords, some free (cost 0)
    roads, and a few vertices no road reaches."""
    rng = np.random.default_rng(seed)
    w = np.full((n, n), np.inf)
    ring = np.arange(n - 5)
    w[ring, np.roll(ring, 1)] = rng.integers(0, 60, len(ring))
    w[np.roll(ring, 1), ring] = rng.integers(1, 60, len(ring))
    chords = rng.integers(0, n - 5, (n // 2, 2))
    w[chords[:, 0], chords[:, 1]] = rng.integers(0, 90, len(chords))
    np.fill_diagonal(w, 0)
    return w


def compiling(monkeypatch, variant="gpu-fast"):
    monkeypatch.setitem(variant_warmup._SIZES, variant, {1})
    monkeypatch.setitem(variant_warmup._RUNNING, variant, 1)


def test_while_a_variant_compiles_a_sparse_graph_is_answered_by_dijkstra_exactly(monkeypatch):
    """Dijkstra from every vertex (scipy: nothing to compile) gives the first answer on a road
    network; the note names it, and its distances and routes are exact."""
    w = road_like()
    compiling(monkeypatch)
    r = solve(w, "gpu-fast")
    assert r.variant == "scipy-dijkstra" and r.routes.kind == "predecessor"
    assert r.note == ("gpu-fast compiling for this GPU (first use); ran scipy-dijkstra on the "
                      "CPU meanwhile")
    np.testing.assert_array_equal(r.dist, scipy_distances(w))
    assert np.isinf(r.dist[0, -1]) and r.route(0, len(w) - 1) == []
    rng = np.random.default_rng(0)
    assert_routes_sum_to_distances(r, w, [tuple(p) for p in rng.integers(0, len(w), (300, 2))])


# What the first answer on a fresh machine compiles (an empty Numba cache): every compile, by
# name, while a graph ("road": road_like, else a dense random one) is solved as the app's first
# solve while VARIANT compiles; with the answer's variant, note and whether it is exact.
FIRST_ANSWER = """
import json, sys
import numpy as np
from numba.core import event
from engine import variant_warmup
from engine.apsp import solve
from engine.apsp.random_graph import paper_random_graph
from tests.apsp_reference import scipy_distances
from tests.test_variant_warmup import road_like
compiled = []


class Compiles(event.Listener):
    def on_start(self, e):
        pass

    def on_end(self, e):
        f = e.data["dispatcher"].py_func
        if f.__module__.startswith("engine."):   # (not numba's own overloads inside them)
            compiled.append(f.__name__)


event.register("numba:compile", Compiles())
variant, graph = sys.argv[1:]
w = road_like() if graph == "road" else paper_random_graph(40, 30, seed=3)
variant_warmup._SIZES[variant], variant_warmup._RUNNING[variant] = {1}, 1
r = solve(w, variant)
r.route(0, 7)
exact = bool(np.array_equal(r.dist, scipy_distances(w)))
print(json.dumps([r.variant, r.note, sorted(set(compiled)), exact]))
"""


def first_answer(cache, variant: str, graph: str) -> list:
    """[variant, note, compiled, exact] of FIRST_ANSWER on the empty Numba cache ``cache``."""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache), NUMBA_ENABLE_CUDASIM="1")
    done = subprocess.run([sys.executable, "-c", FIRST_ANSWER, variant, graph], env=env,
                          capture_output=True, text=True, timeout=300, check=True)
    return json.loads(done.stdout.splitlines()[-1])


def test_the_first_answer_while_a_gpu_compiles_compiles_nothing(tmp_path):
    """On a fresh machine the CPU's answer does not wait for Numba: the conversions (numpy's
    validation instead; the warm-up child compiles Numba's), Floyd–Warshall's kernels and the
    route walks are not compiled."""
    variant, _note, compiled, exact = first_answer(tmp_path, "gpu-fast", "road")
    assert variant == "scipy-dijkstra"
    assert compiled == [] and exact


def test_the_warm_up_child_runs_below_the_apps_priority(tmp_path):
    """Its compile must not take the cores the app's first route needs."""
    from engine.variant_warmup_child import NICE
    child = ("import os; from engine.variant_warmup_child import main; "
             "main('apsp', 'cpu-linear', [5]); print(os.nice(0))")
    done = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True,
                          env=dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path)), timeout=300,
                          check=True)
    assert int(done.stdout.split()[-1]) == min(os.nice(0) + NICE, 19)


def test_the_threaded_conversions_compile_beside_the_kernels_into_the_cache(tmp_path):
    """A size that takes them: the child's own solve converts with numpy (no build: the app's
    answer meanwhile does too), and a process beside it compiles the threaded ones the app's
    solves will load."""
    done = subprocess.run([sys.executable, "-m", "engine.variant_warmup_child", "apsp", "cpu-linear",
                           "300"], env=dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path)),
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    cached = {p.name.split("-")[0] for p in tmp_path.rglob("*.nbi")}
    assert {"matrix._convert_parallel", "matrix._to_float_parallel"} <= cached, cached
    assert "matrix._convert" not in cached


def test_a_finished_warm_up_hands_the_solves_to_the_gpu_variant():
    ended = []
    assert variant_warmup.start("apsp", "gpu-fast", (20, 5), ended.append)
    assert not variant_warmup.start("apsp", "gpu-fast", (5,))  # each size compiled once
    assert variant_warmup.wait("gpu-fast", timeout=300) == "ready" and ended == ["ready"]
    w = paper_random_graph(20, 30, seed=4)
    r = solve(w, "gpu-fast")
    assert (r.variant, r.note) == ("gpu-fast", None)
    np.testing.assert_array_equal(r.dist, reference(w))


def test_a_failed_warm_up_says_why_and_leaves_the_variant_to_run_or_fall_back():
    variant_warmup.start("apsp", "no-such-variant", (8,))
    state = variant_warmup.wait("no-such-variant", timeout=300)
    assert state.startswith("failed: ") and "no-such-variant" in state


def test_an_unknown_family_is_refused():
    with pytest.raises(ValueError, match="family must be one of apsp, sssp"):
        variant_warmup.start("mst", "gpu-fast-mst", (8,))


def test_a_lazy_kernel_compiles_on_first_launch_only():
    @lazy_kernel("void(int32[::1])")
    def increment(a):
        a[0] += 1

    assert not increment.compiled
    a = np.zeros(1, np.int32)
    increment[1, 1](a)
    increment[1, 1](a)
    assert increment.compiled and a[0] == 2
