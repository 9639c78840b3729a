"""A finished (or stopped) sweep's files, written the same way by ``python main.py sweep`` and the
app's experiments: the table, the summary, the MBR plot and the manifest (``results.write``)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from . import results
from .plot import plot_mbr
from .common import Outcome
from .scenario import Run, Sweep

PLOT = "mbr-vs-fleet.png"


def manifest(sweep: Sweep, runs: list[Run], outcome: Outcome, workers: int,
             scheduler: str | None, wall_s: float, **extra) -> dict:
    """How the sweep ran: where, how long, how many days finished, which failed (and ``extra``:
    anything else the caller records, such as the runner or the machine)."""
    return {
        "scenario_file": str(sweep.source), "scheduler": scheduler or "local",
        "workers": workers, "runs_total": len(runs), "runs_finished": len(outcome.rows),
        "interrupted": outcome.interrupted,
        "failed": [{"run": f.run.index, "scenario": f.run.scenario.label(), "seed": f.run.seed,
                    "error": f.error} for f in outcome.failures],
        "wall_s": round(wall_s, 3),
        "runs_per_minute": round(60 * len(outcome.rows) / max(wall_s, 1e-9), 2),
        "day_wall_s": {str(k): round(v, 3) for k, v in sorted(outcome.wall_s.items())},
        **extra,
    }


def save_outcome(out: Path, sweep: Sweep, runs: list[Run], outcome: Outcome, workers: int,
                 scheduler: str | None, wall_s: float, **extra) -> tuple[pd.DataFrame, dict]:
    """Write the table, summary, manifest (with ``extra``) and (when a day finished) the plot
    into ``out``; return the table and the manifest."""
    df = results.table(list(outcome.rows.values()))
    info = manifest(sweep, runs, outcome, workers, scheduler, wall_s, **extra)
    results.write(Path(out), df, info)
    if len(df):
        plot_mbr(results.summarise(df), Path(out) / PLOT, title=sweep.source.name)
    return df, info
