"""Experiments from the app: the dialog builds the sweep of its choices, an experiment runs on
Dask off the UI thread and opens in the sweep view with 95% intervals, Cancel keeps the days that
finished, and the what-if compare over seeds gives each KPI's paired difference with its interval.
The days run on one Dask worker process started once for the module (tiny days: paper-5)."""

import json

import numpy as np
import pandas as pd
import pytest
from PySide6.QtCore import Qt

from engine.airport.layout_io import bundled_airports, load_airport
from engine.sim.edit_io import TimedEdit
from engine.sim.edits import AddTugs, CloseRoad
from engine.sim.simulation import SimConfig
from engine.sweep.runner import open_client
from engine.sweep import scenario
from engine.sweep.scenario import load_sweep
from gui.experiment.dialog import KEYS, WHATIF, ExperimentDialog
from tests.gui.conftest import SIM_TIMEOUT_MS

RUN_TIMEOUT_MS = 120_000


@pytest.fixture(scope="module")
def scheduler():
    """The address of a Dask cluster of one worker process."""
    with open_client(workers=1) as client:
        yield client.scheduler.address


@pytest.fixture
def day_window(make_window, qtbot, settings, scheduler, tmp_path):
    """paper-5 with its day ready; experiments run on the module's cluster, into tmp_path."""
    settings.setValue(KEYS["remote"], True)
    settings.setValue(KEYS["scheduler"], scheduler)
    settings.setValue(KEYS["folder"], str(tmp_path / "results"))
    w = make_window()
    qtbot.waitUntil(lambda: w.player.ready, timeout=SIM_TIMEOUT_MS)
    return w


def test_the_dialog_builds_the_sweep_of_its_choices(qtbot, settings):
    path = bundled_airports()["regional"]
    airport = load_airport(path)
    road = airport.roads[0]
    edits = [TimedEdit(1800.0, CloseRoad(road.a, road.b))]
    d = ExperimentDialog(airport, path, SimConfig(hours=6, tugs=24, policy="baseline"), edits,
                         settings)
    qtbot.addWidget(d)
    assert d.fleet_edit.text() == "12, 24, 36"                  # around the day's own fleet
    assert [n for n, b in d.policy_boxes.items() if b.isChecked()] == ["baseline"]
    assert d.none_box.isChecked() and d.whatif_box.isChecked()
    d.fleet_edit.setText("8, 16")
    d.policy_boxes["shortest-path"].setChecked(True)
    d.load_edit.setText("1, 1.5")
    d.hours_spin.setValue(2)
    d.seeds_spin.setValue(3)
    sweep = d.sweep()
    assert {(s.fleet, s.policy, s.load, s.hours, s.edits) for s in sweep.scenarios} == {
        (f, p, load, 2.0, e) for f in (8, 16) for p in ("shortest-path", "baseline")
        for load in (1.0, 1.5) for e in ("none", WHATIF)}
    assert sweep.seeds == [0, 1, 2] and len(sweep.runs()) == 48
    assert sweep.edit_sets[WHATIF] == tuple(edits) and sweep.edit_sets["none"] == ()
    assert set(sweep.airports) == {"regional"}
    assert d.count_label.text() == "16 combinations × 3 seeds = 48 days"
    d.none_box.setChecked(False)                          # only the edited day
    assert {s.edits for s in d.sweep().scenarios} == {WHATIF}
    d.fleet_edit.setText("8, x")                          # bad input: said, Run refused
    assert not d.run_button.isEnabled() and "'x' is not a whole number" in d.error_label.text()
    d.fleet_edit.setText("0")
    assert not d.run_button.isEnabled() and "fleet" in d.error_label.text()
    d.fleet_edit.setText("8")
    d.remote_radio.setChecked(True)
    assert not d.run_button.isEnabled()                   # a scheduler needs its address
    d.scheduler_edit.setText("tcp://10.0.0.5:8786")
    assert d.run_button.isEnabled() and d.where().scheduler == "tcp://10.0.0.5:8786"
    d.accept()
    again = ExperimentDialog(airport, path, SimConfig(), [], settings)   # remembered
    qtbot.addWidget(again)
    assert again.remote_radio.isChecked() and again.scheduler_edit.text() == "tcp://10.0.0.5:8786"
    assert not again.whatif_box.isEnabled()               # no edits: only "none"
    assert settings.fileName().endswith("bagroute.ini")   # the app's settings, not the user's


@pytest.fixture
def reads(monkeypatch):
    """The layout files this process reads while checking or saving a sweep."""
    seen = []
    real = scenario.load_airport
    monkeypatch.setattr(scenario, "load_airport", lambda path: seen.append(path) or real(path))
    return seen


def test_typing_checks_against_the_open_airport_without_reading_its_file(qtbot, settings, reads):
    path = bundled_airports()["hub-atl"]          # the largest: a read is felt on each key
    d = ExperimentDialog(load_airport(path), path, SimConfig(hours=2, tugs=300), [], settings)
    qtbot.addWidget(d)
    for text in ("2", "20", "200", "200,", "200, 4", "200, 40", "200, 400"):
        d.fleet_edit.setText(text)
    for text in ("1", "1,", "1, 1", "1, 1.5"):
        d.load_edit.setText(text)
    d.seeds_spin.setValue(3)
    d.hours_spin.setValue(1.5)
    d.policy_boxes["baseline"].setChecked(True)
    assert reads == []
    assert d.count_label.text() == "8 combinations × 3 seeds = 24 days" and d.run_button.isEnabled()
    d.fleet_edit.setText("200, x")                # bad input: the field and the item named
    assert d.error_label.text() == "Fleet sizes: 'x' is not a whole number"
    d.fleet_edit.setText("200")
    d.load_edit.setText("1, much")
    assert d.error_label.text() == "Load: 'much' is not a number"
    assert not d.run_button.isEnabled() and reads == []


def choose(w, qtbot, fleets="1, 2", hours=2.0, seeds=2):
    d = w.experiments.open_dialog()
    qtbot.addWidget(d)
    d.fleet_edit.setText(fleets)
    d.hours_spin.setValue(hours)
    d.seeds_spin.setValue(seeds)
    return d


def test_an_experiment_runs_on_dask_and_opens_in_the_sweep_view_with_intervals(day_window,
                                                                               qtbot, tmp_path,
                                                                               reads):
    w = day_window
    d = choose(w, qtbot)
    progress = []
    w.experiments.run.progressed.connect(lambda done, total: progress.append((done, total)))
    with qtbot.waitSignal(w.experiments.opened, timeout=RUN_TIMEOUT_MS) as blocker:
        d.run_button.click()
        assert w.experiments.run.busy          # the UI thread is free while the days run
    view = blocker.args[0]
    assert reads == []                # the open airport is run; its file is not read again
    assert progress[-1] == (4, 4) and sorted(p[0] for p in progress) == [1, 2, 3, 4]
    out = view.source
    assert out.parent == tmp_path / "results"            # the folder chosen in the settings
    runs = pd.read_csv(out / "runs.csv")
    assert len(runs) == 4 and set(runs["fleet"]) == {1, 2} and set(runs["seed"]) == {0, 1}
    assert json.loads((out / "sweep.json").read_text())["interrupted"] is False
    rerun = load_sweep(out / "experiment.toml")      # python main.py sweep runs it again
    assert [(r.scenario.fleet, r.seed) for r in rerun.runs()] == [(1, 0), (1, 1), (2, 0), (2, 1)]
    assert (out / "mbr-vs-fleet.png").exists()
    curves = view.curves()
    assert len(curves) == 1 and list(curves[0].fleet) == [1, 2]
    mbr = runs.groupby("fleet")["mbr_per_1000"]
    assert np.allclose(curves[0].mean, mbr.mean().to_numpy())
    # the bars are the bounded interval: from lo to hi, never below 0
    bars = [i for i in view.plot.getPlotItem().items if type(i).__name__ == "ErrorBarItem"]
    assert len(bars) == 1
    bottom, top = bars[0].opts["bottom"], bars[0].opts["top"]
    assert np.allclose(curves[0].mean - bottom, curves[0].lo)
    assert np.allclose(curves[0].mean + top, curves[0].hi)
    assert (curves[0].lo >= 0).all() and (curves[0].hi >= curves[0].mean).all()
    cell = view.scenarios.item(0, 7).text()                # MBR: "mean [lo, hi]"
    assert "[" in cell and "]" in cell
    assert f"results in {out}" in w.status_text()
    view.close()


def test_cancel_keeps_the_days_that_finished(day_window, qtbot):
    w = day_window
    d = choose(w, qtbot, fleets="1, 2, 3", seeds=3)
    run = w.experiments.run
    # cancel as the first day's result is taken in: the sweep stops right after it
    run.relay.news.connect(lambda *_: run.cancel(), Qt.ConnectionType.DirectConnection)
    with qtbot.waitSignal(w.experiments.opened, timeout=RUN_TIMEOUT_MS) as blocker:
        d.run_button.click()
    view = blocker.args[0]
    manifest = json.loads((view.source / "sweep.json").read_text())
    assert manifest["interrupted"] is True
    assert manifest["runs_total"] == 9 and manifest["runs_finished"] == 1
    assert len(view.table) == 1
    assert "cancelled: 1 of 9 days kept" in w.status_text()
    view.close()


def test_compare_over_seeds_gives_each_kpis_difference_with_its_interval(day_window, qtbot,
                                                                          settings):
    w = day_window
    settings.setValue(KEYS["remote"], False)       # a local cluster, started off the UI thread
    settings.setValue(KEYS["workers"], 1)
    with qtbot.waitSignal(w.whatif.applied, timeout=SIM_TIMEOUT_MS):
        w.whatif.edit(AddTugs("A1", 2))
    seeds = w.experiments.seeds
    seeds.seeds_spin.setValue(3)
    with qtbot.waitSignal(w.experiments.compared, timeout=RUN_TIMEOUT_MS) as blocker:
        seeds.run_button.click()
        assert seeds.busy and seeds.run_button.text() == "Cancel"
    diffs = blocker.args[0].set_index("kpi")
    runs = pd.read_csv(w.experiments.last_compare.out / "runs.csv")
    base = w.whatif.base[1].seed
    assert sorted(runs["seed"].unique()) == [base, base + 1, base + 2]
    saved = load_sweep(w.experiments.last_compare.out / "experiment.toml")
    assert [(e.t, e.edit) for e in saved.edit_sets[WHATIF]] == [(a.t, a.edit) for a in w.experiments.edits]
    # the difference is the paired one: edited − unedited, seed by seed
    by = runs.pivot(index="seed", columns="edits", values="tug_distance_km")
    d = by[WHATIF] - by["none"]
    km = diffs.loc["tug_distance_km"]
    assert km["pairs"] == 3 and np.isclose(km["diff_mean"], d.mean())
    assert km["diff_lo"] < km["diff_mean"] < km["diff_hi"] or d.std() == 0
    text = seeds.difference("tug_distance_km")
    assert text.startswith(("+", "-", "0")) and "[" in text
    assert not seeds.busy and seeds.table.isVisible()


def test_a_results_folder_that_cannot_be_made_is_reported_and_nothing_runs(day_window, qtbot,
                                                                            tmp_path):
    w = day_window
    a_file = tmp_path / "a-file"
    a_file.write_text("not a folder")
    d = choose(w, qtbot)
    d.folder_edit.setText(str(a_file / "results"))
    d.run_button.click()
    assert str(a_file) in w.last_error and not w.experiments.run.busy
    assert w.status_text().startswith("The experiment cannot run")
