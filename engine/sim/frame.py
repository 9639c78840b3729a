"""What the map shows of the day at an instant: every tug's leg with its timetable (``TugFrame``,
so a view can place a tug on its road at any moment near the frame's time), what a side panel
says about each tug (``TugInfo``) and about the day (``day_facts``). No Qt: the GUI draws these,
tests and tools read them."""

from __future__ import annotations

from dataclasses import dataclass

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

    def leg_times(self, tug: int) -> np.ndarray | None:
        """Arrival times at the nodes of the leg ``tug`` drives, or None when it is not driving."""
        slot = np.flatnonzero(self.driving == tug)
        if not len(slot):
            return None
        k = int(slot[0])
        return self.keys[self.lo[k]:self.hi[k] + 1] - k * SPAN

    def positions(self, t: float) -> np.ndarray:
        """tugs × 2 positions at simulated time ``t`` (clamped to each leg's ends)."""
        out = self.node_xy.copy()
        if len(self.driving):
            q = np.arange(len(self.driving)) * SPAN + t
            k = np.searchsorted(self.keys, q, side="right") - 1
            k = np.clip(k, self.lo, self.hi - 1)
            span = self.keys[k + 1] - self.keys[k]
            f = np.clip((q - self.keys[k]) / np.where(span > 0, span, 1.0), 0.0, 1.0)
            out[self.driving, 0] = self.xs[k] + f * (self.xs[k + 1] - self.xs[k])
            out[self.driving, 1] = self.ys[k] + f * (self.ys[k + 1] - self.ys[k])
        return out


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
    n = len(sim.tugs)
    node_xy = np.empty((n, 2))
    valid = np.full(n, sim.t)
    driving, keys, xs, ys, lo, hi = [], [], [], [], [], []
    start = 0
    for i, tug in enumerate(sim.tugs):
        node_xy[i] = x[tug.node], y[tug.node]
        if tug.activity == DRIVING and len(tug.path) >= 2:
            slot = len(driving)
            driving.append(i)
            keys.append(slot * SPAN + tug.times)
            xs.append(x[tug.path])
            ys.append(y[tug.path])
            lo.append(start)
            start += len(tug.path)
            hi.append(start - 1)
            valid[i] = tug.times[0]
        elif tug.activity == HANDLING and len(tug.times):
            valid[i] = min(sim.t, float(tug.times[-1]))
    cat = (lambda a: np.concatenate(a)) if driving else (lambda a: np.empty(0))
    return TugFrame(sim.t, node_xy, valid, np.asarray(driving, dtype=np.int64), cat(keys),
                    cat(xs), cat(ys), np.asarray(lo, dtype=np.int64),
                    np.asarray(hi, dtype=np.int64))


def tug_infos(sim: Simulation) -> list[TugInfo]:
    bags = sim.bags
    out = []
    for tug in sim.tugs:
        ids = sim.onboard(tug)
        dests = np.unique(bags.set.dest[ids]).tolist() if len(ids) else []
        pickups = int(np.count_nonzero(bags.reserved[tug.pickup] == tug.id)) if len(tug.pickup) else 0
        out.append(TugInfo(tug.id, int(tug.activity), int(tug.node), int(tug.target),
                           int(bags.on_tug[tug.id]), int(tug.capacity), pickups, dests,
                           int(tug.depot)))
    return out


def day_facts(sim: Simulation) -> dict:
    """The day in numbers, as the Simulation panel states it: tugs, flights, bags, its end, the
    key nodes the dispatcher's all-pairs runs on, the route engine and the recompute policy."""
    return {"tugs": len(sim.tugs), "flights": len(sim.schedule.flights),
            "bags": len(sim.bags.set), "end": sim.end_time,
            "key_nodes": len(sim.tables.keys.key_nodes), "route_engine": sim.tables.engine,
            "recompute": str(sim.tables.policy)}
