"""CPU seconds of one simulated day's event loop alone (start-up excluded), and how much of it
the bag-aware all-pairs solves inside it took, for the checkout on ``PYTHONPATH``.

    PYTHONPATH=. python benchmarks/day_loop.py hub-atl --seed 0 --policy fleet [--profile out.prof]

Run it for two checkouts one after the other (``day_commits.py`` times whole days of both).
"""

import argparse
import cProfile
import time

from engine.airport.layout_io import load_bundled_or_file
from engine.sim.keygraph import KeyGraph
from engine.sim.simulation import SimConfig, Simulation


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("airport")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--policy", default="fleet")
    ap.add_argument("--profile", default=None, help="write cProfile stats of the loop here")
    a = ap.parse_args()
    solves = [0.0]
    update = KeyGraph.update

    def timed_update(self, *args):
        start = time.process_time()
        try:
            return update(self, *args)
        finally:
            solves[0] += time.process_time() - start

    KeyGraph.update = timed_update
    sim = Simulation(load_bundled_or_file(a.airport), SimConfig(seed=a.seed, policy=a.policy))
    prof = cProfile.Profile() if a.profile else None
    start = time.process_time()
    if prof:
        prof.enable()
    sim.run_until(sim.end_time)
    if prof:
        prof.disable()
        prof.dump_stats(a.profile)
    loop = time.process_time() - start
    k = sim.kpis()
    print(f"{a.airport} seed {a.seed} {a.policy}: loop CPU {loop:.2f} s, of which bag-aware "
          f"solves {solves[0]:.2f} s, the rest {loop - solves[0]:.2f} s "
          f"(MBR {k['mbr_per_1000']}, {k['recomputes']} solves)")


if __name__ == "__main__":
    main()
