"""Faults injected into the running app: the GPU solve raising, running out of device memory or
the device disappearing mid-day, the simulation worker raising. The day goes on on the CPU with
a status-bar message, or stops with a clear one; the window never freezes and nothing shown is
lost. The first GPU solve says it is compiling; closing mid-solve returns within 2 s."""

from __future__ import annotations

import threading
import time

import pytest
from numba.cuda.cudadrv.driver import CudaAPIError

from engine.apsp import get_variant, solve
from engine.apsp.registry import Variant
from gui.route.finder import COMPILING_MESSAGE
from tests.gui.conftest import SIM_TIMEOUT_MS, play_until

FAULTS = {
    "raising": lambda: RuntimeError("kernel launch failed (injected)"),
    "out of memory": lambda: CudaAPIError(2, "CUDA_ERROR_OUT_OF_MEMORY"),
    "device gone": lambda: CudaAPIError(101, "CUDA_ERROR_INVALID_DEVICE (device disappeared)"),
}


@pytest.fixture
def failing_gpu(monkeypatch):
    """gpu-blocked works (through the CPU kernel, fast) for its first ``works_for`` runs, then
    fails with the chosen fault; returns a function setting (fault, works_for)."""
    state = {"fault": None, "works_for": 0, "runs": 0}
    original = Variant.run

    def run(self, w, routes=True):
        if self.name != "gpu-blocked":
            return original(self, w, routes)
        state["runs"] += 1
        if state["fault"] is not None and state["runs"] > state["works_for"]:
            raise FAULTS[state["fault"]]()
        return original(get_variant("cpu-blocked"), w, routes)

    monkeypatch.setattr(Variant, "run", run)
    return lambda fault, works_for: state.update(fault=fault, works_for=works_for, runs=0)


@pytest.mark.parametrize("fault", sorted(FAULTS))
def test_a_gpu_failing_mid_day_hands_the_day_to_the_cpu_with_a_message(qtbot, make_window,
                                                                       regional, failing_gpu,
                                                                       fault):
    window = make_window(regional)
    qtbot.waitUntil(lambda: window.player.ready, timeout=SIM_TIMEOUT_MS)
    failing_gpu(fault, works_for=6)   # the warm-up and a few recomputes, then the fault
    statuses = []
    window.status.changed.connect(statuses.append)
    assert window.set_variant("gpu-blocked")
    qtbot.waitUntil(lambda: window.player.ready, timeout=SIM_TIMEOUT_MS)
    seen = []
    window.simStepped.connect(lambda r: seen.extend(t for t in r.timings if t.note))
    play_until(qtbot, window, 3 * 3600, timeout_ms=90_000)
    assert seen, "no recompute fell back to the CPU"
    assert seen[-1].variant == "cpu-blocked" and "gpu-blocked failed" in seen[-1].note
    before = window.player.shown.snapshot.t
    play_until(qtbot, window, before + 1800, timeout_ms=60_000)   # the day goes on
    k = window.player.shown.snapshot.kpis
    assert k["t"] >= before + 1800 and k["created"] == (k["waiting"] + k["on_tug"]
                                                       + k["delivered"] + k["misconnected"])
    told = [s for s in statuses if s.startswith("The day continues on the CPU: gpu-blocked failed")]
    assert told and ("CUDA_ERROR" in told[-1] or "injected" in told[-1])


def test_a_failing_route_solve_falls_back_and_says_so(qtbot, make_window, failing_gpu):
    failing_gpu("out of memory", works_for=0)
    window = make_window()
    window.set_variant("gpu-blocked")
    qtbot.waitUntil(lambda: window.result is not None and window.result.note is not None,
                    timeout=30_000)
    assert window.result.variant == "cpu-blocked"
    assert "CUDA_ERROR_OUT_OF_MEMORY" in window.result.note
    assert "ran cpu-blocked on the CPU" in window.solve_report()


def test_the_simulation_worker_raising_mid_day_stops_it_with_a_message_and_keeps_the_day(
        qtbot, make_window, regional):
    window = make_window(regional)
    qtbot.waitUntil(lambda: window.player.ready, timeout=SIM_TIMEOUT_MS)
    play_until(qtbot, window, 1800)
    # the worker done with what it was asked (it may be copying the day for a checkpoint)
    qtbot.waitUntil(lambda: window.player.runner.worker.activity.idle, timeout=30_000)
    sim = window.player.runner.worker.sim
    statuses = []
    window.status.changed.connect(statuses.append)

    def broken(t, check=False):
        raise MemoryError("injected in the simulation worker")

    sim.run_until = broken
    window.play()
    qtbot.waitUntil(lambda: any("Simulation failed" in s for s in statuses), timeout=30_000)
    assert any("injected in the simulation worker" in s for s in statuses)
    shown = window.player.shown
    assert shown is not None and shown.snapshot.kpis["t"] >= 1800   # what was shown stays
    window.set_endpoints(window.airport.nodes[0].id, window.airport.nodes[-1].id)  # still alive
    qtbot.waitUntil(lambda: window.result is not None, timeout=30_000)


def test_the_first_gpu_solve_says_it_compiles_kernels(qtbot, make_window):
    window = make_window()
    with qtbot.waitSignal(window.solver.compiling, timeout=30_000) as got:
        window.set_variant("gpu-blocked")
    assert got.args == ["gpu-blocked"]
    assert COMPILING_MESSAGE in window.status_text()
    assert COMPILING_MESSAGE == "compiling for this machine, first use only (then cached)"
    qtbot.waitUntil(lambda: window.result is not None and window.result.variant == "gpu-blocked",
                    timeout=120_000)


def test_closing_mid_solve_returns_within_2_s_and_drops_the_answer(qtbot, make_window):
    entered, release = threading.Event(), threading.Event()

    def slow_solve(cost, variant):
        entered.set()
        release.wait(30)
        return solve(cost, variant)

    window = make_window(wait=False, solve_fn=slow_solve)
    assert entered.wait(10)
    answered = []
    window.solver.solved.connect(lambda *a: answered.append(a))
    start = time.perf_counter()
    window.close()
    took = time.perf_counter() - start
    release.set()
    assert took < 2.0, f"close took {took:.1f} s"
    assert window.solver.wait(10_000)
    qtbot.wait(100)
    assert answered == []


def test_closing_mid_benchmark_returns_within_2_s(qtbot, tmp_path):
    from gui.bench.window import BenchWindow
    from gui.bench.worker import BenchWorker
    from gui.settings import file_settings
    from tests.gui.test_gui_bench_window import RUN_TIMEOUT_MS, Gate

    gate = Gate(hold_at=1)
    worker = BenchWorker(measure_fn=gate)
    window = BenchWindow(settings=file_settings(tmp_path / "bench.ini"), worker=worker)
    qtbot.addWidget(window)
    window.show()
    window.set_plan(["cpu-linear"], [8, 16])
    window.start_run()
    qtbot.waitUntil(gate.entered.is_set, timeout=RUN_TIMEOUT_MS)
    start = time.perf_counter()
    window.close()
    took = time.perf_counter() - start
    gate.release.set()
    assert took < 2.0, f"close took {took:.1f} s"
    assert worker.wait(30_000) and gate.calls == 1   # cancelled: no point after the one held
