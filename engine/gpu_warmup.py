"""GPU kernels compiled in the background, in a process of their own, while the CPU answers.

A GPU variant's first use on a machine compiles its kernels (gpu-fast at the hub's size: about
30 s cold, H100). ``start`` begins that compile in a child process (``python -m
engine.gpu_warmup``), which solves a random graph of the size the caller will solve and so fills
the disk cache with exactly the kernels that size takes; no compile lock or interpreter lock is
shared with the caller. Until the child has finished, ``registry.run_or_fall_back`` runs the
CPU fallback in the variant's place with a note saying why; then the variant loads its kernels
from the cache and takes over. A warm-up that fails leaves the variant to fail (and fall back)
on its own, as it would have without one.
"""

from __future__ import annotations

import subprocess
import sys
import threading

FAMILIES = ("apsp", "sssp")
_STATE: dict[str, str] = {}  # variant name -> "compiling" | "ready" | "failed: why"
_LOCK = threading.Lock()


def start(family: str, variant: str, n: int) -> bool:
    """Compile ``variant`` of ``family`` for n-vertex graphs in the background; False (nothing
    started) where it is compiling, ready or failed already in this process."""
    if family not in FAMILIES:
        raise ValueError(f"family must be one of {', '.join(FAMILIES)}, got {family!r}")
    with _LOCK:
        if variant in _STATE:
            return False
        _STATE[variant] = "compiling"
    command = [sys.executable, "-m", __name__, family, variant, str(int(n))]
    threading.Thread(target=_wait_for, args=(variant, command), daemon=True,
                     name=f"bagroute-warm-{variant}").start()
    return True


def _wait_for(variant: str, command: list) -> None:
    try:
        done = subprocess.run(command, capture_output=True, text=True)
        failed = done.returncode != 0
        why = (done.stderr.strip().splitlines() or [f"exit status {done.returncode}"])[-1]
    except OSError as exc:
        failed, why = True, str(exc)
    with _LOCK:
        _STATE[variant] = f"failed: {why[:200]}" if failed else "ready"


def compiling(variant: str) -> bool:
    """True while a background compile of ``variant`` runs."""
    return _STATE.get(variant) == "compiling"


def state(variant: str) -> str | None:
    """"compiling", "ready", "failed: why", or None where no warm-up was started."""
    return _STATE.get(variant)


def wait(variant: str, timeout: float | None = None) -> str | None:
    """Block until ``variant``'s warm-up ends (or ``timeout`` seconds); its state then."""
    for thread in threading.enumerate():
        if thread.name == f"bagroute-warm-{variant}":
            thread.join(timeout)
    return state(variant)


def _solve_once(family: str, variant: str, n: int) -> None:
    """One solve of a random n-vertex graph with ``variant`` itself (no CPU fallback)."""
    import numpy as np

    from .apsp.random_graph import paper_random_graph
    w = paper_random_graph(max(n, 1), 15, seed=0)
    if family == "apsp":
        from .apsp import solve
        result = solve(w, variant)
    else:
        from .sssp import solve
        result = solve(w, np.arange(min(n, 4)), variant)
    if result.note:
        raise RuntimeError(result.note)


if __name__ == "__main__":
    _solve_once(sys.argv[1], sys.argv[2], int(sys.argv[3]))
