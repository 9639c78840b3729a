"""``auto``: the fastest variant for a graph's size on this machine, chosen from measurements.

On first use each candidate that can run here is timed on a few small random graphs (its JIT
compile kept out of the timing). For a graph of n vertices the choice is the candidate whose
measured time, carried from the nearest measured size by n³ scaling, is lowest: below ~100
vertices the CPU wins (launch overhead, seed 001's observation), above it the GPU, if any.
"""

import functools
import time

import numpy as np

from ..gpu_device import simulated
from .matrix import to_int32_costs
from .random_graph import paper_random_graph
from .registry import get_variant

CANDIDATES = ("cpu-linear", "cpu-blocked", "gpu-fast", "gpu-blocked")
CALIBRATION_SIZES = (24, 96, 384)


@functools.cache
def calibration() -> dict[str, dict[int, float]]:
    """Seconds per solve for each runnable candidate at each calibration size (best of 3)."""
    table = {}
    for name in CANDIDATES:
        try:
            variant = get_variant(name)
        except ValueError:
            continue  # not registered in this build
        if not variant.available or (variant.family == "gpu" and simulated()):
            continue  # the simulator is for correctness, never for speed
        times = {}
        for n in CALIBRATION_SIZES:
            w = to_int32_costs(paper_random_graph(n, 15, seed=n))
            variant.run(w)  # compile / first launch
            best = np.inf
            for _ in range(3):
                start = time.perf_counter()
                variant.run(w)
                best = min(best, time.perf_counter() - start)
            times[n] = best
        table[name] = times
    return table


def choose_variant(n: int) -> str:
    """Name of the variant expected to solve an n-vertex graph fastest here."""
    def estimate(times):
        nearest = min(times, key=lambda size: abs(np.log(size) - np.log(max(n, 1))))
        return times[nearest] * (n / nearest) ** 3 if n > nearest else times[nearest]
    table = calibration()
    return min(table, key=lambda name: estimate(table[name]))
