"""What every problem's benchmark shares: the report and its files, the machine it ran on, the
reference mismatch, and the repeat-until-stable timing loop (docs/developer-guide.md, "Benchmark protocol")."""

from __future__ import annotations

import csv
import json
import platform
import statistics
from dataclasses import MISSING, asdict, dataclass, field, fields
from pathlib import Path
from typing import Callable

import numpy as np

from ..input_error import InputError, read_json, shown


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


class ReportError(InputError):
    """A benchmark file that cannot be shown: one "file: item: problem" line each."""


def read_report_json(path):
    """The decoded report document in ``path``: a JSON object with a list of points, else
    ``ReportError``."""
    data = read_json(Path(path), ReportError)
    if not isinstance(data, dict) or not isinstance(data.get("points"), list):
        raise ReportError(path, ["top level: not a benchmark report: expected a JSON object "
                                 "with command, machine, budget_s and a points list, as written "
                                 "by `python main.py bench`"])
    return data


def read_report(path, point_type: type, data: dict | None = None) -> Report:
    """A saved report whose points are ``point_type`` (``data``: its document, if read already),
    every field checked against its type: ``ReportError`` names the file, item and problem."""
    data = read_report_json(path) if data is None else data
    p: list[str] = []
    if _check_fields("top level", data, Report, p) and not 0 < data["budget_s"] < float("inf"):
        p.append(f"top level: budget_s is {shown(data['budget_s'])}, not a positive number of seconds")
    points = []
    for i, raw in enumerate(data["points"], start=1):
        if not isinstance(raw, dict):
            p.append(f"point {i}: expected an object, got {shown(raw)}")
            continue
        label = f"point {i} ({shown(raw.get('variant'))}, n={shown(raw.get('n'))})"
        if _check_fields(label, raw, point_type, p):
            points.append(point_type(**raw))
    if p:
        raise ReportError(path, p)
    return Report(points=points, **{k: v for k, v in data.items() if k != "points"})


def _whole(v) -> bool:   # counts: vertices, edges, sources, repeats
    return isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 10**12


def _measure(v) -> bool:  # a time, a rate or a fraction: a number >= 0 (a rate may be infinite)
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return False
    return 0 <= v < 10**300 if isinstance(v, int) else v >= 0


# a field's annotation -> (check, what the value must be)
_TYPES = {"str": (lambda v: isinstance(v, str), "text"),
          "int": (_whole, "a whole number >= 0"),
          "float": (_measure, "a number >= 0"),
          "float | None": (lambda v: v is None or _measure(v), "a number >= 0 or null"),
          "dict": (lambda v: isinstance(v, dict), "an object"),
          "list": (lambda v: isinstance(v, list), "a list")}


def _check_fields(label: str, obj: dict, cls: type, p: list) -> bool:
    """Append to ``p`` each unknown, missing or ill-typed field of ``obj`` as dataclass ``cls``
    declares them (a field with a default may be absent); True if none."""
    before = len(p)
    known = {f.name: f for f in fields(cls)}
    for key in obj:
        if key not in known:
            p.append(f"{label}: unknown field {shown(key)}")
    for name, f in known.items():
        if name not in obj:
            if f.default is MISSING and f.default_factory is MISSING:
                p.append(f"{label}: missing {name!r}")
            continue
        annotation = f.type if isinstance(f.type, str) else getattr(f.type, "__name__", str(f.type))
        ok, what = _TYPES[annotation]
        if not ok(obj[name]):
            p.append(f"{label}: {name} is {shown(obj[name])}, not {what}")
    return len(p) == before


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


def stopped_and_failed_lines(report: Report) -> list[str]:
    """The table's closing lines: why ladders stopped and which points failed."""
    a, rows = report.answers, []
    if a.get("stopped"):
        rows += ["", f"Ladders stopped (budget {report.budget_s:g} s):"]
        rows += [f"  {what}: {why}" for what, why in a["stopped"].items()]
    if a.get("errors"):
        rows += ["", "Failed points:"] + [f"  {what}: {why}" for what, why in a["errors"].items()]
    return rows


def stopped_html(report: Report) -> str:
    """Where ladders stopped, a few of them, for a summary line (HTML)."""
    stopped = report.answers.get("stopped") or {}
    if not stopped:
        return ""
    return (f"<b>Ladders stopped</b> ({len(stopped)}) — "
            + "; ".join(f"{what}: {why}" for what, why in list(stopped.items())[:4])
            + (" …" if len(stopped) > 4 else ""))


def fmt_ms(ms: float) -> str:
    """Milliseconds for a table cell: three decimals below 100, one above."""
    return f"{ms:,.3f}" if ms < 100 else f"{ms:,.1f}"


def short_ms(ms: float) -> str:
    """Three significant figures, for a summary line: 0.0137, 3.65, 13.9, 1,827."""
    return f"{ms:,.0f}" if ms >= 100 else f"{ms:.3g}"


PEER_DEVICE = "CPU (scipy/networkx)"  # the device a CPU peer's points name


def own_devices(points: list) -> list[str]:
    """The devices the points ran on, the CPU peers' only when they are alone."""
    found = list(dict.fromkeys(p.device for p in points))
    return [d for d in found if d != PEER_DEVICE] or found


def machine_words(machine: dict) -> str:
    """A report's machine in a few words: its GPU (or none) and its processor."""
    if not machine:
        return "this machine"
    cpu = machine.get("processor", "?")
    threads = machine.get("cpu_threads")
    cpu = f"{cpu}, {threads} CPU threads" if threads else cpu
    return f"{machine['gpu']}; {cpu}" if machine.get("gpu") else f"no GPU; {cpu}"
