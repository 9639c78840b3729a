"""The day's event heap as arrays, for the compiled loop: each entry (time, sequence number,
kind, tug), popped in (time, sequence) order as ``heapq`` pops the tuples it replaces (the
sequence numbers are unique, so the order is fully determined). Each tug has at most one event
waiting, so a heap of ``len(tugs)`` entries never overflows."""

from __future__ import annotations

import numba
import numpy as np


class EventHeap:
    """The arrays: ``t``, ``seq``, ``kind``, ``tug`` per entry; ``size[0]`` entries in use."""

    def __init__(self, capacity: int):
        self.t = np.zeros(capacity)
        self.seq = np.zeros(capacity, dtype=np.int64)
        self.kind = np.zeros(capacity, dtype=np.int64)
        self.tug = np.zeros(capacity, dtype=np.int64)
        self.size = np.zeros(1, dtype=np.int64)

    def arrays(self):
        return self.t, self.seq, self.kind, self.tug, self.size

    def push(self, t: float, seq: int, kind: int, tug: int) -> None:
        push(*self.arrays(), t, seq, kind, tug)

    def drop_tug(self, tug: int) -> None:
        """The entries of ``tug`` removed (its leg was replanned)."""
        drop_tug(*self.arrays(), tug)

    def grow(self, capacity: int) -> None:
        """Room for ``capacity`` entries (tugs were added)."""
        for name in ("t", "seq", "kind", "tug"):
            old = getattr(self, name)
            new = np.zeros(capacity, dtype=old.dtype)
            new[: len(old)] = old
            setattr(self, name, new)


@numba.njit(cache=True, nogil=True, inline="always")
def _less(t, seq, a, b):
    return t[a] < t[b] or (t[a] == t[b] and seq[a] < seq[b])


@numba.njit(cache=True, nogil=True, inline="always")
def _swap(t, seq, kind, tug, a, b):
    t[a], t[b] = t[b], t[a]
    seq[a], seq[b] = seq[b], seq[a]
    kind[a], kind[b] = kind[b], kind[a]
    tug[a], tug[b] = tug[b], tug[a]


@numba.njit(cache=True, nogil=True)
def _down(t, seq, kind, tug, n, i):
    while True:
        c = 2 * i + 1
        if c >= n:
            return
        if c + 1 < n and _less(t, seq, c + 1, c):
            c += 1
        if not _less(t, seq, c, i):
            return
        _swap(t, seq, kind, tug, i, c)
        i = c


@numba.njit(cache=True, nogil=True)
def push(t, seq, kind, tug, size, when, s, what, k):
    """Add the entry (``when``, ``s``, ``what``, ``k``)."""
    i = size[0]
    if i >= t.shape[0]:
        raise IndexError("event heap full")
    size[0] = i + 1
    t[i], seq[i], kind[i], tug[i] = when, s, what, k
    while i > 0:
        parent = (i - 1) // 2
        if not _less(t, seq, i, parent):
            break
        _swap(t, seq, kind, tug, i, parent)
        i = parent


@numba.njit(cache=True, nogil=True)
def pop(t, seq, kind, tug, size):
    """Remove and return the first entry (time, sequence, kind, tug)."""
    n = size[0] - 1
    if n < 0:
        raise IndexError("pop from an empty event heap")
    out = (t[0], seq[0], kind[0], tug[0])
    size[0] = n
    if n:
        _swap(t, seq, kind, tug, 0, n)
        _down(t, seq, kind, tug, n, 0)
    return out


@numba.njit(cache=True, nogil=True)
def drop_tug(t, seq, kind, tug, size, k):
    """Remove every entry of tug ``k`` and restore the heap."""
    m = 0
    for i in range(size[0]):
        if tug[i] != k:
            t[m], seq[m], kind[m], tug[m] = t[i], seq[i], kind[i], tug[i]
            m += 1
    size[0] = m
    for i in range(m // 2 - 1, -1, -1):
        _down(t, seq, kind, tug, m, i)
