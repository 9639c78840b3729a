"""The sweep's PNG: misconnected bags per 1,000 against fleet size, one line per policy, with the
95% confidence interval over the seeds (within the KPI's bounds: ``results.summarise``) as error
bars, and the lower bound (bags no dispatcher could deliver, ``engine.sim.bound``) as a dashed
line; one panel per layout. Matplotlib, no display."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (after choosing the headless backend)
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from .results import mbr_curves  # noqa: E402

BOUND = "unavoidable_per_1000_mean"
DASHES = ("-", "--", ":", "-.")   # a curve's other factors (edits none / what-if…), see Curve,
MARKERS = ("o", "^", "s", "D")    # by dash and marker; its policy by colour


def plot_mbr(summary: pd.DataFrame, out: Path, title: str = "") -> Path:
    curves = mbr_curves(summary)
    layouts = sorted({c.layout for c in curves})
    fig, axes = plt.subplots(1, max(1, len(layouts)), figsize=(6.4 * max(1, len(layouts)), 4.4),
                             squeeze=False, sharey=True)
    for ax, layout in zip(axes[0], layouts):
        for c in (c for c in curves if c.layout == layout):
            err = np.nan_to_num([c.mean - c.lo, c.hi - c.mean], nan=0.0)
            dash = c.dash % len(DASHES)
            ax.errorbar(c.fleet, c.mean, yerr=err, marker=MARKERS[dash], capsize=4, label=c.label,
                        color=f"C{c.colour % 10}", linestyle=DASHES[dash])
        if BOUND in summary:   # the same days under every policy: the same bound
            bound = summary[summary["layout"] == layout].groupby("fleet")[BOUND].mean()
            ax.plot(bound.index, bound.to_numpy(), "k--", label="lower bound (unavoidable)")
        ax.set_title(layout)
        ax.set_xlabel("fleet (tugs)")
        ax.grid(alpha=0.3)
        ax.set_ylim(bottom=0)
        ax.legend()
    axes[0][0].set_ylabel("misconnected bags per 1,000 (mean, 95% CI)")
    if title:
        fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    plt.close(fig)
    return out
