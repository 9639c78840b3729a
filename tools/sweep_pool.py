"""A sweep's days on a process pool, for a machine without Dask (the GPU host's CPUs).

    python tools/sweep_pool.py airports/sweep-hub-fleet.toml --workers 16 --out DIR [--limit S]
        [--start-method spawn]

Writes what ``main.py sweep`` writes (``engine.sweep.save``): DIR/runs.csv and runs.parquet (the
same rows: ``engine.sweep.day.run_day``), summary.csv, mbr-vs-fleet.png and sweep.json (how it
ran, each day's wall seconds). Days not finished within ``--limit`` seconds are left out; a day
whose worker process died is a failed day, named on stderr, and the others go on.
``--summarise DIR`` remakes summary.csv and the plot from an existing DIR/runs.csv.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def run(path: str, workers: int, out: Path, limit: float, start_method: str | None = None) -> int:
    from engine.sweep.pool import run_pool, seed_major
    from engine.sweep.save import save_outcome
    from engine.sweep.scenario import load_sweep
    sweep = load_sweep(path)
    runs = sweep.runs()
    start = time.monotonic()
    outcome = run_pool(sweep, seed_major(runs), workers,
                       stop=lambda: time.monotonic() - start > limit, start_method=start_method)
    wall = time.monotonic() - start
    if outcome.interrupted:
        print(f"stopped after {limit:g} s", file=sys.stderr)
    save_outcome(out, sweep, runs, outcome, workers, None, wall, runner="pool")
    for f in outcome.failures:
        print(f"day {f.run.index} failed: {f.error}", file=sys.stderr)
    print(f"{len(outcome.rows)} of {len(runs)} days in {wall:.0f} s on {workers} processes; "
          f"{out}/runs.csv")
    return 1 if outcome.failures else 0


def summarise(folder: Path) -> int:
    """summary.csv and mbr-vs-fleet.png beside runs.csv, as ``main.py sweep`` writes them."""
    import pandas as pd

    from engine.sweep import results
    from engine.sweep.plot import plot_mbr
    from engine.sweep.save import PLOT
    summary = results.summarise(pd.read_csv(folder / "runs.csv"))
    summary.to_csv(folder / results.SUMMARY, index=False)
    plot_mbr(summary, folder / PLOT, title=folder.name)
    return 0


def main() -> int:
    from engine.sweep.common import default_workers
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("scenarios", nargs="?")
    ap.add_argument("--workers", type=int, default=default_workers())
    ap.add_argument("--out", type=Path)
    ap.add_argument("--limit", type=float, default=float("inf"), help="seconds (default: none)")
    ap.add_argument("--summarise", type=Path, metavar="DIR")
    ap.add_argument("--start-method", choices=("fork", "spawn", "forkserver"), default=None,
                    help="how worker processes start (default: the platform's)")
    args = ap.parse_args()
    if args.summarise:
        return summarise(args.summarise)
    if not args.scenarios or not args.out:
        ap.error("give a scenario file and --out DIR (or --summarise DIR)")
    return run(args.scenarios, args.workers, args.out, args.limit, args.start_method)


if __name__ == "__main__":
    sys.exit(main())
