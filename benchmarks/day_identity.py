"""Byte-identity of simulated days: record the KPI files of a fixed set of days, or compare this
checkout's days with a recorded set (``cmp`` of each JSON and CSV).

    python benchmarks/day_identity.py record /tmp/ident-main      # in the reference checkout
    python benchmarks/day_identity.py compare /tmp/ident-main     # in the changed one

The days: hub-atl seeds 0 and 1 with ``fleet`` and ``shortest-path``; regional seeds 0-2 with
every policy; the bundled what-if scenario (``airports/regional-road-closure.toml``); and a
regional day with an edit of each kind that a single depot allows, applied mid-day. Each is run
as ``python main.py simulate ... --no-timings`` runs it (600-s chunks, ``kpi.deterministic``), in
one process. ``--only SUBSTRING`` runs the days whose name contains it. About two minutes.
"""

import argparse
import filecmp
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

from engine.airport.layout_io import bundled_airports, load_airport
from engine.sim import SimConfig, Simulation, kpi
from engine.sim.edit_io import EditPlan, TimedEdit, clock
from engine.sim.edits import AddTugs, CloseGate, CloseRoad, RetireTugs, SetCapacity, SetPolicy, \
    SetSpeed
from engine.sim.scenario_file import load_scenario

ROOT = Path(__file__).resolve().parent.parent
POLICIES = ("fleet", "shortest-path", "earliest-deadline", "baseline")


def days() -> dict:
    """name -> (airport name or scenario path, SimConfig overrides, timed edits)."""
    out = {}
    for seed in (0, 1):
        for p in ("fleet", "shortest-path"):
            out[f"hub-atl-{p}-seed{seed}"] = ("hub-atl", {"seed": seed, "policy": p}, [])
    for seed in (0, 1, 2):
        for p in POLICIES:
            out[f"regional-{p}-seed{seed}"] = ("regional", {"seed": seed, "policy": p}, [])
    out["regional-road-closure"] = (ROOT / "airports/regional-road-closure.toml", {}, [])
    h = 3600.0
    out["regional-edits-seed2"] = ("regional", {"seed": 2, "hours": 8}, [
        TimedEdit(1 * h, CloseGate("G14")),
        TimedEdit(1.5 * h, CloseRoad("SORT", "Wh14")),
        TimedEdit(2 * h, RetireTugs("DEPOT", 3)),
        TimedEdit(3 * h, SetCapacity("DEPOT", 3)),
        TimedEdit(4 * h, SetSpeed("DEPOT", 5.0)),
        TimedEdit(5 * h, SetPolicy("baseline")),
        TimedEdit(6 * h, AddTugs("DEPOT", 4)),
    ])
    return out


def run_day(where, overrides: dict, edits: list, out: Path) -> None:
    """One day as ``simulate --no-timings --out out`` runs it."""
    if isinstance(where, Path):
        scenario = load_scenario(where)
        airport, base, plan = scenario.airport, scenario.config, scenario.plan()
    else:
        airport, base, plan = load_airport(bundled_airports()[where]), SimConfig(), EditPlan([])
    plan.pending = sorted(plan.pending + edits, key=lambda e: e.t)
    sim = Simulation(airport, replace(base, **overrides))
    while not sim.finished:
        plan.run_until(sim, sim.t + 600.0)
    summary = sim.kpis()
    if plan.applied:
        summary["edits"] = [{"at": clock(a.t), "edit": a.text} for a in plan.applied]
    kpi.write(kpi.deterministic(summary), sim.series, out)


def record(folder: Path, only: str) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for name, (where, overrides, edits) in days().items():
        if only in name:
            start = time.process_time()
            run_day(where, overrides, edits, folder / f"{name}.json")
            print(f"{name}: {time.process_time() - start:.1f} s CPU", flush=True)


def compare(reference: Path, only: str) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        record(Path(tmp), only)
        differ = [f.name for f in sorted(Path(tmp).iterdir())
                  if not filecmp.cmp(f, reference / f.name, shallow=False)]
    print("identical" if not differ else "DIFFERENT: " + ", ".join(differ))
    return 1 if differ else 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("action", choices=("record", "compare"))
    ap.add_argument("folder", type=Path)
    ap.add_argument("--only", default="")
    a = ap.parse_args()
    if a.action == "record":
        record(a.folder, a.only)
        return 0
    return compare(a.folder, a.only)


if __name__ == "__main__":
    sys.exit(main())
