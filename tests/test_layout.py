"""The airport layout model, its JSON file format and GraphML interop."""

import copy
import json

import pytest

from engine.airport.graphml import load_graphml, save_graphml
from engine.airport.layout import Airport, Fleet, Node, Road, ScheduleParams
from engine.airport.layout_io import (LayoutError, bundled_airports, dumps_airport, load_airport,
                              save_airport)

BUNDLED = bundled_airports()


def test_bundled_airports_are_paper_regional_and_hub():
    assert {"paper-5", "regional", "hub-atl"} <= set(BUNDLED)


@pytest.mark.parametrize("name", sorted(BUNDLED))
def test_every_bundled_airport_loads(name):
    airport = load_airport(BUNDLED[name])
    assert airport.nodes and airport.roads and airport.fleets
    assert airport.inspired_by
    assert [airport.index(i) for i in airport.node_ids] == list(range(len(airport.nodes)))


@pytest.mark.parametrize("name", sorted(BUNDLED))
def test_bundled_airport_round_trips_through_json_unchanged(name, tmp_path):
    airport = load_airport(BUNDLED[name])
    save_airport(airport, tmp_path / "again.json")
    assert load_airport(tmp_path / "again.json") == airport
    assert (tmp_path / "again.json").read_text(encoding="utf-8") == BUNDLED[name].read_text(encoding="utf-8")


@pytest.mark.parametrize("name", sorted(BUNDLED))
def test_bundled_airport_round_trips_through_graphml_unchanged(name, tmp_path):
    airport = load_airport(BUNDLED[name])
    save_graphml(airport, tmp_path / "a.graphml")
    assert load_graphml(tmp_path / "a.graphml") == airport


def test_regional_has_one_terminal_sort_and_depot_and_20_to_40_gates():
    a = load_airport(BUNDLED["regional"])
    assert 20 <= len(a.gates()) <= 40
    assert len(a.sorts()) == 1 and len(a.depots()) == 1


def test_hub_is_large_with_one_way_lanes():
    a = load_airport(BUNDLED["hub-atl"])
    assert len(a.gates()) >= 220
    assert len(a.sorts()) >= 2 and len(a.depots()) >= 2
    assert 2000 <= len(a.nodes) <= 3000
    assert any(r.one_way for r in a.roads)
    assert BUNDLED["hub-atl"].stat().st_size < 2_000_000
    piers = {g.id.rstrip("0123456789") for g in a.gates()}
    assert {"T", "A", "B", "C", "D", "E", "F"} <= piers


def test_paper_5_honours_fig_4():
    a = load_airport(BUNDLED["paper-5"])
    seconds = {(r.a, r.b): r.seconds for r in a.roads}
    assert seconds[("A1", "A4")] == 1 and seconds[("A4", "A5")] == 6 and seconds[("A1", "A5")] == 3
    assert a.bags["A1"] == 1 and a.bags["A4"] == 7 and a.bags["A5"] == 4
    assert all(r.one_way for r in a.roads)


def test_two_way_road_can_be_driven_both_ways_and_one_way_only_forwards():
    a = _tiny()
    edges = {(u, v) for u, v, _ in a.directed_edges()}
    assert ("D", "G1") in edges and ("G1", "D") in edges
    assert ("G1", "G2") in edges and ("G2", "G1") not in edges


def test_seconds_come_from_length_and_speed_when_not_given(tmp_path):
    doc = _doc()
    doc["roads"][0] = {"a": "D", "b": "G1", "length_m": 100, "speed_kmh": 36}
    a = _load(doc, tmp_path)
    assert a.roads[0].seconds == 10.0


# -- bad files: one clear message per problem, naming the file and the item --------------------

def _doc():
    return {
        "format": "bagroute-airport", "version": 1, "name": "tiny", "description": "", "inspired_by": "",
        "nodes": [{"id": "D", "kind": "depot", "x": 0, "y": 0},
                  {"id": "G1", "kind": "gate", "x": 50, "y": 0},
                  {"id": "G2", "kind": "gate", "x": 100, "y": 0}],
        "roads": [{"a": "D", "b": "G1", "length_m": 50, "seconds": 10},
                  {"a": "G1", "b": "G2", "length_m": 50, "seconds": 10, "one_way": True}],
        "fleets": [{"depot": "D", "count": 2, "capacity": 30, "speed_mps": 5}],
        "bags": {"G1": 3},
    }


def _load(doc, tmp_path, name="layout.json"):
    path = tmp_path / name
    path.write_text(json.dumps(doc, indent=1), encoding="utf-8")
    return load_airport(path)


def _tiny():
    return Airport("tiny", "", "", [Node("D", "depot", "D", 0, 0), Node("G1", "gate", "G1", 50, 0),
                                    Node("G2", "gate", "G2", 100, 0)],
                   [Road("D", "G1", 50, 10, False), Road("G1", "G2", 50, 10, True)],
                   [Fleet("D", 2, 30, 5.0)], {"G1": 3})


def _problems(doc, tmp_path):
    with pytest.raises(LayoutError) as info:
        _load(doc, tmp_path)
    err = info.value
    assert err.file.endswith("layout.json")
    assert all(line.startswith(err.file + ": ") for line in str(err).splitlines())
    assert len(str(err).splitlines()) == len(err.problems)
    return err.problems


def test_a_good_document_loads(tmp_path):
    assert _load(_doc(), tmp_path) == _tiny()


def test_unknown_node_in_a_road_is_named(tmp_path):
    doc = _doc()
    doc["roads"].append({"a": "G2", "b": "G9", "length_m": 5, "seconds": 1})
    assert _problems(doc, tmp_path) == ["road #3 (G2 -> G9): unknown node 'G9'"]


def test_duplicate_node_id_is_named(tmp_path):
    doc = _doc()
    doc["nodes"].append({"id": "G1", "kind": "gate", "x": 9, "y": 9})
    assert _problems(doc, tmp_path) == ["node #4 ('G1'): duplicate id, already used by node #2"]


def test_negative_length_is_named(tmp_path):
    doc = _doc()
    doc["roads"][1]["length_m"] = -4
    assert _problems(doc, tmp_path) == [
        "road #2 (G1 -> G2): length_m must be a number of metres from 0 to 1e+07, got -4"]


def test_missing_length_is_named(tmp_path):
    doc = _doc()
    del doc["roads"][0]["length_m"]
    assert _problems(doc, tmp_path) == ["road #1 (D -> G1): missing length_m"]


def test_bad_kind_is_named(tmp_path):
    doc = _doc()
    doc["nodes"][2]["kind"] = "hangar"
    assert _problems(doc, tmp_path) == [
        "node #3 ('G2'): bad kind 'hangar'; expected one of gate, sort, depot, junction"]


def test_gate_no_tug_can_reach_is_named(tmp_path):
    doc = _doc()
    doc["roads"][1] = {"a": "G2", "b": "G1", "length_m": 50, "seconds": 10, "one_way": True}
    assert _problems(doc, tmp_path) == ["node 'G2' (gate G2): no tug can reach it from any depot"]


def test_fleet_at_unknown_depot_is_named(tmp_path):
    doc = _doc()
    doc["fleets"].append({"depot": "Z", "count": 1, "capacity": 10, "speed_mps": 4})
    assert _problems(doc, tmp_path) == ["fleet #2 (depot Z): unknown depot 'Z'"]


def test_malformed_json_names_line_and_column(tmp_path):
    path = tmp_path / "layout.json"
    path.write_text('{\n  "name": "x",\n  "nodes": [,]\n}\n', encoding="utf-8")
    with pytest.raises(LayoutError) as info:
        load_airport(path)
    assert info.value.problems == ["line 3, column 13: malformed JSON: Expecting value"]
    assert str(info.value).startswith(str(path))


def test_every_problem_is_reported_not_just_the_first(tmp_path):
    doc = _doc()
    doc["nodes"][2]["kind"] = "hangar"
    doc["roads"][0]["length_m"] = -1
    doc["fleets"][0]["count"] = 0
    doc["bags"]["nowhere"] = 2
    assert len(_problems(doc, tmp_path)) == 4


def test_loading_a_bad_file_after_a_good_one_leaves_the_good_airport_untouched(tmp_path):
    good = load_airport(BUNDLED["paper-5"])
    before = copy.deepcopy(good)
    doc = json.loads(BUNDLED["paper-5"].read_text(encoding="utf-8"))
    doc["roads"].append({"a": "A1", "b": "A9", "length_m": 1, "seconds": 1})
    with pytest.raises(LayoutError):
        _load(doc, tmp_path)
    assert good == before
    assert dumps_airport(good) == BUNDLED["paper-5"].read_text(encoding="utf-8")


def test_graphml_from_another_tool_comes_in_as_two_way_roads(tmp_path):
    import networkx as nx
    g = nx.Graph()
    g.add_node("dep", kind="depot", x=0.0, y=0.0)
    g.add_node("g1", kind="gate", x=30.0, y=40.0)
    g.add_edge("dep", "g1")
    nx.write_graphml(g, tmp_path / "drawn.graphml")
    a = load_graphml(tmp_path / "drawn.graphml")
    assert a.roads == [Road("dep", "g1", 50.0, 9.0, False)]
    assert a.fleets[0].depot == "dep"


@pytest.mark.parametrize("section, item", [("nodes", "node #4"), ("roads", "road #3"),
                                           ("fleets", "fleet #2")])
def test_an_item_that_is_not_an_object_is_named(tmp_path, section, item):
    doc = _doc()
    doc[section].append(["not", "an", "object"])
    assert _problems(doc, tmp_path) == [f"{item}: expected an object, got ['not', 'an', 'object']"]


@pytest.mark.parametrize("section, index, item", [("nodes", 1, "node #2 ('G1')"),
                                                  ("roads", 0, "road #1 (D -> G1)"),
                                                  ("fleets", 0, "fleet #1 (depot D)")])
def test_unknown_fields_of_an_item_are_each_named(tmp_path, section, index, item):
    doc = _doc()
    doc[section][index].update(colour="red", angle=3)
    assert _problems(doc, tmp_path) == [f"{item}: unknown field 'angle'",
                                        f"{item}: unknown field 'colour'"]


def test_duplicate_road_names_the_road_it_repeats(tmp_path):
    doc = _doc()
    doc["roads"].append({"a": "D", "b": "G1", "length_m": 60, "seconds": 12, "one_way": True})
    assert _problems(doc, tmp_path) == [
        "road #3 (D -> G1): duplicate road, D -> G1 is already road #1"]


def test_a_files_schedule_sets_its_day_and_only_what_differs_is_written(tmp_path):
    doc = _doc()
    doc["schedule"] = {"bank_period_s": 1800, "banks": 36, "gate_use": 0.17}
    doc["fleets"][0]["carts"] = 4
    a = _load(doc, tmp_path)
    assert a.schedule == ScheduleParams(bank_period_s=1800.0, banks=36, gate_use=0.17)
    assert a.fleets[0].carts == 4
    text = dumps_airport(a)
    assert '"schedule": {"bank_period_s": 1800, "banks": 36, "gate_use": 0.17}' in text
    assert '"carts": 4' in text
    assert '"schedule"' not in dumps_airport(_tiny()) and '"carts"' not in dumps_airport(_tiny())
    save_graphml(a, tmp_path / "a.graphml")
    assert load_graphml(tmp_path / "a.graphml") == a


@pytest.mark.parametrize("schedule, problem", [
    ({"gate_use": 1.5}, "schedule: gate_use must be a number from above 0 to 1, got 1.5"),
    ({"banks": 2.5}, "schedule: banks must be a whole number from 0 to 1000, got 2.5"),
    ({"transfer_mean": -1}, "schedule: transfer_mean must be a number from 0 to 1000, got -1"),
    ({"checkin_mean": 1e9}, "schedule: checkin_mean must be a number from 0 to 1000, got 1000000000.0"),
    ({"bank_period_s": 0.001}, "schedule: bank_period_s must be a number from 60 to 86400, got 0.001"),
    ({"first_bank_s": "dawn"}, "schedule: first_bank_s must be a number from 0 to 86400, got 'dawn'"),
    ({"min_connection_s": 0}, "schedule: min_connection_s must be a number from above 0 to 86400, got 0"),
    ({"waves": 3}, "schedule: unknown parameter 'waves'"),
    ({"min_connection_s": 3600, "max_connection_s": 1800},
     "schedule: max_connection_s must be more than min_connection_s"),
    ([1, 2], "top level: 'schedule' must be an object {parameter: number}"),
])
def test_a_bad_schedule_is_named(tmp_path, schedule, problem):
    doc = _doc()
    doc["schedule"] = schedule
    assert any(line.startswith(problem) for line in _problems(doc, tmp_path))


def test_a_fleet_with_bad_carts_is_named(tmp_path):
    doc = _doc()
    doc["fleets"][0]["carts"] = -1
    assert "fleet #1 (depot D): carts must be a whole number >= 0 (0: no limit), got -1" in _problems(doc, tmp_path)
