"""The day's compiled event loop (``engine.sim.loop``, docs/event-loop.md) compiled for this
machine before a day needs it.

On a cold Numba cache the loop and its callees take 65–80 s of CPU to compile; later processes
load them from the disk cache in under a second. One short day compiles every policy's code (the
policies are branches of the one compiled loop: after a ``fleet`` day, a day of each other policy
added no file to the cache), so that is what each way of warming up plays:

- ``compile_here()``: in this process, where ``cold()`` (the tests' session start, a Dask
  sweep's client before its spawned workers start);
- ``compile_in_child()``: in a child process, waited for, where a process pool's parent forks
  its workers next (compiled there, the day's cpu-blocked solves would start GNU OpenMP's
  threads, and OpenMP ends every forked child that uses them: "fork() called from a process
  already using GNU OpenMP");
- ``start()``: in a child process (``python -m engine.loop_warmup``, at a lower priority) at the
  app's start, while its window and route finder answer; a day the app starts meanwhile waits
  for it (``compiling``, ``wait``) instead of compiling a second time beside it.

A warm-up that fails leaves the day to compile in place, as it would have without one.
"""

from __future__ import annotations

import os
import sys
import threading
import time

from .variant_warmup import in_cache, run_child

AIRPORT = "regional"     # bundled: 24 tugs, bags from the first minutes
HOURS = 1.0
VARIANT = "cpu-blocked"  # the live day's route variant (its kernels compile too, ~4 s)
NICE = 5                 # as the variant warm-up child: the app's first routes need the cores first
_lock = threading.Lock()
_thread: threading.Thread | None = None   # waits for the child, once per process
failed: str | None = None                  # why the child failed, if it did


def cold() -> bool:
    """True where the compiled loop is not in Numba's disk cache for this source yet: the first
    day here would compile it. Reads the cache index only, as Numba does before loading, after
    dropping it where a source the loop compiles changed since (``sim.loop.stale_cache``)."""
    from .sim.loop.stale_cache import check_once
    from .sim.loop.step import advance
    check_once()
    return not in_cache([advance])


def short_day() -> None:
    """A short day of the bundled regional airport: compiles (or loads) the loop and its callees."""
    from .airport.layout_io import load_bundled_or_file
    from .sim import SimConfig, Simulation
    sim = Simulation(load_bundled_or_file(AIRPORT), SimConfig(hours=HOURS, seed=0, variant=VARIANT))
    sim.run_until(HOURS * 3600.0)


def compile_here() -> float | None:
    """Compile the loop in this process where it is cold (waiting first for a child that
    compiles it: the app's start): the seconds it took, else None."""
    wait()
    if not cold():
        return None
    start = time.perf_counter()
    short_day()
    return time.perf_counter() - start


def compile_in_child() -> None:
    """Compile the loop in a child process where it is cold, and wait for it: this process
    starts no OpenMP thread, so the processes it forks next may."""
    start()
    wait()


def child_command() -> list[str]:
    return [sys.executable, "-m", __name__]


def start() -> bool:
    """Compile the loop in a child process where it is cold and none was started in this
    process yet; True where one starts now."""
    global _thread
    with _lock:
        if _thread is not None or not cold():
            return False
        thread = threading.Thread(target=_run_child, daemon=True, name="bagroute-warm-loop")
        thread.start()
        _thread = thread
    return True


def _run_child() -> None:
    global failed
    failed = run_child(child_command())


def compiling() -> bool:
    """True while the child started by ``start`` runs."""
    thread = _thread
    return thread is not None and thread.is_alive()


def wait(timeout: float | None = None) -> bool:
    """Wait up to ``timeout`` seconds for the child to end; True when none runs any more."""
    thread = _thread
    if thread is not None:
        thread.join(timeout)
    return not compiling()


if __name__ == "__main__":
    os.nice(NICE)
    short_day()
