"""The before/after tables of a ``benchmarks/lanes_h100.sh`` run, as Markdown, from its files:
where a lanes solve's time goes (the "steps" lines of its log) and the benchmark's medians
(``bench-<name>.json``), against the lanes' measured ceiling.
A step a run did not time (phases 1+2 run beside phase 3) shows as "–".

    python3 -m benchmarks.lanes_tables docs/measurements/fw-lanes-issue35
"""

import json
import pathlib
import re
import sys

LANES_CEILING = 30.7e12  # addmin2, registers only (python3 -m benchmarks.probe_lanes_ceiling, H100)
STEPS = ("pack", "phases 1+2", "phase 3", "widen", "transpose", "recover", "narrow")


def steps_table(log: str) -> str:
    """One row per ``== steps <tree>`` section and size: GPU ms by step. A section run with a
    ``LANES_TUNING`` names it beside the tree; steps other than STEPS (a tuning's own kernels)
    are listed under "other"."""
    rows, tree = [], None
    for line in log.splitlines():
        if line.startswith("== steps"):
            tuning = line.partition("LANES_TUNING=")[2].strip()
            tree = line.split()[2].rstrip(",") + (f" ({tuning})" if tuning else "")
        found = re.match(r"n=(\d+) steps of a lanes solve, GPU ms: (.*); total ([\d.]+)", line)
        if found and tree:
            ms = dict(re.match(r"(.*) ([\d.]+)$", part).groups() for part in found[2].split(", "))
            other = ", ".join(f"{s} {v}" for s, v in ms.items() if s not in STEPS) or "–"
            rows.append(f"| {tree} | {int(found[1]):,} | " + " | ".join(ms.get(s, "–") for s in STEPS)
                        + f" | {other} | **{found[3]}** |")
    head = "| code | n | " + " | ".join(STEPS) + " | other | total |\n|" + "---|" * (len(STEPS) + 4)
    return "\n".join([head] + rows)


def bench_table(folder: pathlib.Path) -> str:
    """One row per bench-*.json: solve / end to end at each size, and the solve at the largest
    random size against the lanes' ceiling (n³ relaxations)."""
    rows, sizes = [], None
    for path in sorted(folder.glob("bench-*.json")):
        points = {(p["graph"], p["n"]): p for p in json.loads(path.read_text())["points"]}
        if sizes is None:
            sizes = sorted(points, key=lambda key: (key[0] != "random-15%", key[1]))
        if set(points) != set(sizes):
            continue
        cells = [f"{ms(points[s]['kernel_median_ms'])} / {ms(points[s]['median_ms'])}" for s in sizes]
        n = max(size for graph, size in sizes if graph.startswith("random"))
        solve = points[("random-15%", n)]["kernel_median_ms"] / 1e3
        rows.append(f"| {path.stem[6:]} | " + " | ".join(cells) + f" | {n ** 3 / solve / LANES_CEILING:.1%} |")
    if sizes is None:
        return ""  # a run without the bench part
    head = ("| run | " + " | ".join(f"{g.split('-')[0]} {n:,}" for g, n in sizes)
            + " | largest n's solve of the lanes' ceiling |\n|" + "---|" * (len(sizes) + 2))
    return "\n".join([head] + rows)


def ms(value: float) -> str:
    return f"{value:,.3f}" if value < 1 else f"{value:,.2f}" if value < 10 else f"{value:,.1f}"


def largest(folder: pathlib.Path) -> str:
    """The points of bench-largest.json, if the run made one, and what it answered."""
    path = folder / "bench-largest.json"
    if not path.exists():
        return ""
    report = json.loads(path.read_text())
    points = [f"n = {p['n']:,}: {ms(p['kernel_median_ms'])} / {ms(p['median_ms'])} ms" for p in report["points"]]
    return f"\n\n`{report['command']}` (solve / end to end): " + "; ".join(points) + f"; answers {report['answers']}"


if __name__ == "__main__":
    folder = pathlib.Path(sys.argv[1])
    tables = [steps_table((folder / "log.txt").read_text()), bench_table(folder)]
    print("\n\n".join(filter(None, tables)) + largest(folder))
