"""``python main.py simulate AIRPORT|SCENARIO.toml``: a simulated day, headless, KPIs written as
JSON and CSV. A scenario file (docs/scenarios.md) holds the layout, the day and its timed what-if
edits; options given on the command line override its values.

    python main.py simulate regional --hours 6 --seed 1 --policy baseline --out kpis/regional.json
    python main.py simulate airports/regional-road-closure.toml
"""

from __future__ import annotations

import gc
import sys
import time
from dataclasses import replace
from pathlib import Path

from .. import loop_warmup
from ..airport.layout_io import bundled_airports, load_bundled_or_file
from ..sim import kpi
from ..sim.dispatch import DEFAULT_POLICY, POLICIES
from ..sim.edit_io import EditPlan, clock
from ..sim.edits import EditError
from ..sim.route_engine import ENGINES
from ..sim.scenario_file import load_scenario
from ..sim.simulation import SimConfig, Simulation
from .output import default_folder
from ..words import counted

# the day's options; None (not given): the scenario file's value, else SimConfig's default
DAY_OPTIONS = ("hours", "seed", "tugs", "variant", "route_engine", "policy", "recompute", "load")


def add_arguments(p) -> None:
    p.add_argument("airport", help="a bundled airport (" + ", ".join(bundled_airports())
                   + "), the path of a layout file, or a scenario file (.toml: layout, day and "
                   "timed what-if edits, replayed exactly)")
    p.add_argument("--hours", type=float, default=None, help="length of the day (default 24)")
    p.add_argument("--tugs", type=int, default=None,
                   help="tugs in all (at least 1), shared over the depots (default: the "
                        "airport's fleets)")
    p.add_argument("--seed", type=int, default=None, help="seed of the flight schedule and bags "
                                                          "(default 0)")
    p.add_argument("--variant", default=None,
                   help="variant of the route engine's family: Floyd–Warshall for all-pairs, SSSP "
                        "for from-tugs (default auto: the fastest here)")
    p.add_argument("--route-engine", default=None, choices=list(ENGINES),
                   help="all-pairs: Floyd–Warshall on key nodes; from-tugs: shortest paths on "
                        "the full road graph from the tugs (the same day, other solve times)")
    p.add_argument("--policy", default=None, choices=list(POLICIES),
                   help="dispatcher: " + "; ".join(f"{name}: {cls.description}"
                                                   for name, cls in POLICIES.items())
                   + f" (default {DEFAULT_POLICY})")
    p.add_argument("--recompute", default=None,
                   help="bag-aware all-pairs solve: 'change' (every change of the waiting bags), "
                        "N (at most every N simulated seconds) or 'auto' (change up to 100 "
                        "gates/sorts/depots, else 120)")
    p.add_argument("--load", type=float, default=None,
                   help="multiply the bags per flight of the generated day (default 1)")
    p.add_argument("--flights", default=None,
                   help="CSV schedule instead of a generated one: the project's (flight, gate, "
                        "arrival, departure) or a BTS On-Time download (docs/real-data.md)")
    p.add_argument("--airport", dest="code", default=None, metavar="CODE",
                   help="with a BTS --flights file: the airport whose flights to keep (default: "
                        "the one in most rows)")
    p.add_argument("--out", default=None,
                   help="KPI file (.json; a .csv beside it); default kpis-AIRPORT-POLICY-seedS.json "
                        "in a new folder in the temporary folder (printed)")
    p.add_argument("--no-timings", action="store_true",
                   help="leave wall-clock figures (and which variant ran) out of the KPI files, "
                        "so every run of the same day writes the same bytes")
    p.add_argument("--quiet", action="store_true", help="no progress bar")


def run(args) -> int:
    if args.hours is not None and not 0 < args.hours <= 24 * 7:
        print(f"simulate: --hours must be more than 0 and at most 168 (a week), got {args.hours:g}",
              file=sys.stderr)
        return 2
    if args.tugs is not None and args.tugs < 1:
        print(f"simulate: --tugs must be at least 1, got {args.tugs} (leave it out for the "
              "airport's own fleets)", file=sys.stderr)
        return 2
    # a bad file: main.py prints its problems, exit status 2
    if Path(args.airport).suffix.lower() == ".toml":
        scenario = load_scenario(args.airport)
        airport, base, plan = scenario.airport, scenario.config, scenario.plan()
    else:
        airport, base, plan = load_bundled_or_file(args.airport), SimConfig(), EditPlan([])
    given = {k: getattr(args, k) for k in DAY_OPTIONS if getattr(args, k) is not None}
    if args.flights:
        from ..sim.bts import read_schedule   # pandas and networkx: only for a flights file
        flights, report = read_schedule(args.flights, airport, args.code)
        print("\n".join(report.lines()))
        given["flights"] = flights
    try:
        started = time.perf_counter()
        sim = Simulation(airport, replace(base, **given))
    except ValueError as exc:
        print(f"simulate: {exc}", file=sys.stderr)
        return 2
    gc.freeze()   # the built day lives to the end: collections need not scan it again and again
    if not args.quiet and loop_warmup.cold():
        print("simulate: compiling the day's loop for this machine (first use only, a minute or "
              "more; then cached)", file=sys.stderr)
    chunk = 600.0
    while not sim.finished:
        try:
            plan.run_until(sim, sim.t + chunk)
        except EditError as exc:
            print(f"\nsimulate: {args.airport}: {exc}", file=sys.stderr)
            return 2
        if not args.quiet:
            _progress(sim, time.perf_counter() - started)
    if not args.quiet:
        print(file=sys.stderr)
    summary = sim.kpis()
    if plan.applied:
        summary["edits"] = [{"at": clock(a.t), "edit": a.text} for a in plan.applied]
    summary["wall_s"] = round(time.perf_counter() - started, 3)
    stem = Path(args.airport).stem
    name = f"kpis-{stem}-{sim.dispatcher.name}-seed{sim.config.seed}.json"
    out = Path(args.out) if args.out else default_folder("simulate") / name
    json_path, csv_path = kpi.write(kpi.deterministic(summary) if args.no_timings else summary,
                                    sim.series, out)
    s = summary["bags_by_state"]
    print(f"{airport.name}: {summary['policy']}, {counted(summary['tugs'], 'tug')}, "
          f"{summary['flights']} flights, {summary['bags_created']} bags "
          f"(delivered {s['delivered']}, misconnected {s['misconnected']}, waiting {s['waiting']}, "
          f"on tugs {s['on_tug']}); MBR {summary['mbr_per_1000']:.2f} per 1,000, unavoidable "
          f"{summary['unavoidable']} ({summary['unavoidable_per_1000']:.2f} per 1,000); "
          f"{summary['recomputes']} bag-aware solves ({', '.join(summary['variants_run'])}); "
          + (f"{len(plan.applied)} edit(s) applied; " if plan.applied else "")
          + f"{summary['wall_s']:.1f} s")
    print(f"KPIs: {json_path} and {csv_path}")
    return 0


def _progress(sim, elapsed: float) -> None:
    frac = sim.t / sim.end_time if sim.end_time else 1.0
    bar = "#" * int(30 * frac)
    b = sim.bags
    sys.stderr.write(f"\r[{bar:<30}] {frac:4.0%} t={sim.t / 3600:5.2f} h  bags {b.created}  "
                     f"misconnected {b.count(3)}  {elapsed:5.1f} s")
    sys.stderr.flush()
