"""The tables a day solves once (plain travel time on the roads, the junction subgraph's shortest
paths), kept in this process for the next day on the same roads while ``keeping()`` is on. A
sweep's worker runs many days of one layout (``engine.sweep.day.run_day`` turns it on), and these
tables depend on the roads and the variant asked for, never on the seed: on the hub they were
about a quarter of a day's CPU (benchmarks/sweep_day_phases.py).

A table is kept under a digest of everything its solve reads (each input array's bytes, dtype and
shape, and the variant), so roads changed by a what-if edit, another speed or another airport is
another key, never a stale table. Kept tables are read-only, and each day gets its own copy
(a few milliseconds, against the solve's seconds): no day can change another's, and the compiled
loop reads a writeable array as outside a sweep (to Numba a read-only array is another type: a
sweep's day compiled the whole loop a second time, ~70 s of CPU on a cold cache).
Off (the default: the app, ``simulate``), every solve runs and the log shows its own time.
"""

from __future__ import annotations

import dataclasses
import hashlib
import threading
import time
from collections import OrderedDict
from contextlib import contextmanager
from typing import Callable, Iterator

import numpy as np

KEEP_BYTES = 256 * 2**20   # kept tables, most recently used first, up to this size in all

_state = threading.local()          # per thread: keeping on or off (Dask may run days in threads)
_lock = threading.Lock()
_kept: OrderedDict[bytes, tuple[tuple, object, int]] = OrderedDict()


@contextmanager
def keeping() -> Iterator[None]:
    """Solves inside the block reuse the tables kept from earlier ones (and keep theirs)."""
    before = getattr(_state, "on", False)
    _state.on = True
    try:
        yield
    finally:
        _state.on = before


def forget() -> None:
    """Drop every kept table."""
    with _lock:
        _kept.clear()


def solved_once(kind: str, variant: str, inputs: tuple[np.ndarray, ...],
                solve: Callable[[], tuple[tuple, object]]) -> tuple[tuple, object]:
    """``solve()``: (its tables, a dataclass with ``variant``, ``seconds`` and ``note``). While
    keeping is on, the tables are kept read-only (each caller gets copies), and a solve of the
    same ``kind``, ``variant`` and ``inputs`` (by content) done before in this process is not
    run again: copies of its tables come back with ``seconds`` the look-up's and a ``note``
    saying where they came from."""
    if not getattr(_state, "on", False):
        return solve()
    start = time.perf_counter()
    key = _digest(kind, variant, inputs)
    with _lock:
        hit = _kept.get(key)
        if hit is not None:
            _kept.move_to_end(key)
    if hit is not None:
        tables, info, _ = hit
        note = (f"kept from an earlier day in this process ({info.variant} solved it in "
                f"{info.seconds:.2f} s)")
        return _copies(tables), dataclasses.replace(info, seconds=time.perf_counter() - start,
                                                    note=note)
    tables, info = solve()
    tables = tuple(_frozen(t) for t in tables)
    size = sum(t.nbytes for t in tables if t is not None)
    with _lock:
        _kept[key] = (tables, info, size)
        while len(_kept) > 1 and sum(s for _, _, s in _kept.values()) > KEEP_BYTES:
            _kept.popitem(last=False)
    return _copies(tables), info


def _copies(tables: tuple) -> tuple:
    return tuple(None if t is None else t.copy() for t in tables)


def _digest(kind: str, variant: str, inputs: tuple[np.ndarray, ...]) -> bytes:
    h = hashlib.blake2b(f"{kind}\0{variant}".encode())
    for a in inputs:
        a = np.ascontiguousarray(a)
        h.update(f"\0{a.dtype.str}{a.shape}".encode())
        h.update(a.data)
    return h.digest()


def _frozen(a: np.ndarray | None) -> np.ndarray | None:
    if a is not None:
        a.flags.writeable = False
    return a
