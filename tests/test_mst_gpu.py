"""The GPU spanning-forest variants return exactly cpu-kruskal's forest — awkward graphs with
ties, zero and negative weights, loops, parallel edges and isolated vertices — and keep the
graph on the device between solves, and end every host loop within its bound (a kernel made to
misbehave raises instead of spinning). Under Numba's CUDA simulator (no GPU) the graphs stay
tiny; on a GPU they grow."""

import numpy as np
import pytest
from numba import cuda

from engine import gpu_launch
from engine.gpu_device import simulated
from engine.mst import gpu_boruvka, gpu_fast, prepare, spanning_forest
from engine.mst.gpu_common import halving_rounds
from engine.mst.gpu_primitives import exclusive_scan, split
from tests.hang_guard import gpu_time_limit
from tests.loop_bounds import rounds_used
from tests.mst_reference import as_coo, awkward_edges, rounds_path  # noqa: F401 — a fixture

pytestmark = gpu_time_limit
SIM = simulated()
GPU = ["gpu-boruvka", "gpu-fast-mst"]
SPLIT_SIZE = 100 if SIM else 1_000_003
SIZES = [(2, 0), (9, 1), (12, 2)] if SIM else [(2, 0), (9, 1), (300, 2), (5000, 3), (100_003, 4)]


@pytest.mark.parametrize("variant", GPU)
@pytest.mark.parametrize("n,seed", SIZES)
def test_gpu_variant_returns_kruskals_forest(variant, n, seed):
    rows, cols, w = awkward_edges(n, seed, m=3 * n, weights=(-2, 3))  # many ties
    graph = prepare(as_coo(n, rows, cols, w))
    forest = spanning_forest(graph, variant)
    assert forest.variant == variant, forest.note
    expected = spanning_forest(graph, "cpu-kruskal")
    np.testing.assert_array_equal(forest.edges, expected.edges)
    assert forest.total == expected.total and forest.components == expected.components


@pytest.mark.parametrize("variant", GPU)
def test_graph_stays_on_the_device_between_solves(variant):
    rows, cols, w = awkward_edges(8, 6)
    graph = prepare(as_coo(8, rows, cols, w))
    first = spanning_forest(graph, variant)
    on_device = dict(graph.device)
    again = spanning_forest(graph, variant)
    assert all(graph.device[k] is on_device[k] for k in on_device)
    np.testing.assert_array_equal(first.edges, again.edges)
    # the answer comes back into pooled page-locked memory; an answer still held is never reused
    assert again.edge_ids.dtype == np.int32 and again.edges.dtype == np.int32
    assert not np.shares_memory(first.edge_ids, again.edge_ids)
    assert not np.shares_memory(first.weights, again.weights)


@pytest.mark.parametrize("variant", GPU)
def test_a_graph_with_no_edges_needs_no_launch(variant):
    forest = spanning_forest(np.full((3, 3), np.inf), variant)
    assert forest.components == 3 and forest.variant == variant


def test_scan_and_split_primitives():
    from numba import cuda
    rng = np.random.default_rng(0)
    for size in (1, 37, SPLIT_SIZE, 300 if SIM else 5_000_000):  # one tile, a few, three levels
        a = rng.integers(0, 5, size).astype(np.int64)
        out = cuda.device_array(size, np.int64)
        assert exclusive_scan(cuda.to_device(a), out) == a.sum()
        np.testing.assert_array_equal(out.copy_to_host(), np.r_[0, np.cumsum(a)[:-1]])
    for size, bits in [(1, 3), (29, 6), (SPLIT_SIZE, 13)]:  # one tile, a few, many
        keys = rng.integers(0, 1 << bits, size).astype(np.int64)
        keys[:3] = keys[-3:] = (1 << bits) - 1  # equal keys at both ends, every digit set
        values = np.arange(size, dtype=np.int64)
        k, v = split(cuda.to_device(keys), cuda.to_device(values), bits)
        order = np.argsort(keys, kind="stable")  # split is stable: equal keys keep their order
        np.testing.assert_array_equal(k.copy_to_host(), keys[order])
        np.testing.assert_array_equal(v.copy_to_host(), order)


THREE_LEVELS = 40 if SIM else 100_003  # with m = 2n: parallel edges left to a third level


@pytest.mark.parametrize("n,seed,m", [(n, seed, 3 * n) for n, seed in SIZES[1:]]
                         + [(THREE_LEVELS, 4, 2 * THREE_LEVELS)])
def test_boruvka_skipping_duplicate_removal_returns_kruskals_forest(monkeypatch, n, seed, m):
    """Duplicate removal is optional (the seed's word): a level that skips it merges vertices by
    a split of the vertices, leaving parallel edges to the next level's segmented min."""
    monkeypatch.setattr(gpu_boruvka, "DUPLICATES_WORTH", 1.0)  # never worth it by what it found
    monkeypatch.setattr(gpu_boruvka, "DENSE", 0)               # nor by density
    monkeypatch.setattr(gpu_boruvka, "FIRST_LOOK", 1)          # but looked at once, at level 1
    rows, cols, w = awkward_edges(n, seed, m=m, weights=(-2, 3))
    graph = prepare(as_coo(n, rows, cols, w))
    levels = gpu_boruvka.Levels(graph)
    levels.solve()
    # the first level skips, the next looks, then none is worth it: both paths, one after the other
    assert levels.removed_duplicates[:3] == [False, True, False][:len(levels.sizes)]
    np.testing.assert_array_equal(np.sort(levels.forest.ids_to_host()),
                                  spanning_forest(graph, "cpu-kruskal").edge_ids)
    if n == THREE_LEVELS:
        assert len(levels.sizes) >= 3


def ruler_path(k: int):
    """A path on 2^k vertices whose edge i–(i+1) weighs the trailing zeros of i + 1: every round
    joins the trees in pairs, so Borůvka needs all k rounds its halving bound allows."""
    n = 1 << k
    i = np.arange(n - 1)
    weights = np.array([((j + 1) & -(j + 1)).bit_length() - 1 for j in i.tolist()], float)
    return n, as_coo(n, i, i + 1, weights)


def test_boruvka_rounds_reach_their_proven_worst_case_within_the_bound(monkeypatch, rounds_path):
    k = 4 if SIM else 16
    n, path = ruler_path(k)
    expected = spanning_forest(path, "cpu-kruskal").edges
    fast = rounds_used(monkeypatch, gpu_fast)
    np.testing.assert_array_equal(spanning_forest(path, "gpu-fast-mst").edges, expected)
    if rounds_path == "launch pairs":
        # k joining rounds, one that finds every edge inside a tree, one queued before the host
        # saw that (it has nothing to do), one that stops: the spare unused
        assert fast["gpu-fast-mst's rounds"] == (k + 3, halving_rounds(n) + 1) == (k + 3, k + 4)
    else:  # k joining rounds, one that finds every edge inside a tree and stops
        solver = gpu_fast.Solver(prepare(path))
        solver.solve()
        assert solver.phases == ["light"] * (k + 1) and k + 1 < solver.limit
    levels = rounds_used(monkeypatch, gpu_boruvka)
    np.testing.assert_array_equal(spanning_forest(path, "gpu-boruvka").edges, expected)
    assert levels["gpu-boruvka's levels"] == (k + 1, k + 3)
    doublings, limit = levels["gpu-boruvka's pointer doubling"]
    assert doublings < limit


@cuda.jit
def choose_nothing(counts, s, ends, keys, lightest, parent, bits):
    """gpu-fast-mst's choose with a bug: no tree is ever joined, so the worklist never shrinks."""


@cuda.jit(device=True)
def choose_no_entry(counts, s, ends, keys, lightest, parent, bits):
    """The same bug in the one-launch rounds' choose step."""


@pytest.fixture
def fresh_rounds_kernel():
    """gpu-fast-mst's one-launch kernel built again before and after the test (it may patch a
    step the kernel is compiled with)."""
    gpu_fast.rounds_kernel.cache_clear()
    yield
    gpu_fast.rounds_kernel.cache_clear()


@cuda.jit
def always_changed(successor, changed, j):
    """pointer_double with a bug: it always reports a change."""
    if cuda.grid(1) == 0:
        changed[j] = 1


def contract_nothing(n, start, head, key, level):
    """contract with a bug: the level's graph comes back as it went in."""
    return n, start, head, key


@pytest.mark.parametrize("variant, module, name, bug, loop", [
    ("gpu-fast-mst", gpu_fast, "choose", choose_nothing, "gpu-fast-mst's rounds"),
    ("gpu-fast-mst", gpu_fast, "choose_entries", choose_no_entry, "gpu-fast-mst's rounds"),
    ("gpu-boruvka", gpu_boruvka, "pointer_double", always_changed, "gpu-boruvka's pointer doubling"),
    ("gpu-boruvka", gpu_boruvka, "contract", contract_nothing, "gpu-boruvka's levels"),
], ids=["choose", "one-launch choose", "pointer doubling", "levels"])
def test_a_loop_that_cannot_end_raises_and_spanning_forest_falls_back(monkeypatch, fresh_rounds_kernel, variant,
                                                                       module, name, bug, loop):
    monkeypatch.setattr(gpu_fast, "PERSISTENT", name == "choose_entries")
    monkeypatch.setattr(module, name, bug)
    rows, cols, w = awkward_edges(6, 3)
    graph = prepare(as_coo(6, rows, cols, w))
    with pytest.raises(gpu_launch.RoundLimitError, match=f"{loop} not done after"):
        module.run(graph)
    forest = spanning_forest(graph, variant)
    assert forest.variant == "cpu-kruskal"
    assert f"{variant} failed (RoundLimitError: {loop} not done after" in forest.note
    np.testing.assert_array_equal(forest.edges, spanning_forest(graph, "cpu-kruskal").edges)
