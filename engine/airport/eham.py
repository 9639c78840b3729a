"""Amsterdam Schiphol (EHAM), bundled as ``airports/eham.json``: the OpenStreetMap import of an
Overpass answer (data © OpenStreetMap contributors, ODbL) with Schiphol's calibrated day and
fleet (airports/README.md, "Schiphol", cites each figure)::

    python -m engine.airport.eham ../shared/data/EHAM_schiphol_overpass_aeroway_2025-01-02.json
"""

from __future__ import annotations

import math
import sys
from dataclasses import replace
from pathlib import Path

from .layout import Airport, ScheduleParams
from .osm_import import import_osm

# 473,814 flights and 66.8 million passengers in 2024, 24.3 million of them connecting (36%):
# ~647 turns a day, ~141 passengers a movement, ~one checked bag each. A rolling day like the
# hub's (a wave every 30 min for 18 h); gate_use 0.065 gives ~650 turns on its 302 stands.
EHAM_DAY = ScheduleParams(bank_period_s=1800.0, first_bank_s=1800.0, banks=36, gate_use=0.065,
                          transfer_mean=50.0, checkin_mean=88.0, min_connection_s=2400.0,
                          max_connection_s=7200.0)
EHAM_TUGS = 880   # in all, shared over the depots: where its fleet curve flattens (sweep-eham-fleet.toml)


def build_eham(osm_file) -> Airport:
    """The Schiphol layout from ``osm_file`` with its day and ``EHAM_TUGS`` tugs."""
    airport, _ = import_osm(osm_file, name="Amsterdam Schiphol (EHAM)", schedule=EHAM_DAY)
    per_depot = math.ceil(EHAM_TUGS / len(airport.fleets))
    airport.fleets = [replace(f, count=per_depot) for f in airport.fleets]
    airport.description += (" The day is calibrated to Schiphol's 2024 traffic "
                            "(airports/README.md, \"Schiphol\").")
    return airport


if __name__ == "__main__":
    from .layout_io import AIRPORTS_DIR, save_airport
    out = Path(sys.argv[2]) if len(sys.argv) > 2 else AIRPORTS_DIR / "eham.json"
    save_airport(build_eham(sys.argv[1]), out)
