"""File ▸ Open sweep…: a sweep's results plotted against fleet size, a table per scenario, and a
bad file reported without losing what is shown."""

import numpy as np
import pandas as pd
import pytest

from engine.sweep import results
from engine.sweep.day import run_day
from engine.sweep.scenario import load_sweep
from gui.sweep.view import SweepWindow


@pytest.fixture(scope="module")
def sweep_folder(tmp_path_factory):
    """A real (tiny) sweep's results, its days run in-process: paper-5, 1 and 2 tugs, both
    policies, 3 seeds."""
    folder = tmp_path_factory.mktemp("sweep")
    toml = folder / "tiny.toml"
    toml.write_text('[sweep]\nseeds = 3\nvariant = "cpu-linear"\n[factors]\nlayout = "paper-5"\n'
                    'fleet = [1, 2]\npolicy = ["shortest-path", "baseline"]\nhours = 1\n')
    sweep = load_sweep(toml)
    rows = [run_day(sweep.airports["paper-5"], r, sweep.variant)[0] for r in sweep.runs()]
    results.write(folder / "out", results.table(rows),
                  {"workers": 2, "wall_s": 1.5, "interrupted": True, "runs_finished": 12,
                   "runs_total": 20})
    return folder / "out"


def test_open_sweep_from_the_file_menu_plots_mbr_against_fleet_per_policy(make_window, qtbot,
                                                                         sweep_folder):
    main = make_window(wait=False)
    file_menu = main.menuBar().actions()[0].menu()
    assert "Open s&weep…" in [a.text() for a in file_menu.actions()]
    window = main.open_sweep(sweep_folder / "runs.parquet")
    qtbot.addWidget(window)
    assert isinstance(window, SweepWindow) and window.isVisible() and window.last_error is None
    summary = pd.read_csv(sweep_folder / "summary.csv")
    drawn = {item.name(): item.getData() for item in window.plot.listDataItems()}
    assert set(drawn) == {"shortest-path", "baseline"}
    for policy, (x, y) in drawn.items():
        expected = summary[summary["policy"] == policy].sort_values("fleet")
        assert np.allclose(x, [1, 2], atol=0.2)     # side by side at each fleet size
        assert np.allclose(y, expected["mbr_per_1000_mean"])
    xs = [x for x, _ in drawn.values()]
    assert not np.allclose(*xs)                      # so one curve's bars never hide the other's
    assert window.scenarios.rowCount() == 4
    assert "12 days, 4 scenarios, seeds 0, 1, 2" in window.status_line.text()
    assert "interrupted: 12 of 20 days finished" in window.status_line.text()


def test_another_kpi_and_a_bad_file_keeps_what_is_shown(qtbot, sweep_folder, tmp_path):
    window = SweepWindow()
    qtbot.addWidget(window)
    assert window.load(sweep_folder)
    window.kpi_box.setCurrentIndex(window.kpi_box.findData("tug_utilisation"))
    table = pd.read_parquet(sweep_folder / "runs.parquet")
    x, y = next(i.getData() for i in window.plot.listDataItems() if i.name() == "baseline")
    means = table[table["policy"] == "baseline"].groupby("fleet")["tug_utilisation"].mean()
    assert np.allclose(y, means.to_numpy()) and "tug utilisation" in \
        window.plot.getAxis("left").labelText

    bad = tmp_path / "runs.csv"
    bad.write_text("a,b\n1,2\n")
    assert not window.load(bad)
    assert str(bad) in window.last_error and "missing column(s)" in window.last_error
    assert window.error_box is not None and window.error_box.isVisible()
    assert window.source == sweep_folder and len(window.plot.listDataItems()) == 2
    assert not window.load(tmp_path / "nowhere")
    assert "no such file" in window.last_error
