"""Turn a user's cost matrix into the exact int32 matrix every Floyd–Warshall variant solves.

The sentinel ``INF`` is 2**30 - 1, so the sum of any two matrix entries (``INF + INF`` included)
stays below 2**31 and never wraps: kernels relax with a plain ``a + b < d`` and no INF checks.
Validation and conversion are one compiled pass over the matrix, so they cost a fraction of a
millisecond at airport sizes rather than dominating a GPU solve.
"""

import numba
import numpy as np

INF = np.int32(2**30 - 1)

_OK, _NAN, _NEGATIVE, _FRACTIONAL, _HUGE = range(5)
_PROBLEM = {_NAN: "NaN", _NEGATIVE: "a negative cost", _FRACTIONAL: "a fractional cost",
            _HUGE: "a cost too large for exact int32 routes"}


def _convert(w, out, row_max, problem, column):
    """One pass: write the int32 matrix and each row's largest off-diagonal cost, branch-free so
    it vectorises (the row maximum too is taken over the int32 values: a floating-point one
    keeps LLVM from vectorising the loop); a row with any bad entry is scanned again for its
    first problem."""
    n = w.shape[0]
    limit = float(INF)
    for i in numba.prange(n):
        largest = 0
        bad = False
        for j in range(n):
            x = float(w[i, j])
            v = min(x, limit)  # inf -> the INF sentinel
            ok = v >= 0.0      # not negative, not NaN
            xi = np.int32(v) if ok else np.int32(0)
            out[i, j] = xi
            bad |= (x != x) | (not ok) | ((x >= limit) & (x != np.inf)) | (float(xi) != v)
            largest = max(largest, xi if (xi < INF) & (j != i) else 0)
        row_max[i] = largest
        out[i, i] = 0
        if bad:
            for j in range(n):
                x = float(w[i, j])
                if x != x:
                    problem[i] = _NAN
                elif x < 0:
                    problem[i] = _NEGATIVE
                elif x >= limit and x != np.inf:
                    problem[i] = _HUGE
                elif x < limit and x != np.floor(x):
                    problem[i] = _FRACTIONAL
                if problem[i] != _OK:
                    column[i] = j
                    break


def _to_float(dist32, out):
    n = dist32.shape[0]
    for i in numba.prange(n):
        for j in range(n):
            d = dist32[i, j]
            out[i, j] = np.inf if d >= INF else float(d)


def _compiled(pass_function):
    """A serial and a parallel build of a matrix pass; threads only pay off on large matrices."""
    serial = numba.njit(cache=True, nogil=True)(pass_function)
    parallel = numba.njit(cache=True, nogil=True, parallel=True)(pass_function)
    return lambda first, *rest: (parallel if first.size >= PARALLEL_FROM else serial)(first, *rest)


PARALLEL_FROM = 1 << 20  # matrix entries
_convert = _compiled(_convert)
_to_float = _compiled(_to_float)


def to_int32_costs(cost, out: np.ndarray | None = None) -> np.ndarray:
    """Validate ``cost`` (n×n, non-negative, integer-valued, ``np.inf`` = no edge) and convert it,
    into ``out`` (n×n C-contiguous int32: e.g. memory a GPU reads directly) when given.

    The diagonal becomes 0 (standing still is free). Raises ``ValueError`` naming the problem
    for non-square, NaN, negative, fractional costs or costs whose routes could overflow int32.
    """
    w = np.asarray(cost)
    if w.ndim != 2 or w.shape[0] != w.shape[1]:
        raise ValueError(f"cost matrix must be square (n×n), got shape {w.shape}")
    if not (np.issubdtype(w.dtype, np.number) or w.dtype == bool):
        raise ValueError(f"cost matrix must be numeric, got dtype {w.dtype}")
    if w.dtype == bool or np.issubdtype(w.dtype, np.complexfloating):
        w = w.astype(np.float64)
    n = w.shape[0]
    out = np.empty((n, n), dtype=np.int32) if out is None else out
    row_max = np.zeros(n, dtype=np.int64)
    problem = np.zeros(n, dtype=np.int8)
    column = np.zeros(n, dtype=np.int64)
    _convert(w, out, row_max, problem, column)
    if problem.any():
        i = int(np.flatnonzero(problem)[0])
        j = int(column[i])
        hint = {_FRACTIONAL: "; costs must be whole numbers (scale them, e.g. to tenths of a "
                             "second) so every variant is exact",
                _NEGATIVE: "; costs must be >= 0"}.get(int(problem[i]), "")
        raise ValueError(f"cost matrix has {_PROBLEM[int(problem[i])]} ({w[i, j]}) at "
                         f"({i}, {j}){hint}")
    # A simple route leaves each vertex at most once, so the row maxima bound its cost.
    longest_simple_route = int(row_max.sum())
    if longest_simple_route >= INF:
        raise ValueError(
            f"costs too large: a route could cost up to {longest_simple_route}, over the "
            f"exact int32 limit {int(INF) - 1}; scale the costs down")
    return out


def to_float_distances(dist32: np.ndarray) -> np.ndarray:
    """The int32 distance matrix as float64 with ``np.inf`` for unreachable pairs."""
    out = np.empty(dist32.shape, dtype=np.float64)
    _to_float(dist32, out)
    return out
