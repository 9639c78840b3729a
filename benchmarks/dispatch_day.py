"""CPU seconds of the hub's simulated day per dispatch policy (the day's events, not its set-up).

    NUMBA_NUM_THREADS=1 python benchmarks/dispatch_day.py 24 fleet,shortest-path,fleet,shortest-path

Seed 0, the airport's own fleet (600 tugs), cpu-blocked solves; a short warm-up day compiles
the Numba code first. Process CPU time, so a busy shared machine disturbs it less than wall time.
"""

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.airport.layout_io import bundled_airports, load_airport  # noqa: E402
from engine.sim import SimConfig, Simulation  # noqa: E402

hub = load_airport(bundled_airports()["hub-atl"])
hours = float(sys.argv[1])
warm = Simulation(hub, SimConfig(hours=0.5, seed=0, policy="fleet", variant="cpu-blocked"))
warm.run_until(warm.end_time)
for policy in sys.argv[2].split(","):
    sim = Simulation(hub, SimConfig(hours=hours, seed=0, policy=policy, variant="cpu-blocked"))
    cpu, wall = time.process_time(), time.perf_counter()
    sim.run_until(sim.end_time)
    k = sim.kpis()
    print(policy, "cpu", round(time.process_time() - cpu, 1), "wall",
          round(time.perf_counter() - wall, 1), "mbr", k["mbr_per_1000"], "recomputes",
          k["recomputes"], flush=True)
