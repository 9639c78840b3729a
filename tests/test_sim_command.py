"""`python main.py simulate`: a headless day that writes KPIs as JSON and CSV."""

import csv
import json

from main import main


def test_simulate_writes_kpis_that_add_up(tmp_path, capsys):
    out = tmp_path / "kpis.json"
    rc = main(["simulate", "paper-5", "--hours", "2", "--seed", "3", "--variant", "cpu-linear",
               "--out", str(out)])
    assert rc == 0
    data = json.loads(out.read_text())
    s = data["summary"]
    assert s["bags_created"] == sum(s["bags_by_state"].values()) > 0
    assert set(s["bags_by_state"]) == {"waiting", "on_tug", "delivered", "misconnected"}
    assert s["mbr_per_1000"] == round(1000 * s["misconnected"] / s["bags_created"], 3)
    assert s["recompute_log"] and s["recompute_log"][0]["variant"] == "cpu-linear"
    assert data["series"] and data["series"][-1]["t"] <= 2 * 3600
    rows = list(csv.reader(out.with_suffix(".csv").open()))
    assert rows[0][:3] == ["t", "created", "waiting"]
    kv = {r[0]: r[1] for r in rows if len(r) == 2}
    assert int(kv["bags_created"]) == s["bags_created"]
    assert int(kv["bags_delivered"]) + int(kv["bags_misconnected"]) + int(kv["bags_waiting"]) \
        + int(kv["bags_on_tug"]) == s["bags_created"]
    err = capsys.readouterr().err
    assert "100%" in err                                    # the progress bar


def test_simulate_baseline_policy_and_tug_count(tmp_path):
    out = tmp_path / "b.json"
    assert main(["simulate", "paper-5", "--hours", "1", "--policy", "baseline", "--tugs", "2",
                 "--quiet", "--out", str(out)]) == 0
    s = json.loads(out.read_text())["summary"]
    assert s["policy"] == "baseline" and s["tugs"] == 2 and s["recomputes"] == 0


def test_simulate_reports_a_bad_airport_or_variant(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    assert main(["simulate", str(bad), "--quiet"]) == 2
    assert "bad.json" in capsys.readouterr().err
    assert main(["simulate", "paper-5", "--variant", "no-such", "--quiet",
                 "--out", str(tmp_path / "x.json")]) == 2
    assert "unknown Floyd" in capsys.readouterr().err
