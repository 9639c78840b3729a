"""The SSSP benchmark's PNG: warm time of every variant and peer on each (graph, sources) point
of one or more reports, one panel per point, log scale. Matplotlib, no display.

    python -m engine.bench.sssp_plot OUT.png REPORT.json [REPORT.json …]
"""

from __future__ import annotations

import sys
from pathlib import Path

from matplotlib.ticker import NullFormatter

from .plot_file import main as plot_main, plt, save
from .problems import load_report


def plot_reports(paths, out: Path, title: str = "") -> Path:
    groups: dict = {}
    for path in paths:
        for p in load_report(path).points:
            groups.setdefault((p.graph, p.sources), []).append(p)
    fig, axes = plt.subplots(len(groups), 1, figsize=(8.5, 0.32 * sum(map(len, groups.values()))
                                                      + 0.9 * len(groups) + 0.6), squeeze=False)
    for ax, ((graph, sources), points) in zip(axes[:, 0], groups.items()):
        points = sorted(points, key=lambda p: p.median_ms, reverse=True)
        colours = ["tab:green" if p.variant.startswith("gpu") else "tab:orange"
                   if p.variant == "fw-gpu-fast" else "tab:blue" for p in points]
        ax.barh([p.variant for p in points], [p.median_ms for p in points], color=colours)
        for y, p in enumerate(points):
            ax.text(p.median_ms, y, f" {p.median_ms:.3g} ms", va="center", fontsize=7)
        ax.set_xscale("log")
        ax.xaxis.set_minor_formatter(NullFormatter())  # a narrow range's minor labels overlap
        ax.set_title(f"{graph} (n = {points[0].n:,}, m = {points[0].m:,}), "
                     f"{sources} source{'s' if sources > 1 else ''}", fontsize=9)
        ax.tick_params(labelsize=7)
        ax.grid(axis="x", alpha=0.3)
    axes[-1, 0].set_xlabel("warm call, graph resident, answer in host memory (ms, median)")
    return save(fig, out, title)


def main(argv: list[str]) -> int:
    return plot_main(argv, plot_reports, __doc__)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
