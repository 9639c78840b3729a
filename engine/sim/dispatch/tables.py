"""The all-pairs tables every dispatcher reads.

``RouteTables`` holds two all-pairs results from ``engine.apsp.solve``: plain tug travel time,
solved once (it never changes), and the paper's bag-aware cost for the bags now waiting, solved
again when the waiting bags change — on every change, or at most every N simulated seconds.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ...airport.cost import DECISECONDS
from ..keygraph import KeyGraph
from ..network import RoadNetwork, Router
from ..route_engine import ALL_PAIRS, all_pairs_solver, check_engine, key_graph


@dataclass
class Recompute:
    t: float           # simulated seconds
    variant: str       # the variant that really ran
    seconds: float     # wall time of the solve
    kind: str          # "travel-time" (once) or "bag-aware"
    note: str | None = None


class RecomputePolicy:
    """'change' (solve whenever the waiting bags changed) or an interval in simulated seconds."""

    def __init__(self, spec: str | float):
        spec = str(spec).strip().lower()
        if spec in ("change", "every-change", "every"):
            self.interval = 0.0
        else:
            try:
                self.interval = float(spec.rstrip("s"))
            except ValueError:
                raise ValueError(f"recompute policy must be 'change' or a number of simulated "
                                 f"seconds, got {spec!r}") from None
            if not self.interval >= 0:
                raise ValueError(f"recompute interval must be >= 0, got {spec}")

    def __str__(self) -> str:
        return "every change" if self.interval == 0 else f"at most every {self.interval:g} s"


def _no_tugs() -> np.ndarray:
    return np.empty(0, np.int64)


class RouteTables:
    """Plain travel time on the full road graph (solved once) and the bag-aware cost between key
    nodes (``KeyGraph``, solved again as the policy allows)."""

    def __init__(self, net: RoadNetwork, variant: str, policy: RecomputePolicy, t: float = 0.0,
                 engine: str = ALL_PAIRS, tug_nodes: Callable[[], np.ndarray] = _no_tugs):
        """``t``: the simulated time of the solves (0 at the start of a day; later when an edit
        changes the roads). ``engine``: a name of ``route_engine.ENGINES``; ``variant`` is one
        of its family (Floyd–Warshall or SSSP). ``tug_nodes()``: where the day's tugs are now
        (the from-tugs engine solves from there)."""
        self.net = net
        self.engine = check_engine(engine)
        self.variant = variant
        self.tug_nodes = tug_nodes
        self.policy = policy
        self.t0 = t
        self.log: list[Recompute] = []
        self.plain_w = net.time_matrix()
        r = all_pairs_solver(engine)(self.plain_w, variant)
        self.log.append(Recompute(t, r.variant, r.seconds, "travel-time", r.note))
        self.plain = r.dist                      # deciseconds
        self.plain_s = self.plain / DECISECONDS  # seconds
        self.keys: KeyGraph | None = None
        self.bag_version = None
        self.bag_time = -np.inf

    def set_key_nodes(self, key: np.ndarray) -> None:
        """Where tugs stop and bags wait; solves the static junction subgraph once."""
        self.keys = key_graph(self.engine, self.net, key, self.variant, self.tug_nodes)
        for variant, seconds, note in self.keys.solves:
            self.log.append(Recompute(self.t0, variant, seconds, "junctions", note))

    def refresh(self, t: float, counts: np.ndarray, version: int) -> None:
        """Solve the bag-aware all-pairs again if the bags changed and the policy allows."""
        k = self.keys
        if not k.solved or (version != self.bag_version
                            and t - self.bag_time >= self.policy.interval):
            r = k.update(counts, self.variant)
            self.log.append(Recompute(t, r.variant, r.seconds + k.build_seconds, "bag-aware",
                                      r.note))
            self.bag_version, self.bag_time = version, t

    def plain_route(self, i: int, j: int) -> np.ndarray:
        return self.plain_routes.route(i, j)

    @functools.cached_property
    def plain_routes(self) -> Router:
        return self.net.router(self.plain_w, self.plain)
