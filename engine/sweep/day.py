"""The sweep's unit of work: one (scenario, seed) day, run to its end, as one row of KPIs.

Pure and deterministic: the row depends only on the airport, the scenario and the seed (never on
the worker, the Floyd–Warshall variant that ran or the wall clock), so a rerun gives the same
table. The wall time of the day travels beside the row, not in it. The tables a day solves once
(``engine.sim.kept_tables``) are kept for the worker's next day on the same roads: the row is the
same either way.
"""

from __future__ import annotations

import time

from ..airport.layout import Airport
from ..sim import kpi
from ..sim.kept_tables import keeping
from ..sim.edit_io import EditPlan, TimedEdit
from ..sim.simulation import SimConfig, Simulation
from .scenario import Run

FACTOR_COLUMNS = ("run", "scenario", "layout", "fleet", "policy", "load", "hours", "edits", "seed")
# summary keys the factor columns already hold, or that are not one number per day
_NOT_KPIS = {"policy", "seed", "hours", "tugs", "bags_by_state", "recompute_log", "edits"}
# bag states the summary already counts under a KPI's name (one column each, not two)
_COUNTED = {"delivered": "delivered_on_time", "misconnected": "misconnected"}


def run_day(airport: Airport, run: Run, variant: str = "auto",
            edits: tuple[TimedEdit, ...] = ()) -> tuple[dict, float]:
    """Simulate ``run``'s day on ``airport`` with its timed ``edits`` (those after the day's end
    do not apply); return (its row, wall seconds)."""
    started = time.perf_counter()
    with keeping():
        sim = day_start(airport, run, variant)
        fleet = len(sim.tugs)     # at the start: an edit may add tugs
        EditPlan(list(edits)).run_until(sim, sim.end_time)
    return day_row(run, sim, fleet), time.perf_counter() - started


def day_start(airport: Airport, run: Run, variant: str) -> Simulation:
    """``run``'s day on ``airport``, set up and not yet run (inside ``keeping()`` as a sweep's)."""
    s = run.scenario
    return Simulation(airport, SimConfig(hours=s.hours, seed=run.seed, tugs=s.fleet,
                                         variant=variant, policy=s.policy, load=s.load))


def day_row(run: Run, sim: Simulation, fleet: int) -> dict:
    """The row of ``run``'s finished day ``sim``, which started with ``fleet`` tugs."""
    s = run.scenario
    summary = kpi.deterministic(sim.kpis())
    row = {"run": run.index, "scenario": s.index, "layout": s.layout, "fleet": fleet,
           "policy": s.policy, "load": s.load, "hours": s.hours, "edits": s.edits,
           "seed": run.seed}
    row.update({f"bags_{state}": n for state, n in summary["bags_by_state"].items()
                if _COUNTED.get(state) not in summary})
    row.update({k: v for k, v in summary.items() if k not in _NOT_KPIS})
    return row
