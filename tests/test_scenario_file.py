"""Scenario files: a day with timed edits saved, read back and replayed exactly (the app's day,
the command line's and a rerun's KPIs are the same), and every bad item named."""

import json

import pytest

from engine.airport.layout_io import bundled_airports, load_airport
from engine.sim import SimConfig, Simulation, kpi
from engine.sim.dispatch import DEFAULT_POLICY
from engine.sim.edit_io import EditPlan, TimedEdit, apply_at, edit_from_dict, edit_to_dict
from engine.sim.edits import (AddTugs, CloseGate, CloseRoad, EditError, MoveTugs, OpenRoad,
                              RetireTugs, SetPolicy, SetSpeed, apply_edit, fleet_edits)
from engine.sim.scenario_file import ScenarioError, load_scenario, save_scenario
from main import main

EXAMPLE = bundled_airports()["regional"].parent / "regional-road-closure.toml"


@pytest.fixture(scope="module")
def regional():
    return load_airport(bundled_airports()["regional"])


def same_day(a: Simulation, b: Simulation) -> None:
    assert json.dumps(kpi.deterministic(a.kpis())) == json.dumps(kpi.deterministic(b.kpis()))
    assert a.series == b.series


def test_the_example_replays_byte_for_byte_from_the_command_line(tmp_path, capsys):
    for name in ("a", "b"):
        assert main(["simulate", str(EXAMPLE), "--quiet", "--no-timings",
                     "--out", str(tmp_path / f"{name}.json")]) == 0
    for suffix in (".json", ".csv"):
        assert (tmp_path / f"a{suffix}").read_bytes() == (tmp_path / f"b{suffix}").read_bytes()
    summary = json.loads((tmp_path / "a.json").read_text())["summary"]
    assert "wall_s" not in summary
    assert [e["at"] for e in summary["edits"]] == ["1:00:00", "1:30:00", "2:00:00", "3:00:00"]
    assert summary["tugs"] == 24 + 4 and summary["bags_add_up"]
    assert "4 edit(s) applied" in capsys.readouterr().out


def test_a_day_edited_as_the_app_does_replays_from_its_saved_scenario(regional, tmp_path):
    """The app steps in chunks of its own and applies each edit at whatever time the day is at;
    the scenario it saves replays the same KPIs and series."""
    config = SimConfig(hours=3.0, seed=2, variant="cpu-blocked")
    app = Simulation(regional, config)
    edits = {1900: CloseRoad("SORT", "Wh14"), 3100: CloseGate("G20"),
             4300: AddTugs("DEPOT", 3), 6100: RetireTugs("DEPOT", 2)}
    applied = []
    while not app.finished:
        app.step(37.0)       # a chunk unlike the replay's
        due = [t for t in edits if t <= app.t]
        for t in due:
            applied.append(apply_edit(app, edits.pop(t)))
    assert len(applied) == 4 and applied[0].t == 37.0 * 52
    path = tmp_path / "day.toml"
    scenario = save_scenario(path, bundled_airports()["regional"], config, applied,
                             name="closures")
    assert scenario.layout == "regional"
    replayed, plan = load_scenario(path).replay()
    assert [a.text for a in plan.applied] == [a.text for a in applied]
    same_day(app, replayed)


def test_saving_and_loading_keeps_every_setting_and_edit(regional, tmp_path):
    road = regional.roads[0]
    edits = [TimedEdit(0.0, SetSpeed("DEPOT", 5.5)), TimedEdit(60.5, OpenRoad(road, 3)),
             TimedEdit(3600.0, MoveTugs("DEPOT", "SORT", 2, (1, 4))),
             TimedEdit(3600.0, CloseGate("G3", "G5"))]
    layout = tmp_path / "sub" / "mine.json"
    layout.parent.mkdir()
    layout.write_bytes(bundled_airports()["regional"].read_bytes())
    config = SimConfig(hours=5, seed=9, tugs=30, policy="baseline", route_engine="from-tugs",
                       recompute="60", load=1.5)
    saved = save_scenario(tmp_path / "s.toml", layout, config, edits)
    loaded = load_scenario(tmp_path / "s.toml")
    assert loaded.layout == "sub/mine.json"
    assert loaded.edits == saved.edits == edits
    c = loaded.config
    assert (c.hours, c.seed, c.tugs, c.policy, c.route_engine, c.recompute, c.load) == \
        (5.0, 9, 30, "baseline", "from-tugs", "60", 1.5)
    for e in edits:
        assert edit_from_dict(edit_to_dict(e), "x", []) == e


def test_every_bad_item_is_named(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text('[scenario]\nlayout = "regional"\nhours = 2\nfleet = 0\ncolour = "red"\n'
                    '[[edits]]\nat = "1:75"\ndo = "close-road"\na = "X"\n'
                    '[[edits]]\nat = "3:00"\ndo = "add-tugs"\ndepot = "DEPOT"\n'
                    '[[edits]]\nat = 10\ndo = "paint-road"\n')
    with pytest.raises(ScenarioError) as err:
        load_scenario(path)
    text = str(err.value)
    for part in ("[scenario] fleet: 0 is not a whole number of tugs from 1",
                 "[scenario]: unknown key 'colour'", "edit #1: at: time '1:75'",
                 "edit #1 (close-road): missing 'b'",
                 "edit #2 (add 1 tug at DEPOT): at 10800 s is after the day's end (2 h)",
                 "edit #3: do = 'paint-road' is not one of close-road"):
        assert f"bad.toml: {part}" in text, part
    path.write_text('[scenario]\nlayout = "nowhere.json"\n')
    with pytest.raises(ScenarioError, match="layout 'nowhere.json': the file: does not exist"):
        load_scenario(path)
    assert main(["simulate", str(path), "--quiet"]) == 2


def test_an_edit_that_cannot_apply_stops_the_replay_naming_it_and_its_time(tmp_path, capsys):
    path = tmp_path / "s.toml"
    path.write_text('[scenario]\nlayout = "regional"\nhours = 1\n'
                    '[[edits]]\nat = "0:10"\ndo = "close-road"\na = "G1"\nb = "G28"\n')
    assert main(["simulate", str(path), "--quiet", "--out", str(tmp_path / "k.json")]) == 2
    assert "close road G1–G28 at 0:10:00: no open road G1–G28" in capsys.readouterr().err


def test_an_edit_applies_at_its_time_and_never_in_the_past(regional):
    sim = Simulation(regional, SimConfig(hours=2, seed=0, variant="cpu-blocked"))
    applied = apply_at(sim, AddTugs("DEPOT", 1), 600.0)
    assert applied.t == sim.t == 600.0
    with pytest.raises(EditError, match="0:05:00 has passed: the day is at 0:10:00"):
        apply_at(sim, AddTugs("DEPOT", 1), 300.0)
    with pytest.raises(EditError, match="after the day's end"):
        apply_at(sim, AddTugs("DEPOT", 1), 3 * 3600.0)
    plan = EditPlan([TimedEdit(900.0, AddTugs("DEPOT", 2)), TimedEdit(700.0, RetireTugs("DEPOT"))])
    plan.run_until(sim, 1200.0)
    assert [a.t for a in plan.applied] == [700.0, 900.0] and sim.t == 1200.0


def test_zero_tugs_is_refused_everywhere(regional, tmp_path, capsys):
    assert main(["simulate", "paper-5", "--tugs", "0", "--quiet",
                 "--out", str(tmp_path / "k.json")]) == 2
    assert "--tugs must be at least 1, got 0 (leave it out for the airport's own" in \
        capsys.readouterr().err
    with pytest.raises(ValueError, match="at least 1 tug"):
        Simulation(regional, SimConfig(hours=1, tugs=0))


def test_the_schedule_comes_from_its_parameters_or_a_flights_file(regional, tmp_path):
    path = tmp_path / "s.toml"
    path.write_text('[scenario]\nlayout = "regional"\nhours = 6\n[schedule]\nbanks = 1\n')
    one_wave = load_scenario(path).simulation()
    assert one_wave.config.params.banks == 1 and one_wave.config.params.checkin_mean == 100
    assert 0 < len(one_wave.schedule.flights) < len(Simulation(regional, SimConfig(hours=6))
                                                    .schedule.flights)
    (tmp_path / "day.csv").write_text("flight,gate,arrival,departure\nX1,G3,0:30,1:40\n")
    path.write_text('[scenario]\nlayout = "regional"\nhours = 3\nflights = "day.csv"\n')
    scenario = load_scenario(path)
    assert [(f.id, f.arrival) for f in scenario.simulation().schedule.flights] == [("X1", 1800.0)]
    saved = save_scenario(tmp_path / "again.toml", "regional", scenario.config,
                          flights_file=tmp_path / "day.csv")
    assert saved.flights_file == "day.csv" and saved.config.flights == scenario.config.flights
    with pytest.raises(ValueError, match="pass it as flights_file"):
        save_scenario(tmp_path / "no.toml", "regional", scenario.config)
    path.write_text('[scenario]\nlayout = "regional"\nflights = "day.csv"\n[schedule]\nbanks = -1'
                    '\n[extra]\n')
    with pytest.raises(ScenarioError) as err:
        load_scenario(path)
    assert err.value.problems == [
        "top level: unknown table or key 'extra' (expected [scenario], [schedule] and [[edits]])",
        "[schedule]: banks must be a whole number from 0 to 1000, got -1"]


def test_fleet_and_policy_change_mid_day_as_edits_and_replay(regional, tmp_path):
    """What the app's Fleet and Dispatch settings can do at once instead of at a restart."""
    config = SimConfig(hours=2.0, seed=1, variant="cpu-blocked")
    sim = Simulation(regional, config)
    sim.run_until(1800.0)
    assert fleet_edits(sim, 24) == []
    assert fleet_edits(sim, 20) == [RetireTugs("DEPOT", 4)]
    changes = fleet_edits(sim, 30)
    assert changes == [AddTugs("DEPOT", 6)]
    applied = [apply_edit(sim, e) for e in changes]
    applied.append(apply_edit(sim, SetPolicy("baseline")))
    assert applied[-1].inverse == SetPolicy(DEFAULT_POLICY)
    assert sum(not t.retired for t in sim.tugs) == 30 and sim.dispatcher.name == "baseline"
    with pytest.raises(EditError, match="unknown dispatch policy 'fastest'"):
        apply_edit(sim, SetPolicy("fastest"))
    with pytest.raises(EditError, match="at least 1 tug"):
        fleet_edits(sim, 0)
    sim.run_until(sim.end_time, check=True)
    assert sim.kpis()["policy"] == "baseline"
    save_scenario(tmp_path / "s.toml", "regional", config, applied)
    assert 'do = "set-policy"' in (tmp_path / "s.toml").read_text()
    replayed, _ = load_scenario(tmp_path / "s.toml").replay()
    same_day(sim, replayed)
