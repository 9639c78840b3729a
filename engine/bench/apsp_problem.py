"""``bench --problem apsp``: Floyd–Warshall variants and peers up the paper's size ladder on its
random graphs, bisecting the largest n within the budget, then the airports' cost matrices."""

from . import apsp
from .apsp import DEFAULT_LADDER as DEFAULT_SIZES, PEERS, Point as POINT, format_table  # noqa: F401
from .run import airport_costs, planned_points, run_benchmark

TITLE = "all-pairs shortest paths: Floyd–Warshall variants (seeds 000–002)"


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
