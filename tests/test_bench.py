"""The benchmark records every field, checks results before timing them, and answers the paper."""

import json

import pytest

from engine.apsp.random_graph import paper_random_graph
from engine.bench import ReferenceMismatch, check_result, load_report, run_benchmark
from main import main
from tests.apsp_reference import scipy_distances

POINT_FIELDS = {"variant", "graph", "n", "repeats", "median_ms", "kernel_median_ms",
                "relaxations_per_s", "ceiling_fraction", "check", "device"}


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
        assert point["check"].startswith("scipy")
    assert data["answers"]["cpu-blocked"]["random-15%"]["largest_n_within_budget"] == 40
    csv_lines = (tmp_path / "bench.csv").read_text().splitlines()
    assert len(csv_lines) == 1 + len(data["points"])
    assert "Largest n solved within 2 s" in capsys.readouterr().out
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
