"""``auto``: the fastest variant for a graph's size on this machine, chosen from measurements.

On first use on a machine each candidate that can run here is timed on a few small random graphs
(its JIT compile kept out of the timing); the timings are kept in the user's cache folder
(``apsp-auto.json``, see ``engine.user_cache``) with what they were measured on, and measured
again when that changes (another CPU, thread count, GPU or Numba) or the file is deleted. For a
graph of n vertices the choice is the candidate whose measured time, carried from the nearest
measured size by n³ scaling, is lowest: below ~100 vertices the CPU wins (launch overhead, seed
001's observation), above it the GPU, if any.
"""

import functools
import json
import os
import time

import numba
import numpy as np

from ..gpu_device import cpu_model, gpu_name, gpu_unavailable_reason, simulated
from ..user_cache import cache_folder
from .matrix import to_int32_costs
from .random_graph import paper_random_graph
from .registry import get_variant

CANDIDATES = ("cpu-linear", "cpu-blocked", "gpu-fast", "gpu-blocked")
CALIBRATION_SIZES = (24, 96, 384)
CACHE_FILE = "apsp-auto.json"


@functools.cache
def calibration() -> dict[str, dict[int, float]]:
    """Seconds per solve for each runnable candidate at each calibration size (best of 3), as
    measured on this machine: read from the cache folder, else measured and saved there."""
    path, machine = os.path.join(cache_folder(), CACHE_FILE), _machine()
    table = _saved(path, machine)
    if table is not None:
        return table
    table = _measure()
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(f"{path}.{os.getpid()}.tmp", "w", encoding="utf-8") as f:
            json.dump({"machine": machine, "seconds": table}, f, indent=1)
        os.replace(f"{path}.{os.getpid()}.tmp", path)
    except OSError:
        pass  # a read-only cache folder: measured again next time
    return table


def calibrated() -> bool:
    """True where this machine's timings are saved already (``calibration`` measures nothing)."""
    return _saved(os.path.join(cache_folder(), CACHE_FILE), _machine()) is not None


def _saved(path: str, machine: dict) -> dict[str, dict[int, float]] | None:
    try:
        with open(path, encoding="utf-8") as f:
            saved = json.load(f)
        if saved["machine"] == machine:
            return {name: {int(n): float(t) for n, t in times.items()}
                    for name, times in saved["seconds"].items()}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        pass
    return None   # none yet, another machine's or unreadable: measure


def _machine() -> dict:
    """What the timings depend on; another value of any is another machine."""
    reason = gpu_unavailable_reason()
    return {"cpu": cpu_model(), "cpus": os.cpu_count(), "threads": numba.get_num_threads(),
            "numba": numba.__version__, "gpu": gpu_name() if reason is None else None,
            "simulated": simulated(), "candidates": list(CANDIDATES),
            "sizes": list(CALIBRATION_SIZES)}


def _measure() -> dict[str, dict[int, float]]:
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
