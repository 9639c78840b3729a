"""gpu-fast-mst's own paths stay exact: the light-first threshold anywhere in the key order (no
edge light, all of them, inside a run of equal weights, past the last key), on graphs with ties,
several components and one vertex; the sampled threshold splits where it says; the forest's bit
set becomes the same ascending ids as a host flatnonzero. Under Numba's CUDA simulator (no GPU)
the graphs stay tiny; on a GPU they grow."""

import gc
import weakref
from types import SimpleNamespace

import numpy as np
import pytest

from engine.gpu_device import simulated
from engine.mst import gpu_fast, prepare, spanning_forest
from engine.mst.gpu_common import NO_KEY, Forest, halving_rounds
from engine.mst.result import forest_arrays
from tests.hang_guard import gpu_time_limit
from tests.loop_bounds import rounds_used
from tests.mst_reference import as_coo, awkward_edges, rounds_path  # noqa: F401 — a fixture

pytestmark = gpu_time_limit
N = 14 if simulated() else 20_000


def graphs():
    """(name, graph): ties everywhere, every weight equal, two components apart, one vertex."""
    rows, cols, w = awkward_edges(N, 1, m=4 * N, weights=(-2, 3))
    yield "ties", prepare(as_coo(N, rows, cols, w))
    rows, cols, _ = awkward_edges(N, 2, m=4 * N)
    yield "all equal", prepare(as_coo(N, rows, cols, np.ones(len(rows))))
    half = N // 2
    rng = np.random.default_rng(3)
    a, b = rng.integers(0, half, 3 * half), rng.integers(0, half, 3 * half)
    rows, cols = np.r_[a, a + half], np.r_[b, b + half]  # no edge between the halves
    yield "two parts", prepare(as_coo(N, rows, cols, rng.integers(0, 4, len(rows)).astype(float)))
    yield "one vertex", prepare(np.zeros((1, 1)))


@pytest.mark.parametrize("where", ["none", "first", "third", "half", "last", "past the last", "all"])
@pytest.mark.parametrize("name,graph", list(graphs()), ids=lambda x: x if isinstance(x, str) else "")
def test_any_light_threshold_gives_kruskals_forest(monkeypatch, rounds_path, where, name, graph):
    keys = np.sort(graph.key)
    m = len(keys)
    threshold = {"none": -(2**63), "first": keys[:1], "third": keys[m // 3:m // 3 + 1],
                 "half": keys[m // 2:m // 2 + 1], "last": keys[-1:], "past the last": keys[-1:] + 1,
                 "all": NO_KEY}[where]
    threshold = int(np.asarray(threshold).ravel()[0]) if np.size(threshold) else int(NO_KEY)
    monkeypatch.setattr(gpu_fast, "light_threshold", lambda g, key: threshold)
    forest = spanning_forest(graph, "gpu-fast-mst")
    assert forest.variant == "gpu-fast-mst", forest.note
    expected = spanning_forest(graph, "cpu-kruskal")
    np.testing.assert_array_equal(forest.edges, expected.edges)
    assert forest.total == expected.total and forest.components == expected.components


def test_the_sampled_threshold_splits_the_edges_where_the_rounds_say(rounds_path):
    rows, cols, w = awkward_edges(N, 4, m=8 * N)
    graph = prepare(as_coo(N, rows, cols, w))
    assert gpu_fast.LIGHT_PER_VERTEX * graph.n < graph.m  # so there is a filter
    solver = gpu_fast.Solver(graph)
    solver.solve()
    light = int(np.sum(graph.key < solver.threshold))
    assert 0 < light < graph.m and solver.threshold in set(graph.key.tolist())
    kept = solver.worklists()
    assert kept[0] == light  # the first light round keeps every light edge (no loops remain)
    assert "heavy" in solver.phases and solver.phases.index("heavy") == solver.phases.count("light")
    np.testing.assert_array_equal(solver.forest.ids_to_host(), spanning_forest(graph, "cpu-kruskal").edge_ids)


def test_each_phase_stays_within_its_round_bound(monkeypatch, rounds_path):
    rows, cols, w = awkward_edges(N, 5, m=6 * N)
    graph = prepare(as_coo(N, rows, cols, w))
    used = rounds_used(monkeypatch, gpu_fast)
    forest = spanning_forest(graph, "gpu-fast-mst")
    assert forest.variant == "gpu-fast-mst" and "heavy ones the filter kept" in forest.note
    assert ("one cooperative launch" in forest.note) == (rounds_path == "one launch")
    solver = gpu_fast.Solver(graph)
    solver.solve()
    limit = halving_rounds(graph.n) + 1
    assert 0 < solver.phases.count("light") < limit and 0 < solver.phases.count("heavy") < limit
    if rounds_path == "launch pairs":
        rounds, bound = used["gpu-fast-mst's rounds"]
        assert rounds < bound == limit


@pytest.mark.parametrize("m", [1, 31, 32, 33, 100, 1000])
def test_the_forest_bits_become_the_answer_on_the_device(m):
    rng = np.random.default_rng(m)
    flags = rng.random(m) < 0.4
    flags[-1] = True  # the last edge: bit 31 of a full word, or a partial word's last
    u, v = rng.integers(0, 2**31 - 1, (2, m), dtype=np.int32)
    w = rng.normal(size=m)  # not integers: the total's order shows in its last bits
    g = SimpleNamespace(n=int(flags.sum()) + 1, m=m, u=u, v=v, w=w, key=np.zeros(m, np.int64), device={})
    forest = Forest(g)  # n, m size it
    bits = np.zeros(forest.words * 32, bool)
    bits[:m] = flags
    forest.bits.copy_to_device(np.packbits(bits, bitorder="little").view("<u4"))
    assert forest.compact() == flags.sum()
    ids = np.flatnonzero(flags)
    np.testing.assert_array_equal(forest.ids_to_host(), ids)
    answer = forest.to_host()
    np.testing.assert_array_equal(answer.ids, ids)
    np.testing.assert_array_equal(answer.edges, np.column_stack((u[ids], v[ids])))
    np.testing.assert_array_equal(answer.weights, w[ids])
    assert answer.total == forest_arrays(g, ids).total  # the same bits as a CPU variant's


def test_an_answer_let_go_is_reused_and_one_kept_is_not():
    rows, cols, w = awkward_edges(N, 7, m=3 * N)
    graph = prepare(as_coo(N, rows, cols, w))
    first = spanning_forest(graph, "gpu-fast-mst")
    kept = first.edges
    second = spanning_forest(graph, "gpu-fast-mst")
    assert not np.shares_memory(kept, second.edges)  # one array of the first kept: all of it
    expected = (second.edges.copy(), second.total)
    del first, kept, second
    third = spanning_forest(graph, "gpu-fast-mst")
    np.testing.assert_array_equal(third.edges, expected[0])
    assert third.total == expected[1]
    assert graph.device[("pool", "answers")].kept() == 2  # the third answer took a let-go buffer


def test_a_solved_graph_is_freed_with_its_last_reference():
    """The solver kept on the graph refers to it weakly: no cycle holds the device buffers."""
    rows, cols, w = awkward_edges(N, 8)
    graph = prepare(as_coo(N, rows, cols, w))
    forest = spanning_forest(graph, "gpu-fast-mst")
    assert forest.variant == "gpu-fast-mst", forest.note
    del forest
    gone = weakref.ref(graph)
    gc.disable()
    try:
        del graph
        holders = [] if gone() is None else [type(r).__name__ for r in gc.get_referrers(gone())]
        assert gone() is None, f"the graph is still held by {holders}"
    finally:
        gc.enable()
