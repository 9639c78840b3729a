"""The layout analysis as text: what ``python main.py analyze`` prints and the app shows."""

from __future__ import annotations

from .analysis import LayoutAnalysis


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
