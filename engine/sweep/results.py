"""A sweep's results: the tidy table (one row per day), the summary per scenario (mean and 95%
confidence interval of every KPI over the seeds) and the MBR-against-fleet curves, as files.

    DIR/runs.csv, DIR/runs.parquet    the table, in run order (deterministic: same sweep, same bytes)
    DIR/summary.csv                   one row per scenario: runs, KPI_mean, KPI_lo, KPI_hi (the 95%
                                      interval, within the KPI's bounds), KPI_ci95 (Student's t
                                      half-width before the bounds)
    DIR/sweep.json                    how it ran: scenario file, workers, wall time, interruptions

The interval is Student's t over the seeds, clipped to the values the KPI can take (no KPI of a
day is below 0, a share is at most 1): the mean of such values lies within those bounds, so
clipping drops only impossible values and the interval covers the true mean as often as before.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats

from ..input_error import InputError
from ..sim.dispatch import POLICIES
from .day import FACTOR_COLUMNS

SCENARIO_COLUMNS = ("scenario", "layout", "fleet", "policy", "load", "hours", "edits")
TABLE, SUMMARY, MANIFEST = "runs", "summary.csv", "sweep.json"
# the values a KPI can take: every KPI of a day is a count, rate, distance, time or share >= 0
BOUNDS = {"tug_utilisation": (0.0, 1.0)}
DEFAULT_BOUNDS = (0.0, np.inf)


class ResultsError(InputError):
    """A folder that holds no readable sweep results (the message names the file and problem)."""


def table(rows: list[dict]) -> pd.DataFrame:
    """The tidy table: one row per day, ordered by run, factor columns first."""
    df = pd.DataFrame(sorted(rows, key=lambda r: r["run"]))
    if df.empty:
        return pd.DataFrame(columns=list(FACTOR_COLUMNS))
    return df


def kpi_columns(df: pd.DataFrame) -> list[str]:
    """The numeric KPI columns (not the factors, not true/false checks)."""
    return [c for c in df.columns if c not in FACTOR_COLUMNS
            and pd.api.types.is_numeric_dtype(df[c]) and not pd.api.types.is_bool_dtype(df[c])]


def summarise(df: pd.DataFrame) -> pd.DataFrame:
    """Per scenario: the number of days, and each KPI's mean, its 95% interval within the KPI's
    bounds (lo, hi) and Student's t half-width (ci95); the interval is empty with one seed."""
    if "edits" not in df:   # results written before edits were a factor: days without edits
        df = df.assign(edits="none")
    kpis = kpi_columns(df)
    out = []
    for key, group in df.groupby(list(SCENARIO_COLUMNS), sort=True):
        row = dict(zip(SCENARIO_COLUMNS, key))
        n = len(group)
        row["runs"] = n
        for c in kpis:
            values = group[c].dropna().to_numpy(dtype=float)
            mean = values.mean() if len(values) else np.nan
            half = ci95(values)
            low, high = BOUNDS.get(c, DEFAULT_BOUNDS)
            row[f"{c}_mean"], row[f"{c}_ci95"] = mean, half
            row[f"{c}_lo"], row[f"{c}_hi"] = max(low, mean - half), min(high, mean + half)
        out.append(row)
    return pd.DataFrame(out, columns=[*SCENARIO_COLUMNS, "runs",
                                      *(f"{c}_{s}" for c in kpis
                                        for s in ("mean", "lo", "hi", "ci95"))])


def ci95(values: np.ndarray) -> float:
    """Half-width of the 95% confidence interval of the mean (NaN below two values)."""
    n = len(values)
    if n < 2:
        return np.nan
    return float(stats.t.ppf(0.975, n - 1) * values.std(ddof=1) / np.sqrt(n))


@dataclass
class Curve:
    """One line of the MBR-against-fleet plot: a policy (and load, hours, edits) on one layout.
    ``colour`` and ``dash`` say how to draw it: a policy keeps its colour in every plot, and the
    other factors that vary (e.g. edits none / what-if) are told apart by the line's dash."""
    layout: str
    label: str
    fleet: np.ndarray
    mean: np.ndarray
    ci95: np.ndarray   # Student's t half-width (may reach past the KPI's bounds)
    lo: np.ndarray     # the 95% interval within the KPI's bounds
    hi: np.ndarray
    colour: int = 0    # the policy's place among the policies (``POLICIES`` order first)
    dash: int = 0      # the place of its other factors' values among the sweep's


def policy_colour(policy: str, policies: list[str]) -> int:
    """A policy's colour index: its place in ``POLICIES`` (the same in every sweep), after them
    its place among ``policies``, the sweep's own."""
    known = list(POLICIES)
    if policy in known:
        return known.index(policy)
    return len(known) + sorted(set(policies) - set(known)).index(policy)


def mbr_curves(summary: pd.DataFrame, kpi: str = "mbr_per_1000") -> list[Curve]:
    """The summary as curves of ``kpi`` against fleet size: one per layout × policy (× load,
    hours and edits where the sweep varies them), points in fleet order."""
    varying = [c for c in ("load", "hours", "edits") if summary[c].nunique() > 1]
    groups = summary.groupby(["layout", "policy", *varying], sort=True)
    policies = [str(p) for p in summary["policy"].unique()]
    others = sorted({key[2:] for key in groups.groups})
    curves = []
    for key, g in groups:
        g = g.sort_values("fleet")
        label = ", ".join([str(key[1]), *(f"{c} {v:g}" if c != "edits" else f"edits {v}"
                                          for c, v in zip(varying, key[2:]))])
        curves.append(Curve(str(key[0]), label, g["fleet"].to_numpy(),
                            g[f"{kpi}_mean"].to_numpy(), g[f"{kpi}_ci95"].to_numpy(),
                            g[f"{kpi}_lo"].to_numpy(), g[f"{kpi}_hi"].to_numpy(),
                            colour=policy_colour(str(key[1]), policies),
                            dash=others.index(key[2:])))
    return curves


def write(out: Path, df: pd.DataFrame, manifest: dict) -> dict[str, Path]:
    """Write the table (CSV, Parquet), the summary and the manifest into ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    paths = {"csv": out / f"{TABLE}.csv", "parquet": out / f"{TABLE}.parquet",
             "summary": out / SUMMARY, "manifest": out / MANIFEST}
    df.to_csv(paths["csv"], index=False)
    df.to_parquet(paths["parquet"], index=False)
    summarise(df).to_csv(paths["summary"], index=False)
    paths["manifest"].write_text(json.dumps(manifest, indent=1), encoding="utf-8")
    return paths


def read_table(path) -> pd.DataFrame:
    """The table of a sweep: its folder, or its runs.parquet or runs.csv. ``ResultsError`` when
    there is none or it is not a sweep table."""
    path = Path(path)
    if path.is_dir():
        candidates = [path / f"{TABLE}.parquet", path / f"{TABLE}.csv"]
        path = next((c for c in candidates if c.exists()), candidates[0])
    try:
        df = pd.read_parquet(path) if path.suffix == ".parquet" else pd.read_csv(path)
    except FileNotFoundError:
        raise ResultsError(path, [f"the file: no such file or folder (a sweep folder holds "
                                  f"{TABLE}.parquet and {TABLE}.csv)"]) from None
    except pd.errors.EmptyDataError:
        raise ResultsError(path, ["the file: empty (no header, no rows)"]) from None
    except pd.errors.ParserError as exc:
        raise ResultsError(path, [_csv_problem(str(exc))]) from None
    except Exception as exc:  # pyarrow and the OS raise many types for a damaged file
        what = "Parquet" if path.suffix == ".parquet" else "CSV"
        raise ResultsError(path, [f"the file: cannot be read as a {what} table "
                                  f"({type(exc).__name__}: {_first_line(exc)})"]) from None
    if "edits" not in df.columns and len(df.columns):   # written before edits were a factor
        df.insert(list(df.columns).index("seed") if "seed" in df.columns else len(df.columns),
                  "edits", "none")
    missing = [c for c in (*FACTOR_COLUMNS, "mbr_per_1000") if c not in df.columns]
    if missing:
        raise ResultsError(path, [f"the header: not a sweep table: missing column(s) "
                                  f"{', '.join(missing)}"])
    return df


def _csv_problem(message: str) -> str:
    """pandas' "Error tokenizing data. C error: Expected 9 fields in line 7, saw 12" as
    "line 7: 12 fields, the header has 9"."""
    m = re.search(r"Expected (\d+) fields in line (\d+), saw (\d+)", message)
    if m:
        return (f"line {m[2]}: {m[3]} fields, the header has {m[1]} (a damaged or hand-edited "
                "table?)")
    return f"the file: not a readable CSV table ({_first_line(message)})"


def _first_line(exc) -> str:
    return str(exc).strip().splitlines()[0] if str(exc).strip() else "no detail"


def paired_differences(df: pd.DataFrame, factor: str, base, other,
                       kpis: list[str]) -> pd.DataFrame:
    """Each KPI's difference ``other`` − ``base`` of ``factor`` (e.g. edits "none" against a set),
    paired by seed: one row per KPI with both means, the mean difference and its 95% interval
    (Student's t over the seeds' differences; not bounded: a difference may be negative)."""
    a = df[df[factor] == base].set_index("seed")
    b = df[df[factor] == other].set_index("seed")
    seeds = a.index.intersection(b.index)
    out = []
    for c in kpis:
        d = (b.loc[seeds, c] - a.loc[seeds, c]).to_numpy(dtype=float)
        mean = d.mean() if len(d) else np.nan
        half = ci95(d)
        out.append({"kpi": c, "pairs": len(d), "base_mean": a.loc[seeds, c].mean(),
                    "other_mean": b.loc[seeds, c].mean(), "diff_mean": mean,
                    "diff_lo": mean - half, "diff_hi": mean + half})
    return pd.DataFrame(out)
