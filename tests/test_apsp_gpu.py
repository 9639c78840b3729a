"""GPU-specific behaviour beyond the shared variant suite: tile edges, both launch paths of
gpu-fast, buffers kept between calls, larger graphs on a real GPU.

Under Numba's CUDA simulator (no GPU) the graphs stay small: every GPU thread is a Python thread.
"""

from dataclasses import replace

import numpy as np
import pytest

from engine import gpu_memory
from engine.apsp import gpu_fast, solve
from engine.apsp.gpu_fast import Solver, solver as fast_run
from engine.apsp.gpu_lanes16 import CAP
from engine.apsp.matrix import to_float_distances, to_int32_costs
from engine.apsp.random_graph import paper_random_graph
from engine.apsp.result import APSPResult
from engine.gpu_device import simulated
from tests.apsp_reference import assert_routes_sum_to_distances, scipy_distances

SIM = simulated()
DEFAULT = gpu_fast.default_tuning()
B = DEFAULT.b
# Around gpu-fast's tile: one short of it, exactly it, one over, and one over two tiles.
TILE_EDGE_SIZES = [B - 1, B, B + 1, 2 * B + 1]
LARGE = [] if SIM else [257, 1000, 2049, 3100]  # 3100: past MAPPED_MAX, copied


def sample_pairs(n, count=400, seed=1):
    rng = np.random.default_rng(seed)
    pairs = [tuple(map(int, p)) for p in rng.integers(0, n, size=(count, 2))]
    return pairs + [(0, n - 1), (n - 1, 0)]


def tuned(**changes) -> Solver:
    """A gpu-fast solver with this machine's tuning, ``changes`` made."""
    return Solver(replace(DEFAULT, **changes))


def solved(solver: Solver, cost) -> APSPResult:
    """``solve(cost, "gpu-fast")`` as ``solver`` runs it: the input converted where it reads it."""
    w = to_int32_costs(cost, out=solver.input_array(len(cost)))
    dist, routes, seconds = solver.run(w)
    return APSPResult(to_float_distances(dist), routes, "gpu-fast", seconds, seconds, "GPU", w)


def check(cost, variant):
    """``variant`` (a name, or a gpu-fast ``Solver``) gives scipy's distances and true routes."""
    if isinstance(variant, Solver):
        result = solved(variant, cost)
    else:
        result = solve(cost, variant=variant)
        assert result.variant == variant, result.note
    np.testing.assert_array_equal(result.dist, scipy_distances(cost))
    assert_routes_sum_to_distances(result, cost, sample_pairs(cost.shape[0]))
    return result


@pytest.fixture(params=["one launch", "many launches", "copied"])
def fast_path(request) -> Solver:
    """gpu-fast on each of its two schedules, whatever the graph's size, and the path large
    graphs take (many launches, the input and answer copied through page-locked buffers)."""
    return tuned(one_launch_max=-1 if request.param == "one launch" else 0,
                 mapped_max=0 if request.param == "copied" else DEFAULT.mapped_max)


@pytest.mark.parametrize("n", TILE_EDGE_SIZES)
def test_fast_variant_is_exact_around_its_tile_size(n, fast_path):
    for density in (15, 85):
        check(paper_random_graph(n, density, seed=n + density), fast_path)


@pytest.mark.skipif(SIM, reason="larger graphs need a real GPU")
@pytest.mark.parametrize("n", LARGE)
@pytest.mark.parametrize("variant", ["gpu-fast", "gpu-blocked"])
def test_larger_graphs_match_scipy_on_the_gpu(n, variant):
    check(paper_random_graph(n, 15, seed=n), variant)


@pytest.mark.skipif(SIM, reason="larger graphs need a real GPU")
def test_fast_variant_both_paths_agree_on_a_mid_sized_graph():
    cost = paper_random_graph(1500, 85, weight_range=1000, seed=5)
    one = solved(tuned(one_launch_max=-1), cost)
    many = solved(tuned(one_launch_max=0), cost)
    np.testing.assert_array_equal(one.dist, many.dist)
    assert_routes_sum_to_distances(many, cost, sample_pairs(1500))


def test_fast_variant_zero_cost_cycles_give_simple_routes(fast_path):
    n = 17 if SIM else 300
    rng = np.random.default_rng(3)
    cost = paper_random_graph(n, 15, weight_range=4, seed=3)
    cost[rng.random((n, n)) < 0.2] = 0.0
    np.fill_diagonal(cost, 0)
    check(cost, fast_path)


def test_fast_variant_repeated_and_resized_calls_stay_exact(monkeypatch):
    # Kept buffers (small graphs) must not leak one answer into the next, nor a size into another;
    # with the answer pool full, small graphs copy their answer back like large ones, and with
    # the input pool full, their input is copied into the kept mapped buffer.
    for mapped_max, answer_bytes, input_bytes in ((10**9, 10**9, 10**9), (10**9, 0, 10**9),
                                                  (10**9, 10**9, 0), (0, 10**9, 10**9)):
        solver = tuned(mapped_max=mapped_max)
        monkeypatch.setattr(solver.buffers.answers, "max_bytes", answer_bytes)
        monkeypatch.setattr(solver.buffers.inputs, "max_bytes", input_bytes)
        for n, seed in ((B + 2, 1), (B + 2, 2), (B - 3, 3)):
            check(paper_random_graph(n, 50, seed=seed), solver)


def test_answers_kept_by_the_caller_survive_later_solves(fast_path):
    # Small answers are views of pooled host buffers: one still held must never be reused.
    n = B + 5
    kept, snapshots = [], []
    for seed in (1, 2, 3, 4):
        result = solved(fast_path, paper_random_graph(n, 30, seed=seed))
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
        assert gpu_fast.SOLVER.buffers.inputs.kernel_arg(result.cost) is not None, "the input was copied"
        np.testing.assert_array_equal(result.cost, to_int32_costs(cost))
        np.testing.assert_array_equal(result.dist, scipy_distances(cost))


def test_copied_answers_have_int16_vias_where_they_fit_and_int32_beyond():
    cost = paper_random_graph(B + 3, 40, seed=6)
    assert check(cost, tuned(mapped_max=0)).routes.matrix.dtype == np.int16
    assert check(cost, tuned(mapped_max=0, via16_max=0)).routes.matrix.dtype == np.int32


def test_copied_inputs_come_from_the_page_locked_pool():
    solver = tuned(mapped_max=0)
    result = check(paper_random_graph(B + 3, 40, seed=7), solver)
    assert solver.buffers.copied_inputs.owns(result.cost), "the input was copied"


def test_copied_graphs_are_solved_in_16_bit_lanes_where_every_distance_fits():
    # A cost above the lanes' cap is capped; on no shortest path (0 -> 1 has shorter ones),
    # it leaves the answer exact, still from the lanes, and the routes are recovered on the
    # lanes (four k-blocks: cells improve, lane by lane, in several rounds).
    solver = tuned(mapped_max=0)
    cost = paper_random_graph(2 * B + 3, 30, seed=8)
    cost[0, 1] = 10 * CAP
    check(cost, solver)
    assert solver.last_arithmetic == "lanes16"


@pytest.mark.parametrize("chunk, staged", [(DEFAULT.threads ** 2, True), (DEFAULT.lanes_recover_chunk, True),
                                          (DEFAULT.threads ** 2, False)])
def test_the_lanes_vias_are_recovered_by_rows_in_chunks_staged_or_not(chunk, staged):
    # One pass of the block a chunk (several chunks a row) or the default; L's row staged in
    # shared memory (``recover_lanes_rows``) or read where it is (``recover_lanes``). On a GPU
    # the rows (2B) are shorter than a pass (256 threads): its last threads have no cell.
    solver = tuned(mapped_max=0, lanes_recover_chunk=chunk, lanes_recover_staged=staged)
    check(paper_random_graph(B + 3, 60, seed=11), solver)
    assert solver.last_arithmetic == "lanes16"


@pytest.mark.parametrize("graph", ["unreachable vertex", "vertex beyond the cap"])
def test_pairs_at_the_lanes_cap_are_solved_again_in_int32_on_their_tiles_only(graph):
    # The last vertex (tile column 1 of 2) is reached by nothing, or only from vertex 0 through
    # an edge above the cap: its column ends at the cap, and int32 rounds redo that column's
    # tiles alone, starting from the lanes' answer.
    solver = tuned(mapped_max=0)
    n = B + 3
    cost = paper_random_graph(n, 85, seed=9)
    cost[:, n - 1] = np.inf
    if graph == "vertex beyond the cap":
        cost[0, n - 1] = 2 * CAP
    np.fill_diagonal(cost, 0)
    check(cost, solver)
    assert solver.last_arithmetic == "lanes16, then int32"
    marked = solver.buffers.kept["M"].copy_to_host()  # k-blocks padded (lanes_multiple): tiles of padding too
    expected = np.zeros_like(marked)
    expected[:2, 1] = 1
    np.testing.assert_array_equal(marked, expected)


EXACT, UNREACHED = "every distance below the cap", "unreachable vertex"


@pytest.mark.parametrize(("changes", "graph"), [
    (dict(lanes_wide=False), EXACT), (dict(lanes_lookahead=False), EXACT), (dict(via16_max=0), EXACT),
    (dict(lanes_marks16=False, lanes_vias16=False), EXACT), (dict(lanes_marks16=False, lanes_vias16=False), UNREACHED),
    (dict(lanes_vias16=False), EXACT), (dict(lanes_vias16=False), UNREACHED)],
    ids=lambda value: value if isinstance(value, str) else ",".join(f"{k}={v}" for k, v in value.items()))
def test_the_lanes_switches_keep_the_answer_exact(changes, graph):
    # Each switch of the lanes off in turn (on by default, where the other lanes tests run them
    # all): phase 3 in tiles half as wide (the defaults: 5 k-blocks padded to 8, two column
    # tiles, the padding's cells past the graph; cells improving lane by lane over several
    # rounds), no look-ahead closure (phase 3 closes the next diagonal tile, phase 2 loads it),
    # int32 vias, int32 marks, int32 marks recovered through V: the lanes' answer and routes as
    # scipy's, or int32 rounds after them where the last vertex is reached by nothing (the
    # switches that change what those rounds start from).
    solver = tuned(mapped_max=0, **changes)
    n = 4 * B + 3
    cost = paper_random_graph(n, 30, seed=12)
    if graph == UNREACHED:
        cost[:, n - 1] = np.inf
        np.fill_diagonal(cost, 0)
    check(cost, solver)
    assert solver.last_arithmetic == ("lanes16" if graph == EXACT else "lanes16, then int32")


def test_copied_graphs_in_int32_only_where_lanes_are_turned_off():
    solver = tuned(mapped_max=0, lanes16=False)
    check(paper_random_graph(B + 3, 85, seed=8), solver)
    assert solver.last_arithmetic == "int32"


def test_page_locked_memory_refused_gives_ordinary_memory(monkeypatch):
    def refuse(shape, dtype):
        raise RuntimeError("CUDA_ERROR_OUT_OF_MEMORY")
    monkeypatch.setattr(gpu_memory, "simulated", lambda: False)
    monkeypatch.setattr(gpu_memory.cuda, "pinned_array", refuse)
    a = gpu_memory.host_array((3, 4), np.int16)
    assert a.shape == (3, 4) and a.dtype == np.int16


@pytest.mark.parametrize("mapped_max", [DEFAULT.mapped_max, 0])
def test_kernel_time_is_part_of_the_total_time(mapped_max, monkeypatch):
    monkeypatch.setattr(gpu_fast, "SOLVER", tuned(mapped_max=mapped_max))  # what solve() runs
    result = solve(paper_random_graph(B + 3, 50, seed=2), variant="gpu-fast")
    assert result.variant == "gpu-fast" and 0 < result.kernel_seconds <= result.seconds


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

    monkeypatch.setattr(fast_run, "SIMULATED", False)
    monkeypatch.setattr(fast_run, "LaunchGraph", Graph)
    monkeypatch.setattr(fast_run.cuda, "stream", lambda: "stream")
    solver, buf, pair = Solver(), {}, (_Buffer(1), _Buffer(2))
    assert solver.replayed(buf, pair, "queue") is None          # first sight: plain launches
    assert solver.replayed(buf, pair, "queue")() == "replayed"  # second: captured, replayed
    assert solver.replayed(buf, pair, "other")() == "replayed"  # then replayed as captured
    assert captured == ["queue"]
    for address in range(3, 3 + solver.tuning.graphs_kept):             # other buffers push it out
        solver.replayed(buf, (_Buffer(address), _Buffer(2)), "queue")
    assert len(buf["graphs"]) == solver.tuning.graphs_kept
    assert solver.replayed(buf, pair, "queue") is None


def test_a_refused_graph_means_plain_launches_from_then_on(monkeypatch):
    def refuse(queue, stream):
        raise RuntimeError("stream capture not supported")

    monkeypatch.setattr(fast_run, "SIMULATED", False)
    monkeypatch.setattr(fast_run, "LaunchGraph", refuse)
    monkeypatch.setattr(fast_run.cuda, "stream", lambda: "stream")
    solver, buf, pair = Solver(), {}, (_Buffer(1), _Buffer(2))
    assert solver.replayed(buf, pair, "queue") is None
    assert solver.replayed(buf, pair, "queue") is None
    assert "stream capture not supported" in solver.graph_error
    assert solver.replayed(buf, (_Buffer(5), _Buffer(6)), "queue") is None


@pytest.mark.skipif(SIM, reason="the simulator launches plainly: graphs need a real GPU")
def test_graph_replays_solve_each_new_graph_exactly():
    # The app solves one airport again and again with new costs in the same buffers: replays
    # must read the new costs, and every answer stays exact.
    solver = tuned(one_launch_max=0)
    n = 700
    for seed in range(4):
        check(paper_random_graph(n, 15, seed=seed), solver)
    assert solver.graph_error is None
    assert any(g is not None for g in solver.buffers.kept["graphs"].values())
