"""The GPU spanning-forest variants return exactly cpu-kruskal's forest — awkward graphs with
ties, zero and negative weights, loops, parallel edges and isolated vertices — and keep the
graph on the device between solves. Under Numba's CUDA simulator (no GPU) the graphs stay tiny;
on a GPU they grow."""

import numpy as np
import pytest

from engine.gpu_device import simulated
from engine.mst import prepare, spanning_forest
from engine.mst.gpu_primitives import exclusive_scan, split
from tests.mst_reference import as_coo, awkward_edges

SIM = simulated()
GPU = ["gpu-boruvka", "gpu-fast-mst"]
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


@pytest.mark.parametrize("variant", GPU)
def test_a_graph_with_no_edges_needs_no_launch(variant):
    forest = spanning_forest(np.full((3, 3), np.inf), variant)
    assert forest.components == 3 and forest.variant == variant


def test_scan_and_split_primitives():
    from numba import cuda
    rng = np.random.default_rng(0)
    a = rng.integers(0, 5, 37).astype(np.int64)
    out = cuda.device_array(37, np.int64)
    assert exclusive_scan(cuda.to_device(a), out) == a.sum()
    np.testing.assert_array_equal(out.copy_to_host(), np.r_[0, np.cumsum(a)[:-1]])
    keys = rng.integers(0, 64, 29).astype(np.int64)
    values = np.arange(29, dtype=np.int64)
    k, v = split(cuda.to_device(keys), cuda.to_device(values), 6)
    order = np.argsort(keys, kind="stable")  # split is stable: equal keys keep their order
    np.testing.assert_array_equal(k.copy_to_host(), keys[order])
    np.testing.assert_array_equal(v.copy_to_host(), order)
