"""The benchmark records every field, checks results before timing them, and answers the paper."""

import json

import pytest

from engine.apsp.random_graph import paper_random_graph
from engine.bench.apsp import ReferenceMismatch, check_result, load_report
from engine.bench.apsp_run import run_benchmark
from engine.bench.run import BenchHooks
from main import main
from tests.apsp_reference import scipy_distances
from tests.synthetic_measure import SyntheticMeasure

POINT_FIELDS = {"variant", "graph", "n", "repeats", "median_ms", "kernel_median_ms",
                "relaxations_per_s", "ceiling_fraction", "check", "device", "first_ms"}


def test_bench_command_writes_json_and_csv_with_every_field(tmp_path, capsys):
    assert main(["bench", "--variants", "cpu-linear", "cpu-blocked", "scipy", "--sizes", "17", "40",
                 "--density", "15", "--airports", "paper-5", "--out", str(tmp_path)]) == 0
    data = json.loads((tmp_path / "bench.json").read_text())
    assert {"command", "machine", "budget_s", "points", "answers"} <= set(data)
    assert {"numpy", "numba", "cpu_threads", "platform"} <= set(data["machine"])
    assert len(data["points"]) == 3 * 2 + 3  # two sizes per variant, then paper-5 once each
    for point in data["points"]:
        assert set(point) == POINT_FIELDS
        assert point["median_ms"] > 0 and point["relaxations_per_s"] > 0
        assert point["first_ms"] > 0   # the untimed warm-up call, reported beside the median
        assert point["check"].startswith("scipy")
    assert data["answers"]["cpu-blocked"]["random-15%"]["largest_n_within_budget"] == 40
    csv_lines = (tmp_path / "bench.csv").read_text().splitlines()
    assert len(csv_lines) == 1 + len(data["points"])
    out, err = capsys.readouterr()
    assert "Largest n solved within 2 s" in out
    assert "] cpu-linear     random-15%  n=17" in err  # the progress line
    assert "] scipy          paper-5     n=5" in err
    assert load_report(tmp_path / "bench.json").points[0].variant == "cpu-linear"


def test_reference_check_catches_a_wrong_distance():
    cost = paper_random_graph(30, 15, seed=1)
    dist = scipy_distances(cost)
    dist[3, 7] += 1
    with pytest.raises(ReferenceMismatch, match=r"\(3, 7\)"):
        check_result(cost, dist)


def test_reference_check_catches_a_wrong_route():
    cost = paper_random_graph(30, 85, seed=2)
    dist = scipy_distances(cost)
    with pytest.raises(ReferenceMismatch, match="route"):
        check_result(cost, dist, route=lambda i, j: [i, j] if i != j else [i])


def test_sampled_check_on_large_graphs_catches_a_wrong_row():
    cost = paper_random_graph(700, 15, seed=3)
    dist = scipy_distances(cost)
    dist[:, 5] += 1  # wrong in every row, so any sampled row sees it
    with pytest.raises(ReferenceMismatch):
        check_result(cost, dist)


def test_ladder_stops_past_the_budget_and_bisects():
    report = run_benchmark(["cpu-linear"], [8, 16, 400], [85], {}, budget_s=1e-3,
                           command="test", bisect_steps=2)
    answer = report.answers["cpu-linear"]["random-85%"]
    measured = [p.n for p in report.points]
    assert measured[:3] == [8, 16, 400] and len(measured) == 5  # then two bisection steps
    over = [p.n for p in report.points if p.kernel_median_ms > 1.0]
    assert 400 in over  # 6.4e7 relaxations never fit in 1 ms
    assert answer["budget_exceeded_at"] == min(over)
    assert 16 <= answer["largest_n_within_budget"] < 400


def test_unknown_airport_is_refused_with_the_bundled_names(tmp_path, capsys):
    assert main(["bench", "--variants", "cpu-linear", "--sizes", "8", "--airports", "narnia",
                 "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "narnia" in err and "paper-5" in err


class Recorder(BenchHooks):
    """Hooks that note what they hear; they stop the run after ``stop_after`` points and keep
    going past a failed point when ``go_on``."""

    def __init__(self, go_on=True, stop_after=None):
        self.go_on, self.stop_after = go_on, stop_after
        self.machines, self.announced, self.points, self.failures, self.progress = [], [], [], [], []

    def started(self, report):
        self.machines.append(report.machine)

    def measuring(self, variant, graph, n):
        self.announced.append((variant, graph, n))

    def measured(self, report, point):
        assert report.points[-1] is point
        self.points.append(point)

    def failed(self, failure, error):
        self.failures.append(failure)
        return self.go_on

    def advanced(self, done, total):
        self.progress.append((done, total))

    def should_stop(self):
        return self.stop_after is not None and len(self.progress) >= self.stop_after


def test_ladder_bisects_between_the_last_size_that_fit_and_the_first_past_the_budget():
    measure = SyntheticMeasure()  # n vertices in n ms: 52 fit in 52 ms, 54 do not
    report = run_benchmark(["cpu-linear"], [8, 16, 32, 64], [15], {}, budget_s=0.053,
                           command="test", bisect_steps=4, measure_fn=measure)
    assert measure.sizes() == [8, 16, 32, 64, 48, 56, 52, 54]
    answer = report.answers["cpu-linear"]["random-15%"]
    assert answer["largest_n_within_budget"] == 52 and answer["budget_exceeded_at"] == 54


def test_hooks_hear_every_point_and_the_count_ends_at_the_points_measured():
    measure, hooks = SyntheticMeasure(), Recorder()
    airport = paper_random_graph(5, 85, seed=1)
    report = run_benchmark(["cpu-linear", "scipy"], [8, 16, 32], [15], {"paper-5": airport},
                           budget_s=0.02, command="test", hooks=hooks, bisect_steps=4,
                           measure_fn=measure)
    assert len(hooks.machines) == 1 and "numba" in hooks.machines[0]
    assert hooks.announced == measure.calls
    assert hooks.points == report.points and len(report.points) == len(measure.calls)
    assert measure.calls[-2:] == [("cpu-linear", "paper-5", 5), ("scipy", "paper-5", 5)]
    totals = [t for _, t in hooks.progress]
    assert totals[0] == 2 * (3 + 4) + 2 and totals == sorted(totals, reverse=True)
    assert [d for d, _ in hooks.progress if d] == sorted(d for d, _ in hooks.progress if d)
    assert hooks.progress[-1] == (len(report.points), len(report.points))


def test_a_failed_point_ends_its_ladder_and_the_run_goes_on_when_the_hooks_say_so():
    measure, hooks = SyntheticMeasure(fail=[("cpu-linear", 16)]), Recorder(go_on=True)
    report = run_benchmark(["cpu-linear", "scipy"], [8, 16, 32], [15], {}, budget_s=0.02,
                           command="test", hooks=hooks, measure_fn=measure)
    assert measure.sizes("cpu-linear") == [8, 16]  # no larger size, no bisection
    assert measure.sizes("scipy") == [8, 16, 32, 24, 20, 22, 21]  # 20 ms fit the budget
    assert [(f.variant, f.n) for f in hooks.failures] == [("cpu-linear", 16)]
    assert "ReferenceMismatch" in hooks.failures[0].message
    assert report.answers["cpu-linear"]["random-15%"]["error"].startswith("n=16: ReferenceMismatch")
    assert [p.n for p in report.points if p.variant == "cpu-linear"] == [8]
    assert hooks.progress[-1] == (9, 9)  # the failed point counts as done


def test_a_failed_point_stops_the_run_by_default():
    with pytest.raises(ReferenceMismatch):
        run_benchmark(["cpu-linear"], [8, 16], [15], {}, budget_s=1.0, command="test",
                      measure_fn=SyntheticMeasure(fail=[("cpu-linear", 16)]))


def test_should_stop_ends_the_run_between_points_and_keeps_what_it_measured():
    measure, hooks = SyntheticMeasure(), Recorder(stop_after=3)
    report = run_benchmark(["cpu-linear", "scipy"], [8, 16, 32, 64], [15, 85], {},
                           budget_s=1.0, command="test", hooks=hooks, measure_fn=measure)
    assert measure.sizes() == [8, 16, 32]
    assert [p.n for p in report.points] == [8, 16, 32]
    assert report.answers["cpu-linear"]["random-15%"]["largest_n_within_budget"] == 32
    assert hooks.progress[-1][0] < hooks.progress[-1][1]  # stopped short of the plan


def test_every_problem_module_provides_what_the_command_and_window_use():
    from engine.bench.problems import PROBLEMS, problem
    for name in PROBLEMS:
        module = problem(name)
        for attribute in ("TITLE", "POINT", "DEFAULT_SIZES", "variants", "add_arguments",
                          "options", "benchmark", "format_table", "registry", "PEER_TIPS",
                          "plan_size"):
            assert hasattr(module, attribute), f"{name}: {attribute}"
        assert set(module.variants(available_only=True)) <= set(module.variants())
        assert [v.name for v in module.registry()] + list(module.PEER_TIPS) == module.variants()


def test_an_unknown_problem_is_refused_by_the_command_line(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["bench", "--problem", "tsp"])
    assert exit_.value.code == 2 and "apsp" in capsys.readouterr().err


def test_a_saved_report_names_its_problem_and_loads_as_its_points(tmp_path):
    from engine.bench.problems import load_report as load_any
    assert main(["bench", "--variants", "cpu-linear", "--sizes", "9", "--density", "15",
                 "--no-airports", "--out", str(tmp_path)]) == 0
    assert json.loads((tmp_path / "bench.json").read_text())["problem"] == "apsp"
    assert load_any(tmp_path / "bench.json").points[0].n == 9
