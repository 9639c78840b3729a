"""Compiled pieces of a tug's stop that the event loop runs ~10^5 times a day (each replaces a
handful of small numpy operations, whose per-call overhead dominated the simulated day)."""

from __future__ import annotations

import numba
import numpy as np

from .bags import WAITING, split_to


@numba.njit(cache=True, nogil=True)
def still_promised(ids, state, reserved, tug):
    """The bags of ``ids`` (in order) still waiting and promised to ``tug``."""
    out = np.empty(ids.shape[0], dtype=np.int64)
    m = 0
    for b in ids:
        if state[b] == WAITING and reserved[b] == tug:
            out[m] = b
            m += 1
    return out[:m].copy()


@numba.njit(cache=True, nogil=True)
def split_promised(ids, state, reserved, node, tug, p):
    """``still_promised`` split (in order) into the bags waiting at ``p`` and the others."""
    return split_to(still_promised(ids, state, reserved, tug), node, p)


@numba.njit(cache=True, nogil=True)
def count_to(ids, dest, p):
    """How many bags of ``ids`` are for ``p``."""
    n = 0
    for b in ids:
        if dest[b] == p:
            n += 1
    return n
