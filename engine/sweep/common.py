"""What both sweep runners share, free of Dask (the process pool runs where Dask is missing):
what came back (``Outcome``), a day that failed (``Failure``) and the default worker count."""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from .scenario import Run


@dataclass
class Failure:
    run: Run
    error: str


@dataclass
class Outcome:
    """What came back: finished rows by run index, their wall seconds, and the days that failed."""
    rows: dict[int, dict] = field(default_factory=dict)
    wall_s: dict[int, float] = field(default_factory=dict)
    failures: list[Failure] = field(default_factory=list)
    interrupted: bool = False      # stopped early (Ctrl-C or ``stop()``): some days never ran


def default_workers() -> int:
    """One worker per core this process may use."""
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
               else os.cpu_count() or 1)


def threads_per_worker(workers: int) -> int:
    """Numba threads for each of ``workers`` day processes: the cores shared out, at least one."""
    return max(1, default_workers() // workers)
