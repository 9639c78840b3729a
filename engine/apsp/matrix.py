"""Turn a user's cost matrix into the exact int32 matrix every Floyd–Warshall variant solves.

The sentinel ``INF`` is 2**30 - 1, so the sum of any two matrix entries (``INF + INF`` included)
stays below 2**31 and never wraps: kernels relax with a plain ``a + b < d`` and no INF checks.
"""

import numpy as np

INF = np.int32(2**30 - 1)


def to_int32_costs(cost) -> np.ndarray:
    """Validate ``cost`` (n×n, non-negative, integer-valued, ``np.inf`` = no edge) and convert it.

    The diagonal becomes 0 (standing still is free). Raises ``ValueError`` naming the problem
    for non-square, NaN, negative, fractional costs or costs whose routes could overflow int32.
    """
    w = np.asarray(cost)
    if w.ndim != 2 or w.shape[0] != w.shape[1]:
        raise ValueError(f"cost matrix must be square (n×n), got shape {w.shape}")
    if not (np.issubdtype(w.dtype, np.number) or w.dtype == bool):
        raise ValueError(f"cost matrix must be numeric, got dtype {w.dtype}")
    w = w.astype(np.float64)
    if np.isnan(w).any():
        i, j = np.argwhere(np.isnan(w))[0]
        raise ValueError(f"cost matrix has NaN at ({i}, {j})")
    if (w < 0).any():
        i, j = np.argwhere(w < 0)[0]
        raise ValueError(f"cost matrix has a negative cost {w[i, j]} at ({i}, {j}); costs must be >= 0")
    finite = np.isfinite(w)
    if (w[finite] != np.round(w[finite])).any():
        i, j = np.argwhere(finite & (w != np.round(np.where(finite, w, 0))))[0]
        raise ValueError(
            f"cost matrix has a fractional cost {w[i, j]} at ({i}, {j}); costs must be whole "
            "numbers (scale them, e.g. to tenths of a second) so every variant is exact")
    n = w.shape[0]
    off_diagonal = finite & ~np.eye(n, dtype=bool)
    # A simple route leaves each vertex at most once, so the row maxima bound its cost.
    longest_simple_route = float(np.where(off_diagonal, w, 0.0).max(axis=1, initial=0.0).sum())
    if longest_simple_route >= INF:
        raise ValueError(
            f"costs too large: a route could cost up to {longest_simple_route:.0f}, over the "
            f"exact int32 limit {int(INF) - 1}; scale the costs down")
    out = np.where(finite, w, float(INF)).astype(np.int32)
    np.fill_diagonal(out, 0)
    return out


def to_float_distances(dist32: np.ndarray) -> np.ndarray:
    """The int32 distance matrix as float64 with ``np.inf`` for unreachable pairs."""
    d = dist32.astype(np.float64)
    d[dist32 >= INF] = np.inf
    return d
