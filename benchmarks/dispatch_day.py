"""CPU seconds of the hub's simulated day per dispatch policy (the day's events, not its set-up).

    NUMBA_NUM_THREADS=1 python benchmarks/dispatch_day.py 24 fleet,shortest-path,fleet,shortest-path
    NUMBA_NUM_THREADS=1 python benchmarks/dispatch_day.py 8 fleet --rounds

Seed 0, the airport's own fleet (600 tugs), cpu-blocked solves; a short warm-up day compiles
the Numba code first. Process CPU time, so a busy shared machine disturbs it less than wall time.
``--rounds``: also the fleet dispatcher's dispatch rounds — how many, their tugs × jobs, and the
seconds spent planning and in ``linear_sum_assignment``.
"""

import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.airport.layout_io import bundled_airports, load_airport  # noqa: E402
from engine.sim import SimConfig, Simulation  # noqa: E402
from engine.sim.dispatch import fleet  # noqa: E402

spent = {"plan": 0.0, "assignment": 0.0}
shapes = []


def timed(name, fn):
    def wrapper(*args):
        start = time.perf_counter()
        out = fn(*args)
        spent[name] += time.perf_counter() - start
        return out
    return wrapper


def assignment(cost):
    shapes.append(cost.shape)
    return lsa(cost)


hub = load_airport(bundled_airports()["hub-atl"])
hours = float(sys.argv[1])
warm = Simulation(hub, SimConfig(hours=0.5, seed=0, policy="fleet", variant="cpu-blocked"))
warm.run_until(warm.end_time)
if "--rounds" in sys.argv:
    lsa = fleet.linear_sum_assignment
    fleet.linear_sum_assignment = timed("assignment", assignment)
    fleet.FleetDispatcher.plan = timed("plan", fleet.FleetDispatcher.plan)
for policy in sys.argv[2].split(","):
    sim = Simulation(hub, SimConfig(hours=hours, seed=0, policy=policy, variant="cpu-blocked"))
    cpu, wall = time.process_time(), time.perf_counter()
    sim.run_until(sim.end_time)
    k = sim.kpis()
    print(policy, "cpu", round(time.process_time() - cpu, 1), "wall",
          round(time.perf_counter() - wall, 1), "mbr", k["mbr_per_1000"], "recomputes",
          k["recomputes"], flush=True)
if shapes:
    s = np.array(shapes)
    print(f"{len(s)} rounds assigned, tugs x jobs mean {s[:, 0].mean():.0f} x {s[:, 1].mean():.1f}, "
          f"max {s[:, 0].max()} x {s[:, 1].max()}; planning {spent['plan']:.2f} s, "
          f"linear_sum_assignment {spent['assignment']:.2f} s")
