"""What every problem's benchmark shares: the report and its files, the machine it ran on, the
reference mismatch, and the repeat-until-stable timing loop (DESIGN.md's protocol)."""

from __future__ import annotations

import csv
import json
import platform
import statistics
from dataclasses import asdict, dataclass, field, fields
from typing import Callable

import numpy as np


class ReferenceMismatch(AssertionError):
    """A variant's timed result disagreed with the reference: its time is not reported."""


@dataclass
class Report:
    command: str
    machine: dict
    budget_s: float
    points: list = field(default_factory=list)   # dataclasses of the problem's point type
    answers: dict = field(default_factory=dict)
    problem: str = "apsp"                          # a name of engine.bench.problems.PROBLEMS

    def to_json(self) -> str:
        return json.dumps(asdict(self), indent=1)


def machine_info() -> dict:
    """Versions, CPU threads and, where a GPU variant can run, the GPU's name."""
    import numba
    import scipy
    import networkx
    from ..gpu_device import gpu_name, gpu_unavailable_reason
    info = {"platform": platform.platform(), "processor": platform.processor() or platform.machine(),
            "python": platform.python_version(), "numpy": np.__version__, "numba": numba.__version__,
            "scipy": scipy.__version__, "networkx": networkx.__version__,
            "cpu_threads": numba.get_num_threads()}
    try:
        import numba_cuda
        info["numba_cuda"] = numba_cuda.__version__
    except Exception:
        pass
    if gpu_unavailable_reason() is None:
        info["gpu"] = gpu_name()
    return info


def write_csv(report: Report, path, point_type: type) -> None:
    """One row per point, one column per field of ``point_type``."""
    names = [f.name for f in fields(point_type)]
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(names)
        for p in report.points:
            w.writerow([getattr(p, k) for k in names])


def read_report(path, point_type: type) -> Report:
    """A saved report whose points are ``point_type``."""
    data = json.loads(open(path, encoding="utf-8").read())
    points = [point_type(**p) for p in data.pop("points")]
    return Report(points=points, **data)


def repeat(run_once: Callable[[], tuple], first_s: float, budget_s: float,
           min_repeats: int = 3, max_repeats: int = 15) -> list[tuple]:
    """``run_once()`` results (each a tuple of seconds) after a warm-up that took ``first_s``:
    at least ``min_repeats`` (one where that would pass 4 budgets), more up to ``max_repeats``
    while they add up to under half a second."""
    results = []
    repeats = max(1, min_repeats if first_s * min_repeats < 4 * budget_s else 1)
    while len(results) < repeats or (len(results) < max_repeats and sum(r[0] for r in results) < 0.5):
        results.append(run_once())
    return results


def median_of(results: list[tuple], i: int) -> float:
    return statistics.median(r[i] for r in results)
