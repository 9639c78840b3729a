"""Tugs: where each one is and what it is doing.

A tug is either idle at a node, driving a leg (a road route with the time it reaches each vertex),
or handling bags at a stop. Where a tug is between two nodes at any instant is interpolated from
its leg (``engine.sim.frame.TugFrame``, what the map draws).

The fleet's state is a ``TugTable`` of arrays (one entry per tug; a leg's route and times, and
the bags promised to and loaded on a tug, in rows of 2-D arrays), so a compiled event loop can step it
(docs/event-loop.md); a ``Tug`` is a view of one entry, read and written as attributes.
"""

from __future__ import annotations

import numpy as np

IDLE, DRIVING, HANDLING = 0, 1, 2
ACTIVITY_NAMES = {IDLE: "idle", DRIVING: "driving", HANDLING: "handling"}

# per-tug scalars: name -> dtype
_SCALARS = {"depot": np.int64, "capacity": np.int64, "speed_mps": np.float64,
            "node": np.int64,             # last node reached
            "activity": np.int64, "target": np.int64,   # stop the leg ends at
            "busy_until": np.float64, "distance_m": np.float64,
            "busy_s": np.float64,         # driving + handling seconds, clipped to the run
            "retired": np.bool_,          # out of service: takes no new job (a what-if edit)
            "carts": np.int64,            # stands it can carry bags for at once (0: any)
            "path_len": np.int64, "times_len": np.int64, "pickup_len": np.int64,
            "load_len": np.int64,
            "plan_kind": np.int64, "plan_p": np.int64, "plan_len": np.int64}   # fleet's round
# per-tug rows: name -> dtype, the length field
_ROWS = {"path": (np.int64, "path_len"), "times": (np.float64, "times_len"),
         "pickup": (np.int64, "pickup_len"),   # bags promised to it (reserved), in order
         "load": (np.int64, "load_len"),       # bags on it, in the order they were loaded
         "plan": (np.int64, "plan_len")}       # bags of the job planned for it this round


class TugTable:
    """Every tug's state as arrays of ``room`` entries, ``n`` in use; rows ``width`` wide."""

    def __init__(self, room: int = 16, width: int = 64):
        self.n = 0
        for name, dtype in _SCALARS.items():
            setattr(self, name, np.zeros(room, dtype=dtype))
        for name, (dtype, _) in _ROWS.items():
            setattr(self, name, np.zeros((room, width), dtype=dtype))

    def add(self, depot: int, capacity: int, speed_mps: float, carts: int = 0) -> "Tug":
        """A new tug idle at ``depot``."""
        if self.n == len(self.node):
            self._resize(2 * self.n, self.path.shape[1])
        k, self.n = self.n, self.n + 1
        for name in _SCALARS:
            getattr(self, name)[k] = 0
        self.depot[k] = self.node[k] = depot
        self.capacity[k], self.speed_mps[k], self.carts[k] = capacity, speed_mps, carts
        self.target[k] = -1
        self.widen(capacity)
        return Tug(self, k)

    def widen(self, width: int) -> None:
        """Rows at least ``width`` wide (a load never outgrows a tug's largest capacity)."""
        if width > self.path.shape[1]:
            self._resize(len(self.node), max(2 * self.path.shape[1], width))

    def set_row(self, name: str, k: int, values: np.ndarray) -> None:
        """Row ``name`` of tug ``k`` set to ``values`` (the rows widen to fit)."""
        self.widen(len(values))
        getattr(self, name)[k, : len(values)] = values
        getattr(self, _ROWS[name][1])[k] = len(values)

    def row(self, name: str, k: int) -> np.ndarray:
        """Row ``name`` of tug ``k`` (read-only: set it with ``set_row``)."""
        out = getattr(self, name)[k, : getattr(self, _ROWS[name][1])[k]]
        out.flags.writeable = False
        return out

    def _resize(self, room: int, width: int) -> None:
        for name in _SCALARS:
            old = getattr(self, name)
            new = np.zeros(room, dtype=old.dtype)
            new[: len(old)] = old
            setattr(self, name, new)
        for name in _ROWS:
            old = getattr(self, name)
            new = np.zeros((room, width), dtype=old.dtype)
            new[: old.shape[0], : old.shape[1]] = old
            setattr(self, name, new)


def _scalar(name: str, cast):
    def get(self):
        return cast(self.table.__dict__[name][self.id])

    def put(self, value):
        self.table.__dict__[name][self.id] = value
    return property(get, put)


def _row(name: str):
    def get(self):
        return self.table.row(name, self.id)

    def put(self, value):
        self.table.set_row(name, self.id, value)
    return property(get, put)


class Tug:
    """One tug of a ``TugTable``: its fields as attributes (Python numbers; the rows ``path``,
    ``times`` and ``pickup`` as read-only arrays, set whole)."""

    __slots__ = ("table", "id")

    def __init__(self, table: TugTable, k: int):
        self.table, self.id = table, k

    depot = _scalar("depot", int)
    capacity = _scalar("capacity", int)
    speed_mps = _scalar("speed_mps", float)
    node = _scalar("node", int)
    activity = _scalar("activity", int)
    target = _scalar("target", int)
    busy_until = _scalar("busy_until", float)
    distance_m = _scalar("distance_m", float)
    busy_s = _scalar("busy_s", float)
    retired = _scalar("retired", bool)
    carts = _scalar("carts", int)
    path = _row("path")
    times = _row("times")
    pickup = _row("pickup")

    def start_leg(self, path: np.ndarray, times: np.ndarray, target: int) -> None:
        """Drive ``path``, reaching its vertices at ``times`` (absolute seconds)."""
        self.path = path
        self.times = times
        self.target = target
        self.activity = DRIVING
        self.busy_until = float(times[-1])
