"""``bench --problem apsp``: Floyd–Warshall variants and peers up the paper's size ladder on its
random graphs, bisecting the largest n within the budget, then the airports' cost matrices."""

from __future__ import annotations

from . import apsp
from .apsp import DEFAULT_LADDER as DEFAULT_SIZES, PEERS, Point as POINT, format_table, is_random_graph  # noqa: F401
from .apsp_run import airport_costs, planned_points, run_benchmark
from .options import Choice, Steps
from .report import Report, fmt_ms, short_ms

TITLE = "all-pairs shortest paths: Floyd–Warshall variants (seeds 000–002)"
NAME = "Floyd–Warshall"
COLUMNS = ("variant", "graph", "n", "ms end to end", "ms solve", "relaxations/s", "check", "device")
NAMES_DEVICES = True  # the plot's title names the devices the points ran on
OPTION_FLAGS = {"densities": "--density", "bisect_steps": "--bisect"}
OPTIONS = (
    Choice("densities", "Density:", "bench/density",
           {"15%": (15,), "85%": (85,), "15% and 85%": (15, 85)}, "15%",
           "Edge density of the paper's random graphs"),
    Steps("bisect_steps", "Bisection:", "bench/bisect", 0, 10, 4,
          "Then halve the gap between the last size that fit and the first past the budget this "
          "many times: a sharper largest n", suffix=" steps", off="off"),
)

PEER_TIPS = {"scipy": "scipy.sparse.csgraph.floyd_warshall (compiled C), same graph, same check",
             "networkx": "networkx.floyd_warshall_numpy (Python + numpy): slow past a few "
                         "hundred vertices"}


def registry() -> list:
    from ..apsp import variants as apsp_variants
    return apsp_variants()


def variants(available_only: bool = False) -> list[str]:
    return [v.name for v in registry() if v.available or not available_only] + list(PEERS)


def plan_size(variants, sizes, airports, densities=(15, 85), bisect_steps=4, **_) -> int:
    return planned_points(variants, sizes, densities, airports or (), bisect_steps)


def add_arguments(group) -> None:
    group.add_argument("--density", nargs="+", type=int, default=[15, 85], metavar="PCT",
                       help="edge densities of the paper's random graphs (default: 15 85)")
    group.add_argument("--bisect", type=int, default=4, metavar="STEPS",
                       help="bisection steps refining the largest n within the budget (default: 4)")


def options(args) -> dict:
    return {"densities": args.density, "bisect_steps": args.bisect}


def benchmark(variants, sizes, budget_s, airports, command, hooks, densities=(15, 85),
              bisect_steps=4, measure_fn=apsp.measure):
    return run_benchmark(variants, sizes, densities, airport_costs(airports), budget_s, command,
                         hooks, bisect_steps, measure_fn)


def table_row(p) -> list[str]:
    """A point's cells under ``COLUMNS``."""
    return [p.variant, p.graph, f"{p.n:,}", fmt_ms(p.median_ms), fmt_ms(p.kernel_median_ms),
            f"{p.relaxations_per_s:.2e}", p.check, p.device]


def ladder_of(p) -> str | None:
    """A point's curve in the plot: its random graph's density; None for an airport."""
    return p.graph if is_random_graph(p.graph) else None


def summary_html(report: Report) -> str:
    """The largest n within the budget per random-graph ladder, then, on a line of its own,
    the fastest variant on each airport (an airport has one size: no "largest n")."""
    return "<br>".join(line for line in (_ladders_html(report), _airports_html(report.points)) if line)


def _ladders_html(report: Report) -> str:
    best: dict[str, dict[str, int]] = {}
    over = set()   # (graph, variant) that went over the budget at some n: its ladder reached it
    for p in report.points:
        if not is_random_graph(p.graph):
            continue
        if p.kernel_median_ms / 1e3 <= report.budget_s:
            g = best.setdefault(p.graph, {})
            g[p.variant] = max(g.get(p.variant, 0), p.n)
        else:
            over.add((p.graph, p.variant))
    if not best:
        return ""
    parts = []
    for graph, by_variant in best.items():
        ranked = sorted(by_variant.items(), key=lambda kv: -kv[1])
        parts.append(f"{graph}: " + ", ".join(
            f"{v} {n:,}" + ("" if (graph, v) in over else " (budget not reached)")
            for v, n in ranked))
    return f"<b>Largest n measured within {report.budget_s:g} s</b> — " + "; ".join(parts)


def _airports_html(points: list) -> str:
    by_airport: dict[str, list] = {}
    for p in points:
        if not is_random_graph(p.graph):
            by_airport.setdefault(p.graph, []).append(p)
    if not by_airport:
        return ""
    parts = []
    for airport, at in sorted(by_airport.items(), key=lambda kv: -kv[1][0].n):
        ranked = sorted(at, key=lambda p: p.kernel_median_ms)
        text = (f"{airport} ({at[0].n:,} vertices): fastest {ranked[0].variant} "
                f"{short_ms(ranked[0].kernel_median_ms)} ms")
        if len(ranked) > 1:
            text += f", next {ranked[1].variant} {short_ms(ranked[1].kernel_median_ms)} ms"
        parts.append(text)
    return "<b>Airports, solve time (median)</b> — " + "; ".join(parts)
