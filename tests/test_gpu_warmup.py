"""A GPU variant's first use: its kernels compile in a background process while the CPU answers
(engine/gpu_warmup.py), and each kernel compiles only when a size first takes it
(gpu_launch.LazyKernel)."""

import numpy as np
import pytest

from engine import gpu_warmup
from engine.apsp import solve
from engine.apsp.random_graph import paper_random_graph
from engine.gpu_launch import lazy_kernel


@pytest.fixture(autouse=True)
def no_warm_ups(monkeypatch):
    for name in ("_SIZES", "_RUNNING", "_FAILED"):
        monkeypatch.setattr(gpu_warmup, name, {})


def reference(w):
    return solve(w, "cpu-linear").dist


def test_while_a_variant_compiles_the_cpu_answers_and_says_why(monkeypatch):
    w = paper_random_graph(12, 30, seed=3)
    monkeypatch.setitem(gpu_warmup._SIZES, "gpu-fast", {12})
    monkeypatch.setitem(gpu_warmup._RUNNING, "gpu-fast", 1)
    assert gpu_warmup.state("gpu-fast") == "compiling"
    r = solve(w, "gpu-fast")
    assert r.variant == "cpu-blocked"
    assert "gpu-fast compiling for this GPU (first use)" in r.note
    np.testing.assert_array_equal(r.dist, reference(w))


def test_a_finished_warm_up_hands_the_solves_to_the_gpu_variant():
    ended = []
    assert gpu_warmup.start("apsp", "gpu-fast", (20, 5), ended.append)
    assert not gpu_warmup.start("apsp", "gpu-fast", (5,))  # each size compiled once
    assert gpu_warmup.wait("gpu-fast", timeout=300) == "ready" and ended == ["ready"]
    w = paper_random_graph(20, 30, seed=4)
    r = solve(w, "gpu-fast")
    assert (r.variant, r.note) == ("gpu-fast", None)
    np.testing.assert_array_equal(r.dist, reference(w))


def test_a_failed_warm_up_says_why_and_leaves_the_variant_to_run_or_fall_back():
    gpu_warmup.start("apsp", "no-such-variant", (8,))
    state = gpu_warmup.wait("no-such-variant", timeout=300)
    assert state.startswith("failed: ") and "no-such-variant" in state


def test_an_unknown_family_is_refused():
    with pytest.raises(ValueError, match="family must be one of apsp, sssp"):
        gpu_warmup.start("mst", "gpu-fast-mst", (8,))


def test_a_lazy_kernel_compiles_on_first_launch_only():
    @lazy_kernel("void(int32[::1])")
    def increment(a):
        a[0] += 1

    assert not increment.compiled
    a = np.zeros(1, np.int32)
    increment[1, 1](a)
    increment[1, 1](a)
    assert increment.compiled and a[0] == 2
