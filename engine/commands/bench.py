"""`python main.py bench`: time Floyd–Warshall variants and peers, write a table, JSON and CSV."""

import shlex
import sys
import time
from pathlib import Path

from ..apsp import variants
from ..bench.apsp import DEFAULT_LADDER, PEERS, format_table, write_csv
from ..bench.run import BenchHooks, airport_costs, run_benchmark


def add_arguments(p):
    p.add_argument("--variants", nargs="+", metavar="NAME",
                   help="variants and peers to time (default: every available variant, then "
                        "scipy and networkx)")
    p.add_argument("--sizes", nargs="+", type=int, metavar="N",
                   help=f"vertex counts (default: {' '.join(map(str, DEFAULT_LADDER))}, each "
                        "variant stopping at the first size over the budget)")
    p.add_argument("--density", nargs="+", type=int, default=[15, 85], metavar="PCT",
                   help="edge densities of the paper's random graphs (default: 15 85)")
    p.add_argument("--budget", type=float, default=2.0, metavar="SECONDS",
                   help="time budget per solve: the ladder stops past it and the largest n "
                        "within it is reported (default: 2, the paper's question)")
    airports = p.add_mutually_exclusive_group()
    airports.add_argument("--airports", nargs="+", metavar="NAME",
                          help="bundled airports to time on their bag-aware cost (default: all)")
    airports.add_argument("--no-airports", action="store_true", help="time no airports")
    p.add_argument("--bisect", type=int, default=4, metavar="STEPS",
                   help="bisection steps refining the largest n within the budget (default: 4)")
    p.add_argument("--out", default="bench-results", metavar="DIR",
                   help="folder for bench.json and bench.csv (default: bench-results)")


class _Progress(BenchHooks):
    """The progress line on stderr, and the JSON and CSV saved after every point."""

    def __init__(self, save):
        self.save, self.started_at = save, time.perf_counter()

    def measuring(self, variant, graph, n):
        what = f"{variant:14s} {graph:11s} n={n}"
        print(f"\r[{time.perf_counter() - self.started_at:7.1f} s] {what:50s}", end="",
              file=sys.stderr, flush=True)

    def measured(self, report, point):
        self.save(report)


def run(args) -> int:
    names = args.variants or [v.name for v in variants() if v.available] + list(PEERS)
    known = {v.name for v in variants()} | set(PEERS)
    unknown = [n for n in names if n not in known]
    if unknown:
        print(f"bench: unknown variant(s) {', '.join(unknown)}; choose from {', '.join(sorted(known))}",
              file=sys.stderr)
        return 2
    try:
        airports = {} if args.no_airports else airport_costs(args.airports)
    except ValueError as exc:
        print(f"bench: {exc}", file=sys.stderr)
        return 2
    command = "python main.py bench " + " ".join(shlex.quote(a) for a in sys.argv[2:])
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)

    def save(report):
        (out / "bench.json").write_text(report.to_json(), encoding="utf-8")
        write_csv(report, out / "bench.csv")

    report = run_benchmark(names, args.sizes or DEFAULT_LADDER, args.density, airports,
                           args.budget, command, _Progress(save), args.bisect)
    save(report)
    print(file=sys.stderr)
    machine = report.machine
    print(f"{command}\nmachine: {machine.get('gpu', 'no GPU')}; {machine['processor']}, "
          f"{machine['cpu_threads']} CPU threads; numba {machine['numba']}")
    print(format_table(report))
    print(f"\nwrote {out / 'bench.json'} and {out / 'bench.csv'}")
    return 0
