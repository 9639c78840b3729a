"""The spanning-forest benchmark's PNG: solve time (graph resident) against edges for every
variant and peer, one panel per graph family, log–log. Matplotlib, no display.

    python -m engine.bench.mst_plot OUT.png REPORT.json [REPORT.json …]
"""

from __future__ import annotations

import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (after choosing the headless backend)

from .problems import load_report  # noqa: E402

FAMILIES = {"uniform": "uniform random (GTgraph, 6 edges/vertex)", "grid": "road-like grid",
            "rmat": "R-MAT (6 edges/vertex)"}


def plot_reports(paths, out: Path, title: str = "") -> Path:
    points = [p for path in paths for p in load_report(path).points if p.family in FAMILIES]
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
    if title:
        fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    plt.close(fig)
    return Path(out)


def main(argv: list[str]) -> int:
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    print(f"wrote {plot_reports(argv[1:], Path(argv[0]))}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
