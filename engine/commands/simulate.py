"""``python main.py simulate AIRPORT``: a simulated day, headless, KPIs written as JSON and CSV.

    python main.py simulate regional --hours 6 --seed 1 --policy baseline --out kpis/regional.json
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from ..airport.layout_io import bundled_airports, load_bundled_or_file
from ..sim import kpi
from ..sim.dispatch import POLICIES
from ..sim.route_engine import ENGINES
from ..sim.bts import read_schedule
from ..sim.simulation import SimConfig, Simulation


def add_arguments(p) -> None:
    p.add_argument("airport", help="a bundled airport (" + ", ".join(bundled_airports())
                   + ") or the path of a layout file")
    p.add_argument("--hours", type=float, default=24.0, help="length of the day (default 24)")
    p.add_argument("--tugs", type=int, default=None,
                   help="tugs in all, shared over the depots (default: the airport's fleets)")
    p.add_argument("--seed", type=int, default=0, help="seed of the flight schedule and bags")
    p.add_argument("--variant", default="auto",
                   help="variant of the route engine's family: Floyd–Warshall for all-pairs, SSSP "
                        "for from-tugs (default auto: the fastest here)")
    p.add_argument("--route-engine", default="all-pairs", choices=list(ENGINES),
                   help="all-pairs: Floyd–Warshall on key nodes; from-tugs: shortest paths on "
                        "the full road graph from the tugs (the same day, other solve times)")
    p.add_argument("--policy", default="shortest-path", choices=sorted(POLICIES),
                   help="dispatcher: the paper's shortest-path one, or the nearest-job baseline")
    p.add_argument("--recompute", default="auto",
                   help="bag-aware all-pairs solve: 'change' (every change of the waiting bags), "
                        "N (at most every N simulated seconds) or 'auto' (change up to 100 "
                        "gates/sorts/depots, else 120)")
    p.add_argument("--load", type=float, default=1.0,
                   help="multiply the bags per flight of the generated day (default 1)")
    p.add_argument("--flights", default=None,
                   help="CSV schedule instead of a generated one: the project's (flight, gate, "
                        "arrival, departure) or a BTS On-Time download (docs/real-data.md)")
    p.add_argument("--airport", dest="code", default=None, metavar="CODE",
                   help="with a BTS --flights file: the airport whose flights to keep (default: "
                        "the one in most rows)")
    p.add_argument("--out", default=None,
                   help="KPI file (.json; a .csv beside it); default kpis-AIRPORT-POLICY-seedS.json")
    p.add_argument("--quiet", action="store_true", help="no progress bar")


def run(args) -> int:
    if not 0 < args.hours <= 24 * 7:
        print(f"simulate: --hours must be more than 0 and at most 168 (a week), got {args.hours:g}",
              file=sys.stderr)
        return 2
    airport = load_bundled_or_file(args.airport)   # a bad file: main.py prints its problems, exit status 2
    flights = None
    if args.flights:
        flights, report = read_schedule(args.flights, airport, args.code)
        print("\n".join(report.lines()))
    try:
        config = SimConfig(hours=args.hours, seed=args.seed, tugs=args.tugs, variant=args.variant,
                           route_engine=args.route_engine, policy=args.policy, recompute=args.recompute, flights=flights,
                           load=args.load)
        started = time.perf_counter()
        sim = Simulation(airport, config)
    except ValueError as exc:
        print(f"simulate: {exc}", file=sys.stderr)
        return 2
    chunk = 600.0
    while not sim.finished:
        sim.step(chunk)
        if not args.quiet:
            _progress(sim, time.perf_counter() - started)
    if not args.quiet:
        print(file=sys.stderr)
    summary = sim.kpis()
    summary["wall_s"] = round(time.perf_counter() - started, 3)
    stem = Path(args.airport).stem
    out = Path(args.out or f"kpis-{stem}-{sim.dispatcher.name}-seed{args.seed}.json")
    json_path, csv_path = kpi.write(summary, sim.series, out)
    s = summary["bags_by_state"]
    print(f"{airport.name}: {summary['policy']}, {summary['tugs']} tugs, "
          f"{summary['flights']} flights, {summary['bags_created']} bags "
          f"(delivered {s['delivered']}, misconnected {s['misconnected']}, waiting {s['waiting']}, "
          f"on tugs {s['on_tug']}); MBR {summary['mbr_per_1000']:.2f} per 1,000; "
          f"{summary['recomputes']} bag-aware solves ({', '.join(summary['variants_run'])}); "
          f"{summary['wall_s']:.1f} s")
    print(f"KPIs: {json_path} and {csv_path}")
    return 0


def _progress(sim, elapsed: float) -> None:
    frac = sim.t / sim.end_time if sim.end_time else 1.0
    bar = "#" * int(30 * frac)
    b = sim.bags
    sys.stderr.write(f"\r[{bar:<30}] {frac:4.0%} t={sim.t / 3600:5.2f} h  bags {b.created}  "
                     f"misconnected {b.count(3)}  {elapsed:5.1f} s")
    sys.stderr.flush()
