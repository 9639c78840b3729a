"""Scenario files: checked with errors naming the file, the item and the problem; expanded into
every combination × seed; one day is pure; the summary's confidence interval is Student's t."""

import math

import numpy as np
import pytest
from scipy import stats

from engine.sweep.day import run_day
from engine.sweep.results import ci95, mbr_curves, summarise, table
from engine.sweep.scenario import SweepError, load_sweep
from main import main

GOOD = """
[sweep]
seeds = [4, 9]

[factors]
layout = "paper-5"
fleet = [1, 2, 3]
policy = ["shortest-path", "baseline"]
hours = 1.5
"""


def write(tmp_path, text, name="s.toml"):
    path = tmp_path / name
    path.write_text(text)
    return path


def problems(tmp_path, text) -> list[str]:
    with pytest.raises(SweepError) as info:
        load_sweep(write(tmp_path, text))
    assert all(line.startswith(str(tmp_path / "s.toml") + ": ") for line in str(info.value).splitlines())
    return info.value.problems


def test_every_combination_runs_once_per_seed_with_defaults_filled_in(tmp_path):
    sweep = load_sweep(write(tmp_path, GOOD))
    runs = sweep.runs()
    assert len(sweep.scenarios) == 6 and sweep.seeds == [4, 9] and len(runs) == 12
    assert [r.index for r in runs] == list(range(12))
    assert {(r.scenario.fleet, r.scenario.policy, r.seed) for r in runs} == {
        (f, p, s) for f in (1, 2, 3) for p in ("shortest-path", "baseline") for s in (4, 9)}
    s = sweep.scenarios[0]
    assert (s.layout, s.load, s.hours) == ("paper-5", 1.0, 1.5)


def test_a_seed_count_and_a_layout_file_beside_the_scenario_file(tmp_path):
    main(["airport", "generate", "--gates", "4", "--seed", "2", "-o", str(tmp_path / "tiny.json")])
    sweep = load_sweep(write(tmp_path, '[sweep]\nseeds = 3\n[factors]\nlayout = ["tiny.json"]\n'))
    assert sweep.seeds == [0, 1, 2]
    assert sweep.scenarios[0].fleet is None and sweep.scenarios[0].hours == 24.0
    assert "tiny.json" in sweep.airports


def test_unknown_keys_bad_values_and_missing_items_are_each_named(tmp_path):
    found = problems(tmp_path, """
[sweep]
seeds = [1, 1, -2]
speed = 3
[factors]
layout = "paper-5"
fleet = [2, 0, "many"]
policy = "fastest"
load = []
hours = 400
gates = ["A1"]
""")
    text = "\n".join(found)
    assert "[sweep]: unknown key 'speed'" in text
    assert "seed -2 is not a whole number" in text
    assert "[factors]: unknown factor 'gates'" in text
    assert "[factors] fleet item 2: 0 is not a whole number from 1 to 10,000" in text
    assert "[factors] fleet item 3: 'many' is not a whole number from 1 to 10,000" in text
    assert ("[factors] policy: 'fastest' is not one of baseline, earliest-deadline, fleet, "
            "shortest-path") in text
    assert "[factors] load: the list is empty" in text
    assert "[factors] hours: 400 is not a number of hours" in text


def test_missing_seeds_and_layout_and_malformed_toml(tmp_path):
    text = "\n".join(problems(tmp_path, "[factors]\nfleet = 2\n"))
    assert "missing 'seeds'" in text and "missing 'layout'" in text
    assert "malformed TOML" in problems(tmp_path, "[sweep\nseeds = 2")[0]
    with pytest.raises(SweepError, match="absent.toml: the file: does not exist"):
        load_sweep(tmp_path / "absent.toml")


def test_a_bad_layout_names_the_layout_and_its_own_problem(tmp_path):
    write(tmp_path, "{not json", name="broken.json")
    found = problems(tmp_path, '[sweep]\nseeds = 1\n[factors]\nlayout = ["paper-5", "broken.json"]\n')
    assert len(found) == 1
    assert found[0].startswith("[factors] layout 'broken.json': ") and "malformed JSON" in found[0]


def test_the_command_reports_a_bad_file_with_status_2_and_no_traceback(tmp_path, capsys):
    path = write(tmp_path, '[sweep]\nseeds = 1\n[factors]\nlayout = "nowhere"\n')
    assert main(["sweep", str(path), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "s.toml: [factors] layout 'nowhere'" in err and "Traceback" not in err
    assert not (tmp_path / "sweep-s").exists()


def test_the_results_folder_is_named_once_after_the_sweep_file():
    from pathlib import Path
    from engine.commands.sweep import default_out
    assert default_out(Path("airports/sweep-regional.toml")) == "sweep-regional"
    assert default_out(Path("x/hub.toml")) == "sweep-hub"


def test_a_day_is_pure_and_does_not_depend_on_the_variant(tmp_path):
    sweep = load_sweep(write(tmp_path, GOOD))
    run = sweep.runs()[3]
    airport = sweep.airports["paper-5"]
    first, _ = run_day(airport, run, "cpu-linear")
    again, _ = run_day(airport, run, "cpu-linear")
    blocked, _ = run_day(airport, run, "cpu-blocked")
    assert first == again == blocked
    assert (first["run"], first["fleet"], first["policy"], first["seed"]) == (3, 1, "baseline", 9)
    assert first["bags_created"] == (first["bags_waiting"] + first["bags_on_tug"]
                                     + first["delivered_on_time"] + first["misconnected"]) > 0
    assert "bags_delivered" not in first and "bags_misconnected" not in first
    assert first["mbr_per_1000"] == round(1000 * first["misconnected"] / first["bags_created"], 3)


def test_ci95_is_the_student_t_interval_of_the_mean():
    values = np.array([3.0, 7.5, 4.25, 9.0, 1.0])
    lo, hi = stats.t.interval(0.95, len(values) - 1, loc=values.mean(), scale=stats.sem(values))
    assert ci95(values) == pytest.approx((hi - lo) / 2, rel=1e-12)
    assert math.isnan(ci95(np.array([2.0])))


def test_summary_groups_the_seeds_of_each_scenario_and_curves_follow_fleet_order():
    rows = [{"run": i, "scenario": s, "layout": "x", "fleet": f, "policy": p, "load": 1.0,
             "hours": 2.0, "edits": "none", "seed": seed, "mbr_per_1000": m,
             "bags_add_up": True}
            for i, (s, f, p, seed, m) in enumerate([
                (0, 4, "a", 0, 10.0), (0, 4, "a", 1, 20.0), (1, 2, "a", 0, 50.0),
                (1, 2, "a", 1, 70.0), (2, 2, "b", 0, 90.0), (2, 2, "b", 1, 90.0)])]
    df = table(list(reversed(rows)))
    assert df["run"].tolist() == list(range(6))
    s = summarise(df)
    assert s["runs"].tolist() == [2, 2, 2]
    assert s["mbr_per_1000_mean"].tolist() == [15.0, 60.0, 90.0]
    assert "bags_add_up_mean" not in s.columns
    assert s["mbr_per_1000_ci95"].iloc[2] == 0.0
    curves = {c.label: c for c in mbr_curves(s)}
    assert curves["a"].fleet.tolist() == [2, 4] and curves["a"].mean.tolist() == [60.0, 15.0]
    assert curves["b"].fleet.tolist() == [2]


def test_an_interval_never_leaves_the_values_a_kpi_can_take():
    """MBR 15.3 ± 18.3 over seeds reads below 0: the interval is clipped to the KPI's bounds
    (a share also to 1); Student's t half-width stays beside it."""
    rows = [{"run": i, "scenario": 0, "layout": "x", "fleet": 4, "policy": "a", "load": 1.0,
             "hours": 2.0, "edits": "none", "seed": i, "mbr_per_1000": m, "tug_utilisation": u}
            for i, (m, u) in enumerate([(0.0, 0.99), (0.0, 0.97), (46.0, 0.999)])]
    s = summarise(table(rows)).iloc[0]
    assert s["mbr_per_1000_mean"] - s["mbr_per_1000_ci95"] < 0
    assert s["mbr_per_1000_lo"] == 0.0
    assert s["mbr_per_1000_hi"] == pytest.approx(s["mbr_per_1000_mean"] + s["mbr_per_1000_ci95"])
    assert s["tug_utilisation_hi"] == 1.0 and 0 < s["tug_utilisation_lo"] < 0.97
    curve = mbr_curves(summarise(table(rows)))[0]
    assert curve.lo.tolist() == [0.0]


def test_edits_are_a_factor_named_as_sets_none_or_scenario_files(tmp_path):
    (tmp_path / "day.toml").write_text('[scenario]\nlayout = "regional"\n[[edits]]\n'
                                       'at = "1:00"\ndo = "add-tugs"\ndepot = "DEPOT"\n')
    sweep = load_sweep(write(tmp_path, GOOD.replace("layout", 'edits = ["none", "jam", '
                                                    '"day.toml"]\nlayout') + """
[[edits.jam]]
at = 600
do = "close-road"
a = "A1"
b = "A2"
"""))
    assert len(sweep.scenarios) == 3 * 2 * 3 and len(sweep.runs()) == 36
    assert [s.edits for s in sweep.scenarios[:3]] == ["none", "jam", "day.toml"]
    assert sweep.edit_sets["jam"][0].t == 600.0 and sweep.edit_sets["day.toml"][0].t == 3600.0
    assert "edits jam" in sweep.scenarios[1].label()
    found = problems(tmp_path, GOOD.replace("layout", 'edits = ["nope", "x.toml", "bad"]\n'
                                            'layout') + '[[edits.bad]]\nat = "9:99"\n'
                                                        'do = "close-road"\n[[edits.unused]]\n'
                                                        'at = 1\ndo = "open-gate"\n')
    assert found == [
        "[[edits.bad]] #1: at: time '9:99': minutes and seconds must be from 0 to 59",
        "[[edits.bad]] #1 (close-road): missing 'a'",
        "[[edits.bad]] #1 (close-road): missing 'b'",
        "[[edits.unused]] #1: do = 'open-gate' is not one of close-road, reopen-road, close-gate, "
        "reopen-gate, move-tugs, add-tugs, retire-tugs, set-speed, set-capacity, set-policy",
        "[factors] edits: 'nope' is neither 'none', a set of this file (bad, unused) nor a "
        "scenario file (.toml)",
        "[factors] edits 'x.toml': the file: does not exist",
        "[edits.unused]: defined but not in [factors] edits"]


def test_a_damaged_table_names_the_file_the_line_and_the_problem(tmp_path):
    from engine.sweep.results import ResultsError, read_table
    bad = tmp_path / "runs.csv"
    bad.write_text("run,scenario,layout\n0,0,x\n1,0,x,extra,fields\n")
    with pytest.raises(ResultsError) as err:
        read_table(bad)
    assert str(err.value) == (f"{bad}: line 3: 5 fields, the header has 3 (a damaged or "
                              "hand-edited table?)")
    bad.write_text("")
    with pytest.raises(ResultsError, match="runs.csv: the file: empty"):
        read_table(bad)
    (tmp_path / "runs.parquet").write_bytes(b"PAR1 cut short")
    with pytest.raises(ResultsError, match="runs.parquet: the file: cannot be read as a "
                                           "Parquet table"):
        read_table(tmp_path / "runs.parquet")


def test_a_policy_keeps_its_colour_and_its_variants_are_dashed():
    """Eight curves (four policies × edits none / what-if) cycled seven colours: two policies
    shared one. A policy's colour is its place in POLICIES, in every sweep; edits by dash."""
    rows = [{"run": i, "scenario": 0, "layout": "x", "fleet": 4, "policy": p, "load": 1.0,
             "hours": 2.0, "edits": e, "seed": 0, "mbr_per_1000": 1.0}
            for i, (p, e) in enumerate((p, e) for p in ("baseline", "fleet", "shortest-path",
                                                          "earliest-deadline", "mine")
                                       for e in ("none", "what-if"))]
    curves = {c.label: c for c in mbr_curves(summarise(table(rows)))}
    assert curves["fleet, edits none"].colour == curves["fleet, edits what-if"].colour == 0
    assert len({c.colour for c in curves.values()}) == 5
    assert {c.dash for c in curves.values() if "none" in c.label} == {0}
    assert {c.dash for c in curves.values() if "what-if" in c.label} == {1}
    only_fleet = [r for r in rows if r["policy"] == "fleet"]
    assert {c.colour for c in mbr_curves(summarise(table(only_fleet)))} == {0}   # same colour
