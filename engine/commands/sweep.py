"""``python main.py sweep SCENARIOS.toml``: every scenario × seed as independent days on Dask.

    python main.py sweep airports/sweep-regional.toml                  # a local cluster, all cores
    python main.py sweep airports/sweep-regional.toml --workers 2 --out results/
    python main.py sweep airports/sweep-regional.toml --scheduler tcp://10.0.0.5:8786

Writes the tidy table (runs.csv, runs.parquet), the summary per scenario (summary.csv), the plot
of MBR against fleet size (mbr-vs-fleet.png) and how it ran (sweep.json). Ctrl-C stops the sweep
and keeps the days already finished.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from ..sweep.scenario import SweepError, load_sweep
from ..words import counted
from .output import default_folder


def add_arguments(p) -> None:
    p.add_argument("scenarios", help="scenario file (TOML; see airports/sweep-regional.toml)")
    p.add_argument("--out", default=None, help="results folder (default: a new folder "
                                                "bagroute-sweep-NAME-… in the temporary folder, "
                                                "NAME the scenario file's)")
    p.add_argument("--workers", type=int, default=None,
                   help="worker processes of the local cluster (default: one per core)")
    p.add_argument("--scheduler", default=None,
                   help="address of an existing Dask scheduler (tcp://host:8786) instead of a "
                        "local cluster; its workers need bagroute installed")
    p.add_argument("--seeds", type=int, default=None, metavar="N",
                   help="seeds 0 to N-1 instead of the file's (more days per scenario)")
    p.add_argument("--timeout", type=float, default=10.0,
                   help="seconds to wait for --scheduler's cluster to answer (default 10)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")


def run(args) -> int:
    try:
        return _run(args)
    except KeyboardInterrupt:   # outside the days: importing, starting or closing the cluster
        print("\nsweep: interrupted", file=sys.stderr)
        return 130


def _run(args) -> int:
    try:
        sweep = load_sweep(args.scenarios)
    except SweepError as exc:
        print(exc, file=sys.stderr)
        return 2
    for option, value in (("--workers", args.workers), ("--seeds", args.seeds)):
        if value is not None and value < 1:
            print(f"sweep: {option} must be at least 1, got {value}", file=sys.stderr)
            return 2
    if args.seeds is not None:
        sweep.seeds = list(range(args.seeds))
    # imported here: Dask and pandas take seconds to import, checking the file takes none
    from ..sweep.runner import default_workers, open_client, run_sweep

    runs = sweep.runs()
    where = args.scheduler or f"a local cluster of {args.workers or default_workers()} worker(s)"
    print(f"{sweep.source}: {len(sweep.scenarios)} scenario(s) × {len(sweep.seeds)} seed(s) = "
          f"{len(runs)} day(s) on {where}", file=sys.stderr)
    bar = _Progress(len(runs), quiet=args.quiet)
    try:
        with open_client(args.scheduler, args.workers, args.timeout) as client:
            workers = len(client.scheduler_info()["workers"])
            bar.start()
            outcome = run_sweep(client, sweep, runs, on_result=bar.update)
            bar.finish(outcome.interrupted)
            # written before the cluster closes: a second Ctrl-C while it closes loses nothing
            out = Path(args.out) if args.out else default_folder(default_out(sweep.source))
            _write(out, sweep, runs, outcome, workers, args.scheduler, bar.elapsed())
    except (OSError, TimeoutError) as exc:
        print(f"sweep: cannot reach the Dask cluster {args.scheduler or ''}: {exc}",
              file=sys.stderr)
        return 2
    if outcome.interrupted:
        print("sweep: interrupted; the table holds the days that finished", file=sys.stderr)
        return 130
    return 1 if outcome.failures else 0


def default_out(scenario_file: Path) -> str:
    """The results folder's name: sweep-NAME, or NAME when it starts so already
    (sweep-regional.toml writes into bagroute-sweep-regional-…/)."""
    stem = scenario_file.stem
    return stem if stem.startswith("sweep-") else f"sweep-{stem}"


def _write(out: Path, sweep, runs, outcome, workers: int, scheduler: str | None,
           wall_s: float) -> None:
    """The table, summary, plot and manifest; a line per scenario and where they went."""
    from ..sweep import results
    from ..sweep.save import PLOT, save_outcome

    df, manifest = save_outcome(out, sweep, runs, outcome, workers, scheduler, wall_s)
    if len(df):
        _print_summary(results.summarise(df))
    for f in sorted(outcome.failures, key=lambda f: f.run.index):
        print(f"sweep: day {f.run.index} ({f.run.scenario.label()}, seed {f.run.seed}) failed: "
              f"{f.error}", file=sys.stderr)
    print(f"{len(df)} of {len(runs)} day(s) in {wall_s:.1f} s "
          f"({manifest['runs_per_minute']} per minute on {workers} worker(s)); "
          f"results in {out}/ ({results.TABLE}.csv, {results.TABLE}.parquet, {results.SUMMARY}"
          f"{', ' + PLOT if len(df) else ''})")


def _print_summary(summary) -> None:
    for _, r in summary.iterrows():
        lo, hi = r["mbr_per_1000_lo"], r["mbr_per_1000_hi"]
        ci = "" if lo != lo else f" (95% CI {lo:.2f}–{hi:.2f})"
        edits = "" if r["edits"] == "none" else f", edits {r['edits']}"
        print(f"  {r['layout']}, {counted(int(r['fleet']), 'tug')}, {r['policy']}, "
              f"load {r['load']:g}, "
              f"{r['hours']:g} h{edits}: MBR {r['mbr_per_1000_mean']:.2f}{ci} per 1,000 "
              f"({int(r['runs'])} day(s))")


class _Progress:
    """A one-line progress bar on stderr: days done, days per minute, time left."""

    def __init__(self, total: int, quiet: bool):
        self.total, self.quiet, self.done, self.failed = total, quiet, 0, 0
        self.started = time.perf_counter()
        self.ended: float | None = None

    def start(self) -> None:
        self.started = time.perf_counter()
        self._draw()

    def elapsed(self) -> float:
        return (self.ended or time.perf_counter()) - self.started

    def update(self, run, row, wall) -> None:
        self.done += 1
        self.failed += row is None
        self._draw()

    def finish(self, interrupted: bool) -> None:
        self.ended = time.perf_counter()
        if not self.quiet:
            sys.stderr.write(" (stopped)\n" if interrupted else "\n")

    def _draw(self) -> None:
        if self.quiet:
            return
        frac = self.done / self.total if self.total else 1.0
        t = self.elapsed()
        rate = 60 * self.done / t if t > 0 else 0.0
        left = f"{(self.total - self.done) * t / self.done:5.0f} s left" if self.done else ""
        failed = f"  {self.failed} failed" if self.failed else ""
        sys.stderr.write(f"\r[{'#' * int(30 * frac):<30}] {self.done}/{self.total} days  "
                         f"{rate:5.1f}/min  {t:5.1f} s  {left}{failed}")
        sys.stderr.flush()
