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
edits = ["close A1"]
""")
    text = "\n".join(found)
    assert "[sweep]: unknown key 'speed'" in text
    assert "seed -2 is not a whole number" in text
    assert "[factors]: unknown factor 'edits'" in text
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
    with pytest.raises(SweepError, match="the file: cannot be read"):
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
                                     + first["bags_delivered"] + first["bags_misconnected"]) > 0
    assert first["mbr_per_1000"] == round(1000 * first["misconnected"] / first["bags_created"], 3)


def test_ci95_is_the_student_t_interval_of_the_mean():
    values = np.array([3.0, 7.5, 4.25, 9.0, 1.0])
    lo, hi = stats.t.interval(0.95, len(values) - 1, loc=values.mean(), scale=stats.sem(values))
    assert ci95(values) == pytest.approx((hi - lo) / 2, rel=1e-12)
    assert math.isnan(ci95(np.array([2.0])))


def test_summary_groups_the_seeds_of_each_scenario_and_curves_follow_fleet_order():
    rows = [{"run": i, "scenario": s, "layout": "x", "fleet": f, "policy": p, "load": 1.0,
             "hours": 2.0, "seed": seed, "mbr_per_1000": m, "bags_add_up": True}
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
