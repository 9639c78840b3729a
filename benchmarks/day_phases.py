"""Where a simulated day's CPU goes: the simulate command's imports, the day's set-up (schedule,
bags, the tables solved once), the day itself, and the wall time of its all-pairs solves by kind
(from the day's recompute log), and the day less its bag-aware solves: the event loop's own
work; then the day split into the compiled loop (``step.advance``) and Python's answers to it by
code (``DayLoop._answer``: KPI samples, the fleet's round plans, bag-aware solves, ties). Run it
in each checkout to compare (its own PYTHONPATH):

    PYTHONPATH=. python benchmarks/day_phases.py hub-atl --seed 0 [--policy P] [--profile out.prof]
"""

import argparse
import cProfile
import time

start = time.process_time()
import engine.commands.simulate  # noqa: E402,F401  (what `python main.py simulate` imports)
from engine.airport.layout_io import load_bundled_or_file  # noqa: E402
from engine.sim.loop import codes, driver  # noqa: E402
from engine.sim.simulation import SimConfig, Simulation  # noqa: E402

imported = time.process_time()
CODE_NAMES = {getattr(codes, n): n for n in ("SAMPLE", "PLAN", "REFRESH", "TIED", "NEED_FROM",
                                             "NEED_TO", "WIDEN", "CHECK")}
split: dict[str, float] = {}


def _timed(name, f):
    def timed(*args):
        start = time.process_time()
        out = f(*args)
        key = name if name else CODE_NAMES[args[-1]].lower()
        split[key] = split.get(key, 0.0) + time.process_time() - start
        return out
    return timed


driver.advance = _timed("the compiled loop", driver.advance)
driver.DayLoop._answer = _timed(None, driver.DayLoop._answer)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("airport", nargs="?", default="hub-atl")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--policy", default=None, help="dispatch policy (default: the default one)")
    ap.add_argument("--profile", default=None, help="write cProfile stats of the day here")
    a = ap.parse_args()
    t0 = time.process_time()
    config = SimConfig(seed=a.seed, **({"policy": a.policy} if a.policy else {}))
    sim = Simulation(load_bundled_or_file(a.airport), config)
    t1 = time.process_time()
    prof = cProfile.Profile() if a.profile else None
    if prof:
        prof.enable()
    sim.run_until(sim.end_time)
    if prof:
        prof.disable()
        prof.dump_stats(a.profile)
    t2 = time.process_time()
    solves = {}
    for r in sim.tables.log:
        n, s = solves.get(r.kind, (0, 0.0))
        solves[r.kind] = (n + 1, s + r.seconds)
    print(f"{a.airport} seed {a.seed}: CPU imports {imported - start:.2f} s, set-up {t1 - t0:.2f} s, "
          f"day {t2 - t1:.2f} s, total {t2 - start:.2f} s")
    for kind, (n, s) in solves.items():
        names = ", ".join(sorted({r.variant for r in sim.tables.log if r.kind == kind}))
        print(f"  {kind}: {n} solve(s), {s:.2f} s wall ({names})")
    in_day = sum(s for kind, (n, s) in solves.items() if kind == "bag-aware")
    print(f"  the event loop's own work: {t2 - t1 - in_day:.2f} s (the day less its bag-aware solves)")
    print("  the day's CPU: " + ", ".join(f"{k} {v:.2f} s" for k, v in split.items()))


if __name__ == "__main__":
    main()
