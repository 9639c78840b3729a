"""Turn a user's cost matrix into the exact int32 matrix every Floyd–Warshall variant solves.

The sentinel ``INF`` is 2**30 - 1, so the sum of any two matrix entries (``INF + INF`` included)
stays below 2**31 and never wraps: kernels relax with a plain ``a + b < d`` and no INF checks.
Validation and conversion are one compiled, vectorised pass over the matrix, so they cost a
fraction of a millisecond at airport sizes; only a matrix with a bad entry is scanned again,
to name the first one.
"""

import numba
import numpy as np

from ..graph_input import dense_matrix
from ..parallel_build import serial_and_parallel

INF = np.int32(2**30 - 1)

_OK, _NAN, _NEGATIVE, _FRACTIONAL, _HUGE = range(5)
_PROBLEM = {_NAN: "NaN", _NEGATIVE: "a negative cost", _FRACTIONAL: "a fractional cost",
            _HUGE: "a cost too large for exact int32 routes"}


def _convert(w, out, row_max):
    """One pass per row, branch-free so it vectorises: the int32 row and how many of its
    entries are bad (NaN, negative, fractional, too large); then the row's largest
    off-diagonal cost, over the int32 row just written (still in cache). Returns the count."""
    n = w.shape[0]
    limit = float(INF)
    bad = 0
    for i in numba.prange(n):
        row_bad = 0
        for j in range(n):
            x = float(w[i, j])
            finite = x != np.inf
            v = x if finite else limit      # inf -> the INF sentinel
            ok = (v >= 0.0) & (v <= limit)  # not NaN, not negative, not beyond the sentinel
            xi = np.int32(v if ok else 0.0)
            out[i, j] = xi
            row_bad += (not ok) | (float(xi) != v) | ((v == limit) & finite)
        out[i, i] = 0
        largest = np.int32(0)
        for j in range(n):
            largest = max(largest, out[i, j] if out[i, j] < INF else np.int32(0))
        row_max[i] = largest
        bad += row_bad
    return bad


def _convert_numpy(w, out, row_max, threads=False):
    """``_convert`` in numpy's passes over blocks of rows (small temporaries): the same int32
    matrix, row maxima and count of bad entries (``threads`` is ignored)."""
    n = w.shape[0]
    limit = float(INF)
    bad = 0
    step = max(1, (1 << 18) // max(n, 1))
    for first in range(0, n, step):
        block = slice(first, min(first + step, n))
        x = np.asarray(w[block], dtype=np.float64)
        finite = x != np.inf
        v = np.where(finite, x, limit)
        with np.errstate(invalid="ignore"):
            ok = (v >= 0.0) & (v <= limit)
        xi = np.where(ok, v, 0.0).astype(np.int32)
        bad += int(np.count_nonzero(~ok | (xi != v) | ((v == limit) & finite)))
        rows = np.arange(block.start, block.stop)
        xi[rows - first, rows] = 0
        out[block] = xi
        row_max[block] = np.where(xi < INF, xi, 0).max(axis=1, initial=0)
    return bad


@numba.njit(cache=True)
def _first_problem(w):
    """(row, column, kind) of the first bad entry in row-major order (there is one)."""
    n = w.shape[0]
    limit = float(INF)
    for i in range(n):
        for j in range(n):
            x = float(w[i, j])
            if x != x:
                return i, j, _NAN
            if x < 0:
                return i, j, _NEGATIVE
            if x >= limit and x != np.inf:
                return i, j, _HUGE
            if x != np.floor(x):
                return i, j, _FRACTIONAL
    return -1, -1, _OK


def _to_float(dist32, out):
    n = dist32.shape[0]
    for i in numba.prange(n):
        for j in range(n):
            d = dist32[i, j]
            out[i, j] = np.inf if d >= INF else float(d)


# Matrix entries from which the threaded builds run: on 2 cores they halve n = 500's
# conversions and are even at n = 128 (``python -m tests.probe_validation``).
PARALLEL_FROM = 1 << 16
_convert = serial_and_parallel(_convert, PARALLEL_FROM)
_to_float = serial_and_parallel(_to_float, PARALLEL_FROM)


def to_int32_costs(cost, out: np.ndarray | None = None, threads: bool = True,
                   compiled: bool = True) -> np.ndarray:
    """Validate ``cost`` (engine.graph_input's contract: dense, masked or scipy.sparse; costs
    non-negative and integer-valued) and convert it, into ``out`` (n×n C-contiguous int32: e.g.
    memory a GPU reads directly) when given. ``threads=False``: the serial build even for a
    large matrix (on a fresh machine it compiles in less than half the threaded build's time).
    ``compiled=False``: numpy's passes, nothing to compile (a fresh machine's first answer,
    while a GPU compiles: the serial build's compile took 1 s there, Numba's first).

    The diagonal becomes 0 (standing still is free). Raises ``ValueError`` naming the problem
    for input outside the contract, NaN, negative, fractional costs or costs whose routes could
    overflow int32.
    """
    w = dense_matrix(cost)
    n = w.shape[0]
    out = np.empty((n, n), dtype=np.int32) if out is None else out
    row_max = np.zeros(n, dtype=np.int64)
    convert = _convert if compiled else _convert_numpy
    if convert(w, out, row_max, threads=threads):
        i, j, kind = _first_problem(w)
        hint = {_FRACTIONAL: "; costs must be whole numbers (scale them, e.g. to tenths of a "
                             "second) so every variant is exact",
                _NEGATIVE: "; costs must be >= 0"}.get(kind, "")
        raise ValueError(f"cost matrix has {_PROBLEM[kind]} ({w[i, j]}) at ({i}, {j}){hint}")
    # A simple route leaves each vertex at most once, so the row maxima bound its cost.
    longest_simple_route = int(row_max.sum())
    if longest_simple_route >= INF:
        raise ValueError(
            f"costs too large: a route could cost up to {longest_simple_route}, over the "
            f"exact int32 limit {int(INF) - 1}; scale the costs down")
    return out


def to_float_distances(dist32: np.ndarray, threads: bool = True) -> np.ndarray:
    """The int32 distance matrix as float64 with ``np.inf`` for unreachable pairs
    (``threads``: as ``to_int32_costs``)."""
    out = np.empty(dist32.shape, dtype=np.float64)
    _to_float(dist32, out, threads=threads)
    return out
