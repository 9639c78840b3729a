"""First GPU use on a machine with an empty kernel cache (issue 30): how long until the app shows a
route, until the GPU takes over, and how long the first ``gpu-fast`` call of a fresh process takes.

    python3 -m benchmarks.first_use [AIRPORT] [--variant gpu-fast] [--n 500]

Each measurement runs in a fresh process: the first call on a fresh, empty
``BAGROUTE_KERNEL_CACHE`` (and ``XDG_CACHE_HOME``), the app in the user's own caches, as a user
starts it (the report counts the files already there: 0 on a fresh machine). Prints JSON.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

FIRST_CALL = """
import sys, time
start = time.perf_counter()
from engine.apsp import solve
from engine.apsp.random_graph import paper_random_graph
w = paper_random_graph(int(sys.argv[2]), 15, seed=0)
r = solve(w, sys.argv[1])
first = time.perf_counter() - start
t = time.perf_counter(); solve(w, sys.argv[1]); second = time.perf_counter() - t
import numpy as np
from scipy.sparse.csgraph import csgraph_from_dense, shortest_path
exact = np.array_equal(r.dist, shortest_path(csgraph_from_dense(w, null_value=np.inf)))
print(first, second, exact, r.variant, r.note)
"""


def fresh_env() -> dict:
    cache = tempfile.mkdtemp(prefix="bagroute-cold-")
    return dict(os.environ, BAGROUTE_KERNEL_CACHE=os.path.join(cache, "kernels"),
                XDG_CACHE_HOME=cache, XDG_CONFIG_HOME=cache, NUMBA_CACHE_DIR=cache)


def first_call(variant: str, n: int) -> dict:
    """A fresh process's first solve (import and compile included) and its second."""
    out = subprocess.run([sys.executable, "-c", FIRST_CALL, variant, str(n)], env=fresh_env(),
                         capture_output=True, text=True, check=True).stdout.split(maxsplit=4)
    return {"n": n, "variant": out[3], "first_call_s": float(out[0]), "second_call_s": float(out[1]),
            "exact": out[2] == "True", "note": out[4].strip() if len(out) > 4 else None}


def app_first_route(airport: str, variant: str, timeout: float, launched: float | None = None
                    ) -> dict:
    """In this process (run it in a fresh one): the app opened on ``airport`` with ``variant``;
    seconds to the first route drawn and what the status bar said, then to the GPU's first:
    ``s`` from the window's construction (the imports done), ``launch_s`` from ``launched``
    (``time.monotonic()`` when the process was started: its imports included)."""
    from engine import gpu_device
    gpu_device.start_probe()   # where ``python main.py app`` starts it: before Qt's import
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    from gui.main_window import MainWindow
    app = QApplication.instance() or QApplication([])
    settings = QSettings(os.path.join(tempfile.mkdtemp(), "s.ini"), QSettings.Format.IniFormat)
    settings.setValue("solver/variant", variant)
    start = time.monotonic()
    seen = {}

    def at(**facts):
        now = time.monotonic()
        return {"s": round(now - start, 2), **({"launch_s": round(now - launched, 2)}
                                                if launched else {}), **facts}

    def solved(result):
        key = "gpu" if result.variant == variant else "cpu"
        seen.setdefault(key, at(variant=result.variant, solve_s=round(result.seconds, 4),
                                note=result.note, status=window.status.text()))
        if key == "gpu":
            app.quit()

    from engine.airport.layout_io import bundled_airports
    window = MainWindow(bundled_airports().get(airport, airport), settings=settings)
    window.solveFinished.connect(solved)
    window.routeShown.connect(lambda _: seen.setdefault(
        "first_route", at(status=window.status.text())))
    window.route.solver.compiled.connect(lambda v, state: seen.setdefault(
        "compiled", at(state=state)))
    window.show()
    deadline = time.monotonic() + timeout
    while "gpu" not in seen and time.monotonic() < deadline:
        app.processEvents()
        time.sleep(0.01)
    window.close()
    return {"airport": airport, "nodes": len(window.airport.nodes), **seen}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("airport", nargs="?", default="hub-atl")
    p.add_argument("--variant", default="gpu-fast")
    p.add_argument("--n", type=int, default=500)
    p.add_argument("--timeout", type=float, default=240)
    p.add_argument("--app-only", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--launched", type=float, help=argparse.SUPPRESS)
    a = p.parse_args(argv)
    if a.app_only:
        print(json.dumps(app_first_route(a.airport, a.variant, a.timeout, a.launched)))
        return 0
    report = {"first_call": first_call(a.variant, a.n)}
    # The app in the user's own caches, as a user starts it: empty on a fresh machine.
    from engine.apsp.gpu_fast import kernel_cache_dir
    report["kernel_cache_files_before_app"] = len(os.listdir(kernel_cache_dir()))
    done = subprocess.run([sys.executable, "-m", "benchmarks.first_use", a.airport, "--variant",
                           a.variant, "--timeout", str(a.timeout), "--app-only",
                           "--launched", repr(time.monotonic())], capture_output=True, text=True)
    lines = done.stdout.strip().splitlines()
    report["app"] = json.loads(lines[-1]) if done.returncode == 0 and lines else done.stderr[-2000:]
    print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
