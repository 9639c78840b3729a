"""``python main.py analyze AIRPORT``: the layout analysis headless — the minimum service-road
network, the layout's road against it, and the roads everything hangs on (bridges).

    python main.py analyze hub-atl --json analysis.json
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from ..airport.analysis import analyze_layout
from ..airport.analysis_report import report_text
from ..airport.layout_io import bundled_airports, load_bundled_or_file


def add_arguments(p) -> None:
    p.add_argument("airport", help="a bundled airport (" + ", ".join(bundled_airports())
                   + ") or the path of a layout file")
    p.add_argument("--json", metavar="FILE", help="also write the analysis as JSON to FILE")
    p.add_argument("--variant", default="auto",
                   help="minimum spanning forest variant (default auto: the fastest here)")


def run(args) -> int:
    airport = load_bundled_or_file(args.airport)  # a bad file: main.py prints its problems, exit 2
    try:
        analysis = analyze_layout(airport, args.variant)
    except ValueError as exc:  # an unknown variant
        print(f"analyze: {exc}", file=sys.stderr)
        return 2
    print(report_text(analysis, {n.id: n.name for n in airport.nodes}))
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps(analysis.to_dict(), indent=1), encoding="utf-8")
        print(f"wrote {args.json}")
    return 0
