"""Every file the project reads is loaded totally: a mutated layout (JSON or GraphML), flights
CSV (the project's or BTS On-Time), OpenStreetMap file (Overpass JSON, OSM XML, PBF) or
scenario TOML either loads and runs a short simulated day, or is refused with
"FILE: ITEM: PROBLEM" lines (``InputError``) — never another exception, never an overflow
warning. (The benchmark JSON, opened in its window: tests/gui/test_gui_fuzz_bench.py.)"""

from __future__ import annotations

import dataclasses
import json
import os
import warnings
from collections import Counter

import pytest
from hypothesis import HealthCheck, event, given, settings

from engine.airport.graphml import load_graphml, save_graphml
from engine.airport.layout_io import airport_from_dict, load_airport
from engine.airport.osm_import import import_osm
from engine.input_error import InputError
from engine.sim.bts import read_bts
from engine.sim.schedule import read_flights_csv
from engine.sim.simulation import SimConfig, Simulation
from engine.sweep.day import run_day
from engine.sweep.scenario import load_sweep
from main import main
from tests.fuzz_mutations import assert_refused_clearly, damaged_bytes, json_documents, text_cells
from tests.osm_scene import write_osm_xml, write_overpass_json, write_pbf

# CI: 150 fixed examples per format (seconds). A longer, random search: BAGROUTE_FUZZ_EXAMPLES=5000.
EXAMPLES = int(os.environ.get("BAGROUTE_FUZZ_EXAMPLES", "150"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, derandomize=EXAMPLES == 150, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

# A tiny airport with every kind of node: the short days below stay fast.
TINY = {
    "format": "bagroute-airport", "version": 1, "name": "tiny", "default_speed_kmh": 20,
    "bags": {"G1": 2, "S": 1},
    "fleets": [{"depot": "D", "count": 2, "capacity": 5, "speed_mps": 5}],
    "nodes": [{"id": "D", "kind": "depot", "x": 0, "y": 0},
              {"id": "S", "kind": "sort", "x": 50, "y": 0},
              {"id": "J", "kind": "junction", "x": 100, "y": 0},
              {"id": "G1", "kind": "gate", "name": "A1", "x": 150, "y": 30},
              {"id": "G2", "kind": "gate", "x": 150, "y": -30}],
    "roads": [{"a": "D", "b": "S", "length_m": 50, "seconds": 10},
              {"a": "S", "b": "J", "length_m": 50},
              {"a": "J", "b": "G1", "length_m": 58, "speed_kmh": 15},
              {"a": "J", "b": "G2", "length_m": 58, "seconds": 12, "one_way": True},
              {"a": "G2", "b": "S", "length_m": 106, "seconds": 25, "one_way": True}],
}
FLIGHTS = ("flight,gate,arrival,departure\n"
           "XY1,G1,00:01,00:50\nXY2,G2,120,2400\nXY3,G1,0:05:30,1:10\n")
SCENARIO = ('[sweep]\nseeds = [0, 1]\nvariant = "cpu-blocked"\n\n'
            '[factors]\nlayout = "tiny.json"\nfleet = [1, 2]\npolicy = ["shortest-path", "baseline"]\n'
            'load = 1.5\nhours = 0.2\n')
DAY_HOURS = 0.2   # twelve simulated minutes: starting bags, check-ins, the first flights
BTS = ("TAIL_NUM,DEST,FL_DATE,CRS_ARR_TIME,ORIGIN,CRS_DEP_TIME,OP_CARRIER,OP_CARRIER_FL_NUM,YEAR\n"
       "N1,XYZ,2024-01-25,0001,ABC,2300,AA,10,2024\nN1,DEF,2024-01-25,0900,XYZ,0009,AA,11,2024\n"
       ",XYZ,2024-01-25,0002,GHI,2330,UA,20,2024\n,JKL,2024-01-25,1300,XYZ,0045,UA,21,2024\n")


OUTCOMES: Counter = Counter()   # (format, "refused" | "loaded and ran") -> documents


@pytest.fixture(scope="module", autouse=True)
def fuzz_summary(request):
    """After the module: how many documents of each format were refused, or loaded and ran."""
    yield
    reporter = request.config.pluginmanager.getplugin("terminalreporter")
    for fmt in sorted({f for f, _ in OUTCOMES}):
        refused, ran = OUTCOMES[fmt, "refused"], OUTCOMES[fmt, "loaded and ran"]
        if reporter is not None:
            reporter.write_line(f"fuzzed {fmt}: {refused + ran} documents, {refused} refused "
                                f"(file: item: problem), {ran} loaded and ran a short day")


def fuzzed(fmt: str, outcome: str) -> None:
    OUTCOMES[fmt, outcome] += 1
    event(outcome)


def short_day(airport, flights=None):
    """Run twelve simulated minutes on ``airport``: every bag accounted for, no warning."""
    sim = Simulation(airport, SimConfig(hours=DAY_HOURS, variant="cpu-blocked", flights=flights))
    sim.run_until(sim.end_time)
    assert sim.kpis()["bags_add_up"]


def loads_and_runs_or_is_refused(path, load, run):
    """``load(path)`` then ``run(loaded)``; an ``InputError`` must name the file, the item and
    the problem; any other exception or a RuntimeWarning (overflow, invalid value) fails."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        try:
            loaded = load(path)
        except InputError as exc:
            assert_refused_clearly(exc, path)
            return "refused"
        run(loaded)
        return "loaded and ran"


def write(tmp_path, name, data: bytes):
    path = tmp_path / name
    path.write_bytes(data)
    return path


def test_the_unmutated_documents_load_and_run(tmp_path):
    tiny = write(tmp_path, "tiny.json", json.dumps(TINY).encode())
    assert loads_and_runs_or_is_refused(tiny, load_airport, short_day) == "loaded and ran"
    save_graphml(load_airport(tiny), tmp_path / "tiny.graphml")
    assert loads_and_runs_or_is_refused(tmp_path / "tiny.graphml", load_graphml, short_day) == "loaded and ran"
    airport = load_airport(tiny)
    index = {n.id: i for i, n in enumerate(airport.nodes)}
    csv = write(tmp_path, "f.csv", FLIGHTS.encode())
    assert loads_and_runs_or_is_refused(
        csv, lambda p: read_flights_csv(p, index), lambda f: short_day(airport, f)) == "loaded and ran"
    toml = write(tmp_path, "s.toml", SCENARIO.encode())
    assert loads_and_runs_or_is_refused(toml, load_sweep, _first_day) == "loaded and ran"


@FUZZ
@given(doc=json_documents(TINY))
def test_mutated_layout_json_loads_and_runs_or_is_refused(tmp_path_factory, doc):
    data, _ = doc
    path = write(tmp_path_factory.mktemp("layout"), "layout.json", data)
    fuzzed("layout JSON", loads_and_runs_or_is_refused(path, load_airport, short_day))


def _graphml_text() -> str:
    import tempfile
    from pathlib import Path
    with tempfile.TemporaryDirectory() as d:
        out = Path(d) / "tiny.graphml"
        save_graphml(airport_from_dict(TINY), out)
        return out.read_text(encoding="utf-8")


@FUZZ
@given(doc=text_cells(_graphml_text(), r'<data key="[^"]+">([^<]*)</data>|(?:source|target|id)="([^"]*)"'))
def test_mutated_graphml_loads_and_runs_or_is_refused(tmp_path_factory, doc):
    data, _ = doc
    path = write(tmp_path_factory.mktemp("graphml"), "layout.graphml", data)
    fuzzed("GraphML", loads_and_runs_or_is_refused(path, load_graphml, short_day))


@FUZZ
@given(doc=text_cells(FLIGHTS, r"(?:^|,)([^,\n]*)"))
def test_mutated_flights_csv_loads_and_runs_or_is_refused(tmp_path_factory, doc):
    data, _ = doc
    airport = airport_from_dict(TINY)
    index = {n.id: i for i, n in enumerate(airport.nodes)}
    path = write(tmp_path_factory.mktemp("flights"), "flights.csv", data)
    fuzzed("flights CSV", loads_and_runs_or_is_refused(
        path, lambda p: read_flights_csv(p, index), lambda flights: short_day(airport, flights)))


def _fuzz(factory, doc, name: str, fmt: str, load, run=short_day) -> None:
    """Write the fuzzed ``doc`` as ``name``, then load it and run a short day, or see it refused."""
    data, _ = doc
    path = write(factory.mktemp(fmt.split()[0].lower()), name, data)
    fuzzed(fmt, loads_and_runs_or_is_refused(path, load, run))


def _scene(writer, name: str = "scene") -> bytes:
    """The test scene (tests/osm_scene.py) as ``writer`` writes it to a file called ``name``."""
    import tempfile
    from pathlib import Path
    with tempfile.TemporaryDirectory() as d:
        return writer(Path(d) / name).read_bytes()


def _imported(path):
    return import_osm(path)[0]


@FUZZ
@given(doc=text_cells(BTS, r"(?:^|,)([^,\n]*)"))
def test_mutated_bts_csv_loads_and_runs_or_is_refused(tmp_path_factory, doc):
    airport = airport_from_dict(TINY)
    _fuzz(tmp_path_factory, doc, "bts.csv", "BTS CSV", lambda p: read_bts(p, airport, "XYZ")[0],
          lambda flights: short_day(airport, flights))


@FUZZ
@given(doc=json_documents(json.loads(_scene(write_overpass_json))))
def test_mutated_overpass_json_imports_and_runs_or_is_refused(tmp_path_factory, doc):
    _fuzz(tmp_path_factory, doc, "overpass.json", "Overpass JSON", _imported)


@FUZZ
@given(doc=text_cells(_scene(write_osm_xml).decode(), r'="([^"]*)"'))
def test_mutated_osm_xml_imports_and_runs_or_is_refused(tmp_path_factory, doc):
    _fuzz(tmp_path_factory, doc, "extract.osm", "OSM XML", _imported)


@FUZZ
@given(doc=damaged_bytes(_scene(write_pbf, "scene.osm.pbf")))
def test_damaged_pbf_imports_and_runs_or_is_refused(tmp_path_factory, doc):
    _fuzz(tmp_path_factory, doc, "extract.osm.pbf", "OSM PBF", _imported)


def _first_day(sweep):
    """The sweep's first day, cut to twelve simulated minutes."""
    run = sweep.runs()[0]
    scenario = dataclasses.replace(run.scenario, hours=min(run.scenario.hours, DAY_HOURS))
    row, _ = run_day(sweep.airports[scenario.layout], dataclasses.replace(run, scenario=scenario),
                     sweep.variant)
    assert row["bags_add_up"]


@FUZZ
@given(doc=text_cells(SCENARIO, r"= ([^\n]+)|^\[(\w+)\]|^(\w+) ="))
def test_mutated_scenario_toml_loads_and_runs_or_is_refused(tmp_path_factory, doc):
    data, _ = doc
    folder = tmp_path_factory.mktemp("sweep")
    write(folder, "tiny.json", json.dumps(TINY).encode())
    path = write(folder, "scenario.toml", data)
    fuzzed("scenario TOML", loads_and_runs_or_is_refused(path, load_sweep, _first_day))


@pytest.mark.parametrize("change, message", [
    (lambda d: d["roads"][0].update(a={"id": "D"}),
     "road #1 ({'id': 'D'} -> S): end 'a' must be a node id (text), got {'id': 'D'}"),
    (lambda d: d["roads"][0].update(b=["S"]), "road #1 (D -> ['S']): end 'b' must be a node id (text), got ['S']"),
    (lambda d: d["fleets"][0].update(depot=["D"]), "fleet #1 (depot ['D']): unknown depot ['D']"),
    (lambda d: d["roads"][1].update(length_m=1e10),
     "road #2 (S -> J): length_m must be a number of metres from 0 to 1e+07, got 10000000000.0"),
    (lambda d: d["roads"][1].update(speed_kmh=1e-9), "road S -> J: a tug needs 1.8e+11 s to drive it"),
    (lambda d: d["roads"][0].update(seconds=1e300), "road D -> S: a tug needs 1e+300 s to drive it"),
    (lambda d: d["fleets"][0].update(speed_mps=1e-9), "road G2 -> S: a tug needs 1.06e+11 s"),
])
def test_extreme_values_are_refused_with_their_reason_by_every_command(tmp_path, capsys, change,
                                                                       message):
    doc = json.loads(json.dumps(TINY))
    change(doc)
    path = write(tmp_path, "x.json", json.dumps(doc).encode())
    for command in (["airport", "check", str(path)], ["simulate", str(path), "--hours", "0.1"]):
        assert main(command) == 2
        err = capsys.readouterr().err
        assert f"{path}: {message}" in err and "Traceback" not in err


def test_every_command_refuses_a_bad_file_in_one_line_with_status_2(tmp_path, capsys):
    bad_layout = write(tmp_path, "bad.json", b'{"nodes": [{"id": {"x": 1}}]')
    bad_csv = write(tmp_path, "f.csv", b"flight,gate,arrival,departure\nXY1,G1,nan,01:00\n")
    bad_toml = write(tmp_path, "s.toml", b"[sweep]\nseeds = 2\n[factors]\npolicy = {a = 1}\n")
    tiny = write(tmp_path, "tiny.json", json.dumps(TINY).encode())
    cases = [(["airport", "check", str(bad_layout)], f"{bad_layout}: line 1, column 29: malformed JSON"),
             (["simulate", str(bad_layout)], f"{bad_layout}: line 1"),
             (["analyze", str(bad_layout)], f"{bad_layout}: line 1"),
             (["soak", str(bad_layout)], f"{bad_layout}: line 1"),
             (["simulate", str(tiny), "--flights", str(bad_csv)],
              f"{bad_csv}: line 2: time 'nan' is not from 0 to 604800 s (a week)"),
             (["sweep", str(bad_toml)], f"{bad_toml}: [factors] policy: {{'a': 1}} is not one of")]
    for argv, message in cases:
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert message in err and "Traceback" not in err, (argv, err)
