"""The child process of ``gpu_warmup``: solves random graphs of the sizes given with a GPU
variant itself (no CPU fallback), which compiles its kernels into the disk cache. It runs at a
lower priority (``NICE``) than the app, whose first routes need the cores first.

    python -m engine.gpu_warmup_child FAMILY VARIANT N [N ...]
"""

import os
import sys

import numpy as np

from .apsp.random_graph import paper_random_graph

NICE = 5   # (weighs a third of the app's share of a busy core)


def solve_once(family: str, variant: str, n: int) -> None:
    """One solve of a random n-vertex graph with ``variant`` itself (no CPU fallback)."""
    w = paper_random_graph(n, 15, seed=0)
    if family == "apsp":
        from .apsp import solve
        result = solve(w, variant)
    else:
        from .sssp import solve
        result = solve(w, np.arange(min(n, 4)), variant)
    if result.note:
        raise RuntimeError(result.note)


if __name__ == "__main__":
    os.nice(NICE)
    for size in sys.argv[3:]:
        solve_once(sys.argv[1], sys.argv[2], int(size))
