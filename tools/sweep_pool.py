"""A sweep's days on a multiprocessing pool, for a machine without Dask (the GPU host's CPUs).

    python tools/sweep_pool.py airports/sweep-hub-fleet.toml --workers 16 --out DIR [--limit S]

Writes DIR/runs.csv (the same rows as ``main.py sweep``: ``engine.sweep.day.run_day``) and
DIR/day_wall_s.csv; days not finished within ``--limit`` seconds are left out. Summarise and plot
it where pandas and matplotlib are: ``python tools/sweep_pool.py --summarise DIR``.
"""

from __future__ import annotations

import argparse
import csv
import multiprocessing as mp
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

_SWEEP = None


def _day(run):
    from engine.sweep.day import run_day
    return run_day(_SWEEP.airports[run.scenario.layout], run, _SWEEP.variant)


def _init(path):
    global _SWEEP
    from engine.sweep.scenario import load_sweep
    _SWEEP = load_sweep(path)


def run(path: str, workers: int, out: Path, limit: float) -> int:
    from engine.sweep.scenario import load_sweep
    runs = load_sweep(path).runs()
    os.environ["NUMBA_NUM_THREADS"] = "1"          # one day per core
    rows, walls, start = [], [], time.perf_counter()
    with mp.get_context("fork").Pool(workers, _init, (path,)) as pool:
        pending = pool.imap_unordered(_day, runs)
        try:
            while len(rows) < len(runs):
                left = limit - (time.perf_counter() - start)
                row, wall = pending.next(timeout=max(left, 0.001))
                rows.append(row)
                walls.append((row["run"], row["policy"], row["fleet"], round(wall, 3)))
        except mp.TimeoutError:
            print(f"stopped after {limit:g} s", file=sys.stderr)
        pool.terminate()
    out.mkdir(parents=True, exist_ok=True)
    rows.sort(key=lambda r: r["run"])
    with (out / "runs.csv").open("w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    with (out / "day_wall_s.csv").open("w", newline="") as fh:
        csv.writer(fh).writerows([("run", "policy", "fleet", "wall_s"), *sorted(walls)])
    print(f"{len(rows)} of {len(runs)} days in {time.perf_counter() - start:.0f} s on "
          f"{workers} processes; {out}/runs.csv")
    return 0


def summarise(folder: Path) -> int:
    """summary.csv and mbr-vs-fleet.png beside runs.csv, as ``main.py sweep`` writes them."""
    import pandas as pd

    from engine.sweep import results
    from engine.sweep.plot import plot_mbr
    summary = results.summarise(pd.read_csv(folder / "runs.csv"))
    summary.to_csv(folder / results.SUMMARY, index=False)
    plot_mbr(summary, folder / "mbr-vs-fleet.png", title=folder.name)
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("scenarios", nargs="?")
    ap.add_argument("--workers", type=int, default=os.cpu_count())
    ap.add_argument("--out", type=Path)
    ap.add_argument("--limit", type=float, default=float("inf"), help="seconds (default: none)")
    ap.add_argument("--summarise", type=Path, metavar="DIR")
    args = ap.parse_args()
    if args.summarise:
        return summarise(args.summarise)
    return run(args.scenarios, args.workers, args.out, args.limit)


if __name__ == "__main__":
    sys.exit(main())
