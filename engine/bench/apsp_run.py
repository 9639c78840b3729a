"""The Floyd–Warshall run: each variant up the size ladder until a solve is over the budget, the
largest n within it refined by bisection, then each airport's cost matrix."""

from __future__ import annotations

from typing import Callable, Iterable

import numpy as np

from ..apsp.random_graph import paper_random_graph
from .apsp import Point, machine_info, measure, paper_answers
from .report import Report
from .run import BenchHooks, Failure, Run, Stopped


def answers_for(points: list[Point], failures: list[Failure], budget_s: float) -> dict:
    """The paper's answers per variant and graph, plus ``error`` where a point failed."""
    out = paper_answers(points, budget_s)
    for f in failures:
        out.setdefault(f.variant, {}).setdefault(f.graph, {})["error"] = f"n={f.n}: {f.message}"
    return out


def planned_points(variants, sizes, densities, airports, bisect_steps: int) -> int:
    """The most points ``run_benchmark`` measures with these arguments."""
    ladder = len(set(sizes)) + bisect_steps
    return len(variants) * (len(densities) * ladder + len(airports))


class _FloydWarshallRun(Run):
    def __init__(self, report: Report, hooks: BenchHooks, measure_fn: Callable, total: int):
        super().__init__(report, hooks, total, answers_for)
        self.measure_fn = measure_fn

    def fw_point(self, variant: str, graph: str, n: int, cost_of: Callable[[], np.ndarray]):
        return self.point(variant, graph, n,
                          lambda: self.measure_fn(variant, cost_of(), graph, self.report.budget_s))

    def ladder(self, variant: str, density: int, sizes: list[int], bisect_steps: int) -> None:
        """``sizes`` in increasing order until one is over the budget, then bisect between the
        last that fit and it. A failed point ends the ladder."""
        graph = f"random-{density}%"
        planned = self.done + len(sizes) + bisect_steps

        def fits(n):  # None: the point failed
            p = self.fw_point(variant, graph, n, lambda: paper_random_graph(n, density, seed=n))
            return None if p is None else p.kernel_median_ms / 1e3 <= self.report.budget_s

        lo = hi = None  # the largest size that fit, the first that did not
        for n in sizes:
            fit = fits(n)
            if not fit:
                hi = n if fit is False else None
                break
            lo = n
        for _ in range(bisect_steps if lo and hi else 0):
            mid = (lo + hi) // 2
            if mid == lo:
                break
            fit = fits(mid)
            if fit is None:
                break
            lo, hi = (mid, hi) if fit else (lo, mid)
        self.skip(planned - self.done)  # sizes past the budget, bisection steps not needed


def run_benchmark(variants: list[str], sizes: Iterable[int], densities: Iterable[int],
                  airports: dict[str, np.ndarray], budget_s: float, command: str,
                  hooks: BenchHooks | None = None, bisect_steps: int = 4,
                  measure_fn: Callable = measure) -> Report:
    """Every variant up the size ladder on each density (bisecting the largest n within the
    budget), then on each airport's cost matrix; ``measure_fn`` times one point (default
    ``engine.bench.apsp.measure``). Returns the report, partial if ``hooks`` stopped the run."""
    hooks = hooks if hooks is not None else BenchHooks()
    sizes, densities = sorted(set(sizes)), list(densities)
    report = Report(command=command, machine=machine_info(), budget_s=budget_s)
    run = _FloydWarshallRun(report, hooks, measure_fn,
               planned_points(variants, sizes, densities, airports, bisect_steps))
    hooks.started(report)
    try:
        for density in densities:
            for variant in variants:
                run.ladder(variant, density, sizes, bisect_steps)
        for name, cost in airports.items():
            for variant in variants:
                run.fw_point(variant, name, len(cost), lambda: cost)
    except Stopped:
        pass
    return report


def airport_costs(names: list[str] | None) -> dict:
    """Bag-aware cost matrices of the named bundled airports (all when ``names`` is None)."""
    from ..airport.cost import bag_aware_cost_matrix
    from ..airport.layout_io import bundled_airports, load_airport
    files = bundled_airports()
    unknown = sorted(set(names or ()) - set(files))
    if unknown:
        raise ValueError(f"no bundled airport {', '.join(unknown)}; bundled: {', '.join(files)}")
    chosen = files if names is None else {n: files[n] for n in names}
    return {name: bag_aware_cost_matrix(load_airport(path)) for name, path in chosen.items()}
