"""``python main.py analyze AIRPORT``: the layout analysis headless — the minimum service-road
network, the layout's road against it, and the roads everything hangs on (bridges).

    python main.py analyze hub-atl --json analysis.json
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from ..airport.analysis import LayoutAnalysis, analyze_layout
from ..airport.layout_io import bundled_airports, load_bundled_or_file


def add_arguments(p) -> None:
    p.add_argument("airport", help="a bundled airport (" + ", ".join(bundled_airports())
                   + ") or the path of a layout file")
    p.add_argument("--json", metavar="FILE", help="also write the analysis as JSON to FILE")
    p.add_argument("--variant", default="auto",
                   help="minimum spanning forest variant (default auto: the fastest here)")


def report_text(a: LayoutAnalysis, names: dict[str, str] | None = None) -> str:
    """The analysis as the command prints it (and the app shows it); nodes by their names
    (``names``: id → name), the id beside where the two differ."""
    names = names or {}

    def node(i: str) -> str:
        return i if names.get(i, i) == i else f"{names[i]} ({i})"
    lines = [f"{a.airport}: {a.nodes} nodes, {a.roads} roads"
             + (f" ({a.one_way_roads} one-way, taken as two-way: the question is how much road "
                "connects the nodes, not which way tugs drive it)" if a.one_way_roads else ""),
             f"Minimum service-road network: {a.summary()}"]
    if a.bridges:
        lines.append(f"Roads whose closure cuts a gate, sort station or depot off ({len(a.bridges)}):")
        for b in a.bridges:
            shown = ", ".join(map(node, b.cut_off[:8])) + (f" and {len(b.cut_off) - 8} more"
                                                           if len(b.cut_off) > 8 else "")
            lines.append(f"  {node(b.a)}–{node(b.b)} ({b.length_m:.0f} m): cuts off {shown} "
                         f"({b.side_nodes} node{'s' * (b.side_nodes != 1)} on that side)")
    else:
        lines.append("No single road's closure cuts a gate, sort station or depot off.")
    lines.append(f"Minimum network computed by {a.variant} on {a.device} in "
                 f"{a.seconds * 1e3:.2f} ms"
                 + (f" ({a.note})" if a.note else ""))
    return "\n".join(lines)


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
