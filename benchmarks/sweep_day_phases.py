"""Where a sweep worker's days go outside the event loop: days of one scenario of a sweep file, run
one after another in this process as a pool worker runs them (the file's variant; the tables
solved once kept between days, ``engine.sim.kept_tables``), each split into its set-up (the
``Simulation``: road network, the tables solved once, schedule, bags, lower bound), its loop and
its row. With ``--no-keep``, every day solves its tables again (as before they were kept); ``--both``
alternates the two, day by day, in this one process. Run as a worker on the GPU host runs (one
Numba thread each of 16 workers):

    NUMBA_NUM_THREADS=1 PYTHONPATH=. python benchmarks/sweep_day_phases.py \\
        airports/sweep-hub-study.toml --fleet 600 --policy fleet --seeds 0,1,2 --both
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numba  # noqa: E402

from engine.sim import kept_tables  # noqa: E402
from engine.sweep.day import day_row, day_start  # noqa: E402
from engine.sweep.scenario import Run, load_sweep  # noqa: E402

ONCE = ("travel-time", "junctions")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("sweep", type=Path)
    ap.add_argument("--fleet", type=int, default=None, help="the scenario's (default: the first)")
    ap.add_argument("--policy", default=None, help="the scenario's (default: the first)")
    ap.add_argument("--hours", type=float, default=None, help="default: the file's")
    ap.add_argument("--seeds", default="0,1,2", help="comma-separated, run in this order")
    how = ap.add_mutually_exclusive_group()
    how.add_argument("--no-keep", action="store_true", help="solve the tables every day")
    how.add_argument("--both", action="store_true", help="each seed kept, then solved again")
    a = ap.parse_args(argv)
    sweep = load_sweep(a.sweep)
    scenario = next(s for s in sweep.scenarios if a.fleet in (None, s.fleet)
                    and a.policy in (None, s.policy))
    if a.hours is not None:
        scenario = dataclasses.replace(scenario, hours=a.hours)
    print(f"{scenario.label()}; variant {sweep.variant}; {numba.get_num_threads()} Numba "
          f"thread(s); CPU seconds (wall in brackets)")
    print("| day | tables | set-up | of which solved once | loop | row | whole day |")
    print("|---|---|---|---|---|---|---|")
    for seed in [int(x) for x in a.seeds.split(",")]:
        for keep in ((True, False) if a.both else (not a.no_keep,)):
            if not keep:
                kept_tables.forget()
            _day(sweep, Run(seed, scenario, seed), keep)
    return 0


def _day(sweep, run: Run, keep: bool) -> None:
    marks = [(time.process_time(), time.perf_counter())]
    with kept_tables.keeping():
        sim = day_start(sweep.airports[run.scenario.layout], run, sweep.variant)
        marks.append((time.process_time(), time.perf_counter()))
        sim.run_until(sim.end_time)
        marks.append((time.process_time(), time.perf_counter()))
    day_row(run, sim, len(sim.tugs))
    marks.append((time.process_time(), time.perf_counter()))
    once = [r for r in sim.tables.log if r.kind in ONCE]
    kept = "kept" if all(r.note and r.note.startswith("kept") for r in once) else "solved"
    cells = [f"{c1 - c0:.2f} ({w1 - w0:.2f})" for (c0, w0), (c1, w1) in zip(marks, marks[1:])]
    whole = f"{marks[-1][0] - marks[0][0]:.2f} ({marks[-1][1] - marks[0][1]:.2f})"
    print(f"| seed {run.seed} | {kept} | {cells[0]} | ({sum(r.seconds for r in once):.2f}) | "
          f"{cells[1]} | {cells[2]} | {whole} |", flush=True)


if __name__ == "__main__":
    sys.exit(main())
