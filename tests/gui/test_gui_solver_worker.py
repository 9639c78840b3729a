"""The worker thread: solves off the UI thread, newest request wins, stale answers are dropped."""

import threading

import numpy as np

from engine.apsp import solve
from gui.route.solver_worker import SolverWorker

INF = np.inf
COST = np.array([[0, 3, INF], [INF, 0, 4], [1, INF, 0]], dtype=float)


def test_solve_runs_off_the_ui_thread_and_reports_the_result(qtbot):
    threads = []

    def recording_solve(cost, variant):
        threads.append(threading.current_thread())
        return solve(cost, variant)

    worker = SolverWorker(solve_fn=recording_solve)
    with qtbot.waitSignal(worker.solved, timeout=60_000) as got:
        job = worker.submit(COST, "cpu-linear", context="ctx")
    done_job, result = got.args
    assert done_job is job and done_job.context == "ctx"
    assert result.dist[0, 2] == 7 and result.route(0, 2) == [0, 1, 2]
    assert threads and threads[0] is not threading.main_thread()
    worker.shutdown()


def test_only_the_newest_request_is_answered(qtbot):
    release, started = threading.Event(), threading.Event()
    answered = []

    def gated(cost, variant):
        started.set()
        release.wait(30)
        return solve(cost, variant)

    worker = SolverWorker(solve_fn=gated)
    worker.solved.connect(lambda job, result: answered.append(job.generation))
    first = worker.submit(COST, "cpu-linear")
    assert started.wait(30)
    worker.submit(COST * 2, "cpu-linear")          # queued behind the running one
    third = worker.submit(COST * 3, "cpu-linear")  # supersedes the queued one before it runs
    release.set()
    qtbot.waitUntil(lambda: not worker.busy, timeout=60_000)
    assert answered == [third.generation]
    assert worker.dropped == 1  # the running first one finished and was dropped
    assert first.generation < third.generation
    worker.shutdown()


def test_a_failing_solve_is_reported_not_raised(qtbot):
    worker = SolverWorker(solve_fn=solve)
    with qtbot.waitSignal(worker.failed, timeout=60_000) as got:
        worker.submit(np.array([[0, -1], [1, 0]], dtype=float), "cpu-linear")
    assert "negative" in got.args[1].lower()
    worker.shutdown()


def test_cancel_drops_the_outstanding_answer(qtbot):
    worker = SolverWorker(solve_fn=solve)
    answered = []
    worker.solved.connect(lambda *a: answered.append(a))
    worker.submit(COST, "cpu-linear")
    worker.cancel()
    qtbot.waitUntil(lambda: not worker.busy, timeout=60_000)
    qtbot.wait(50)
    assert answered == []
    worker.shutdown()


def test_on_a_gpu_a_variants_first_solve_is_the_cpus_while_it_compiles_then_the_gpus(
        qtbot, monkeypatch):
    """First use of a GPU variant (a real GPU, mimicked): its kernels compile in the background
    for the size asked, the CPU answers meanwhile with a note, and once compiled the GPU does."""
    from engine import variant_warmup
    from gui.route import solver_worker
    for name in ("_SIZES", "_RUNNING", "_FAILED"):
        monkeypatch.setattr(variant_warmup, name, {})
    started = []

    def start(family, variant, sizes, on_done=None):
        started.append((family, variant, tuple(sizes)))
        variant_warmup._SIZES[variant] = set(sizes)
        variant_warmup._RUNNING[variant] = 1
        started.append(on_done)
        return True

    monkeypatch.setattr(solver_worker, "simulated", lambda: False)
    monkeypatch.setattr(variant_warmup, "start", start)
    worker = SolverWorker()
    said = []
    worker.compiling.connect(said.append)
    with qtbot.waitSignal(worker.solved, timeout=60_000) as got:
        worker.submit(COST, "gpu-fast")
    result = got.args[1]
    assert said == ["gpu-fast"] and started[0] == ("apsp", "gpu-fast", (3,))
    assert result.variant == "cpu-blocked" and "gpu-fast compiling" in result.note
    assert result.dist[0, 2] == 7

    variant_warmup._RUNNING["gpu-fast"] = 0  # the child process ended well
    with qtbot.waitSignal(worker.compiled, timeout=10_000) as done:
        started[1]("ready")
    assert done.args == ["gpu-fast", "ready"]
    with qtbot.waitSignal(worker.solved, timeout=60_000) as got:
        worker.submit(COST, "gpu-fast")
    assert got.args[1].variant == "gpu-fast" and got.args[1].note is None
    worker.shutdown()


def test_a_variants_first_solve_says_it_compiles_first_cpu_or_gpu(qtbot):
    """A cold cache compiles a CPU variant too (17 s for the hub's first start): the status bar
    must say why it waits."""
    worker = SolverWorker()
    said = []
    worker.compiling.connect(said.append)
    for _ in range(2):
        with qtbot.waitSignal(worker.solved, timeout=60_000):
            worker.submit(COST, "cpu-linear")
    assert said == ["cpu-linear"]          # once, before the first solve only
    worker.shutdown()
