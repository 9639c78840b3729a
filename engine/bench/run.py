"""One benchmark run: what every problem's run shares — the hooks a caller hears, a failed
point, the sequencing of points. It knows no problem: each problem's module (``problems.py``)
drives a ``Run`` with its own points.

The CLI and the GUI's benchmark window both run these; a ``BenchHooks`` is how each shows
progress, saves, reports a failed point and cancels between points.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from .report import Report


@dataclass
class Failure:
    """A point that did not produce a time: a reference mismatch, a GPU error, …"""
    variant: str
    graph: str
    n: int
    message: str


def failures_in(answers: dict) -> list[Failure]:
    """The failed points a report's answers record (``{variant: {graph: {"error": "n=N: …"}}}``,
    as the Floyd–Warshall run writes them), e.g. of a report read from a file."""
    out = []
    for variant, graphs in answers.items():
        for graph, a in (graphs.items() if isinstance(graphs, dict) else ()):
            if isinstance(a, dict) and "error" in a:
                text, n = str(a["error"]), 0
                if text.startswith("n=") and ":" in text:
                    head, text = text.split(":", 1)
                    n = int(head[2:]) if head[2:].isdigit() else 0
                out.append(Failure(variant, graph, n, text.strip()))
    return out


class BenchHooks:
    """What a problem's ``benchmark`` tells its caller, on the thread that runs it. Every hook here does
    nothing (and a failed point stops the run): override what you need."""

    def started(self, report: Report) -> None:
        """The report exists, machine info filled in; no point measured yet."""

    def measuring(self, variant: str, graph: str, n: int) -> None:
        """A point is about to be measured."""

    def measured(self, report: Report, point) -> None:
        """``point`` is now in ``report``, its answers updated (a checkpoint)."""

    def failed(self, failure: Failure, error: Exception) -> bool:
        """A point raised ``error``. True: keep ``failure`` in the answers and go on (that ladder
        stops there); False: the run stops with ``error``."""
        return False

    def advanced(self, done: int, total: int) -> None:
        """``done`` points measured or failed, of at most ``total`` (which drops as a ladder
        stops early or bisects in fewer steps)."""

    def should_stop(self) -> bool:
        """Asked before each point: True ends the run there with what it measured."""
        return False


class Stopped(Exception):
    """``should_stop`` said so: the run ends before its next point."""


class Run:
    """The report being filled, the failures so far and the progress count of one run of any
    problem; ``answers(points, failures, budget_s)`` is the problem's summary, redone per point."""

    def __init__(self, report: Report, hooks: BenchHooks, total: int, answers: Callable):
        self.report, self.hooks, self.answers = report, hooks, answers
        self.failures: list[Failure] = []
        self.done, self.total = 0, total

    def point(self, variant: str, graph: str, n: int, measure_point: Callable[[], object]):
        """Measure one point (``measure_point()`` returns it); None where it failed and the
        hooks chose to go on. Raises ``Stopped`` when the hooks say stop."""
        if self.hooks.should_stop():
            raise Stopped
        self.hooks.measuring(variant, graph, n)
        try:
            p = measure_point()
        except Exception as exc:
            failure = Failure(variant, graph, n, f"{exc.__class__.__name__}: {exc}")
            if not self.hooks.failed(failure, exc):
                raise
            self.failures.append(failure)
            p = None
        else:
            self.report.points.append(p)
        self.report.answers = self.answers(self.report.points, self.failures, self.report.budget_s)
        if p is not None:
            self.hooks.measured(self.report, p)
        self.done += 1
        self.hooks.advanced(self.done, self.total)
        return p

    def skip(self, count: int) -> None:
        """``count`` planned points will not be measured: the total drops."""
        if count > 0:
            self.total -= count
            self.hooks.advanced(self.done, self.total)
