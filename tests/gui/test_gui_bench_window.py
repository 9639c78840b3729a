"""The benchmark window: runs real measurements off the UI thread, plots them, saves and opens
the CLI's JSON, and keeps what it shows when a file is bad."""

import json
import math
import threading

import pytest

import main
from engine.bench import apsp as bench
from engine import gpu_device
from engine.bench.apsp import ReferenceMismatch, load_report
from gui.bench.window import BenchWindow
from gui.bench.worker import BenchWorker
from gui.settings import file_settings
from tests.synthetic_measure import SyntheticMeasure

RUN_TIMEOUT_MS = 60_000  # a variant's first point may JIT-compile it
TINY = dict(variants=["cpu-linear", "cpu-blocked", "scipy"], sizes=[8, 16])


@pytest.fixture
def bench_settings(tmp_path):
    return file_settings(tmp_path / "bench.ini")


@pytest.fixture
def make_bench(qtbot, bench_settings):
    def make(**kwargs):
        kwargs.setdefault("settings", bench_settings)
        window = BenchWindow(**kwargs)
        qtbot.addWidget(window)
        window.show()
        return window
    return make


class Gate:
    """A real ``measure`` that holds its ``hold_at``-th call until released."""

    def __init__(self, hold_at=2, fail=None):
        self.calls, self.hold_at, self.fail = 0, hold_at, fail
        self.entered, self.release = threading.Event(), threading.Event()

    def __call__(self, variant, cost, graph, budget_s):
        self.calls += 1
        if self.fail and self.fail == (variant, len(cost)):
            raise ReferenceMismatch("distance (0, 3) is 7, reference 5")
        if self.calls == self.hold_at:
            self.entered.set()
            assert self.release.wait(20), "the test never released the gate"
        return bench.measure(variant, cost, graph, budget_s)


def run_to_end(qtbot, window, **plan):
    window.set_plan(**plan)
    assert window.start_run() is not None
    qtbot.waitUntil(lambda: not window.running, timeout=RUN_TIMEOUT_MS)


def curve_data(window):
    return {label: (list(c.xData), list(c.yData)) for label, c in window.plot.curves.items()}


def test_tiny_run_fills_table_plot_and_progress_bar(qtbot, make_bench):
    window = make_bench()
    run_to_end(qtbot, window, **TINY)
    rows = window.table_rows()
    assert [(r[0], r[2]) for r in rows] == [(v, n) for v in TINY["variants"] for n in ("8", "16")]
    assert all(r[1] == "random-15%" and r[6].startswith("scipy full") for r in rows)
    assert all(float(r[4]) > 0 and float(r[5]) > 0 for r in rows)
    assert (window.progress.value(), window.progress.maximum()) == (6, 6)
    assert set(window.plot.curves) == set(TINY["variants"])
    for xs, ys in curve_data(window).values():
        assert xs == [8, 16] and all(y > 0 for y in ys)
    assert window.plot.getPlotItem().ctrl.logXCheck.isChecked()
    assert window.plot.getPlotItem().ctrl.logYCheck.isChecked()
    assert window.plot.budget_line.value() == pytest.approx(math.log10(2000))
    assert "2 s budget" in window.plot.budget_line.label.format
    assert "CPU" in window.plot.title()
    assert window.save_button.isEnabled() and window.run_button.isEnabled()
    assert "Done: 6 points measured" in window.status_line.text()


def test_cancel_stops_after_the_point_being_measured(qtbot, make_bench):
    gate = Gate(hold_at=2)
    window = make_bench(worker=BenchWorker(measure_fn=gate))
    window.set_plan(["cpu-linear"], [8, 16, 32, 64])
    window.start_run()
    qtbot.waitUntil(gate.entered.is_set, timeout=RUN_TIMEOUT_MS)
    assert window.running and not window.run_button.isEnabled()
    window.cancel_button.click()
    gate.release.set()
    qtbot.waitUntil(lambda: not window.running, timeout=RUN_TIMEOUT_MS)
    assert gate.calls == 2  # the point in flight finished; no further point started
    assert [r[2] for r in window.table_rows()] == ["8", "16"]
    assert window.progress.value() == 2 and window.progress.maximum() == 4 + 4  # + bisection
    assert "Cancelled after 2 of up to 8 points" in window.status_line.text()
    assert window.run_button.isEnabled() and window.save_button.isEnabled()
    # the engine's partial report is what is shown and saved
    assert window.report is window.worker.run.report
    assert [p.n for p in window.report.points] == [8, 16]
    assert window.report.answers["cpu-linear"]["random-15%"]["largest_n_within_budget"] == 16


def test_a_failing_point_is_a_table_row_and_the_run_goes_on(qtbot, make_bench):
    gate = Gate(hold_at=0, fail=("cpu-blocked", 8))
    window = make_bench(worker=BenchWorker(measure_fn=gate))
    run_to_end(qtbot, window, **TINY)
    rows = window.table_rows()
    failed = [r for r in rows if r[6].startswith("FAILED")]
    assert len(failed) == 1 and failed[0][0] == "cpu-blocked" and failed[0][2] == "8"
    assert "ReferenceMismatch" in failed[0][6]
    # cpu-blocked's ladder stops at its failure; the others are measured in full
    assert sorted(r[0] for r in rows if not r[6].startswith("FAILED")) == [
        "cpu-linear", "cpu-linear", "scipy", "scipy"]
    assert (window.progress.value(), window.progress.maximum()) == (5, 5)  # 1 failed, 4 measured
    assert "1 failed" in window.status_line.text()
    assert "cpu-blocked" not in window.plot.curves
    assert "n=8" in window.report.answers["cpu-blocked"]["random-15%"]["error"]


def test_the_run_bisects_between_the_last_size_that_fit_and_the_first_past_the_budget(
        qtbot, make_bench, tmp_path):
    measure = SyntheticMeasure()  # n vertices in n ms: 50 fit in the 0.05 s budget, 52 do not
    window = make_bench(worker=BenchWorker(measure_fn=measure))
    run_to_end(qtbot, window, variants=["cpu-linear"], sizes=[8, 16, 32, 64], budget_s=0.05,
               bisect_steps=4)
    assert measure.sizes() == [8, 16, 32, 64, 48, 56, 52, 50]
    assert [r[2] for r in window.table_rows()] == ["8", "16", "32", "64", "48", "56", "52", "50"]
    assert (window.progress.value(), window.progress.maximum()) == (8, 8)
    assert "cpu-linear 50" in window.answers_label.text()
    answer = window.report.answers["cpu-linear"]["random-15%"]
    assert answer["largest_n_within_budget"] == 50 and answer["budget_exceeded_at"] == 52
    assert window.save_file(tmp_path / "bisected.json")
    assert "--bisect 4" in json.loads((tmp_path / "bisected.json").read_text())["command"]


def test_airports_are_timed_after_the_ladders_when_ticked(qtbot, make_bench):
    measure = SyntheticMeasure()
    window = make_bench(worker=BenchWorker(measure_fn=measure))
    run_to_end(qtbot, window, variants=["cpu-linear", "scipy"], sizes=[8], bisect_steps=0,
               airports=True)
    rows = [(r[0], r[1], r[2]) for r in window.table_rows()]
    assert rows == [("cpu-linear", "random-15%", "8"), ("scipy", "random-15%", "8")] + [
        (v, a, n) for a, n in (("eham", "1,208"), ("hub-atl", "2,253"), ("paper-5", "5"),
                               ("regional", "277"))
        for v in ("cpu-linear", "scipy")]
    assert "--airports eham hub-atl paper-5 regional" in window.report.command
    assert "Done: 10 points measured" in window.status_line.text()


def _point(variant, graph, n, ms):
    return bench.Point(variant, graph, n, 3, ms * 1.2, ms, n**3 / (ms / 1e3), None, "synthetic",
                       "test")


def _report_file(tmp_path, points, name="airports.json"):
    report = bench.Report("python main.py bench (test)", {}, 2.0, points,
                          bench.paper_answers(points, 2.0))
    path = tmp_path / name
    path.write_text(report.to_json(), encoding="utf-8")
    return path


AIRPORT_TIMES = {"gpu-fast": {"hub-atl": 3.65, "regional": 0.383},
                 "cpu-blocked": {"hub-atl": 433.0, "regional": 5.34}}


def test_airports_are_summarised_apart_from_the_ladders_and_drawn_as_unlinked_markers(
        make_bench, tmp_path):
    from gui.bench.plot import AIRPORTS_LEGEND
    ladder = [_point(v, "random-15%", n, n * k) for v, k in (("gpu-fast", 0.01), ("cpu-blocked", 1))
              for n in (512, 1024, 4096)]
    airports = [_point(v, a, {"hub-atl": 2253, "regional": 277}[a], ms)
                for v, by_airport in AIRPORT_TIMES.items() for a, ms in by_airport.items()]
    window = make_bench()
    assert window.load_file(_report_file(tmp_path, ladder + airports))

    largest, airports_line = window.answers_label.text().split("<br>")
    # an airport has one size: it is no "largest n within the budget"
    assert largest == ("<b>Largest n measured within 2 s</b> — "
                       "random-15%: gpu-fast 4,096 (budget not reached), cpu-blocked 1,024")
    assert airports_line == (
        "<b>Airports, solve time (median)</b> — "
        "hub-atl (2,253 vertices): fastest gpu-fast 3.65 ms, next cpu-blocked 433 ms; "
        "regional (277 vertices): fastest gpu-fast 0.383 ms, next cpu-blocked 5.34 ms")

    plot = window.plot
    # one line per variant for the ladder, named by the variant alone (one ladder graph)
    assert set(plot.curves) == {"gpu-fast", "cpu-blocked"}
    assert curve_data(window)["gpu-fast"][0] == [512, 1024, 4096]
    # the airports: markers without a line, in each variant's colour and symbol, one legend entry
    assert set(plot.airport_markers) == {"gpu-fast", "cpu-blocked"}
    for variant, markers in plot.airport_markers.items():
        assert markers.opts["pen"] is None
        assert markers.opts["symbol"] == plot.curves[variant].opts["symbol"]
        assert sorted(zip(markers.xData, markers.yData)) == sorted(
            ({"hub-atl": 2253, "regional": 277}[a], ms) for a, ms in AIRPORT_TIMES[variant].items())
    assert [label.text for _, label in plot.legend.items] == [
        "cpu-blocked", "gpu-fast", AIRPORTS_LEGEND]
    # each airport named once, under its fastest marker
    assert set(plot.airport_labels) == {"hub-atl", "regional"}
    hub = plot.airport_labels["hub-atl"]
    assert hub.textItem.toPlainText() == "hub-atl"
    assert hub.pos().x() == pytest.approx(math.log10(2253))
    assert hub.pos().y() < math.log10(3.65)
    # the table still lists every airport point
    assert sum(r[1] in ("hub-atl", "regional") for r in window.table_rows()) == 4

    # opening a ladder-only file takes the airport markers, names and summary away
    shown = list(plot.airport_markers.values()) + list(plot.airport_labels.values())
    assert window.load_file(_report_file(tmp_path, ladder, "ladder.json"))
    assert plot.airport_markers == {} and plot.airport_labels == {}
    assert not any(item in plot.plot_item.items for item in shown)
    assert [label.text for _, label in plot.legend.items] == ["cpu-blocked", "gpu-fast"]
    assert window.answers_label.text() == largest


def test_a_report_of_airports_alone_has_no_largest_n_line(make_bench, tmp_path):
    points = [_point(v, "regional", 277, ms) for v, ms in (("cpu-blocked", 5.34), ("scipy", 10.8))]
    window = make_bench()
    assert window.load_file(_report_file(tmp_path, points))
    assert window.answers_label.text() == (
        "<b>Airports, solve time (median)</b> — "
        "regional (277 vertices): fastest cpu-blocked 5.34 ms, next scipy 10.8 ms")
    assert window.plot.curves == {} and set(window.plot.airport_markers) == {"cpu-blocked", "scipy"}
    # no ladder curve names the variants' markers: the legend does, one entry each
    from gui.bench.plot import AIRPORTS_LEGEND
    assert [label.text for _, label in window.plot.legend.items] == [
        "cpu-blocked", "scipy", AIRPORTS_LEGEND]


def test_a_run_that_cannot_start_says_why(qtbot, make_bench, monkeypatch):
    def no_machine():
        raise RuntimeError("no CUDA context (test)")
    monkeypatch.setattr("engine.bench.apsp_run.machine_info", no_machine)
    window = make_bench(worker=BenchWorker(measure_fn=SyntheticMeasure()))
    run_to_end(qtbot, window, variants=["scipy"], sizes=[8])
    assert "The run stopped: RuntimeError: no CUDA context (test)" in window.status_line.text()
    assert window.table_rows() == [] and window.run_button.isEnabled()


def test_saved_results_open_in_a_fresh_window_with_the_same_points(qtbot, make_bench, tmp_path):
    first = make_bench()
    run_to_end(qtbot, first, **TINY)
    path = tmp_path / "mine.json"
    assert first.save_file(path)
    saved = json.loads(path.read_text())
    assert saved == json.loads(first.report.to_json())  # the CLI's format, via Report.to_json
    assert saved["command"].startswith("python main.py bench --variants cpu-linear cpu-blocked")
    assert load_report(path).points == first.report.points

    second = make_bench()
    assert second.load_file(path)
    assert second.table_rows() == first.table_rows()
    assert curve_data(second) == curve_data(first)
    assert "mine.json" in second.windowTitle() and "CPU" in second.windowTitle()


def test_a_bad_file_names_the_file_and_problem_and_keeps_the_results(qtbot, make_bench,
                                                                        tmp_path):
    window = make_bench()
    run_to_end(qtbot, window, variants=["scipy"], sizes=[8, 16])
    before, curves = window.table_rows(), curve_data(window)

    broken = tmp_path / "broken.json"
    broken.write_text('{"command": "x", "points": [', encoding="utf-8")
    assert not window.load_file(broken)
    assert "broken.json" in window.last_error and "malformed JSON" in window.last_error
    assert window.error_box.isVisible() and "broken.json" in window.error_box.text()
    assert "broken.json" in window.status_line.text()
    assert window.table_rows() == before and curve_data(window) == curves

    wrong = tmp_path / "wrong.json"
    report = json.loads(window.report.to_json())
    report["points"][1]["kernel_median_ms"] = "fast"
    wrong.write_text(json.dumps(report), encoding="utf-8")
    assert not window.load_file(wrong)
    assert "wrong.json" in window.last_error and "point 2" in window.last_error
    assert "kernel_median_ms" in window.last_error

    assert not window.load_file(tmp_path / "missing.json")
    assert "missing.json" in window.last_error and "does not exist" in window.last_error
    other = tmp_path / "other.json"
    other.write_text('[1, 2, 3]', encoding="utf-8")
    assert not window.load_file(other)
    assert "not a benchmark report" in window.last_error
    assert window.table_rows() == before and curve_data(window) == curves
    window.error_box.close()


def test_opens_the_json_written_by_the_bench_command(qtbot, make_bench, tmp_path, capsys):
    out = tmp_path / "gpu-machine"
    assert main.main(["bench", "--variants", "cpu-blocked", "scipy", "--sizes", "8", "16",
                      "--density", "15", "85", "--budget", "2", "--no-airports", "--bisect", "0",
                      "--out", str(out)]) == 0
    written = load_report(out / "bench.json")
    window = make_bench()
    assert window.load_file(out / "bench.json")
    rows = window.table_rows()
    assert len(rows) == len(written.points) == 8
    assert {(r[0], r[1], r[2]) for r in rows} == {
        (v, g, n) for v in ("cpu-blocked", "scipy") for g in ("random-15%", "random-85%")
        for n in ("8", "16")}
    # two graphs: one line each per variant, labelled with the graph
    assert set(window.plot.curves) == {f"{v} · random-{d}%" for v in ("cpu-blocked", "scipy")
                                       for d in (15, 85)}
    assert "bench.json" in window.windowTitle()
    assert written.points[0].device in window.plot.title()
    assert written.command in window.source_label.text()
    assert f"{written.machine['cpu_threads']} CPU threads" in window.source_label.text()


def test_closing_during_a_run_cancels_and_waits(qtbot, make_bench):
    gate = Gate(hold_at=2)
    worker = BenchWorker(measure_fn=gate)
    window = make_bench(worker=worker)
    window.set_plan(["cpu-linear"], [8, 16, 32, 64])
    window.start_run()
    qtbot.waitUntil(gate.entered.is_set, timeout=RUN_TIMEOUT_MS)
    threading.Timer(0.3, gate.release.set).start()  # the point in flight ends while closing
    window.close()
    assert worker.wait(0)  # no thread outlives the window
    assert gate.calls == 2


def test_unavailable_variants_are_listed_disabled_with_their_reason(make_bench, monkeypatch):
    monkeypatch.setattr(gpu_device, "gpu_unavailable_reason", lambda: "no CUDA driver (test)")
    window = make_bench()
    items = {window.variant_list.item(i).data(0x0100): window.variant_list.item(i)
             for i in range(window.variant_list.count())}
    assert {"cpu-linear", "cpu-blocked", "gpu-fast", "scipy", "networkx"} <= set(items)
    gpu = items["gpu-fast"]
    assert not gpu.flags() & gpu.flags().ItemIsEnabled
    assert "no CUDA driver (test)" in gpu.toolTip()
    assert window.set_selected_variants(["gpu-fast", "cpu-blocked"]) == ["cpu-blocked"]


def test_bad_sizes_are_a_message_not_a_run(make_bench):
    window = make_bench()
    window.set_plan(["scipy"], [8])
    window.sizes_edit.setText("64 lots")
    assert window.start_run() is None
    assert "'lots'" in window.status_line.text() and not window.running


def test_main_window_opens_the_benchmark_window_from_its_tools_menu(window, qtbot):
    from gui.bench.window import BenchWindow
    actions = {a.text(): a for m in window.menuBar().actions() for a in m.menu().actions()}
    assert "&Benchmark…" in actions
    bench = window.open_benchmark()
    qtbot.waitExposed(bench)
    assert isinstance(bench, BenchWindow) and bench.isVisible()
    bench.close()
