"""BTS On-Time CSVs as schedules: told by the header in any column order, one airport kept,
arrivals and departures paired by tail, flight number or the time rule, stands assigned, a
report of what was kept and left out; bad files exit 2 naming file, line and problem."""

from __future__ import annotations

import pytest

from engine.airport.layout_io import bundled_airports, load_airport
from engine.sim.bts import TOW_S, is_bts, read_bts, read_schedule
from engine.sim.schedule import GATE_CLEAR_S, FlightsError
from engine.sim.simulation import SimConfig, Simulation
from main import main


@pytest.fixture(scope="module")
def regional():
    return load_airport(bundled_airports()["regional"])


def write(tmp_path, text, name="bts.csv"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


# columns shuffled, extra ones, FL_DATE, tails: N1 turns (in 0800, out 0905), N2 turns, and an
# overnight arrival (dep 2330, arr 0110 next day); ORD-DEN is not at XYZ
TAILS = ("DEP_DELAY,TAIL_NUM,DEST,FL_DATE,CRS_ARR_TIME,ORIGIN,CRS_DEP_TIME,OP_CARRIER,OP_CARRIER_FL_NUM\n"
         "3.0,N1,XYZ,2024-01-25,0800,ABC,0600,AA,10\n"
         "0.0,N1,DEF,2024-01-25,1100,XYZ,0905,AA,11\n"
         ",N2,XYZ,2024-01-25,0845,GHI,0700,UA,20\n"
         "1.0,N2,JKL,2024-01-25,1300,XYZ,1200,UA,21\n"
         "2.0,N3,XYZ,2024-01-25,0110,MNO,2330,DL,30\n"
         "2.0,N4,DEN,2024-01-25,0900,ORD,0700,DL,31\n")


def test_the_header_tells_a_bts_file_from_the_projects_csv(tmp_path):
    assert is_bts(write(tmp_path, TAILS))
    assert not is_bts(write(tmp_path, "flight,gate,arrival,departure\n", "own.csv"))


def test_tails_pair_turns_and_the_report_says_what_was_left_out(tmp_path, regional):
    flights, report = read_bts(write(tmp_path, TAILS), regional, "xyz")
    by_name = {f.id: f for f in flights}
    turn = by_name["arr AA10 / dep AA11"]
    assert (turn.arrival, turn.departure) == (8 * 3600, 9 * 3600 + 300)
    assert "arr UA20 / dep UA21" in by_name
    overnight = by_name["arr DL30"]            # lands 01:10 the next day, towed off an hour later
    assert overnight.arrival == 86400 + 4200 and overnight.departure == overnight.arrival + TOW_S
    text = "\n".join(report.lines())
    assert "2 by tail number" in text and "1 arrival towed off" in text
    assert "1 flights neither from nor to XYZ" in text
    assert len({f.gate for f in flights}) == 3   # each turn on a stand of its own: free longest


def test_without_tails_or_numbers_the_time_rule_pairs_and_night_stops_are_towed(tmp_path, regional):
    text = ("YEAR,MONTH,DAY_OF_MONTH,ORIGIN,DEST,CRS_DEP_TIME,CRS_ARR_TIME\n"
            "2024,1,25,AAA,ORD,0500,0700\n"      # arrives 07:00
            "2024,1,25,ORD,BBB,0720,0900\n"      # 20 min later: too short a turn for the rule
            "2024,1,25,ORD,CCC,0800,1000\n"      # 60 min: paired with the 07:00 arrival
            "2024,1,25,DDD,ORD,2200,2330\n")     # no departure after it: towed off
    flights, report = read_bts(write(tmp_path, text), regional, "ORD")
    pairs = sorted((f.arrival, f.departure) for f in flights)
    assert pairs == [(7 * 3600 + 1200 - TOW_S, 7 * 3600 + 1200), (7 * 3600, 8 * 3600),
                     (23.5 * 3600, 23.5 * 3600 + TOW_S)]
    assert "1 by the time rule" in report.lines()[2]


def test_flight_numbers_pair_through_flights(tmp_path, regional):
    text = ("FL_DATE,OP_CARRIER,OP_CARRIER_FL_NUM,ORIGIN,DEST,CRS_DEP_TIME,CRS_ARR_TIME\n"
            "2024-01-25,WN,5,AAA,MDW,0600,0700\n2024-01-25,WN,5,MDW,BBB,0740,0900\n"
            "2024-01-25,WN,6,CCC,MDW,0610,0710\n")
    flights, report = read_bts(write(tmp_path, text), regional, "MDW")
    assert {f.id for f in flights} == {"arr WN5 / dep WN5", "arr WN6"}
    assert "1 by flight number" in report.lines()[2]


def test_a_stand_takes_the_next_aircraft_only_once_it_is_clear(tmp_path):
    paper = load_airport(bundled_airports()["paper-5"])     # four usable stands (A5 a dead end)
    rows = "".join(f"2024-01-25,AAA,ORD,0{h}00,0{h}30\n2024-01-25,ORD,BBB,0{h}40,0{h}59\n"
                   for h in range(1, 7))
    text = "FL_DATE,ORIGIN,DEST,CRS_ARR_TIME,CRS_DEP_TIME\n" + rows
    flights, _ = read_bts(write(tmp_path, text), paper, "ORD")
    for g in {f.gate for f in flights}:
        mine = sorted((f.arrival, f.departure) for f in flights if f.gate == g)
        assert all(b[0] >= a[1] + GATE_CLEAR_S for a, b in zip(mine, mine[1:]))
    assert paper.index("A5") not in {f.gate for f in flights}


def test_a_bts_day_runs_with_the_airports_bags(tmp_path, regional):
    flights, _ = read_schedule(write(tmp_path, TAILS), regional, "XYZ")
    sim = Simulation(regional, SimConfig(hours=14, variant="cpu-blocked", flights=flights))
    sim.run_until(sim.end_time)
    k = sim.kpis()
    assert k["flights"] == len(flights) and k["bags_add_up"] and k["bags_created"] > 0


def test_simulate_runs_a_bts_file_and_prints_the_report(tmp_path, capsys):
    path = write(tmp_path, TAILS)
    out = tmp_path / "k.json"
    assert main(["simulate", "regional", "--flights", str(path), "--airport", "XYZ", "--hours",
                 "14", "--quiet", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "XYZ on 2024-01-25: 3 arrivals, 2 departures" in printed and out.is_file()


@pytest.mark.parametrize("text, message", [
    ("FL_DATE,ORIGIN,DEST,CRS_DEP_TIME,CRS_ARR_TIME\n2024-01-25,A,B,0960,1000\n",
     "line 2: CRS_DEP_TIME '0960' is not a local time hhmm"),
    ("FL_DATE,ORIGIN,DEST,CRS_DEP_TIME,CRS_ARR_TIME\n2024-13-45,A,B,0900,1000\n",
     "line 2: FL_DATE is not a date"),
    ("ORIGIN,DEST,CRS_DEP_TIME,CRS_ARR_TIME\nA,B,0900,1000\n",
     "line 1: missing column(s) FL_DATE (or YEAR, MONTH, DAY_OF_MONTH)"),
    ("FL_DATE,ORIGIN,DEST,CRS_DEP_TIME,CRS_ARR_TIME\n2024-01-25,A,B,0900,1000\n",
     "the file: no flight from or to 'ZZZ'"),
])
def test_a_bad_bts_file_exits_2_naming_file_line_and_problem(tmp_path, capsys, text, message):
    path = write(tmp_path, text)
    code = "ZZZ" if "ZZZ" in message else "A"
    assert main(["simulate", "regional", "--flights", str(path), "--airport", code,
                 "--hours", "1", "--quiet", "--out", str(tmp_path / "k.json")]) == 2
    err = capsys.readouterr().err
    assert f"{path}: {message}" in err and "Traceback" not in err
    assert not (tmp_path / "k.json").exists()
    with pytest.raises(FlightsError):
        read_bts(path, load_airport(bundled_airports()["regional"]), code)
