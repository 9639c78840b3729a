"""`bench --problem mst`: every timed answer is checked against scipy first, peers run in the
same report, a ladder stops past the budget, and a wrong forest is refused."""

import pytest

from engine.bench.mst_problem import Reference, benchmark, check, format_table
from engine.bench.report import ReferenceMismatch
from engine.graph_families import road_grid_edges
from engine.mst import from_edges, spanning_forest


def test_mst_benchmark_checks_every_point_against_scipy():
    report = benchmark(["cpu-kruskal", "cpu-boruvka", "scipy", "networkx"], [50, 300], 2.0,
                       ["paper-5"], "test", families=("grid", "rmat"))
    assert report.problem == "mst"
    graphs = {p.graph for p in report.points}
    assert {"grid-7x7", "grid-17x17", "rmat-6-d6", "rmat-8-d6", "paper-5"} <= graphs
    assert report.points[0].variant == "scipy"  # scipy first: it is the reference
    for g in graphs:
        totals = {p.total for p in report.points if p.graph == g}
        assert len(totals) == 1, g
    assert all(p.check.startswith("scipy total") for p in report.points)
    assert "cpu-boruvka" in format_table(report)


def test_a_forest_that_is_not_minimum_or_not_spanning_is_refused():
    g = from_edges(*road_grid_edges(5, seed=2))
    f = spanning_forest(g, "cpu-kruskal")
    reference = Reference()
    assert check(reference, "grid", g, f.edges, f.total) == "scipy total, 1 trees"
    with pytest.raises(ReferenceMismatch, match="total"):
        check(reference, "grid", g, f.edges, f.total + 1)
    with pytest.raises(ReferenceMismatch, match="edges"):
        check(reference, "grid", g, f.edges[1:], f.total)
    looped = f.edges.copy()
    looped[0] = looped[1]  # the same edge twice: a cycle, one tree short
    with pytest.raises(ReferenceMismatch, match="trees"):
        check(reference, "grid", g, looped, f.total)


def test_a_ladder_stops_past_the_budget():
    report = benchmark(["cpu-kruskal"], [16, 64], 0.0, [], "test", families=("uniform",))
    assert [p.n for p in report.points] == [16]
    assert "over the 0 s budget" in report.answers["stopped"]["cpu-kruskal uniform"]
