"""Markdown tables of sweep results: MBR per policy and fleet from a sweep folder's summary.csv
(docs/dispatch.md, docs/sweeps.md), and days per minute per worker count from a scaling.json
(benchmarks/sweep_scaling.py).

    python tools/sweep_table.py docs/results/regional [--into docs/dispatch.md]
    python tools/sweep_table.py docs/results/sweeps/scaling.json docs/results/sweeps/hub-study \\
        --into docs/sweeps.md

In the MBR table each cell is the mean ± the 95% interval's half-width over the seeds; the last
columns are the lower bound (bags no dispatcher could deliver) and whether the default policy
meets issue 32's goals there: a mean at most every other policy's, and — where the best other
policy misconnects 2 or more per 1,000 — an interval wholly below that policy's mean. A folder
with a sweep.json gets a line first: how many days, how long, on how many workers, and whether
the run was cut. ``--into FILE`` replaces, for each PATH, the block between
``<!-- sweep-table NAME -->`` and ``<!-- /sweep-table -->`` (NAME: the folder's name, or the JSON
file's without .json) instead of printing.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from engine.sim.dispatch import DEFAULT_POLICY, POLICIES


def table(summary: pd.DataFrame) -> str:
    policies = [p for p in POLICIES if p in set(summary["policy"])]
    head = ["layout", "tugs", *policies, "lower bound", "default meets the goal"]
    rows = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for (layout, fleet), g in summary.groupby(["layout", "fleet"], sort=True):
        by = g.set_index("policy")
        mean, ci = by["mbr_per_1000_mean"], by["mbr_per_1000_ci95"].fillna(0.0)
        cells = [_cell(mean[p], by["mbr_per_1000_ci95"][p]) if p in mean else "—"
                 for p in policies]
        rows.append(f"| {layout} | {int(fleet)} | " + " | ".join(cells)
                    + f" | {by['unavoidable_per_1000_mean'].mean():.2f} | {_verdict(mean, ci)} |")
    return "\n".join(rows)


def _cell(mean: float, half: float) -> str:
    """mean ± half-width; "± —" where one seed gives no interval."""
    return f"{mean:.2f} ± " + ("—" if pd.isna(half) else f"{half:.2f}")


def _verdict(mean: pd.Series, ci: pd.Series) -> str:
    """Whether the default policy meets the goal among the policies that ran ("—" if it did not)."""
    if DEFAULT_POLICY not in mean:
        return "—"
    others = mean.drop(DEFAULT_POLICY)
    if others.empty:
        return "—"
    ok = mean[DEFAULT_POLICY] <= others.min()
    if others.min() >= 2.0:
        ok = ok and mean[DEFAULT_POLICY] + ci[DEFAULT_POLICY] < others.min()
    return "yes" if ok else "NO"


def run_line(manifest: dict) -> str:
    """How a sweep ran, from its sweep.json: days, wall time, workers, cut or whole."""
    cut = (f"; **cut** at the time budget ({manifest['budget_s']:g} s)"
           if manifest.get("interrupted") and "budget_s" in manifest else
           "; **stopped early**" if manifest.get("interrupted") else "")
    where = f", {manifest['cpu']}" if "cpu" in manifest else ""
    where += f", {manifest['date']}" if "date" in manifest else ""
    return (f"{manifest['runs_finished']:,} of {manifest['runs_total']:,} days in "
            f"{manifest['wall_s']:.0f} s ({manifest['runs_per_minute']:.1f} per minute) on "
            f"{manifest['workers']} worker process(es){where}{cut}.")


def scaling_table(info: dict) -> str:
    """Days per minute and speed-up per worker count, from benchmarks/sweep_scaling.py's JSON."""
    rows = ["| workers | Numba threads each | days | wall s | days per minute | speed-up |",
            "|---|---|---|---|---|---|"]
    for r in info["rows"]:
        days = f"{r['finished']} of {r['days']}" + (" (cut)" if r["cut"] else "")
        rows.append(f"| {r['workers']} | {r['threads_per_worker']} | {days} | {r['wall_s']:.1f} "
                    f"| {r['days_per_minute']:.1f} | {r['speedup']:.2f}× |")
    same = "identical" if info["rows_identical_across_worker_counts"] else "NOT identical"
    rows.append("")
    rows.append(f"{info['sweep']}, {info['scenarios']} scenarios × {info['seeds']} seed(s); "
                f"{info['runner']} runner; {info['host_cores']} cores ({info['cpu']}), "
                f"{info['date']}; Numba warm-up {info['warmup_s']:.0f} s before timing. "
                f"The {info['days_compared']} days every count finished: rows {same}.")
    return "\n".join(rows)


def block(path: Path) -> tuple[str, str]:
    """(NAME, Markdown) of a results path: a scaling JSON or a sweep folder."""
    if path.suffix == ".json":
        return path.stem, scaling_table(json.loads(path.read_text(encoding="utf-8")))
    summary = pd.read_csv(path / "summary.csv")
    text = table(summary) if len(summary) else "No day finished."
    manifest = path / "sweep.json"
    if manifest.exists():
        text = run_line(json.loads(manifest.read_text(encoding="utf-8"))) + "\n\n" + text
    return path.name, text


def report(paths: list[Path]) -> str:
    """Every path's block under a heading of its name, as one Markdown text."""
    return "\n\n".join(f"## {name}\n\n{text}" for name, text in map(block, paths)) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("paths", type=Path, nargs="+",
                    help="a sweep's results folder (holds summary.csv) or a scaling JSON")
    ap.add_argument("--into", type=Path, default=None, help="a Markdown file to update")
    args = ap.parse_args()
    if args.into is None:
        print(report(args.paths), end="")
        return 0
    doc = args.into.read_text(encoding="utf-8")
    for name, text in map(block, args.paths):
        found = re.compile(rf"(<!-- sweep-table {re.escape(name)} -->\n).*?(<!-- /sweep-table -->)",
                           re.DOTALL)
        if not found.search(doc):
            print(f"{args.into}: no <!-- sweep-table {name} --> block", file=sys.stderr)
            return 2
        doc = found.sub(lambda m: m.group(1) + text + "\n" + m.group(2), doc)
    args.into.write_text(doc, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
