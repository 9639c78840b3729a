"""The spanning-forest benchmark's PNG: solve time (graph resident) against edges for every
variant and peer, one panel per graph family, log–log (a point in several reports: the first).
Matplotlib, no display.

    python -m engine.bench.mst_plot OUT.png REPORT.json [REPORT.json …]
"""

from __future__ import annotations

import sys
from pathlib import Path

from .plot_file import main as plot_main, plt, save
from .problems import load_report

FAMILIES = {"uniform": "uniform random (GTgraph, 6 edges/vertex)", "grid": "road-like grid",
            "rmat": "R-MAT (6 edges/vertex)"}


def plot_reports(paths, out: Path, title: str = "") -> Path:
    first = {}  # a (variant, graph) measured in two reports: the first report's point
    for p in (p for path in paths for p in load_report(path).points if p.family in FAMILIES):
        first.setdefault((p.variant, p.graph), p)
    points = list(first.values())
    families = [f for f in FAMILIES if any(p.family == f for p in points)]
    fig, axes = plt.subplots(1, len(families), figsize=(5 * len(families), 4.2), squeeze=False)
    variants = list(dict.fromkeys(p.variant for p in points))
    for ax, family in zip(axes[0], families):
        for variant in variants:
            pts = sorted((p for p in points if p.family == family and p.variant == variant),
                         key=lambda p: p.m)
            if pts:
                ax.plot([p.m for p in pts], [p.kernel_median_ms for p in pts], marker="o",
                        label=variant, linestyle="-" if variant.startswith("gpu") else "--")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_title(FAMILIES[family], fontsize=9)
        ax.set_xlabel("edges", fontsize=8)
        ax.grid(alpha=0.3, which="both")
        ax.tick_params(labelsize=7)
    axes[0, 0].set_ylabel("solve, graph resident (ms, median)", fontsize=8)
    axes[0, -1].legend(fontsize=7)
    return save(fig, out, title)


def main(argv: list[str]) -> int:
    return plot_main(argv, plot_reports, __doc__)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
