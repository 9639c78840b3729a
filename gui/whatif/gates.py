"""The gates' flights as the edited day has them, for the gate menu: which gates are busy at a
simulated time, and which of a closed gate's flights would overlap another gate's own."""

from __future__ import annotations

from engine.sim.edit_io import clock

SOON_S = 1800.0      # a gate with a flight on the ground within this long counts as busy


class GateFlights:
    """``flights``: (flight id, planned gate id, on-block s, off-block s) of the day."""

    def __init__(self, flights=()):
        self.flights = list(flights)

    @staticmethod
    def where(gate: str, moved: dict[str, str]) -> str:
        """The gate a flight planned at ``gate`` uses now (closed gates send theirs on)."""
        seen = set()
        while gate in moved and gate not in seen:
            seen.add(gate)
            gate = moved[gate] or gate
        return gate

    def at(self, gate: str, moved: dict[str, str]) -> list[tuple]:
        return [f for f in self.flights if self.where(f[1], moved) == gate]

    def busy(self, gate: str, t: float, moved: dict[str, str]) -> list[tuple]:
        """Its flights on the ground at ``t`` or within ``SOON_S`` of it."""
        return [f for f in self.at(gate, moved) if f[2] <= t + SOON_S and f[3] >= t]

    def overlaps(self, gate: str, to: str, t: float, moved: dict[str, str]) -> list[str]:
        """Each pair of ``gate``'s flights still to leave and ``to``'s own on the ground at the
        same time, in words ("DL12 10:05–10:50 with AA7 10:30–11:10")."""
        mine = [f for f in self.at(gate, moved) if f[3] > t]
        theirs = [f for f in self.at(to, moved) if f[3] > t]
        return [f"{a[0]} {clock(a[2])}–{clock(a[3])} with {b[0]} {clock(b[2])}–{clock(b[3])}"
                for a in mine for b in theirs if a[2] < b[3] and b[2] < a[3]]


def busy_text(flights: list[tuple]) -> str:
    """ "busy: DL12 on the ground 10:05–10:50" for the first of ``flights``."""
    f = flights[0]
    more = f" (+{len(flights) - 1})" if len(flights) > 1 else ""
    return f"busy: {f[0]} on the ground {clock(f[2])}–{clock(f[3])}{more}"
