"""`python main.py bench`: time the variants of one problem (``--problem``, default Floyd–Warshall)
and their peers, write a table, JSON and CSV."""

import shlex
import sys
import time
from pathlib import Path

from ..bench.problems import DEFAULT, PROBLEMS, problem
from ..bench.report import write_csv
from ..bench.run import BenchHooks
from .output import default_folder


def add_arguments(p):
    p.add_argument("--problem", choices=list(PROBLEMS), default=DEFAULT,
                   help="what to benchmark (default: apsp): " +
                        "; ".join(f"{name}: {problem(name).TITLE}" for name in PROBLEMS))
    p.add_argument("--variants", nargs="+", metavar="NAME",
                   help="variants and peers to time (default: every available variant, then "
                        "the peers)")
    p.add_argument("--sizes", nargs="+", type=int, metavar="N",
                   help="sizes of the generated graphs (default: the problem's ladder: " +
                        "; ".join(f"{name}: {' '.join(map(str, problem(name).DEFAULT_SIZES))}"
                                  for name in PROBLEMS) + "), each variant stopping at the first "
                        "size over the budget")
    p.add_argument("--budget", type=float, default=2.0, metavar="SECONDS",
                   help="time budget per solve: the ladder stops past it and the largest n "
                        "within it is reported (default: 2, the paper's question)")
    airports = p.add_mutually_exclusive_group()
    airports.add_argument("--airports", nargs="+", metavar="NAME",
                          help="bundled airports to time (default: all)")
    airports.add_argument("--no-airports", action="store_true", help="time no airports")
    p.add_argument("--out", default=None, metavar="DIR",
                   help="folder for bench.json and bench.csv (default: a new folder in the "
                        "temporary folder, printed at the end)")
    for name in PROBLEMS:
        problem(name).add_arguments(p.add_argument_group(f"--problem {name}"))


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
    bench = problem(args.problem)
    names = args.variants or bench.variants(available_only=True)
    known = set(bench.variants())
    unknown = [n for n in names if n not in known]
    if unknown:
        print(f"bench: unknown variant(s) {', '.join(unknown)}; choose from {', '.join(sorted(known))}",
              file=sys.stderr)
        return 2
    command = "python main.py bench " + " ".join(shlex.quote(a) for a in sys.argv[2:])
    out = Path(args.out) if args.out else default_folder("bench")

    def save(report):
        out.mkdir(parents=True, exist_ok=True)
        (out / "bench.json").write_text(report.to_json(), encoding="utf-8")
        write_csv(report, out / "bench.csv", bench.POINT)

    airports = [] if args.no_airports else args.airports
    try:
        report = bench.benchmark(names, args.sizes or bench.DEFAULT_SIZES, args.budget, airports,
                                 command, _Progress(save), **bench.options(args))
    except ValueError as exc:  # an unknown airport, say, or a point that raised one
        print(f"\nbench: {exc}", file=sys.stderr)
        return 2
    save(report)
    print(file=sys.stderr)
    machine = report.machine
    print(f"{command}\nmachine: {machine.get('gpu', 'no GPU')}; {machine['processor']}, "
          f"{machine['cpu_threads']} CPU threads; numba {machine['numba']}")
    print(bench.format_table(report))
    print(f"\nwrote {out / 'bench.json'} and {out / 'bench.csv'}")
    return 0
