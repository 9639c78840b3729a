"""GPU-specific SSSP behaviour beyond the shared variant suite: both launch paths of
gpu-fast-sssp, ELL's refusal of a padded graph, Δ's rules, a graph kept on the device, the
bounds that end every host loop (a kernel made to misbehave raises instead of spinning), and
larger graphs on a real GPU.

Under Numba's CUDA simulator (no GPU) the graphs stay tiny: every GPU thread is a Python thread.
"""

import gc
import re

import numpy as np
import pytest
import scipy.sparse as sp
from numba import cuda

from engine import gpu_launch
from engine.gpu_device import simulated
from engine.gpu_memory import BufferPool
from engine.sssp import NegativeCycleError, answer_buffers, gpu_delta_stepping, gpu_fast, gpu_spmv, prepare, solve
from engine.sssp.delta import RULES, choose_delta
from tests.hang_guard import gpu_time_limit
from tests.loop_bounds import rounds_used
from tests.sssp_reference import as_coo, assert_routes_are_shortest, awkward_edges, cheapest, scipy_distances

pytestmark = gpu_time_limit
SIM = simulated()
GPU = ["gpu-dijkstra", "gpu-bellman-ford", "gpu-delta-stepping", "gpu-spmv-csr", "gpu-spmv-ell",
       "gpu-fast-sssp"]


@pytest.fixture(params=["persistent", "round by round"])
def large_path(request, monkeypatch):
    """gpu-fast-sssp's large-graph path whatever the size, with and without the grid barrier."""
    monkeypatch.setattr(gpu_fast, "SMALL_MAX", 0)
    if request.param == "round by round":
        monkeypatch.setattr(gpu_fast, "persistent_kernel", lambda: None)
    return request.param


@pytest.fixture(params=["small", "large"])
def either_path(request, monkeypatch):
    """gpu-fast-sssp's small-graph path (one block per source) or its large-graph one, which
    share the pooled answer buffers."""
    if request.param == "large":
        monkeypatch.setattr(gpu_fast, "SMALL_MAX", 0)
    return request.param


def test_fast_large_path_is_exact_with_negative_costs_and_duplicate_sources(large_path):
    n = 12
    edges = awkward_edges(n, seed=11, negative=True)
    reference = cheapest(n, *edges)
    result = solve(as_coo(n, *edges), [3, 0, 3], "gpu-fast-sssp")
    assert result.variant == "gpu-fast-sssp", result.note
    assert ("persistent" in result.note) == (large_path == "persistent")
    np.testing.assert_array_equal(result.dist, scipy_distances(reference, [3, 0, 3]))
    assert_routes_are_shortest(result, reference)


@pytest.mark.parametrize("scale", [0.01, 1, 4, 10**9])
@pytest.mark.parametrize("big", [False, True])
@pytest.mark.parametrize("work", [0, 10**9])
def test_fast_large_path_near_far_is_exact_at_any_delta(monkeypatch, scale, big, work):
    # Δ far below the costs (a phase per label), the seed's, and past every distance (one phase),
    # the bucket width fixed or doubling every phase: zero-cost and parallel edges, duplicate
    # sources, an isolated vertex; costs up to 2^31.
    monkeypatch.setattr(gpu_fast, "SMALL_MAX", 0)
    monkeypatch.setattr(gpu_fast, "DELTA_SCALE", scale)
    monkeypatch.setattr(gpu_fast, "PHASE_WORK", work)
    n = 14
    edges = awkward_edges(n, seed=21, big=big)
    sources = [2, 0, 2, n - 1]
    result = solve(as_coo(n, *edges), sources, "gpu-fast-sssp")
    assert "near–far" in result.note, result.note
    np.testing.assert_array_equal(result.dist, scipy_distances(cheapest(n, *edges), sources))
    assert_routes_are_shortest(result, cheapest(n, *edges))


@pytest.mark.parametrize("aggregate", [True, False])
def test_fast_large_path_is_exact_with_and_without_aggregated_appends(monkeypatch, large_path, aggregate):
    # 13 vertices, zero-cost and parallel edges, vertex 12 unreachable, a source twice; Δ far
    # below the costs, so labels go through the far pile (both appends of the persistent path).
    monkeypatch.setattr(gpu_fast, "AGGREGATE", aggregate)
    monkeypatch.setattr(gpu_fast, "DELTA_SCALE", 0.01)
    n = 13
    edges = awkward_edges(n, seed=31)
    sources = [4, 12, 4]
    result = solve(as_coo(n, *edges), sources, "gpu-fast-sssp")
    assert ("near–far" in result.note) == (large_path == "persistent"), result.note
    np.testing.assert_array_equal(result.dist, scipy_distances(cheapest(n, *edges), sources))
    if large_path == "persistent":
        rounds, phases = rounds_and_phases(result.note)
        assert rounds > phases > 1   # every split of the far pile is a round, and so is the first


def rounds_and_phases(note):
    """The rounds and phases the persistent launch's note names."""
    counted = re.search(r"([\d,]+) rounds in ([\d,]+) phases", note)
    assert counted, note
    return tuple(int(c.replace(",", "")) for c in counted.groups())


@pytest.mark.parametrize("batched", [True, False])
@pytest.mark.parametrize("hops", [0, 1, 3])
@pytest.mark.parametrize("scale", [0.01, 100])
def test_fast_large_path_is_exact_whatever_the_blocks_own_hops(monkeypatch, hops, scale, batched):
    # A star of 40 zero- and unit-cost spokes from vertex 0 overflows a block's own list (16
    # labels under the simulator) in one hop; a chain beyond the spokes needs many hops; awkward
    # edges (zero costs, parallel edges, an unreachable vertex) around them. Δ far below the
    # costs (the far pile carries most labels) and far above them (the block's list does).
    monkeypatch.setattr(gpu_fast, "SMALL_MAX", 0)
    monkeypatch.setattr(gpu_fast, "LOCAL_HOPS", hops)
    monkeypatch.setattr(gpu_fast, "DELTA_SCALE", scale)
    monkeypatch.setattr(gpu_fast, "BATCHED", batched)  # a vertex of 40 edges: ten batches of four
    n = 61
    tails, heads, costs = awkward_edges(n - 1, seed=53)
    spokes = np.arange(1, 41)
    chain = np.arange(40, n - 2)
    tails = np.r_[tails, np.zeros(40, int), chain]
    heads = np.r_[heads, spokes, chain + 1]
    costs = np.r_[costs, spokes % 2, np.full(len(chain), 3)]
    sources = [0, 7, 0]
    result = solve(as_coo(n, tails, heads, costs), sources, "gpu-fast-sssp")
    assert "near–far" in result.note, result.note
    np.testing.assert_array_equal(result.dist, scipy_distances(cheapest(n, tails, heads, costs), sources))


def test_fast_large_path_is_exact_with_one_block_per_sm(monkeypatch):
    # 17 vertices, zero-cost and parallel edges, vertex 16 unreachable, a source twice.
    monkeypatch.setattr(gpu_fast, "SMALL_MAX", 0)
    monkeypatch.setattr(gpu_fast, "PERSISTENT_BLOCKS_PER_SM", 1)
    n = 17
    edges = awkward_edges(n, seed=41)
    sources = [16, 5, 5]
    result = solve(as_coo(n, *edges), sources, "gpu-fast-sssp")
    assert "persistent" in result.note, result.note
    np.testing.assert_array_equal(result.dist, scipy_distances(cheapest(n, *edges), sources))


def test_fast_large_path_width_stops_doubling_before_it_overflows(monkeypatch):
    # A long path: one label per phase, so the width doubles phase after phase, far past 2^62.
    monkeypatch.setattr(gpu_fast, "SMALL_MAX", 0)
    monkeypatch.setattr(gpu_fast, "PHASE_WORK", 10**9)
    n = 90
    tails, heads = np.arange(n - 1), np.arange(1, n)
    costs = np.full(n - 1, 2**31 - 2, np.int64)
    result = solve(as_coo(n, tails, heads, costs), [0], "gpu-fast-sssp")
    np.testing.assert_array_equal(result.dist[0], np.arange(n) * float(2**31 - 2))
    rounds, phases = rounds_and_phases(result.note)
    assert phases > 1 and rounds >= phases


def test_fast_large_path_takes_bellman_ford_rounds_for_negative_costs(monkeypatch):
    monkeypatch.setattr(gpu_fast, "SMALL_MAX", 0)
    n = 12
    edges = awkward_edges(n, seed=11, negative=True)
    result = solve(as_coo(n, *edges), [3], "gpu-fast-sssp")
    assert "near–far" not in result.note
    assert re.search(r": \d+ Bellman-Ford rounds", result.note), result.note
    np.testing.assert_array_equal(result.dist, scipy_distances(cheapest(n, *edges), [3]))


def test_fast_large_path_batches_sources(monkeypatch):
    monkeypatch.setattr(gpu_fast, "SMALL_MAX", 0)
    monkeypatch.setattr(gpu_fast, "BATCH_ITEMS", 20)  # two sources of 10 vertices per batch
    n = 10
    edges = awkward_edges(n, seed=4)
    sources = [0, 1, 2, 5, 8]
    result = solve(as_coo(n, *edges), sources, "gpu-fast-sssp")
    np.testing.assert_array_equal(result.dist, scipy_distances(cheapest(n, *edges), sources))


def test_ell_refuses_a_graph_padding_would_blow_up_and_solve_falls_back(monkeypatch):
    monkeypatch.setattr(gpu_spmv, "ELL_MAX_BYTES", 64)
    star = np.full((12, 12), np.inf)
    star[1:, 0] = 1  # vertex 0 has in-degree 11: ELL pads 12 rows to 11 columns
    result = solve(star, [5], "gpu-spmv-ell")
    assert result.variant == "cpu-dijkstra"
    assert "gpu-spmv-ell failed (ELLTooLarge: ELL pads every row to the largest in-degree 11" in result.note
    assert result.dist[0, 0] == 1


def test_delta_rules_follow_the_seed():
    cost = np.full((3, 3), np.inf)
    cost[0, 1], cost[0, 2], cost[1, 2] = 2, 9, 4
    g = prepare(cost)
    assert [choose_delta(g, rule) for rule in RULES] == [4, 5, 4]  # median, mean, 9 / degree 2
    assert choose_delta(prepare(np.zeros((2, 2))), "mean") == 1    # Δ is never 0
    note = solve(cost, [0], "gpu-delta-stepping").note
    assert note.startswith("Δ = 5 (the seed's rule 2")


def test_a_prepared_graph_is_uploaded_once_and_solved_again():
    n = 9
    edges = awkward_edges(n, seed=8)
    g = prepare(as_coo(n, *edges))
    first = solve(g, [1], "gpu-fast-sssp")
    uploaded = g.device["forward"]
    second = solve(g, [2, 1], "gpu-fast-sssp")
    assert g.device["forward"] is uploaded
    np.testing.assert_array_equal(second.dist[1], first.dist[0])


def test_fast_large_path_names_a_reachable_negative_cycle_instead_of_looping(large_path):
    cost = np.full((6, 6), np.inf)  # 1 -> 2 -> 3 -> 1 costs -1; 5 cannot reach it
    cost[0, 1], cost[1, 2], cost[2, 3], cost[3, 1], cost[3, 4] = 1, 1, 1, -3, 2
    with pytest.raises(NegativeCycleError) as caught:
        solve(cost, [5, 0], "gpu-fast-sssp")
    assert caught.value.vertex in (1, 2, 3) and caught.value.source == 0
    np.testing.assert_array_equal(solve(cost, [5], "gpu-fast-sssp").dist, [[np.inf] * 5 + [0]])


def _small_graph(n=11, seed=4):
    edges = awkward_edges(n, seed=seed)
    return prepare(as_coo(n, *edges)), cheapest(n, *edges)


def _address(a: np.ndarray) -> int:
    return a.__array_interface__["data"][0]


def test_fast_answer_is_never_overwritten_while_the_caller_keeps_it(either_path):
    g, csr = _small_graph()
    first = solve(g, [0, 5, 3], "gpu-fast-sssp")
    kept = first.dist.copy()
    row = first.dist[1]  # a view of one row (as the route engine keeps) holds the buffer too
    second = solve(g, [2, 7, 9], "gpu-fast-sssp")
    np.testing.assert_array_equal(first.dist, kept)
    assert not np.shares_memory(first.dist, second.dist)
    del first
    third = solve(g, [4, 1, 8], "gpu-fast-sssp")
    np.testing.assert_array_equal(row, kept[1])
    for r, sources in ((second, [2, 7, 9]), (third, [4, 1, 8])):
        assert r.dist.dtype == np.float64 and r.dist.shape == (3, g.n)
        np.testing.assert_array_equal(r.dist, scipy_distances(csr, sources))


def test_fast_answer_buffer_is_reused_once_no_view_of_it_is_alive(either_path):
    g, csr = _small_graph()
    first = solve(g, [0, 5], "gpu-fast-sssp")
    held = solve(g, [1, 2], "gpu-fast-sssp")
    freed = _address(first.dist)
    del first
    gc.collect()
    again = solve(g, [3, 4], "gpu-fast-sssp")
    assert _address(again.dist) == freed, "a free pooled buffer should have been reused"
    np.testing.assert_array_equal(again.dist, scipy_distances(csr, [3, 4]))
    np.testing.assert_array_equal(held.dist, scipy_distances(csr, [1, 2]))


def test_fast_small_path_keeps_a_pool_per_count_of_sources_so_alternating_counts_reuse_buffers(monkeypatch):
    made = []

    def counting(shape, dtype):
        if dtype == np.float64:  # answers (the control block is int)
            made.append(shape)
        return mapped(shape, dtype)
    mapped = answer_buffers._mapped
    monkeypatch.setattr(answer_buffers, "_mapped", counting)
    monkeypatch.setattr(answer_buffers, "_MAPPED", {})
    g, csr = _small_graph()
    for sources in ([0, 5], [3], [1, 2], [4], [6, 7]):  # a fleet, one source, the fleet again…
        r = solve(g, sources, "gpu-fast-sssp")
        np.testing.assert_array_equal(r.dist, scipy_distances(csr, sources))
        del r
    assert made == [(2, g.n), (1, g.n)], "each shape's free buffer should have been reused"
    assert len(answer_buffers._MAPPED) <= answer_buffers.SHAPES_KEPT


@pytest.mark.parametrize("way", ["copied into a pooled buffer", "pools full: ordinary memory"])
def test_fast_answer_is_exact_when_copied_back(monkeypatch, way, either_path):
    monkeypatch.setattr(answer_buffers, "MAPPED_ANSWER", False)
    if way.startswith("pools full"):
        monkeypatch.setattr(answer_buffers, "_PINNED", BufferPool(answer_buffers._pinned, 0, np.float64))
    g, csr = _small_graph(seed=9)
    first = solve(g, [6, 0], "gpu-fast-sssp")
    second = solve(g, [2, 6], "gpu-fast-sssp")
    np.testing.assert_array_equal(first.dist, scipy_distances(csr, [6, 0]))
    np.testing.assert_array_equal(second.dist, scipy_distances(csr, [2, 6]))


def test_fast_small_path_raises_a_negative_cycle_then_answers_the_next_call():
    cost = np.full((6, 6), np.inf)  # 1 -> 2 -> 3 -> 1 costs -1; 5 cannot reach it
    cost[0, 1], cost[1, 2], cost[2, 3], cost[3, 1], cost[3, 4] = 1, 1, 1, -3, 2
    g = prepare(cost)
    with pytest.raises(NegativeCycleError) as caught:
        solve(g, [5, 0], "gpu-fast-sssp")
    assert caught.value.vertex in (1, 2, 3) and caught.value.source == 0
    # every row's flag is written by the kernel: the last call's flags are not read again
    np.testing.assert_array_equal(solve(g, [5, 5], "gpu-fast-sssp").dist, [[np.inf] * 5 + [0]] * 2)


@pytest.mark.parametrize("negative, big", [(True, False), (False, True)])
def test_fast_small_path_frontier_spans_several_words_exactly(negative, big):
    n = 75  # three 32-bit frontier words, the last one partial
    edges = awkward_edges(n, seed=5, extra=2, big=big, negative=negative)
    csr = cheapest(n, *edges)
    sources = [0, 40, 40, 73, n - 1]
    result = solve(as_coo(n, *edges), sources, "gpu-fast-sssp")
    assert result.variant == "gpu-fast-sssp", result.note
    np.testing.assert_array_equal(result.dist, scipy_distances(csr, sources))


def test_fast_small_path_flags_a_negative_self_loop_only_on_rows_that_reach_it():
    cost = np.full((40, 40), np.inf)  # a path 0 -> 1 -> … -> 39, a self-loop of -1 at 38
    for v in range(39):
        cost[v, v + 1] = 2
    cost[38, 38] = -1
    g = prepare(cost)
    with pytest.raises(NegativeCycleError) as caught:
        solve(g, [39, 0], "gpu-fast-sssp")
    assert caught.value.vertex in (38, 39) and caught.value.source == 0
    np.testing.assert_array_equal(solve(g, [39], "gpu-fast-sssp").dist, [[np.inf] * 39 + [0]])


def test_fast_small_path_refuses_a_graph_past_its_frontier():
    n = 32 * gpu_fast.MASK_WORDS + 1
    with pytest.raises(ValueError, match="frontier"):
        gpu_fast.launch_small(prepare(sp.csr_matrix((n, n))), None, 1, None, None)


def test_fast_small_path_grows_its_sources_block_past_its_first_capacity(monkeypatch):
    monkeypatch.setattr(answer_buffers, "CONTROL_MIN", 2)
    monkeypatch.setattr(answer_buffers, "_CONTROL", {})
    g, csr = _small_graph(n=6, seed=2)
    for sources in ([1, 4], [0, 3, 5, 3, 2]):  # the second needs more room than the first made
        result = solve(g, sources, "gpu-fast-sssp")
        assert result.variant == "gpu-fast-sssp", result.note
        np.testing.assert_array_equal(result.dist, scipy_distances(csr, sources))
    assert answer_buffers._CONTROL["capacity"] == 8


@pytest.fixture
def fresh_persistent_kernel(monkeypatch):
    """persistent_kernel() built again in this test, and again after it."""
    monkeypatch.setattr(gpu_fast, "COOPERATIVE_ERROR", None)
    gpu_fast.persistent_kernel.cache_clear()
    yield
    gpu_fast.persistent_kernel.cache_clear()


def test_fast_large_path_runs_round_by_round_where_no_block_can_be_co_resident(monkeypatch,
                                                                                fresh_persistent_kernel):
    def none_fits(kernel, blockdim):
        raise ValueError(f"not one block of {blockdim} threads of this kernel can be resident")
    monkeypatch.setattr(gpu_fast, "co_resident_blocks", none_fits)
    monkeypatch.setattr(gpu_fast, "SMALL_MAX", 0)
    n = 10
    edges = awkward_edges(n, seed=5)
    result = solve(as_coo(n, *edges), [0, 3], "gpu-fast-sssp")
    assert result.variant == "gpu-fast-sssp", result.note
    assert "round by round (no cooperative launch: ValueError: not one block" in result.note
    np.testing.assert_array_equal(result.dist, scipy_distances(cheapest(n, *edges), [0, 3]))


def test_delta_stepping_answers_the_worst_cases_of_its_loop_bounds(monkeypatch):
    used = rounds_used(monkeypatch, gpu_delta_stepping, loop=lambda what: what.rstrip("0123456789 "))
    n = 7
    path = np.full((n, n), np.inf)
    path[np.arange(n - 1), np.arange(1, n)] = 0   # costs 0, so Δ = 1: one bucket, taken n times
    assert solve(path, [0], "gpu-delta-stepping").dist.tolist() == [[0] * n]
    assert used["gpu-delta-stepping's bucket"] == (n + 1, n + 1)  # the last take finds it empty
    path[np.arange(n - 1), np.arange(1, n)] = 5   # Δ = 5: a bucket per vertex
    assert solve(path, [0], "gpu-delta-stepping").dist.tolist() == [list(range(0, 5 * n, 5))]
    assert used["gpu-delta-stepping's buckets"] == (n + 1, n + 1)  # the last finds none left


@cuda.jit
def take_without_emptying(bindex, i, frontier, counts, in_s, s_list):
    """take_bucket with a bug: B[i]'s vertices stay in it, so it never empties."""
    for v in range(cuda.grid(1), bindex.size, cuda.gridsize(1)):
        if bindex[v] == i:
            frontier[cuda.atomic.add(counts, 0, 1)] = v


@cuda.jit
def stuck_at_bucket_zero(bindex, out):
    """smallest_bucket with a bug: the bucket index never advances."""
    if cuda.grid(1) == 0:
        out[0] = 0


@pytest.mark.parametrize("kernel, bug, loop", [
    ("take_bucket", take_without_emptying, "gpu-delta-stepping's bucket 0"),
    ("smallest_bucket", stuck_at_bucket_zero, "gpu-delta-stepping's buckets"),
])
def test_delta_stepping_raises_instead_of_spinning_and_solve_falls_back(monkeypatch, kernel, bug, loop):
    monkeypatch.setattr(gpu_delta_stepping, kernel, bug)
    cost = np.full((5, 5), np.inf)
    cost[0, 1], cost[1, 2], cost[0, 3] = 2, 3, 9
    with pytest.raises(gpu_launch.RoundLimitError, match=f"{loop} not done after 6 rounds"):
        gpu_delta_stepping.run(prepare(cost), np.array([0]))
    result = solve(cost, [0], "gpu-delta-stepping")
    assert result.variant == "cpu-dijkstra"
    assert f"gpu-delta-stepping failed (RoundLimitError: {loop} not done" in result.note
    assert result.dist.tolist() == [[0, 2, 5, 9, np.inf]]


NEGATIVE_OK = ("gpu-bellman-ford", "gpu-spmv-csr", "gpu-spmv-ell", "gpu-fast-sssp")
# (variant, n, edges per vertex); the seed's O(n²) Dijkstra only on the smaller graph
LARGE = [] if SIM else [(v, 2_000, 3) for v in GPU] + [(v, 20_000, 5) for v in GPU if v != "gpu-dijkstra"]


@pytest.mark.skipif(SIM, reason="larger graphs need a real GPU")
@pytest.mark.parametrize("variant, n, degree", LARGE)
def test_larger_graphs_match_scipy_on_the_gpu(variant, n, degree):
    edges = awkward_edges(n, seed=n, extra=degree, negative=variant in NEGATIVE_OK)
    reference = cheapest(n, *edges)
    sources = [0, 1, n // 2, 1]
    result = solve(as_coo(n, *edges), sources, variant)
    assert result.variant == variant, result.note
    np.testing.assert_array_equal(result.dist, scipy_distances(reference, sources))
    assert_routes_are_shortest(result, reference, targets=range(0, n, max(1, n // 200)))


@pytest.mark.skipif(SIM, reason="larger graphs need a real GPU")
@pytest.mark.parametrize("aggregate, per_sm, hops, batched", [
    (True, None, 4, True), (False, None, 4, True), (True, 1, 4, True), (True, None, 0, True),
    (True, None, 32, True), (True, None, 4, False)])
def test_fast_large_path_on_the_gpu_is_exact_on_a_road_grid_and_rmat(monkeypatch, aggregate, per_sm, hops,
                                                                      batched):
    # warps of 32 lanes whose appends diverge, and blocks of 256 threads sharing their own lists:
    # what the simulator cannot run
    monkeypatch.setattr(gpu_fast, "AGGREGATE", aggregate)
    monkeypatch.setattr(gpu_fast, "PERSISTENT_BLOCKS_PER_SM", per_sm)
    monkeypatch.setattr(gpu_fast, "LOCAL_HOPS", hops)
    monkeypatch.setattr(gpu_fast, "BATCHED", batched)
    from engine.sssp.generators import rmat, road_grid
    for graph in (road_grid(300, seed=1), rmat(14, seed=2)):
        sources = [0, 4_000, graph.n - 1]
        result = solve(graph, sources, "gpu-fast-sssp")
        assert "persistent" in result.note
        np.testing.assert_array_equal(result.dist, scipy_distances(graph.csr_matrix(), sources))
