"""``bench --problem sssp``: single-source shortest-path variants and peers on the graph families
of seed 004 — road-like grids, GTgraph-style uniform random graphs, R-MAT — up a size ladder,
then on the bundled airports' full road graphs; from one source, 96 sources and all sources.

A ladder (one variant, one family, one count of sources) stops at the first size whose solve is
over the budget, or before a size whose time, extrapolated linearly from the last size (or from
fewer sources on the same graph), would be: the seed's O(n²) Dijkstra stops early, and the run
says where and why (``answers["stopped"]``). Answers of more than ``MAX_LABELS`` distances per
call (sources × n) are not asked for.
"""

from __future__ import annotations


import numpy as np

from ..graph_families import FAMILIES
from ..sssp import prepare
from ..sssp.generators import family_graph
from . import sssp
from .options import SPARSE_FAMILIES, Words
from .report import Report, fmt_ms, machine_info, stopped_and_failed_lines, stopped_html
from .run import BenchHooks, Run, Stopped
from .sssp import PEERS, SsspPoint as POINT  # noqa: F401

TITLE = "single-source shortest paths on sparse graphs (seed 004), from 1, 96 or all sources"
NAME = "Single-source shortest paths"
COLUMNS = ("variant", "graph", "n", "sources", "ms warm", "ms solve", "ms first", "ms upload",
           "check", "device")
NAMES_DEVICES = False  # peers run on several devices: the plot names the machine
DEFAULT_SIZES = (1024, 16384, 262144, 4194304)
SOURCE_COUNTS = ("1", "96", "all")
MAX_LABELS = 1 << 27  # sources × n of one call: 1 GiB of float64 answer


OPTION_FLAGS = {"families": "--families", "degrees": "--degree", "source_counts": "--sources"}
PEER_TIPS = {"scipy": "scipy.sparse.csgraph.dijkstra (compiled C, one thread), same graph",
             "networkx": "networkx.single_source_dijkstra_path_length per source (Python)",
             "fw-gpu-fast": "Floyd–Warshall's gpu-fast on the dense matrix: the APSP peer of "
                            "all sources (timed only with all sources)"}


def parse_sources(text: str) -> tuple[str, ...]:
    """"1 96 all" -> ("1", "96", "all"); ValueError naming the bad entry."""
    counts = tuple(dict.fromkeys(text.replace(",", " ").split()))
    bad = [c for c in counts if c not in SOURCE_COUNTS]
    if bad or not counts:
        raise ValueError(f"sources per call are 1, 96 or all, got {' '.join(bad) or 'nothing'}")
    return counts


OPTIONS = (SPARSE_FAMILIES,
           Words("source_counts", "Sources:", "bench/sources", "1 96", parse_sources,
                 "Sources per call: 1, 96 (a fleet of tugs) and/or all"))


def registry() -> list:
    from ..sssp import variants as sssp_variants
    return sssp_variants()


def variants(available_only: bool = False) -> list[str]:
    return ([v.name for v in registry() if v.available or not available_only] +
            [p for p in PEERS if sssp.peer_available(p) or not available_only])


def plan_size(variants, sizes, airports, families=FAMILIES, degrees=(6,),
              source_counts=SOURCE_COUNTS, **_) -> int:
    """The most points ``benchmark`` measures (``airports``: names; None for every bundled)."""
    if airports is None:
        from ..airport.layout_io import bundled_airports
        airports = list(bundled_airports())
    return len(_plan(variants, sizes, families, degrees, source_counts, airports))


def add_arguments(group) -> None:
    group.add_argument("--families", nargs="*", choices=FAMILIES, default=list(FAMILIES),
                       help="generated graph families (default: all; none: the airports only); a "
                            "size N is a grid of isqrt(N)², N uniform random vertices, R-MAT of "
                            "2^round(log2 N)")
    group.add_argument("--degree", nargs="+", type=int, default=[6], metavar="D",
                       help="edges per vertex of the uniform and R-MAT graphs (default: 6, "
                            "GTgraph's 5 M vertices / 30 M edges)")
    group.add_argument("--sources", nargs="+", choices=SOURCE_COUNTS, default=list(SOURCE_COUNTS),
                       help="sources per call: 1, 96 (a fleet of tugs) or all (APSP) (default: all three)")


def options(args) -> dict:
    return {"families": args.families, "degrees": args.degree, "source_counts": args.sources}


def airport_graphs(names: list[str] | None) -> dict:
    """The bundled airports' full road graphs, bag-aware costs of their starting bags."""
    import scipy.sparse as sp
    from ..airport.cost import bag_aware_weights, edge_arrays
    from ..airport.layout_io import bundled_airports, load_airport
    files = bundled_airports()
    unknown = sorted(set(names or ()) - set(files))
    if unknown:
        raise ValueError(f"no bundled airport {', '.join(unknown)}; bundled: {', '.join(files)}")
    out = {}
    for name in (files if names is None else names):
        airport = load_airport(files[name])
        e = edge_arrays(airport)
        w = bag_aware_weights(e, airport.bag_vector())
        out[name] = prepare(sp.coo_matrix((w, (e.src, e.dst)), shape=(e.n, e.n)))
    return out


def pick_sources(n: int, count: str, seed: int = 0) -> np.ndarray:
    if count == "all":
        return np.arange(n, dtype=np.int64)
    rng = np.random.default_rng(seed)
    return np.sort(rng.choice(n, min(int(count), n), replace=False)).astype(np.int64)


class _Ladders:
    """Where each ladder stands: the last time per (variant, family, sources) and per (variant,
    graph), and why a ladder stopped."""

    def __init__(self, budget_s: float):
        self.budget_s = budget_s
        self.by_size: dict = {}     # (variant, family, count) -> (n, seconds)
        self.by_sources: dict = {}  # (variant, graph) -> (sources, seconds)
        self.stopped: dict = {}     # (variant, family, count) -> why

    def why_not(self, variant, family, count, graph, n, k) -> str | None:
        key = (variant, family, count)
        if key in self.stopped:
            return self.stopped[key]
        guesses = []
        if key in self.by_size:
            n0, t0 = self.by_size[key]
            guesses.append((t0 * n / n0, f"n={n0}"))
        if (variant, graph) in self.by_sources:
            k0, t0 = self.by_sources[(variant, graph)]
            guesses.append((t0 * k / k0, f"{k0} sources"))
        for t, base in guesses:
            if t > self.budget_s:
                self.stopped[key] = (f"n={n}, {k} sources not run: ≥ {t:.3g} s extrapolated "
                                     f"linearly from {base}, over the {self.budget_s:g} s budget")
                return self.stopped[key]
        return None

    def measured(self, variant, family, count, graph, point) -> None:
        seconds = point.median_ms / 1e3
        self.by_size[(variant, family, count)] = (point.n, seconds)
        self.by_sources[(variant, graph)] = (point.sources, seconds)
        if seconds > self.budget_s:
            self.stopped[(variant, family, count)] = (f"n={point.n}, {point.sources} sources took "
                                                      f"{seconds:.3g} s, over the {self.budget_s:g} "
                                                      "s budget: no larger size run")


def _plan(variants, sizes, families, degrees, source_counts, airports) -> list[tuple]:
    """(family, degree, n or airport name, count, variant) of every point that may be run;
    Floyd–Warshall, the APSP peer, only from all sources."""
    return [p for p in _every(variants, sorted(set(sizes)), families, degrees, source_counts,
                              airports) if p[4] != "fw-gpu-fast" or p[3] == "all"]


def _every(variants, sizes, families, degrees, source_counts, airports):
    for family in families:
        for degree in (degrees if family != "grid" else degrees[:1]):
            for n in sizes:
                for count in source_counts:
                    for v in variants:
                        yield family, degree, n, count, v
    for name in airports:
        for count in source_counts:
            for v in variants:
                yield "airport", None, name, count, v


def answers_of(points, failures, budget_s, stopped) -> dict:
    """Why ladders stopped, failed points, and APSP by batched SSSP against Floyd–Warshall."""
    fw = {p.graph: p for p in points if p.variant == "fw-gpu-fast"}
    crossover = [{"graph": p.graph, "n": p.n, "m": p.m, "density": p.m / p.n**2,
                  "sssp_ms": p.median_ms, "fw_ms": fw[p.graph].median_ms,
                  "fw_over_sssp": fw[p.graph].median_ms / p.median_ms}
                 for p in points if p.variant == "gpu-fast-sssp" and p.sources == p.n
                 and p.graph in fw]
    return {"stopped": {f"{v} {family} {count} sources": why
                        for (v, family, count), why in stopped.items()},
            "errors": {f"{f.variant} {f.graph} n={f.n}": f.message for f in failures},
            "apsp_by_sssp_vs_fw": crossover}


def benchmark(variants, sizes, budget_s, airports, command, hooks: BenchHooks | None = None,
              families=FAMILIES, degrees=(6,), source_counts=SOURCE_COUNTS,
              measure_fn=sssp.measure) -> Report:
    """Every (graph, sources, variant) of the plan in order, each checked against scipy first;
    returns the report, partial if ``hooks`` stopped the run."""
    hooks = hooks if hooks is not None else BenchHooks()
    graphs = airport_graphs(airports)
    sizes = sorted(set(sizes))
    ladders = _Ladders(budget_s)
    report = Report(command=command, machine=machine_info(), budget_s=budget_s, problem="sssp")
    plan = _plan(variants, sizes, families, degrees, source_counts, graphs)
    run = Run(report, hooks, len(plan),
              lambda points, failures, budget: answers_of(points, failures, budget, ladders.stopped))
    reference, built = sssp.Reference(), {}
    hooks.started(report)
    try:
        for family, degree, size, count, variant in plan:
            if family == "airport":  # each airport a ladder of its own (sources only)
                label_family, graph, g = size, size, graphs[size]
            else:
                if (family, degree, size) not in built:
                    built.clear()  # one generated graph in memory at a time
                    built[family, degree, size] = family_graph(family, size, degree)
                graph, g = built[family, degree, size]
                label_family = family if family == "grid" else f"{family}-d{degree}"
            k = g.n if count == "all" else min(int(count), g.n)
            why = ("answer over the label cap" if k * g.n > MAX_LABELS else
                   "the same as all sources" if count != "all" and k == g.n else
                   ladders.why_not(variant, label_family, count, graph, g.n, k))
            if why:
                run.skip(1)
                continue
            sources = pick_sources(g.n, count)
            p = run.point(variant, graph, g.n, lambda: measure_fn(
                variant, g, sources, graph, family, budget_s, reference))
            if p is None:
                ladders.stopped[(variant, label_family, count)] = f"failed at n={g.n}"
            else:
                ladders.measured(variant, label_family, count, graph, p)
            report.answers = answers_of(report.points, run.failures, budget_s, ladders.stopped)
    except Stopped:
        pass
    return report


def format_table(report: Report) -> str:
    rows = [f"{'variant':18s} {'graph':22s} {'n':>8s} {'m':>9s} {'src':>5s} {'ms warm':>10s} "
            f"{'ms solve':>10s} {'ms first':>10s} {'ms upload':>9s} {'edges/s':>9s}  check"]
    for p in report.points:
        upload = f"{p.upload_ms:9.2f}" if p.upload_ms is not None else f"{'-':>9s}"
        rows.append(f"{p.variant:18s} {p.graph:22s} {p.n:8d} {p.m:9d} {p.sources:5d} "
                    f"{p.median_ms:10.3f} {p.kernel_median_ms:10.3f} {p.first_ms:10.3f} {upload} "
                    f"{p.edges_per_s:9.2e}  {p.check}")
    a = report.answers
    rows += stopped_and_failed_lines(report)
    if a.get("apsp_by_sssp_vs_fw"):
        rows += ["", "All sources: gpu-fast-sssp against Floyd–Warshall gpu-fast (warm ms):"]
        rows += [f"  {c['graph']:22s} n={c['n']:6d} density {c['density']:.2e}  sssp "
                 f"{c['sssp_ms']:9.3f}  fw {c['fw_ms']:9.3f}  fw/sssp {c['fw_over_sssp']:6.2f}×"
                 for c in a["apsp_by_sssp_vs_fw"]]
    return "\n".join(rows)


def table_row(p) -> list[str]:
    """A point's cells under ``COLUMNS``."""
    upload = fmt_ms(p.upload_ms) if p.upload_ms is not None else "—"
    return [p.variant, p.graph, f"{p.n:,}", f"{p.sources:,}", fmt_ms(p.median_ms),
            fmt_ms(p.kernel_median_ms), fmt_ms(p.first_ms), upload, p.check, p.device]


def ladder_of(p) -> str | None:
    """A point's curve in the plot: its family (and degree) and how many sources; None for an
    airport (a marker)."""
    if p.family == "airport":
        return None
    family = p.family if p.family == "grid" else f"{p.family} {p.graph.rsplit('-', 1)[-1]}"
    return f"{family}, {'all' if p.sources == p.n else p.sources} src"


def summary_html(report: Report) -> str:
    """Where ladders stopped, and all sources against Floyd–Warshall."""
    lines = [stopped_html(report)]
    if report.answers.get("apsp_by_sssp_vs_fw"):
        lines.append("<b>All sources, Floyd–Warshall time / gpu-fast-sssp time</b> — " +
                     "; ".join(f"{c['graph']} {c['fw_over_sssp']:.2f}×"
                               for c in report.answers["apsp_by_sssp_vs_fw"]))
    return "<br>".join(line for line in lines if line)
