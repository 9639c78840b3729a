"""What every benchmark plot module shares: the headless backend, saving a figure, and the
``python -m … OUT.png REPORT.json …`` entry point."""

from __future__ import annotations

import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402,F401  (after choosing the headless backend)


def save(fig, out, title: str = "") -> Path:
    if title:
        fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    plt.close(fig)
    return Path(out)


def main(argv: list[str], plot_reports, doc: str) -> int:
    """``plot_reports(REPORTS, OUT)`` from ``argv`` = [OUT, REPORT, …]; the usage on too few."""
    if len(argv) < 2:
        print(doc, file=sys.stderr)
        return 2
    print(f"wrote {plot_reports(argv[1:], Path(argv[0]))}")
    return 0
