"""The benchmark window's minimum spanning forest problem: its variants and peers listed, a run
whose every point is checked against scipy, the table and the plot by graph family."""

from engine.bench.problems import load_report
from tests.gui.test_gui_bench_problem import bench, listed, shown  # noqa: F401 — the window fixture


def test_an_mst_run_times_and_checks_each_point(qtbot, bench, tmp_path):  # noqa: F811
    bench.problem_box.setCurrentIndex(bench.problem_box.findData("mst"))  # as a user would
    assert listed(bench)[:2] == ["cpu-kruskal", "cpu-boruvka"] and "networkx" in listed(bench)
    assert shown(bench, "families") and not shown(bench, "source_counts")
    bench.set_plan(["cpu-kruskal", "scipy"], [16, 64], problem_name="mst", families="road grid")
    plan = bench.plan()
    assert "--problem mst" in plan.command() and "--mst-families grid" in plan.command()
    assert plan.total == 2 * 2
    assert bench.start_run() is not None
    qtbot.waitUntil(lambda: not bench.running, timeout=60_000)
    assert bench.report.problem == "mst" and len(bench.report.points) == 4
    rows = bench.table_rows()
    header = [bench.table.horizontalHeaderItem(c).text() for c in range(bench.table.columnCount())]
    assert header[3:5] == ["m", "ms warm"]
    assert all(r[-2].startswith("scipy total") for r in rows)
    assert {"cpu-kruskal", "scipy"} <= set(bench.plot.curves)  # one curve each: one family
    assert "Minimum spanning" in bench.windowTitle()
    assert bench.save_file(tmp_path / "mst.json")
    assert load_report(tmp_path / "mst.json").points[0].total > 0
