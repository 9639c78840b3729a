"""Markdown tables of a sweep's MBR per policy and fleet, from its summary.csv (docs/dispatch.md).

    python tools/sweep_table.py docs/results/regional [--into docs/dispatch.md]

Each cell is the mean ± the 95% interval's half-width over the seeds; the last columns are the
lower bound (bags no dispatcher could deliver) and whether the default policy meets issue 32's
goals there: a mean at most every other policy's, and — where the best other policy misconnects
2 or more per 1,000 — an interval wholly below that policy's mean. ``--into FILE`` replaces the
block between ``<!-- sweep-table NAME -->`` and ``<!-- /sweep-table -->`` (NAME: the folder's
name) instead of printing.
"""

from __future__ import annotations

import argparse
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
        cells = [f"{mean[p]:.2f} ± {ci[p]:.2f}" for p in policies]
        others = mean.drop(DEFAULT_POLICY)
        best = others.min()
        ok = mean[DEFAULT_POLICY] <= best
        if best >= 2.0:
            ok = ok and mean[DEFAULT_POLICY] + ci[DEFAULT_POLICY] < best
        rows.append(f"| {layout} | {int(fleet)} | " + " | ".join(cells)
                    + f" | {by['unavoidable_per_1000_mean'].mean():.2f} | {'yes' if ok else 'NO'} |")
    return "\n".join(rows)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folder", type=Path, help="a sweep's results folder (holds summary.csv)")
    ap.add_argument("--into", type=Path, default=None, help="a Markdown file to update")
    args = ap.parse_args()
    text = table(pd.read_csv(args.folder / "summary.csv"))
    if args.into is None:
        print(text)
        return 0
    name = args.folder.name
    doc = args.into.read_text(encoding="utf-8")
    block = re.compile(rf"(<!-- sweep-table {re.escape(name)} -->\n).*?(<!-- /sweep-table -->)",
                       re.DOTALL)
    if not block.search(doc):
        print(f"{args.into}: no <!-- sweep-table {name} --> block", file=sys.stderr)
        return 2
    args.into.write_text(block.sub(lambda m: m.group(1) + text + "\n" + m.group(2), doc),
                         encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
