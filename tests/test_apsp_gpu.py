"""GPU-specific behaviour beyond the shared variant suite: tile edges, both launch paths of
gpu-fast, buffers kept between calls, larger graphs on a real GPU.

Under Numba's CUDA simulator (no GPU) the graphs stay small: every GPU thread is a Python thread.
"""

import numpy as np
import pytest

from engine.apsp import solve
from engine.apsp import gpu_fast
from engine.apsp.gpu_lanes16 import CAP
from engine.gpu_device import simulated
from engine.apsp.matrix import to_int32_costs
from engine.apsp.random_graph import paper_random_graph
from tests.apsp_reference import assert_routes_sum_to_distances, scipy_distances

SIM = simulated()
B = gpu_fast.B
# Around gpu-fast's tile: one short of it, exactly it, one over, and one over two tiles.
TILE_EDGE_SIZES = [B - 1, B, B + 1, 2 * B + 1]
LARGE = [] if SIM else [257, 1000, 2049, 3100]  # 3100: past MAPPED_MAX, copied


def sample_pairs(n, count=400, seed=1):
    rng = np.random.default_rng(seed)
    pairs = [tuple(map(int, p)) for p in rng.integers(0, n, size=(count, 2))]
    return pairs + [(0, n - 1), (n - 1, 0)]


def check(cost, variant):
    result = solve(cost, variant=variant)
    assert result.variant == variant, result.note
    np.testing.assert_array_equal(result.dist, scipy_distances(cost))
    assert_routes_sum_to_distances(result, cost, sample_pairs(cost.shape[0]))
    return result


@pytest.fixture(params=["one launch", "many launches", "copied"])
def fast_path(request, monkeypatch):
    """gpu-fast on each of its two schedules, whatever the graph's size, and the path large
    graphs take (many launches, the input and answer copied through page-locked buffers)."""
    monkeypatch.setattr(gpu_fast, "ONE_LAUNCH_MAX", -1 if request.param == "one launch" else 0)
    if request.param == "copied":
        monkeypatch.setattr(gpu_fast, "MAPPED_MAX", 0)
    return request.param


@pytest.mark.parametrize("n", TILE_EDGE_SIZES)
def test_fast_variant_is_exact_around_its_tile_size(n, fast_path):
    for density in (15, 85):
        check(paper_random_graph(n, density, seed=n + density), "gpu-fast")


@pytest.mark.skipif(SIM, reason="larger graphs need a real GPU")
@pytest.mark.parametrize("n", LARGE)
@pytest.mark.parametrize("variant", ["gpu-fast", "gpu-blocked"])
def test_larger_graphs_match_scipy_on_the_gpu(n, variant):
    check(paper_random_graph(n, 15, seed=n), variant)


@pytest.mark.skipif(SIM, reason="larger graphs need a real GPU")
def test_fast_variant_both_paths_agree_on_a_mid_sized_graph(monkeypatch):
    cost = paper_random_graph(1500, 85, weight_range=1000, seed=5)
    monkeypatch.setattr(gpu_fast, "ONE_LAUNCH_MAX", -1)
    one = solve(cost, variant="gpu-fast")
    monkeypatch.setattr(gpu_fast, "ONE_LAUNCH_MAX", 0)
    many = solve(cost, variant="gpu-fast")
    np.testing.assert_array_equal(one.dist, many.dist)
    assert_routes_sum_to_distances(many, cost, sample_pairs(1500))


def test_fast_variant_zero_cost_cycles_give_simple_routes(fast_path):
    n = 17 if SIM else 300
    rng = np.random.default_rng(3)
    cost = paper_random_graph(n, 15, weight_range=4, seed=3)
    cost[rng.random((n, n)) < 0.2] = 0.0
    np.fill_diagonal(cost, 0)
    check(cost, "gpu-fast")


def test_fast_variant_repeated_and_resized_calls_stay_exact(monkeypatch):
    # Kept buffers (small graphs) must not leak one answer into the next, nor a size into another;
    # with the answer pool full, small graphs copy their answer back like large ones, and with
    # the input pool full, their input is copied into the kept mapped buffer.
    for mapped_max, answer_bytes, input_bytes in ((10**9, 10**9, 10**9), (10**9, 0, 10**9),
                                                  (10**9, 10**9, 0), (0, 10**9, 10**9)):
        monkeypatch.setattr(gpu_fast, "MAPPED_MAX", mapped_max)
        monkeypatch.setattr(gpu_fast._ANSWERS, "max_bytes", answer_bytes)
        monkeypatch.setattr(gpu_fast._INPUTS, "max_bytes", input_bytes)
        for n, seed in ((B + 2, 1), (B + 2, 2), (B - 3, 3)):
            check(paper_random_graph(n, 50, seed=seed), "gpu-fast")


def test_answers_kept_by_the_caller_survive_later_solves(fast_path):
    # Small answers are views of pooled host buffers: one still held must never be reused.
    n = B + 5
    kept, snapshots = [], []
    for seed in (1, 2, 3, 4):
        result = solve(paper_random_graph(n, 30, seed=seed), variant="gpu-fast")
        kept.append(result.routes.matrix[0])             # a view outliving its result
        snapshots.append(result.routes.matrix.copy())
        assert_routes_sum_to_distances(result, result.cost, sample_pairs(n))
        del result
    for row, snapshot in zip(kept, snapshots):
        np.testing.assert_array_equal(row, snapshot[0])


def test_small_inputs_are_solved_where_they_were_converted_and_kept_while_used():
    # solve() converts a small graph's costs into a pooled buffer the kernels read directly;
    # a result's cost matrix is that buffer, so later solves must not write over it.
    n = B + 5
    costs = [paper_random_graph(n, 30, seed=seed) for seed in (1, 2, 3)]
    results = [solve(cost, variant="gpu-fast") for cost in costs]
    for cost, result in zip(costs, results):
        assert gpu_fast._INPUTS.kernel_arg(result.cost) is not None, "the input was copied"
        np.testing.assert_array_equal(result.cost, to_int32_costs(cost))
        np.testing.assert_array_equal(result.dist, scipy_distances(cost))


def test_copied_answers_have_int16_vias_where_they_fit_and_int32_beyond(monkeypatch):
    monkeypatch.setattr(gpu_fast, "MAPPED_MAX", 0)
    cost = paper_random_graph(B + 3, 40, seed=6)
    assert check(cost, "gpu-fast").routes.matrix.dtype == np.int16
    monkeypatch.setattr(gpu_fast, "VIA16_MAX", 0)
    assert check(cost, "gpu-fast").routes.matrix.dtype == np.int32


def test_copied_inputs_come_from_the_page_locked_pool(monkeypatch):
    monkeypatch.setattr(gpu_fast, "MAPPED_MAX", 0)
    result = check(paper_random_graph(B + 3, 40, seed=7), "gpu-fast")
    assert gpu_fast._COPIED_INPUTS.owns(result.cost), "the input was copied"


def test_copied_graphs_are_solved_in_16_bit_lanes_where_every_distance_fits(monkeypatch):
    # A cost above the lanes' cap is capped; on no shortest path (0 -> 1 has shorter ones),
    # it leaves the answer exact, still from the lanes.
    monkeypatch.setattr(gpu_fast, "MAPPED_MAX", 0)
    cost = paper_random_graph(B + 3, 85, seed=8)
    cost[0, 1] = 10 * CAP
    check(cost, "gpu-fast")
    assert gpu_fast.LAST_ARITHMETIC == "lanes16"


@pytest.mark.parametrize("graph", ["unreachable vertex", "vertex beyond the cap"])
def test_pairs_at_the_lanes_cap_are_solved_again_in_int32_on_their_tiles_only(graph, monkeypatch):
    # The last vertex (tile column 1 of 2) is reached by nothing, or only from vertex 0 through
    # an edge above the cap: its column ends at the cap, and int32 rounds redo that column's
    # tiles alone, starting from the lanes' answer.
    monkeypatch.setattr(gpu_fast, "MAPPED_MAX", 0)
    n = B + 3
    cost = paper_random_graph(n, 85, seed=9)
    cost[:, n - 1] = np.inf
    if graph == "vertex beyond the cap":
        cost[0, n - 1] = 2 * CAP
    np.fill_diagonal(cost, 0)
    check(cost, "gpu-fast")
    assert gpu_fast.LAST_ARITHMETIC == "lanes16, then int32"
    np.testing.assert_array_equal(gpu_fast._BUFFERS["M"].copy_to_host(), [[0, 1], [0, 1]])


def test_copied_graphs_in_int32_only_where_lanes_are_turned_off(monkeypatch):
    monkeypatch.setattr(gpu_fast, "MAPPED_MAX", 0)
    monkeypatch.setattr(gpu_fast, "LANES16", False)
    check(paper_random_graph(B + 3, 85, seed=8), "gpu-fast")
    assert gpu_fast.LAST_ARITHMETIC == "int32"


def test_page_locked_memory_refused_gives_ordinary_memory(monkeypatch):
    def refuse(shape, dtype):
        raise RuntimeError("CUDA_ERROR_OUT_OF_MEMORY")
    monkeypatch.setattr(gpu_fast, "SIMULATED", False)
    monkeypatch.setattr(gpu_fast.cuda, "pinned_array", refuse)
    a = gpu_fast.host_array((3, 4), np.int16)
    assert a.shape == (3, 4) and a.dtype == np.int16


@pytest.mark.parametrize("mapped_max", [gpu_fast.MAPPED_MAX, 0])
def test_kernel_time_is_part_of_the_total_time(mapped_max, monkeypatch):
    monkeypatch.setattr(gpu_fast, "MAPPED_MAX", mapped_max)
    result = solve(paper_random_graph(B + 3, 50, seed=2), variant="gpu-fast")
    assert 0 < result.kernel_seconds <= result.seconds


class _Buffer:
    """Stands in for a device or mapped array: only its address matters to ``_replayed``."""

    def __init__(self, address):
        self.__cuda_array_interface__ = {"data": (address, False)}


def test_launches_are_replayed_as_a_graph_from_the_second_sight_of_their_buffers(monkeypatch):
    captured = []

    class Graph:
        def __init__(self, queue, stream):
            captured.append(queue)
            self.launch = lambda: "replayed"

    monkeypatch.setattr(gpu_fast, "SIMULATED", False)
    monkeypatch.setattr(gpu_fast, "LaunchGraph", Graph)
    monkeypatch.setattr(gpu_fast, "GRAPH_ERROR", None)
    monkeypatch.setattr(gpu_fast.cuda, "stream", lambda: "stream")
    buf, pair = {}, (_Buffer(1), _Buffer(2))
    assert gpu_fast._replayed(buf, pair, "queue") is None          # first sight: plain launches
    assert gpu_fast._replayed(buf, pair, "queue")() == "replayed"  # second: captured, replayed
    assert gpu_fast._replayed(buf, pair, "other")() == "replayed"  # then replayed as captured
    assert captured == ["queue"]
    for address in range(3, 3 + gpu_fast.GRAPHS_KEPT):             # other buffers push it out
        gpu_fast._replayed(buf, (_Buffer(address), _Buffer(2)), "queue")
    assert len(buf["graphs"]) == gpu_fast.GRAPHS_KEPT
    assert gpu_fast._replayed(buf, pair, "queue") is None


def test_a_refused_graph_means_plain_launches_from_then_on(monkeypatch):
    def refuse(queue, stream):
        raise RuntimeError("stream capture not supported")

    monkeypatch.setattr(gpu_fast, "SIMULATED", False)
    monkeypatch.setattr(gpu_fast, "LaunchGraph", refuse)
    monkeypatch.setattr(gpu_fast, "GRAPH_ERROR", None)
    monkeypatch.setattr(gpu_fast.cuda, "stream", lambda: "stream")
    buf, pair = {}, (_Buffer(1), _Buffer(2))
    assert gpu_fast._replayed(buf, pair, "queue") is None
    assert gpu_fast._replayed(buf, pair, "queue") is None
    assert "stream capture not supported" in gpu_fast.GRAPH_ERROR
    assert gpu_fast._replayed(buf, (_Buffer(5), _Buffer(6)), "queue") is None


@pytest.mark.skipif(SIM, reason="the simulator launches plainly: graphs need a real GPU")
def test_graph_replays_solve_each_new_graph_exactly(monkeypatch):
    # The app solves one airport again and again with new costs in the same buffers: replays
    # must read the new costs, and every answer stays exact.
    monkeypatch.setattr(gpu_fast, "ONE_LAUNCH_MAX", 0)
    n = 700
    for seed in range(4):
        check(paper_random_graph(n, 15, seed=seed), "gpu-fast")
    assert gpu_fast.GRAPH_ERROR is None
    assert any(g is not None for g in gpu_fast._BUFFERS["graphs"].values())
