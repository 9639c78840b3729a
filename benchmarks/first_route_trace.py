"""Where the app's first route spends its time: the window's parts, the route solver's steps and
every Numba compile of the project's code, by thread, in seconds from the process's start. Run it
in a fresh process with empty caches, as a user's first start on a machine:

    C=$(mktemp -d); XDG_CACHE_HOME=$C XDG_CONFIG_HOME=$C NUMBA_CACHE_DIR=$C/numba \\
        python -m benchmarks.first_route_trace hub-atl --variant gpu-fast [--mimic-gpu]

``--mimic-gpu`` takes the GPU machine's path on a machine without one: the variant counts as
available and its warm-up as compiling for good (no child, no device buffer), so the CPU's
answer meanwhile is what is timed. Prints one line per event, then ``first_use``'s JSON.
"""

import time

START = time.monotonic()

import argparse  # noqa: E402
import inspect  # noqa: E402
import json  # noqa: E402
import sys  # noqa: E402
import threading  # noqa: E402

EVENTS = []   # (began or None, ended, thread, what), seconds from START


def note(what: str, began: float | None = None) -> None:
    EVENTS.append((None if began is None else round(began - START, 3),
                   round(time.monotonic() - START, 3), threading.current_thread().name[:16], what))


def timed(owner, name: str) -> None:
    """Record each call of ``owner.name`` as an event."""
    function = getattr(owner, name)

    def call(*args, **kwargs):
        began = time.monotonic()
        try:
            return function(*args, **kwargs)
        finally:
            note(f"{getattr(owner, '__name__', owner)}.{name}", began)
    setattr(owner, name, call)


def record_compiles() -> None:
    from numba.core import event

    class Compiles(event.Listener):
        began: dict = {}

        def on_start(self, e):
            self.began[threading.get_ident(), id(e.data["dispatcher"])] = time.monotonic()

        def on_end(self, e):
            f = e.data["dispatcher"].py_func
            if f.__module__.startswith(("engine.", "gui.")):
                note(f"compile {f.__module__}.{f.__name__}",
                     self.began.pop((threading.get_ident(), id(e.data["dispatcher"])), None))
    event.register("numba:compile", Compiles())


def mimic_gpu(variant: str) -> None:
    from engine import registry, variant_warmup
    from engine.apsp import registry as apsp_registry
    from gui.route import solver_worker
    reason = registry.Variant.reason
    registry.Variant.reason = property(lambda v: None if v.name == variant else reason.fget(v))
    apsp_registry.Variant.input_array = lambda v, n: None

    def start(family, name, sizes, on_done=None):   # compiling, for good
        variant_warmup._SIZES.setdefault(name, set()).update(sizes)
        variant_warmup._RUNNING[name] = 1
        return True
    variant_warmup.start = start
    solver_worker.simulated = lambda: False


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("airport", nargs="?", default="hub-atl")
    p.add_argument("--variant", default="gpu-fast")
    p.add_argument("--timeout", type=float, default=30)
    p.add_argument("--mimic-gpu", action="store_true")
    a = p.parse_args(argv)
    record_compiles()
    note("numba imported")
    import PySide6.QtWidgets  # noqa: F401
    note("PySide6 imported")
    import gui.main_window as window
    note("gui.main_window imported")
    from engine import variant_warmup
    from engine.apsp import solve as _solve  # noqa: F401  (the module, below)
    from gui.day.live_day import LiveDay
    from gui.route.finder import RouteFinder
    solve = sys.modules["engine.apsp.solve"]
    for owner, name in ((window, "device_text"), (window.MainWindow, "open_airport"),
                        (RouteFinder, "request_solve"), (RouteFinder, "_on_solved"),
                        (LiveDay, "restart"), (variant_warmup, "start"), (solve, "to_int32_costs"),
                        (solve, "_run")):
        timed(owner, name)
    if a.mimic_gpu:
        mimic_gpu(a.variant)
    from benchmarks.first_use import app_first_route
    # (run from another checkout's PYTHONPATH, its first_use may not take the launch time)
    launch = {"launched": START} if "launched" in inspect.signature(app_first_route).parameters \
        else {}
    report = app_first_route(a.airport, a.variant, a.timeout, **launch)
    for row in sorted(EVENTS, key=lambda r: r[1]):
        print(*("" if x is None else x for x in row), sep="\t")
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
