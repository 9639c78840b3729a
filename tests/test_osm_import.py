"""`airport import-osm`: Overpass JSON, OSM XML and PBF written by the tests give the same
layout; stands and gates are named by ref; inferred roads and places are marked in the file and
listed in the report; the result passes `airport check` and runs a day; bad files exit 2."""

from __future__ import annotations

import json

import pytest

from engine.airport.layout_io import load_airport
from engine.airport.osm_import import INFERRED, import_osm
from engine.airport.osm_read import OsmError
from engine.sim.simulation import SimConfig, Simulation
from main import main
from tests.osm_scene import WRITERS, write_overpass_json


@pytest.fixture(scope="module")
def imported(tmp_path_factory):
    folder = tmp_path_factory.mktemp("osm")
    return {name: import_osm(write(folder / name)) for name, write in WRITERS.items()}


def test_every_format_gives_the_same_layout(imported):
    layouts = [a for a, _ in imported.values()]
    for other in layouts[1:]:
        assert [(n.id, n.kind, n.x, n.y, n.source) for n in other.nodes] == \
               [(n.id, n.kind, n.x, n.y, n.source) for n in layouts[0].nodes]
        assert other.roads == layouts[0].roads


def test_stands_and_gates_are_gate_nodes_named_by_ref(imported):
    airport, report = imported["overpass.json"]
    assert sorted(n.id for n in airport.gates()) == ["A1", "A2", "A3", "B7"]
    assert airport.node("A1").source == "osm node 1 (aeroway=parking_position)"
    assert airport.node("B7").source == "osm node 4 (aeroway=gate)"
    assert airport.node("A3").source == "osm way 104 (aeroway=parking_position)"
    assert any("osm node 5 (aeroway=parking_position): no ref" in d for d in report.dropped)
    assert "1 gates share a stand's ref" in report.found[0]


def test_positions_are_metres_from_the_stands_middle(imported):
    airport, _ = imported["overpass.json"]
    a1, a2 = airport.node("A1"), airport.node("A2")
    assert a2.x - a1.x == pytest.approx(60, abs=0.5) and a2.y == pytest.approx(a1.y, abs=0.2)


def test_without_service_roads_every_road_is_inferred_and_joined(imported):
    airport, report = imported["overpass.json"]
    assert airport.roads and all(r.source.startswith(INFERRED) for r in airport.roads)
    sources = {r.source for r in airport.roads}
    assert INFERRED + "along taxilane osm way 100" in sources
    assert INFERRED + "round the edge of apron osm way 102" in sources
    assert INFERRED + "stand connector to the nearest road" in sources
    assert any(s == INFERRED + "link joining two road pieces" for s in sources)
    assert any("no highway=service" in line for line in report.inferred)


def test_sort_station_at_the_named_terminal_and_a_depot_beside_it(imported):
    airport, report = imported["overpass.json"]
    (sort,), (depot,) = airport.sorts(), airport.depots()
    assert sort.name == "Pier A bag room" and sort.source.startswith(INFERRED + "bag room of terminal 'Pier A'")
    assert depot.source.startswith(INFERRED + "tug depot beside")
    assert airport.fleets[0].depot == depot.id and airport.fleets[0].count == 8   # 2 a stand
    assert any("sort station 'Pier A'" in line for line in report.inferred)


def test_service_roads_are_real_and_the_connectors_inferred(tmp_path):
    airport, report = import_osm(write_overpass_json(tmp_path / "s.json", service=True))
    real = [r for r in airport.roads if not r.source.startswith(INFERRED)]
    assert real and all(r.source == "osm way 105 (highway=service)" for r in real)
    assert not any("taxilane" in r.source for r in airport.roads)
    assert "1 service roads (highway=service) inside the aerodrome" in report.found


def test_cli_writes_a_layout_that_checks_runs_and_keeps_its_marks(tmp_path, capsys):
    src = write_overpass_json(tmp_path / "in.json")
    out = tmp_path / "new" / "airport.json"   # a folder not made yet: made
    assert main(["airport", "import-osm", str(src), "--out", str(out), "--name", "Test field"]) == 0
    printed = capsys.readouterr().out
    assert "Inferred" in printed and (tmp_path / "new" / "airport.import.txt").is_file()
    assert main(["airport", "check", str(out)]) == 0
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert doc["name"] == "Test field"
    assert any(r.get("source", "").startswith(INFERRED) for r in doc["roads"])
    sim = Simulation(load_airport(out), SimConfig(hours=2, variant="cpu-blocked"))
    sim.run_until(sim.end_time)
    k = sim.kpis()
    assert k["flights"] > 0 and k["bags_add_up"]


@pytest.mark.parametrize("name, data, message", [
    ("a.json", b'{"elements": [{"type": "node", "id": 1, "lat": 95, "lon": 4}]}',
     "element #1 (node 1): lat/lon must be numbers within"),
    ("b.json", b'{"elements": 3}', "top level: not an Overpass answer"),
    ("c.json", b'{"elements": []}', "the file: no stand (aeroway=parking_position)"),
    ("d.osm", b'<osm version="0.6"><node id="1" lat="x"', "the file: not readable as OSM XML"),
    ("e.pbf", b"\x00\x00\x00\x0dnot a pbf at all", "the file: not readable as OSM PBF"),
    ("f.json", b'{"elements": [{"type": "node", "id": 1, "lat": 52, "lon": 4, "tags": '
               b'{"aeroway": "gate", "ref": "G"}}]}', "the file: no roads to build from"),
])
def test_a_bad_file_exits_2_naming_file_item_problem_and_writes_nothing(tmp_path, capsys, name,
                                                                        data, message):
    bad = tmp_path / name
    bad.write_bytes(data)
    out = tmp_path / "out.json"
    assert main(["airport", "import-osm", str(bad), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert f"{bad}: {message}" in err and "Traceback" not in err
    assert not out.exists()
    with pytest.raises(OsmError):
        import_osm(bad)


def test_bundled_schiphol_is_an_import_with_its_marks_and_attribution():
    from engine.airport.layout_io import bundled_airports
    a = load_airport(bundled_airports()["eham"])
    assert "© OpenStreetMap contributors, ODbL" in a.description
    assert len(a.gates()) == 302 and all(n.source.startswith("osm ") for n in a.gates())
    assert all(r.source.startswith(INFERRED) for r in a.roads)   # the extract has no service roads
    assert {n.name for n in a.sorts()} >= {"D-pier bag room", "Terminal 1A bag room"}
