"""Sweeps across cores: the same sweep on 1, 2 and all worker processes (days per minute, speed-up),
then the hub's 1,000-day study on all cores, everything inside one time budget (docs/sweeps.md).

    python benchmarks/sweep_scaling.py OUT                       # as on the GPU host's 16 cores
    python benchmarks/sweep_scaling.py OUT --workers 1,2 --scaling-seeds 1 --study-seeds 1 \\
        --study-fleets 300 --study-hours 1                        # a tiny run, to try it

Writes into OUT: scaling.json (step 1), hub-study/ (runs.csv: every day's KPIs, runs.parquet,
summary.csv, sweep.json, mbr-vs-fleet.png: what ``main.py sweep`` writes) and sweeps.md (both
tables, made by tools/sweep_table.py from those files). Days not finished ``--budget-s`` seconds
after the start (less the time kept to write) are left out, and the files say the run was cut.
A short day per layout and policy compiles the Numba code first (its time is reported apart).
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime
import importlib.util
import json
import platform
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.sweep.common import default_workers, threads_per_worker  # noqa: E402
from engine.sweep.pool import run_pool, seed_major, worker_threads  # noqa: E402
from engine.sweep.scenario import Run, Sweep, SweepError, load_sweep  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
STUDY = "hub-study"
NEEDED = ("pandas", "scipy", "pyarrow", "matplotlib")
WRITE_S = 25.0     # kept back from the budget to write the study's files and the report


def main(argv: list[str] | None = None) -> int:
    args = _arguments(argv)
    missing = [m for m in NEEDED if importlib.util.find_spec(m) is None]
    if missing:   # found now, not after minutes of days with nowhere to write them
        print(f"sweep_scaling: missing {', '.join(missing)} (the study's table, Parquet and plot "
              "need them)", file=sys.stderr)
        return 2
    start = time.monotonic()
    deadline = start + args.budget_s - WRITE_S
    import engine.sweep.save  # noqa: F401  (matplotlib makes its font cache now, not while writing)
    runner = _runner(args.runner)
    args.out.mkdir(parents=True, exist_ok=True)
    try:
        scaling = _trimmed(load_sweep(args.scaling_sweep), seeds=args.scaling_seeds)
        study = _trimmed(load_sweep(args.study_sweep), seeds=args.study_seeds,
                         fleets=args.study_fleets, hours=args.study_hours)
    except SweepError as exc:
        print(exc, file=sys.stderr)
        return 2
    warm_s = _warm_up([s for part, s in (("scaling", scaling), ("study", study))
                       if part in args.parts])
    _say(f"warm-up (Numba compiles, one process): {warm_s:.1f} s; runner: {runner}")
    if "scaling" in args.parts:
        info = _scaling(scaling, args.workers, runner, min(deadline, time.monotonic()
                                                           + args.scaling_limit_s))
        info.update(warmup_s=round(warm_s, 1), **_host())
        (args.out / "scaling.json").write_text(json.dumps(info, indent=1), encoding="utf-8")
    if "study" in args.parts:
        _study(study, max(args.workers), runner, deadline, args.out / STUDY, args.budget_s)
    _report(args.out)
    _say(f"done in {time.monotonic() - start:.0f} s; files in {args.out}")
    return 0


def _arguments(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path, help="folder for the results (made if missing)")
    ap.add_argument("--workers", default=f"1,2,{default_workers()}",
                    help="worker counts of step 1, comma-separated; the largest also runs the "
                         "study (default: 1,2,this machine's cores)")
    ap.add_argument("--scaling-sweep", default=str(ROOT / "airports/sweep-regional.toml"))
    ap.add_argument("--scaling-seeds", type=int, default=None,
                    help="seeds 0..N-1 of the step-1 sweep (default: the file's; the regional "
                         "example sweep's 10 make 240 days of 12 hours)")
    ap.add_argument("--scaling-limit-s", type=float, default=200.0,
                    help="step 1 stops after this many seconds (default 200)")
    ap.add_argument("--study-sweep", default=str(ROOT / "airports/sweep-hub-study.toml"))
    ap.add_argument("--study-seeds", type=int, default=None, help="default: the file's (50)")
    ap.add_argument("--study-fleets", default=None, help="comma-separated; default: the file's")
    ap.add_argument("--study-hours", type=float, default=None, help="default: the file's (24)")
    ap.add_argument("--budget-s", type=float, default=540.0,
                    help="everything is written by this many seconds after the start "
                         "(default 540: inside the GPU host's 10-minute limit)")
    ap.add_argument("--parts", default="scaling,study", help="scaling, study or both")
    ap.add_argument("--runner", choices=("auto", "pool", "dask"), default="auto",
                    help="dask where installed (auto), else a process pool")
    args = ap.parse_args(argv)
    args.workers = sorted({int(w) for w in args.workers.split(",")})
    args.parts = set(args.parts.split(","))
    if args.study_fleets:
        args.study_fleets = [int(f) for f in args.study_fleets.split(",")]
    if min(args.workers) < 1 or not args.parts <= {"scaling", "study"}:
        ap.error("--workers must be whole numbers ≥ 1; --parts scaling, study or both")
    return args


def _runner(choice: str) -> str:
    if choice == "auto":
        return "dask" if importlib.util.find_spec("distributed") else "pool"
    return choice


def _trimmed(sweep: Sweep, seeds=None, fleets=None, hours=None) -> Sweep:
    """``sweep`` with seeds 0..``seeds``-1, only ``fleets`` and days of ``hours`` where given."""
    if seeds is not None:
        sweep.seeds = list(range(seeds))
    kept = [s for s in sweep.scenarios if fleets is None or s.fleet in fleets]
    if hours is not None:
        kept = [dataclasses.replace(s, hours=hours) for s in kept]
    if not kept:
        raise SweepError(sweep.source, [f"--study-fleets: none of {fleets} is among the file's "
                                        f"fleets ({sorted({s.fleet for s in sweep.scenarios})})"])
    sweep.scenarios = [dataclasses.replace(s, index=i) for i, s in enumerate(kept)]
    return sweep


def _warm_up(sweeps: list[Sweep]) -> float:
    """Compile the Numba code of every layout × policy into the disk cache: a quarter-hour day
    each, in a process of its own, so the timed workers start with it compiled (the day's loop,
    common to every policy, compiles once in ``run_pool``'s parent: ``engine.loop_warmup``)."""
    started = time.monotonic()
    for sweep in sweeps:
        firsts = {(s.layout, s.policy): s for s in sweep.scenarios}
        runs = [Run(i, dataclasses.replace(s, hours=0.25), 0) for i, s in enumerate(firsts.values())]
        run_pool(sweep, runs, workers=1)
    return time.monotonic() - started


def _run(sweep: Sweep, runs: list[Run], workers: int, runner: str, deadline: float, on_result):
    """(outcome, wall seconds) of ``runs`` on ``workers`` processes, stopped at ``deadline``."""
    stop = lambda: time.monotonic() > deadline   # noqa: E731
    if runner == "pool":
        started = time.monotonic()
        outcome = run_pool(sweep, runs, workers, stop, on_result)
        return outcome, time.monotonic() - started
    from engine.sweep.runner import open_client, run_sweep
    with open_client(workers=workers) as client:   # timed once the cluster is up
        started = time.monotonic()
        outcome = run_sweep(client, sweep, runs, on_result, stop)
        return outcome, time.monotonic() - started


def _scaling(sweep: Sweep, counts: list[int], runner: str, deadline: float) -> dict:
    """The same days on each worker count, most workers first (a cut falls on the slowest)."""
    runs = seed_major(sweep.runs())
    rows, tables = [], {}
    for workers in sorted(counts, reverse=True):
        outcome, wall = _run(sweep, runs, workers, runner, deadline, None)
        done = len(outcome.rows)
        tables[workers] = outcome.rows
        threads = worker_threads(workers) if runner == "pool" else threads_per_worker(workers)
        rows.append({"workers": workers, "threads_per_worker": threads,
                     "days": len(runs), "finished": done, "failed": len(outcome.failures),
                     "wall_s": round(wall, 2), "days_per_minute": round(60 * done / max(wall, 1e-9), 2),
                     "cut": outcome.interrupted})
        _say(f"{workers} worker(s): {done} of {len(runs)} days in {wall:.1f} s, "
             f"{60 * done / max(wall, 1e-9):.1f} per minute" + (" (CUT)" if outcome.interrupted else "")
             + _failed(outcome))
    rows.sort(key=lambda r: r["workers"])
    for r in rows:
        r["speedup"] = round(r["days_per_minute"] / max(rows[0]["days_per_minute"], 1e-9), 2)
    common = set.intersection(*(set(t) for t in tables.values()))
    same = all(_text(t[i]) == _text(tables[counts[0]][i]) for t in tables.values() for i in common)
    return {"runner": runner, "sweep": _shown(sweep.source), "seeds": len(sweep.seeds),
            "scenarios": len(sweep.scenarios), "rows": rows,
            "rows_identical_across_worker_counts": same, "days_compared": len(common)}


def _study(sweep: Sweep, workers: int, runner: str, deadline: float, out: Path,
           budget_s: float) -> None:
    """Every day of ``sweep``, seed-major, on ``workers``; its files written into ``out``."""
    from engine.sweep.save import save_outcome
    runs = seed_major(sweep.runs())
    step = max(1, len(runs) // 20)
    seen = []

    def progress(run, row, wall):
        seen.append(run)
        if len(seen) % step == 0:
            _say(f"study: {len(seen)} of {len(runs)} days")
    _say(f"study: {len(runs)} days ({len(sweep.scenarios)} scenarios × {len(sweep.seeds)} "
         f"seeds) on {workers} worker(s), until {deadline - time.monotonic():.0f} s from now")
    outcome, wall = _run(sweep, runs, workers, runner, deadline, progress)
    _, info = save_outcome(out, sweep, runs, outcome, workers, None, wall, runner=runner,
                           seeds=len(sweep.seeds), budget_s=budget_s, **_host())
    _say(f"study: {info['runs_finished']} of {len(runs)} days in {wall:.0f} s "
         f"({info['runs_per_minute']} per minute)" + (" — CUT at the budget"
                                                      if outcome.interrupted else "")
         + _failed(outcome))


def _failed(outcome) -> str:
    """How many days failed and why the first did, for the log ("" where none did)."""
    if not outcome.failures:
        return ""
    return f"; {len(outcome.failures)} FAILED, the first: {outcome.failures[0].error}"


def _report(out: Path) -> None:
    """OUT/sweeps.md: the tables of whatever this run wrote, as tools/sweep_table.py makes them."""
    from tools.sweep_table import report
    paths = [p for p in (out / "scaling.json", out / STUDY) if p.exists()]
    (out / "sweeps.md").write_text(report(paths), encoding="utf-8")


def _text(row: dict) -> str:
    """A day's row as text: rows compare equal where their text does (NaN included)."""
    return json.dumps(row, sort_keys=True, default=str)


def _host() -> dict:
    import numba
    import numpy
    model = next((line.split(":", 1)[1].strip() for line in _cpuinfo()
                  if line.startswith("model name")), platform.processor())
    return {"date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
            "host_cores": default_workers(), "cpu": model, "python": platform.python_version(),
            "numpy": numpy.__version__, "numba": numba.__version__}


def _cpuinfo() -> list[str]:
    try:
        return Path("/proc/cpuinfo").read_text().splitlines()
    except OSError:
        return []


def _shown(path: Path) -> str:
    path = Path(path).resolve()
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


def _say(text: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {text}", file=sys.stderr, flush=True)


if __name__ == "__main__":
    sys.exit(main())
