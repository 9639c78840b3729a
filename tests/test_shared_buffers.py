"""No result is ever overwritten: gpu-fast hands out views of pooled buffers (its answers and
converted inputs), so results held across many later solves, and solves from several threads at
once (the app's solver, race and simulation all call ``solve()``), must each keep exactly what
their own solve produced. Under Numba's CUDA simulator here (small graphs), on the H100 through
benchmarks/probe_trust.py (larger ones, more threads and solves)."""

import os
import threading

import numpy as np
import pytest

from engine.apsp import gpu_fast, solve
from engine.apsp.random_graph import paper_random_graph
from engine.gpu_device import simulated
from tests.apsp_reference import scipy_distances

SIM = simulated()
SIZES = (gpu_fast.SOLVER.tuning.b + 5, gpu_fast.SOLVER.tuning.b - 3) if SIM else (277, 500, 1100)
THREADS = int(os.environ.get("BAGROUTE_BUFFER_THREADS", 3 if SIM else 8))
SOLVES = int(os.environ.get("BAGROUTE_BUFFER_SOLVES", 3 if SIM else 40))
VARIANTS = ["gpu-fast", "gpu-fast", "gpu-blocked", "cpu-linear"]  # gpu-fast, the pooled one, most


def snapshot(result) -> tuple:
    """Fresh copies of everything a held result exposes."""
    return (result.dist.copy(), result.routes.matrix.copy(), result.cost.copy(), result.variant)


def assert_unchanged(held, copies, label):
    for result, (dist, routes, cost, variant) in zip(held, copies):
        assert result.variant == variant
        np.testing.assert_array_equal(result.dist, dist, err_msg=f"{label}: distances overwritten")
        np.testing.assert_array_equal(result.routes.matrix, routes,
                                      err_msg=f"{label}: routes overwritten")
        np.testing.assert_array_equal(result.cost, cost, err_msg=f"{label}: costs overwritten")


def test_results_held_across_many_later_solves_keep_their_own_answer():
    # every other result is let go at once, so its buffers go back into use for later solves
    n = SIZES[-1]
    held, copies = [], []
    for seed in range(2 * SOLVES):
        result = solve(paper_random_graph(n, 30, seed=seed), variant="gpu-fast")
        assert result.variant == "gpu-fast", result.note
        if seed % 2 == 0:
            held.append(result)
            copies.append(snapshot(result))
        del result
    assert_unchanged(held, copies, "held results")
    np.testing.assert_array_equal(held[0].dist, scipy_distances(paper_random_graph(n, 30, seed=0)))


@pytest.mark.parametrize("sizes", [SIZES[:1], SIZES], ids=["one size", "sizes interleaved"])
def test_solves_from_several_threads_at_once_never_overwrite_a_result(sizes):
    start = threading.Barrier(THREADS)
    held: list[list] = [[] for _ in range(THREADS)]
    copies: list[list] = [[] for _ in range(THREADS)]
    errors = []

    def worker(t: int):
        try:
            start.wait(60)
            for k in range(SOLVES):
                n = sizes[(t + k) % len(sizes)]
                variant = VARIANTS[(t + k) % len(VARIANTS)]
                result = solve(paper_random_graph(n, 30, seed=1000 * t + k), variant=variant)
                held[t].append(result)
                copies[t].append(snapshot(result))
        except Exception as exc:  # noqa: BLE001 — reported below, with its thread
            errors.append((t, repr(exc)))

    threads = [threading.Thread(target=worker, args=(t,)) for t in range(THREADS)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert not errors, errors
    for t in range(THREADS):
        assert len(held[t]) == SOLVES
        assert_unchanged(held[t], copies[t], f"thread {t}")
    # and every held answer is the right one, not merely unchanged
    for t in range(THREADS):
        for k, result in enumerate(held[t][:2]):
            cost = paper_random_graph(sizes[(t + k) % len(sizes)], 30, seed=1000 * t + k)
            np.testing.assert_array_equal(result.dist, scipy_distances(cost))
