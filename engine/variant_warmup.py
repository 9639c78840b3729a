"""A variant's kernels (GPU or CPU) compiled in the background on their first use, in a process
of their own, while the CPU answers with nothing to compile.

A GPU variant's first use on a machine compiles its kernels (gpu-fast at the hub's size: about
7 s cold on the H100, docs/gpu-first-use.md); so does a CPU variant's on a cold Numba cache
(``cold``; cpu-blocked about 3 s on a 2-core laptop), and ``auto``'s first use measures the
candidates (``engine.apsp.auto``), compiling them all. ``start`` begins that compile in a child process (``python -m
engine.variant_warmup_child``), which solves random graphs of the sizes the caller will solve and so fills
the disk cache with exactly the kernels those sizes take; no compile lock or interpreter lock is
shared with the caller. While any such child runs for a variant, ``registry.run_or_fall_back``
runs the CPU fallback in its place with a note saying why; then the variant loads its kernels
from the cache and takes over. A warm-up that fails leaves the variant to fail (and fall back)
on its own, as it would have without one.
"""

from __future__ import annotations

import importlib
import subprocess
import sys
import threading
from typing import Callable

from numba.core.caching import FunctionCache
from numba.core.registry import CPUDispatcher

FAMILIES = ("apsp", "sssp")
CHILD = "engine.variant_warmup_child"  # run by name: this module imports no family (registry imports it)
_SIZES: dict[str, set[int]] = {}   # variant -> sizes compiled for, or being compiled
_RUNNING: dict[str, int] = {}      # variant -> children still compiling
_FAILED: dict[str, str] = {}       # variant -> why its last failed warm-up failed
_LOCK = threading.Lock()


def start(family: str, variant: str, sizes, on_done: Callable[[str], None] | None = None) -> bool:
    """Compile ``variant`` of ``family`` for graphs of each of ``sizes`` vertices in the
    background; False (nothing started) where every size was asked for before in this process.
    ``on_done(state)`` is called from a background thread when this compile ends."""
    if family not in FAMILIES:
        raise ValueError(f"family must be one of {', '.join(FAMILIES)}, got {family!r}")
    with _LOCK:
        new = sorted({max(int(n), 1) for n in sizes} - _SIZES.setdefault(variant, set()))
        if not new:
            return False
        _SIZES[variant].update(new)
        _RUNNING[variant] = _RUNNING.get(variant, 0) + 1
    command = [sys.executable, "-m", CHILD, family, variant, *map(str, new)]
    threading.Thread(target=_wait_for, args=(variant, command, on_done), daemon=True,
                     name=f"bagroute-warm-{variant}").start()
    return True


def run_child(command: list) -> str | None:
    """Run a warm-up child to its end: None where it succeeded, else why (its last line of
    stderr, or its exit status; at most 200 characters)."""
    try:
        done = subprocess.run(command, capture_output=True, text=True)
    except OSError as exc:
        return str(exc)[:200]
    if done.returncode == 0:
        return None
    return (done.stderr.strip().splitlines() or [f"exit status {done.returncode}"])[-1][:200]


def _wait_for(variant: str, command: list, on_done) -> None:
    why = run_child(command)
    with _LOCK:
        _RUNNING[variant] -= 1
        if why is not None:
            _FAILED[variant] = why
    if on_done is not None:
        on_done(state(variant))


def cold(runner: str) -> bool:
    """True where no disk-cached Numba kernel of the module of ``runner`` ("package.module:function",
    a registry Variant's) is in the cache for this source yet: the variant's first use here, which
    compiles. (A kernel that only other sizes take may still compile later, as before.) Reads the
    kernels' cache index files only, as Numba does before it loads one."""
    kernels = cached_kernels(importlib.import_module(runner.partition(":")[0]))
    return bool(kernels) and not in_cache(kernels)


def cached_kernels(module) -> list[CPUDispatcher]:
    """The ``njit(cache=True)`` functions ``module`` holds (its own and those it imported)."""
    return [f for f in vars(module).values()
            if isinstance(f, CPUDispatcher) and isinstance(f._cache, FunctionCache)]


def in_cache(kernels) -> bool:
    """Whether any of ``kernels`` (``njit(cache=True)`` functions) has an entry in Numba's disk
    cache index for its current source; True where Numba's cache internals changed (nothing is
    then known to be cold: the caller compiles in place, as before)."""
    try:
        return any(k._cache._cache_file._load_index() for k in kernels)
    except Exception:
        return True


def compiling(variant: str) -> bool:
    """True while a background compile of ``variant`` runs."""
    return _RUNNING.get(variant, 0) > 0


def state(variant: str) -> str | None:
    """"compiling", "failed: why", "ready", or None where no warm-up was started."""
    if variant not in _SIZES:
        return None
    if compiling(variant):
        return "compiling"
    return f"failed: {_FAILED[variant]}" if variant in _FAILED else "ready"


def wait(variant: str, timeout: float | None = None) -> str | None:
    """Block until ``variant``'s warm-ups end (or ``timeout`` seconds); its state then."""
    for thread in threading.enumerate():
        if thread.name == f"bagroute-warm-{variant}":
            thread.join(timeout)
    return state(variant)
