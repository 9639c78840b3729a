"""What the map shows of the day at an instant: every tug's leg with its timetable (``TugFrame``,
so a view can place a tug on its road at any moment near the frame's time), what a side panel
says about each tug (``TugInfo``) and about the day (``day_facts``). No Qt: the GUI draws these,
tests and tools read them."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .simulation import Simulation
from .tugs import DRIVING, HANDLING

SPAN = 1.0e7           # per-tug offset in the flat leg timetable (> any simulated time)


@dataclass
class TugFrame:
    """Where every tug is at any instant near ``t``: its leg (roads and times) if driving, its
    node otherwise. ``valid_from[i]``: from when this description of tug i holds."""
    t: float
    node_xy: np.ndarray          # tugs × 2: the node each tug is at (or last reached)
    valid_from: np.ndarray       # tugs
    driving: np.ndarray          # indices of driving tugs
    keys: np.ndarray             # flat timetable: slot * SPAN + time
    xs: np.ndarray
    ys: np.ndarray
    lo: np.ndarray               # per driving tug: first index in the flat arrays
    hi: np.ndarray               # per driving tug: last index
    _slots: np.ndarray | None = field(default=None, init=False, repr=False, compare=False)

    def leg_times(self, tug: int) -> np.ndarray | None:
        """Arrival times at the nodes of the leg ``tug`` drives, or None when it is not driving."""
        slot = np.flatnonzero(self.driving == tug)
        if not len(slot):
            return None
        k = int(slot[0])
        return self.keys[self.lo[k]:self.hi[k] + 1] - k * SPAN

    def positions(self, t: float, tugs: np.ndarray | None = None) -> np.ndarray:
        """tugs × 2 positions at simulated time ``t`` (clamped to each leg's ends): every tug's,
        or those of the tug indices ``tugs`` in that order."""
        if tugs is None:
            out, slots, rows = self.node_xy.copy(), np.arange(len(self.driving)), self.driving
        else:
            out = self.node_xy[tugs]
            slot = self._slot()[tugs]
            rows = np.flatnonzero(slot >= 0)
            slots = slot[rows]
        if len(slots):
            q = slots * SPAN + t
            k = np.searchsorted(self.keys, q, side="right") - 1
            k = np.clip(k, self.lo[slots], self.hi[slots] - 1)
            span = self.keys[k + 1] - self.keys[k]
            f = np.clip((q - self.keys[k]) / np.where(span > 0, span, 1.0), 0.0, 1.0)
            out[rows, 0] = self.xs[k] + f * (self.xs[k + 1] - self.xs[k])
            out[rows, 1] = self.ys[k] + f * (self.ys[k + 1] - self.ys[k])
        return out

    def _slot(self) -> np.ndarray:
        """Per tug, its place among the driving tugs (-1: not driving)."""
        if self._slots is None:
            self._slots = np.full(len(self.node_xy), -1, dtype=np.int64)
            self._slots[self.driving] = np.arange(len(self.driving))
        return self._slots


@dataclass
class TugInfo:
    """What the side panel says about one tug."""
    id: int
    activity: int
    node: int
    target: int
    load: int
    capacity: int
    pickups: int                 # bags promised to it, still waiting
    dests: list[int]             # where the bags on board go
    depot: int


def tug_frame(sim: Simulation) -> TugFrame:
    x, y = sim.net.x, sim.net.y
    tugs = sim.tugs
    nodes = np.fromiter((t.node for t in tugs), dtype=np.int64, count=len(tugs))
    node_xy = np.column_stack([x[nodes], y[nodes]]) if len(tugs) else np.empty((0, 2))
    valid = np.full(len(tugs), sim.t)
    driving = [i for i, t in enumerate(tugs) if t.activity == DRIVING and len(t.path) >= 2]
    for i, tug in enumerate(tugs):
        if tug.activity == HANDLING and len(tug.times):
            valid[i] = min(sim.t, float(tug.times[-1]))
    if not driving:
        empty = np.empty(0)
        return TugFrame(sim.t, node_xy, valid, np.empty(0, dtype=np.int64), empty, empty, empty,
                        np.empty(0, dtype=np.int64), np.empty(0, dtype=np.int64))
    paths = [tugs[i].path for i in driving]
    times = [tugs[i].times for i in driving]
    lengths = np.fromiter((len(p) for p in paths), dtype=np.int64, count=len(paths))
    hi = np.cumsum(lengths) - 1
    lo = hi - lengths + 1
    path = np.concatenate(paths)
    keys = np.concatenate(times) + np.repeat(np.arange(len(driving)) * SPAN, lengths)
    driving = np.asarray(driving, dtype=np.int64)
    valid[driving] = [t[0] for t in times]
    return TugFrame(sim.t, node_xy, valid, driving, keys, x[path], y[path], lo, hi)


def tug_infos(sim: Simulation) -> list[TugInfo]:
    bags, tugs = sim.bags, sim.tugs
    n, nodes = len(tugs), len(bags.at_node)
    ids = np.fromiter((t.id for t in tugs), dtype=np.int64, count=n)
    # every tug's bags on board (and promised) at once: owner = the tug's place in the list
    loads = [sim.onboard(t) for t in tugs]
    owner = np.repeat(np.arange(n), [len(a) for a in loads])
    on = np.concatenate(loads).astype(np.int64) if n else np.empty(0, dtype=np.int64)
    pairs = np.unique(owner * nodes + bags.set.dest[on])           # (tug, destination), sorted
    cut = np.searchsorted(pairs // nodes, np.arange(n + 1)).tolist()
    dests = (pairs % nodes).tolist()
    promised = [t.pickup for t in tugs]
    owner = np.repeat(np.arange(n), [len(p) for p in promised])
    picked = np.concatenate(promised).astype(np.int64) if n else np.empty(0, dtype=np.int64)
    pickups = np.bincount(owner[bags.reserved[picked] == ids[owner]], minlength=n).tolist()
    on_tug = bags.on_tug[ids].tolist()
    return [TugInfo(tug.id, int(tug.activity), int(tug.node), int(tug.target), on_tug[i],
                    int(tug.capacity), pickups[i], dests[cut[i]:cut[i + 1]], int(tug.depot))
            for i, tug in enumerate(tugs)]


def day_facts(sim: Simulation) -> dict:
    """The day in numbers, as the Simulation panel states it: tugs, flights, bags, its end, the
    key nodes the dispatcher's all-pairs runs on, the route engine and the recompute policy."""
    return {"tugs": len(sim.tugs), "flights": len(sim.schedule.flights),
            "bags": len(sim.bags.set), "end": sim.end_time,
            "key_nodes": len(sim.tables.keys.key_nodes), "route_engine": sim.tables.engine,
            "recompute": str(sim.tables.policy)}
