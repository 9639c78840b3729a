"""Who goes where next: the route tables, the waiting bags, and the dispatch policies.

``POLICIES`` is the registry every front end reads (``simulate --policy``, the sweep's policy
factor, the app's Simulation dock): name -> class, each with a ``label`` and a ``description``.
``DEFAULT_POLICY`` is the one a day runs unless told otherwise, and ``DEFAULT_WHY`` says why.
"""

from __future__ import annotations

from .fleet import FleetDispatcher
from .pickups import PER_BAG_S, STOP_S, Pickups, latest_departure, within_carts
from .rules import (
    EarliestDeadlineDispatcher,
    NearestJobDispatcher,
    ShortestPathDispatcher,
)
from .tables import Recompute, RecomputePolicy, RouteTables

POLICIES = {cls.name: cls for cls in (FleetDispatcher, ShortestPathDispatcher,
                                      EarliestDeadlineDispatcher, NearestJobDispatcher)}
DEFAULT_POLICY = FleetDispatcher.name
DEFAULT_WHY = ("the default: fewest misconnected bags on both bundled airports at every fleet "
               "size swept (docs/dispatch.md)")

__all__ = [
    "DEFAULT_POLICY",
    "DEFAULT_WHY",
    "PER_BAG_S",
    "POLICIES",
    "STOP_S",
    "Pickups",
    "Recompute",
    "RecomputePolicy",
    "RouteTables",
    "latest_departure",
    "make_dispatcher",
    "within_carts",
]


def make_dispatcher(name: str):
    try:
        return POLICIES[name]()
    except KeyError:
        raise ValueError(f"unknown dispatch policy {name!r}; choose one of: "
                         + ", ".join(POLICIES)) from None
