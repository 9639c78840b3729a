"""What one call of a compiled (Numba) kernel costs from Python, by the arrays it takes and
returns: the floor under any event loop that crosses into a kernel per event.

    python benchmarks/kernel_calls.py [--calls 200000]

Prints microseconds per call (median of 5 repeats) for kernels that do no work, taking 1-25
small arrays and returning a scalar or 1-6 new arrays.
"""

import argparse
import statistics
import time

import numba
import numpy as np


def _kernel(n_in: int, n_out: int):
    """A compiled function of ``n_in`` arrays returning ``n_out`` new arrays (0: a scalar)."""
    names = ", ".join(f"a{i}" for i in range(n_in))
    outs = ", ".join("np.empty(1, dtype=np.int64)" for _ in range(n_out)) or "a0[0]"
    scope = {"np": np}
    exec(f"def f({names}):\n    return {outs}\n", scope)
    return numba.njit(scope["f"])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--calls", type=int, default=200_000)
    a = ap.parse_args()
    arr = np.zeros(8, dtype=np.int64)
    print("| arrays in | arrays out | µs a call |")
    print("|---|---|---|")
    for n_in, n_out in [(1, 0), (10, 0), (25, 0), (25, 1), (25, 6)]:
        f, args = _kernel(n_in, n_out), [arr] * n_in
        f(*args)   # compile outside the timing
        runs = []
        for _ in range(5):
            start = time.perf_counter()
            for _ in range(a.calls):
                f(*args)
            runs.append((time.perf_counter() - start) / a.calls * 1e6)
        print(f"| {n_in} | {n_out} | {statistics.median(runs):.2f} |")


if __name__ == "__main__":
    main()
