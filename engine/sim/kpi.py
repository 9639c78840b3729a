"""Key performance indicators: sampled over simulated time and summed up at the end.

MBR (misconnected bag rate) is misconnected bags per 1,000 bags created; ``unavoidable`` counts
the bags no dispatcher could have delivered (``bound.unavoidable``), a lower bound on it. The summary gives the
bags created and the count in each state, which add up (``Bags.check`` enforces it each step).
"""

from __future__ import annotations

import csv
import json
import math
from dataclasses import asdict
from pathlib import Path

import numpy as np

from .bags import DELIVERED, MISCONNECTED, ON_TUG, PENDING, STATE_NAMES, WAITING

SERIES_FIELDS = ("t", "created", "waiting", "on_tug", "delivered", "misconnected", "mbr",
                 "tugs_busy", "recomputes")


def mbr(misconnected: int, created: int) -> float:
    return 1000.0 * misconnected / created if created else 0.0


def sample(sim) -> dict:
    b = sim.bags
    tugs = sim.tug_table   # its first len(sim.tugs) entries are the day's tugs, in order
    n = len(sim.tugs)
    return {"t": round(sim.t, 3), "created": b.created, "waiting": b.count(WAITING),
            "on_tug": b.count(ON_TUG), "delivered": b.count(DELIVERED),
            "misconnected": b.count(MISCONNECTED),
            "mbr": round(mbr(b.count(MISCONNECTED), b.created), 3),
            "tugs_busy": int(np.count_nonzero(tugs.activity[:n])),
            "recomputes": len(sim.tables.log),
            "tug_km": round(math.fsum(tugs.distance_m[:n].tolist()) / 1000.0, 3)}


def summary(sim) -> dict:
    b = sim.bags
    states = {STATE_NAMES[s]: b.count(s) for s in (WAITING, ON_TUG, DELIVERED, MISCONNECTED)}
    delivered = b.state == DELIVERED
    slack = b.set.deadline[delivered] - b.done_time[delivered]
    span = max(sim.t, 1e-9)
    bag_aware = [r for r in sim.tables.log if r.kind == "bag-aware"]
    unavoidable = int((sim.unavoidable & (b.state != PENDING)).sum())   # engine.sim.bound
    return {
        "airport": sim.airport.name,
        "policy": sim.dispatcher.name,
        "variant_requested": sim.config.variant,
        "variants_run": sorted({r.variant for r in sim.tables.log}),
        "recompute_policy": str(sim.tables.policy),
        "seed": sim.config.seed,
        "hours": sim.config.hours,
        "simulated_s": round(sim.t, 3),
        "flights": len(sim.schedule.flights),
        "tugs": len(sim.tugs),
        "bags_created": b.created,
        "bags_by_state": states,
        "bags_add_up": sum(states.values()) == b.created,
        "delivered_on_time": states["delivered"],
        "misconnected": states["misconnected"],
        "mbr_per_1000": round(mbr(states["misconnected"], b.created), 3),
        "unavoidable": unavoidable,
        "unavoidable_per_1000": round(mbr(unavoidable, b.created), 3),
        "mean_slack_s": round(float(slack.mean()), 3) if len(slack) else None,
        "worst_slack_s": round(float(slack.min()), 3) if len(slack) else None,
        "tug_utilisation": round(math.fsum(min(t.busy_s, span) for t in sim.tugs) / (len(sim.tugs) * span), 4)
        if sim.tugs else 0.0,
        "tug_distance_km": round(math.fsum(t.distance_m for t in sim.tugs) / 1000.0, 3),
        "recomputes": len(bag_aware),
        "recompute_seconds_total": round(sum(r.seconds for r in sim.tables.log), 4),
        "recompute_log": [asdict(r) for r in sim.tables.log],
        "wall_s": round(sim.wall_s, 3),
    }


def deterministic(summary_dict: dict) -> dict:
    """The summary without wall-clock figures or which variant ran: what must not depend on them."""
    out = {k: v for k, v in summary_dict.items()
           if k not in ("wall_s", "recompute_seconds_total", "variants_run", "variant_requested")}
    out["recompute_log"] = [{"t": r["t"], "kind": r["kind"]} for r in summary_dict["recompute_log"]]
    return out


def write(summary_dict: dict, series: list[dict], out: Path) -> tuple[Path, Path]:
    """KPIs as JSON (summary and series) and CSV (the series, then the summary's scalars)."""
    out = Path(out)
    json_path = out if out.suffix == ".json" else out.with_suffix(".json")
    csv_path = json_path.with_suffix(".csv")
    json_path.parent.mkdir(parents=True, exist_ok=True)
    json_path.write_text(json.dumps({"summary": summary_dict, "series": series}, indent=1),
                         encoding="utf-8")
    with csv_path.open("w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(SERIES_FIELDS)
        for row in series:
            w.writerow([row[k] for k in SERIES_FIELDS])
        w.writerow([])
        w.writerow(["kpi", "value"])
        for k, v in summary_dict.items():
            if k == "bags_by_state":
                for s, c in v.items():
                    w.writerow([f"bags_{s}", c])
            elif not isinstance(v, (list, dict)):
                w.writerow([k, v])
    return json_path, csv_path

