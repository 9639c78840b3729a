"""The benchmark window's problem choice: Floyd–Warshall or single-source shortest paths — the
variants, options, run, table and plot follow the choice, and an opened file switches to its
problem."""

from pathlib import Path

import pytest

from engine.bench.problems import load_report
from engine.bench.sssp_problem import parse_sources
from gui.bench import BenchWindow
from gui.settings import file_settings

ASSETS = Path(__file__).resolve().parents[2] / "docs" / "measurements"


@pytest.fixture
def bench(qtbot, tmp_path):
    window = BenchWindow(settings=file_settings(tmp_path / "bench.ini"))
    qtbot.addWidget(window)
    window.show()
    return window


def listed(window):
    return [window.variant_list.item(i).data(256) for i in range(window.variant_list.count())]


def shown(window, option: str) -> bool:
    """Whether the control of the problem option ``option`` (its ``benchmark`` keyword) is shown."""
    return window.controls.widgets[option].isVisible()


def test_choosing_sssp_lists_its_variants_and_options(bench):
    assert "cpu-blocked" in listed(bench) and shown(bench, "densities")
    bench.problem_box.setCurrentIndex(bench.problem_box.findData("sssp"))  # as a user would
    names = listed(bench)
    assert names[:2] == ["cpu-dijkstra", "cpu-bellman-ford"] and "cpu-blocked" not in names
    assert {"scipy", "networkx", "fw-gpu-fast"} <= set(names)
    assert not shown(bench, "densities") and not shown(bench, "bisect_steps")
    assert shown(bench, "source_counts") and shown(bench, "families")
    assert "Single-source" in bench.windowTitle()


def test_an_sssp_run_times_and_checks_each_point_from_its_sources(qtbot, bench, tmp_path):
    bench.set_plan(["cpu-dijkstra", "scipy"], [16, 64], problem_name="sssp",
                   families="road grid", source_counts="1 all")
    plan = bench.plan()
    assert "--problem sssp" in plan.command() and "--sources 1 all" in plan.command()
    assert plan.total == 2 * 2 * 2
    assert bench.start_run() is not None
    qtbot.waitUntil(lambda: not bench.running, timeout=60_000)
    assert bench.report.problem == "sssp" and len(bench.report.points) == 8
    rows = bench.table_rows()
    header = [bench.table.horizontalHeaderItem(c).text() for c in range(bench.table.columnCount())]
    assert header[3:5] == ["sources", "ms warm"]
    assert {r[3] for r in rows} == {"1", "16", "64"} and all(r[-2].startswith("scipy") for r in rows)
    assert any("grid, all src" in label for label in bench.plot.curves)
    assert bench.save_file(tmp_path / "sssp.json")
    assert load_report(tmp_path / "sssp.json").points[0].sources == 1


def test_opening_a_results_file_switches_to_its_problem(bench):
    assert bench.load_file(ASSETS / "sssp-h100-airports.json")
    assert bench.problem == "sssp" and "cpu-dijkstra" in listed(bench)
    assert any(r[1] == "hub-atl" and r[3] == "96" for r in bench.table_rows())
    assert "Floyd–Warshall time / gpu-fast-sssp time" in bench.answers_label.text()
    assert bench.load_file(ASSETS / "bench-h100-random15.json")
    assert bench.problem == "apsp" and "cpu-blocked" in listed(bench)


def test_sources_are_one_ninety_six_or_all():
    assert parse_sources("1, 96 all 1") == ("1", "96", "all")
    with pytest.raises(ValueError, match="7"):
        parse_sources("1 7")


def test_switching_problems_shows_the_chosen_ones_results_and_keeps_the_others(bench):
    assert bench.load_file(ASSETS / "sssp-h100-airports.json")
    sssp_rows = bench.table_rows()
    bench.problem_box.setCurrentIndex(bench.problem_box.findData("apsp"))  # as a user would
    header = [bench.table.horizontalHeaderItem(c).text() for c in range(bench.table.columnCount())]
    assert header[3] == "ms end to end" and bench.table_rows() == []
    assert bench.plot.title().startswith("Floyd–Warshall") and bench.report is None
    assert "Floyd–Warshall" in bench.windowTitle() and not bench.save_button.isEnabled()
    assert bench.progress.format() == "no run yet"
    bench.problem_box.setCurrentIndex(bench.problem_box.findData("sssp"))
    assert bench.table_rows() == sssp_rows and bench.source == "sssp-h100-airports.json"
    assert bench.plot.title().startswith("Single-source") and bench.save_button.isEnabled()
    assert bench.progress.format() == "opened from a file"
