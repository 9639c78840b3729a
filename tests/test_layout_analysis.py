"""Layout analysis: the minimum service-road network (road lengths, one-way lanes as two-way),
the layout's extra road, and the bridges that cut a gate, sort station or depot off — in the
engine and as `python main.py analyze`."""

import json

import pytest
from scipy.sparse.csgraph import minimum_spanning_tree

from engine.airport.analysis import analyze_layout, road_length_graph
from engine.airport.layout import Airport, Fleet, Node, Road
from main import main


def small_airport() -> Airport:
    """Gates G1, G2 and sort S on a triangle of roads; a spur J–G3 hangs off the triangle by one
    road; depot D reaches S by two one-way lanes (neither a bridge); junction X is a dead end."""
    nodes = [Node("G1", "gate", "G1", 0, 0), Node("G2", "gate", "G2", 100, 0),
             Node("S", "sort", "S", 50, 80), Node("J", "junction", "J", 150, 0),
             Node("G3", "gate", "G3", 200, 0), Node("D", "depot", "D", 50, 160),
             Node("X", "junction", "X", 0, 80)]
    roads = [Road("G1", "G2", 100, 10), Road("G2", "S", 94, 9), Road("S", "G1", 94, 9, one_way=True),
             Road("G2", "J", 50, 5), Road("J", "G3", 50, 5), Road("S", "D", 80, 8, one_way=True),
             Road("D", "S", 85, 8, one_way=True), Road("X", "G1", 80, 8)]
    return Airport("small", "", "", nodes, roads, [Fleet("D", 2, 4, 5.0)])


def test_minimum_network_is_the_spanning_tree_of_road_lengths():
    a = analyze_layout(small_airport())
    # the triangle keeps its two 94 m roads, the spur both 50 m, D its 80 m road, X its road
    assert a.minimum_m == 94 + 94 + 50 + 50 + 80 + 80
    assert a.minimum_m == minimum_spanning_tree(road_length_graph(small_airport()).csr_matrix()).sum()
    assert a.layout_m == 100 + 94 + 94 + 50 + 50 + 80 + 85 + 80
    assert a.extra_fraction == pytest.approx(633 / 448 - 1)
    assert a.tree_roads == [1, 2, 3, 4, 5, 7] and a.components == 1
    assert a.one_way_roads == 3
    assert a.summary() == ("the layout has 41% more road than the least that connects every "
                           "node: 633 m against 448 m")  # under a kilometre: in metres


def test_bridges_are_roads_whose_closure_cuts_key_nodes_off():
    bridges = analyze_layout(small_airport()).bridges
    # G2–J and J–G3 cut G3 off; S–D is doubled; X–G1 cuts off only a junction
    assert [(b.a, b.b, b.cut_off, b.side_nodes) for b in bridges] == [
        ("G2", "J", ["G3"], 2), ("J", "G3", ["G3"], 1)]


def test_analyze_command_prints_and_writes_json(tmp_path, capsys):
    layout = tmp_path / "layout.json"
    from engine.airport.layout_io import save_airport
    save_airport(small_airport(), layout)
    out = tmp_path / "analysis.json"
    assert main(["analyze", str(layout), "--json", str(out)]) == 0
    text = capsys.readouterr().out
    assert "3 one-way, taken as two-way" in text
    assert "G2–J (50 m): cuts off G3 (2 nodes on that side)" in text
    assert "Minimum network computed by cpu-kruskal on CPU" in text
    data = json.loads(out.read_text())
    assert data["minimum_m"] == 448 and data["layout_m"] == 633 and len(data["bridges"]) == 2


def test_analyze_names_a_bad_file_and_fails(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    assert main(["analyze", str(bad)]) == 2
    assert "bad.json" in capsys.readouterr().err


def test_lengths_read_in_metres_below_a_kilometre_and_in_km_from_one():
    from engine.airport.analysis import format_length
    assert [format_length(m) for m in (0, 142.4, 999.4, 999.5, 54_730, 1_234_567)] == [
        "0 m", "142 m", "999 m", "1.00 km", "54.73 km", "1,234.57 km"]


def test_report_names_bridge_ends_and_cut_off_nodes_by_name_with_their_ids():
    from engine.airport.analysis_report import report_text
    names = {n.id: n.name for n in small_airport().nodes} | {"G2": "Gate 2", "G3": "Gate 3"}
    text = report_text(analyze_layout(small_airport()), names)
    assert "Gate 2 (G2)–J (50 m): cuts off Gate 3 (G3) (2 nodes on that side)" in text
