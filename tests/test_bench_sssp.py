"""The SSSP benchmark (bench --problem sssp): every timed answer checked against scipy first, the
upload reported apart from the solve, ladders stopped at the budget with the reason said."""

import json

import numpy as np
import pytest

from engine.bench import sssp as bench
from engine.bench import sssp_problem
from engine.bench.report import ReferenceMismatch
from engine.bench.run import BenchHooks
from engine.sssp import prepare, solve
from engine.sssp.generators import road_grid
from main import main

POINT_FIELDS = {"variant", "graph", "family", "n", "m", "sources", "repeats", "median_ms",
                "kernel_median_ms", "first_ms", "upload_ms", "edges_per_s", "check", "device"}


def test_sssp_command_times_variants_and_peers_from_one_and_all_sources(tmp_path, capsys):
    assert main(["bench", "--problem", "sssp", "--variants", "cpu-dijkstra", "scipy", "networkx",
                 "--sizes", "49", "--families", "grid", "uniform", "--degree", "3",
                 "--sources", "1", "all", "--airports", "paper-5", "--out", str(tmp_path)]) == 0
    data = json.loads((tmp_path / "bench.json").read_text())
    assert data["problem"] == "sssp"
    graphs = [(p["variant"], p["graph"], p["sources"]) for p in data["points"]]
    assert graphs[:3] == [("cpu-dijkstra", "grid-7x7", 1), ("scipy", "grid-7x7", 1),
                          ("networkx", "grid-7x7", 1)]
    assert ("cpu-dijkstra", "uniform-49-d3", 49) in graphs and ("scipy", "paper-5", 5) in graphs
    for point in data["points"]:
        assert set(point) == POINT_FIELDS
        assert point["check"].startswith("scipy dijkstra") and point["median_ms"] > 0
        assert point["upload_ms"] is None  # CPU variants and peers upload nothing
    out = capsys.readouterr().out
    assert "grid-7x7" in out and "ms upload" in out
    assert len((tmp_path / "bench.csv").read_text().splitlines()) == 1 + len(data["points"])


def test_a_wrong_distance_or_route_is_caught_before_its_time_counts():
    g = prepare(road_grid(6, seed=2))
    sources = np.array([0, 9, 20])
    result = solve(g, sources, "cpu-dijkstra")
    reference = bench.Reference()
    assert "routes" in bench.check(reference, "k", g, sources, result.dist, result.route)
    wrong = result.dist.copy()
    wrong[-1, 5] += 1
    with pytest.raises(ReferenceMismatch, match="from 20 to 5"):
        bench.check(reference, "k", g, sources, wrong)
    with pytest.raises(ReferenceMismatch, match="route"):
        bench.check(reference, "k", g, sources, result.dist, lambda s, t: [s, t])


class Synthetic:
    """n × sources microseconds a call; records what it was asked to time."""

    def __init__(self):
        self.calls = []

    def __call__(self, variant, g, sources, graph, family, budget_s, reference):
        self.calls.append((variant, graph, len(sources)))
        ms = g.n * len(sources) / 1e3
        return bench.SsspPoint(variant, graph, family, g.n, g.m, len(sources), 1, ms, ms, ms,
                               None, 1.0, "synthetic", "test")


class Progress(BenchHooks):
    def __init__(self):
        self.progress = []

    def advanced(self, done, total):
        self.progress.append((done, total))


def test_a_ladder_stops_at_the_budget_and_says_where_and_why():
    measure, hooks = Synthetic(), Progress()
    report = sssp_problem.benchmark(["cpu-dijkstra"], [16, 64, 256, 1024], 0.05, [], "test",
                                    hooks, families=["grid"], source_counts=["1", "all"],
                                    measure_fn=measure)
    # one source: 0.016, 0.064, 0.256, 1.024 ms all fit; all sources: n² µs passes 50 ms at 256
    assert measure.calls == [("cpu-dijkstra", "grid-4x4", 1), ("cpu-dijkstra", "grid-4x4", 16),
                             ("cpu-dijkstra", "grid-8x8", 1), ("cpu-dijkstra", "grid-8x8", 64),
                             ("cpu-dijkstra", "grid-16x16", 1), ("cpu-dijkstra", "grid-32x32", 1)]
    why = report.answers["stopped"]["cpu-dijkstra grid all sources"]
    assert "n=256, 256 sources not run" in why and "extrapolated linearly" in why
    assert hooks.progress[-1] == (6, 6)  # the skipped points leave the count


def test_floyd_warshall_is_timed_only_against_all_sources():
    measure = Synthetic()
    report = sssp_problem.benchmark(["gpu-fast-sssp", "fw-gpu-fast"], [25], 10.0, [], "test",
                                    families=["grid"], measure_fn=measure)
    assert measure.calls == [("gpu-fast-sssp", "grid-5x5", 1), ("gpu-fast-sssp", "grid-5x5", 25),
                             ("fw-gpu-fast", "grid-5x5", 25)]
    [row] = report.answers["apsp_by_sssp_vs_fw"]
    assert row["graph"] == "grid-5x5" and row["fw_over_sssp"] == 1.0


def test_answers_over_the_label_cap_are_not_asked_for(monkeypatch):
    monkeypatch.setattr(sssp_problem, "MAX_LABELS", 256)
    measure = Synthetic()
    sssp_problem.benchmark(["cpu-dijkstra"], [16, 64], 10.0, [], "test", families=["grid"],
                           source_counts=["1", "all"], measure_fn=measure)
    assert [(g, k) for _, g, k in measure.calls] == [("grid-4x4", 1), ("grid-4x4", 16),
                                                     ("grid-8x8", 1)]


def test_the_plot_draws_every_point_of_saved_reports(tmp_path):
    from engine.bench.sssp_plot import plot_reports
    assert main(["bench", "--problem", "sssp", "--variants", "cpu-bellman-ford", "scipy",
                 "--sizes", "16", "--families", "grid", "--sources", "1", "--no-airports",
                 "--out", str(tmp_path)]) == 0
    png = plot_reports([tmp_path / "bench.json"], tmp_path / "sssp.png")
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
