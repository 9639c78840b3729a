"""The child process of ``variant_warmup``: solves random graphs of the sizes given with a variant
itself (no CPU fallback; ``auto``: the one it chooses, after measuring the candidates on its
first use), which compiles its kernels into the disk cache. It runs at a
lower priority (``NICE``) than the app, whose first routes need the cores first.

    python -m engine.variant_warmup_child FAMILY VARIANT N [N ...]

For Floyd–Warshall, the threaded builds of the cost and distance conversions that the app's
solves of those sizes take compile beside the kernels, in a process of their own
(``FAMILY = conversions``): the child's own solves convert with numpy (nothing to compile), so
that compile (two seconds on an H100 host) does not delay the kernels; the app's CPU answer
meanwhile does not compile them either (``engine.apsp.solve``).
"""

import os
import subprocess
import sys

import numpy as np

from .apsp.random_graph import paper_random_graph

NICE = 5   # (weighs a third of the app's share of a busy core)
CONVERSIONS = "conversions"


def solve_once(family: str, variant: str, n: int) -> None:
    """One solve of a random n-vertex graph with ``variant`` itself (no CPU fallback)."""
    w = paper_random_graph(n, 15, seed=0)
    if family == "apsp":
        from .apsp import get_variant
        from .apsp.auto import choose_variant
        from .apsp.matrix import to_int32_costs
        if variant == "auto":   # its first use measures the candidates (saved for the app)
            variant = choose_variant(n)
        chosen = get_variant(variant)
        chosen.run(to_int32_costs(w, out=chosen.input_array(n), compiled=False))
        return
    from .sssp import solve
    result = solve(w, np.arange(min(n, 4)), variant)
    if result.note:
        raise RuntimeError(result.note)


def compile_conversions(n: int) -> None:
    """The conversions' builds that an n-vertex solve takes (threaded where n is large)."""
    from .apsp.matrix import to_float_distances, to_int32_costs
    to_float_distances(to_int32_costs(paper_random_graph(n, 15, seed=0)))


def main(family: str, variant: str, sizes: list[int]) -> int:
    if family == CONVERSIONS:
        compile_conversions(max(sizes))
        return 0
    os.nice(NICE)   # (the conversions' process, started below, inherits it)
    beside = subprocess.Popen([sys.executable, "-m", __spec__.name, CONVERSIONS, variant,
                               str(max(sizes))]) if family == "apsp" else None
    for size in sizes:
        solve_once(family, variant, size)
    if beside is not None and beside.wait():
        return f"compiling the threaded conversions failed (exit status {beside.returncode})"
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2], [int(s) for s in sys.argv[3:]]))
