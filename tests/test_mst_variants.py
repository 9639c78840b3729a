"""Every spanning-forest variant is exact against scipy, networkx and a tie-aware Kruskal on
awkward graphs (the GPU ones under the simulator on small graphs: tests/test_mst_gpu.py), and
every variant returns the same edge set."""

import numpy as np
import pytest

from engine.mst import from_edges, get_variant, spanning_forest, variants
from engine.mst.graph import order_keys
from tests.mst_reference import (as_coo, awkward_edges, cheapest_pairs, kruskal_by_weight_then_pair,
                                 networkx_total, scipy_total_and_components)

CPU = ["cpu-kruskal", "cpu-boruvka"]


def assert_exact(forest, n, rows, cols, w):
    pairs = cheapest_pairs(rows, cols, w)
    total, components = scipy_total_and_components(n, pairs)
    assert forest.total == total == networkx_total(n, pairs)
    assert forest.components == components
    assert [tuple(e) for e in forest.edges.tolist()] == kruskal_by_weight_then_pair(n, pairs)
    np.testing.assert_array_equal(forest.weights, [pairs[tuple(e)] for e in forest.edges.tolist()])


@pytest.mark.parametrize("variant", CPU)
@pytest.mark.parametrize("n,seed", [(2, 0), (7, 1), (33, 2), (65, 3), (200, 4)])
def test_cpu_variant_is_exact_on_awkward_graphs(variant, n, seed):
    rows, cols, w = awkward_edges(n, seed)
    forest = spanning_forest(as_coo(n, rows, cols, w), variant)
    assert forest.variant == variant and forest.note is None
    assert_exact(forest, n, rows, cols, w)


@pytest.mark.parametrize("variant", CPU)
def test_equal_weights_everywhere_give_the_same_forest_in_every_variant(variant):
    n = 40
    rows, cols, w = awkward_edges(n, 5, m=300, weights=(1, 2))
    assert_exact(spanning_forest(as_coo(n, rows, cols, w), variant), n, rows, cols, w)


@pytest.mark.parametrize("variant", CPU)
def test_weights_beyond_float32_precision_keep_their_order(variant):
    # 1 + 1e-12 and 1 are one float32: the keys fall back to ranks and stay exact
    rows, cols = np.array([0, 1, 2, 0]), np.array([1, 2, 0, 3])
    w = np.array([1 + 1e-12, 1.0, 1 + 2e-12, 5.0])
    forest = spanning_forest(as_coo(4, rows, cols, w), variant)
    assert forest.edges.tolist() == [[0, 1], [0, 3], [1, 2]]  # not 0–2, heavier by 1e-12
    assert forest.total == 1.0 + (1 + 1e-12) + 5.0


def test_keys_order_by_weight_then_edge_id():
    w = np.array([2.0, -1.0, 2.0, 0.0, -0.0, np.finfo(np.float64).max, 1 + 1e-12, 1.0])
    order = np.argsort(order_keys(w))
    np.testing.assert_array_equal(order, np.lexsort((np.arange(len(w)), w + 0.0)))


def test_the_cheaper_direction_is_the_edge_and_dense_zeros_are_edges():
    w = np.array([[np.inf, 5.0, 0.0],
                  [2.0, np.inf, np.inf],
                  [np.inf, 7.0, 3.0]])  # 0–1 costs 5 one way, 2 the other; 0–2 costs 0
    forest = spanning_forest(w, "cpu-kruskal")
    assert forest.edges.tolist() == [[0, 1], [0, 2]]
    assert forest.weights.tolist() == [2.0, 0.0] and forest.total == 2.0


@pytest.mark.parametrize("variant", CPU)
def test_one_vertex_and_no_edges(variant):
    one = spanning_forest(np.zeros((1, 1)), variant)  # its only entry is a self-loop
    assert one.edges.shape == (0, 2) and one.total == 0.0 and one.components == 1
    empty = spanning_forest(np.full((3, 3), np.inf), variant)
    assert empty.components == 3 and len(empty.weights) == 0


def test_distinct_weights_give_scipys_own_edges():
    from scipy.sparse.csgraph import minimum_spanning_tree
    rng = np.random.default_rng(7)
    n = 120
    rows, cols = rng.integers(0, n, 600), rng.integers(0, n, 600)
    graph = from_edges(n, rows, cols, rng.permutation(600) + 1.0)
    tree = minimum_spanning_tree(graph.csr_matrix()).tocoo()
    expected = sorted(zip(np.minimum(tree.row, tree.col).tolist(), np.maximum(tree.row, tree.col).tolist()))
    for variant in CPU:
        assert sorted(map(tuple, spanning_forest(graph, variant).edges.tolist())) == expected


@pytest.mark.parametrize("bad,message", [
    (np.array([[np.inf, np.nan], [1.0, np.inf]]), "0–1 has weight nan"),
    (np.array([[np.inf, -np.inf], [1.0, np.inf]]), "0–1 has weight -inf"),
    (np.zeros((2, 3)), "square"),
    (np.array([["a", "b"], ["c", "d"]]), "numbers"),
])
def test_bad_graphs_are_refused_naming_the_problem(bad, message):
    with pytest.raises(ValueError, match=message):
        spanning_forest(bad)


def test_auto_answers_on_the_cpu_for_small_graphs():
    forest = spanning_forest(np.array([[np.inf, 1.0], [1.0, np.inf]]))
    assert forest.variant == "cpu-kruskal" and forest.device == "CPU (1 thread)"


def test_a_failing_gpu_variant_falls_back_to_the_cpu_and_says_so(monkeypatch):
    import engine.mst.gpu_fast as gpu_fast

    def broken(graph):
        raise MemoryError("out of device memory")
    monkeypatch.setattr(gpu_fast, "run", broken)
    forest = spanning_forest(np.array([[np.inf, 1.0], [1.0, np.inf]]), "gpu-fast-mst")
    assert forest.variant == "cpu-kruskal" and forest.total == 1.0
    assert "gpu-fast-mst failed (MemoryError: out of device memory)" in forest.note


def test_every_variant_is_registered_with_a_description():
    names = [v.name for v in variants()]
    assert names == ["cpu-kruskal", "cpu-boruvka", "gpu-boruvka", "gpu-fast-mst"]
    assert all(get_variant(n).description for n in names)
    with pytest.raises(ValueError, match="unknown minimum spanning forest variant"):
        spanning_forest(np.zeros((1, 1)), "prim")
