"""The tiny sweep the sweep tests share: 2 fleets × 2 policies × 2 seeds of the paper's 5-node
airport, one hour each (8 days in about a second)."""

import os
import signal

import numba

from engine.sweep.day import run_day

TINY = """
[sweep]
seeds = 2
variant = "cpu-linear"

[factors]
layout = "paper-5"
fleet = [1, 2]
policy = ["shortest-path", "baseline"]
hours = 1
"""


def tiny(tmp_path, text=TINY):
    """The sweep file ``text`` written as tmp_path/tiny.toml; its path."""
    path = tmp_path / "tiny.toml"
    path.write_text(text)
    return path


# Day functions of the pool's tests (importable by name, so spawned workers find them too): the
# real day, except for run 3.

@numba.njit(parallel=True)
def _parallel_sum(n):
    total = 0
    for i in numba.prange(n):
        total += i
    return total


def parallel_sum_day(airport, run, variant, edits=()):
    """The real day after a parallel (OpenMP) Numba loop in this worker, as a CPU solve runs."""
    if _parallel_sum(1000) != 499500:
        raise ArithmeticError("the parallel sum is wrong")
    return run_day(airport, run, variant, edits)


def raises_on_run_3(airport, run, variant, edits=()):
    if run.index == 3:
        raise ValueError("no such road")
    return run_day(airport, run, variant, edits)


def exits_on_run_3(airport, run, variant, edits=()):
    """Run 3's worker process ends at once, without a word (as a crash does)."""
    if run.index == 3:
        os._exit(3)
    return run_day(airport, run, variant, edits)


def killed_on_run_3(airport, run, variant, edits=()):
    """Run 3's worker process is killed (as the out-of-memory killer does)."""
    if run.index == 3:
        os.kill(os.getpid(), signal.SIGKILL)
    return run_day(airport, run, variant, edits)
