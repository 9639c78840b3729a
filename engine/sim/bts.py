"""A day of real flights from the U.S. DOT's On-Time Reporting download (BTS TranStats), turned
into the simulator's turns (one aircraft in and out of a stand).

The columns may come in any order, extra ones are ignored: the date as ``FL_DATE`` or
``YEAR``/``MONTH``/``DAY_OF_MONTH``; ``ORIGIN``, ``DEST``; ``CRS_DEP_TIME``, ``CRS_ARR_TIME``
(scheduled local times, hhmm); optional ``OP_CARRIER``, ``OP_CARRIER_FL_NUM``, ``TAIL_NUM``.
The rules (docs/real-data.md):

- the airport is ``code``, else the one in most rows; other rows are left out;
- time 0 is local midnight of the earliest date; an arrival earlier in the day than its
  departure lands the next day;
- pairing, in this order: the same tail number's next departure; the same carrier and flight
  number's next departure; else each arrival, in time order, takes the earliest unpaired
  departure (of its carrier, when the file has carriers) ``MIN_TURN_S`` to ``MAX_TURN_S`` after
  it. An arrival left over is towed off ``TOW_S`` later, a departure left over was towed on
  ``TOW_S`` before (night stops);
- stands (the file has none): each turn, in arrival order, takes the stand free longest (free
  ``GATE_CLEAR_S`` after its last departure); a turn finding none is left out. Neither the file
  nor the layout gives aircraft or stand sizes, so every stand takes every aircraft;
- bags come later, from the airport's ``schedule`` parameters (``make_bags``), as for a
  generated day.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import networkx as nx
import pandas as pd

from ..input_error import MAX_FILE_BYTES, shown
from .schedule import (GATE_CLEAR_S, MAX_FLIGHT_SECONDS, MAX_FLIGHTS, Flight, FlightsError,
                       read_flights_csv)

BTS_COLUMNS = ("ORIGIN", "DEST", "CRS_DEP_TIME", "CRS_ARR_TIME")
MIN_TURN_S = 35 * 60.0     # the shortest turn the pairing rule makes (a narrow-body's ~35 min)
MAX_TURN_S = 3 * 3600.0    # the longest: an aircraft on the ground longer is parked, not turning
TOW_S = 3600.0             # a night-stop aircraft's stand time before a departure / after an arrival
DAY_S = 86400.0


@dataclass
class ScheduleReport:
    """What a schedule import kept, paired, assigned and left out; ``lines()`` is printed."""
    file: str
    lines_: list[str] = field(default_factory=list)
    dropped: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        return [f"Schedule {self.file}", *self.lines_, f"Left out: {len(self.dropped)}",
                *(f"  - {d}" for d in self.dropped)]


def is_bts(path) -> bool:
    """Whether ``path``'s header has the BTS columns (and a date)."""
    try:
        with Path(path).open(encoding="utf-8-sig", errors="replace") as f:
            header = {c.strip().strip('"').upper() for c in f.readline().split(",")}
    except OSError:
        return False
    return set(BTS_COLUMNS) <= header


def usable_gates(airport) -> list[int]:
    """Gate indices a tug can reach from a depot and leave again (as the simulator uses)."""
    g = nx.DiGraph()
    g.add_nodes_from(airport.node_ids)
    g.add_edges_from((a, b) for a, b, _ in airport.directed_edges())
    ok = set()
    for f in airport.fleets:
        ok |= (nx.descendants(g, f.depot) | {f.depot}) & (nx.ancestors(g, f.depot) | {f.depot})
    return [airport.index(n.id) for n in airport.gates() if n.id in ok]


def read_bts(path, airport, code: str | None = None) -> tuple[list[Flight], ScheduleReport]:
    """The turns at ``code`` in the BTS file ``path``, on ``airport``'s stands; ``FlightsError``
    names the file, line and problem of every bad row."""
    path = Path(path)
    report = ScheduleReport(str(path))
    df = _read(path)
    code = (code or "").strip().upper() or _busiest(df, report)
    at = (df["ORIGIN"] == code) | (df["DEST"] == code)
    if (~at).any():
        report.dropped.append(f"{int((~at).sum())} flights neither from nor to {code}")
    df = df[at]
    if df.empty:
        raise FlightsError(path, [f"the file: no flight from or to {code!r}"])
    day, problems = _dates(df)
    dep = df["CRS_DEP_TIME"].map(_hhmm)
    arr = df["CRS_ARR_TIME"].map(_hhmm)
    for col, series in (("CRS_DEP_TIME", dep), ("CRS_ARR_TIME", arr)):
        for line in series.index[series.isna()]:
            problems.append(f"line {line}: {col} {shown(df.at[line, col])} is not a local time "
                            "hhmm (0000-2400)")
    if problems:
        raise FlightsError(path, sorted(problems, key=lambda p: int(p.split()[1].rstrip(":"))))
    day0 = day.min()
    base = (day - day0).dt.days * DAY_S
    next_day = (arr < dep) * DAY_S
    moves = []   # (time, kind "arr"/"dep", line, carrier, number, tail)
    for line in df.index:
        r = df.loc[line]
        keys = (r.get("OP_CARRIER", ""), r.get("OP_CARRIER_FL_NUM", ""), r.get("TAIL_NUM", ""))
        if r["DEST"] == code:
            moves.append((base[line] + arr[line] + next_day[line], "arr", line, *keys))
        if r["ORIGIN"] == code:
            moves.append((base[line] + dep[line], "dep", line, *keys))
    late = [m for m in moves if m[0] > MAX_FLIGHT_SECONDS]
    if late:
        report.dropped.append(f"{len(late)} movements more than a week after {day0.date()}")
    moves = sorted((m for m in moves if m[0] <= MAX_FLIGHT_SECONDS), key=lambda m: (m[0], m[2], m[1]))
    turns = _pair(moves, report)
    flights = _assign(turns, usable_gates(airport), airport, report)
    report.lines_.insert(0, f"{code} on {day0.date()}: {sum(m[1] == 'arr' for m in moves)} "
                            f"arrivals, {sum(m[1] == 'dep' for m in moves)} departures; time 0 "
                            "is local midnight")
    return flights, report


def _read(path: Path) -> pd.DataFrame:
    try:
        if path.stat().st_size > MAX_FILE_BYTES:
            raise FlightsError(path, [f"the file: {path.stat().st_size:,} bytes, more than the "
                                      f"{MAX_FILE_BYTES:,} a file read here may have"])
        df = pd.read_csv(path, dtype=str, keep_default_na=False, encoding="utf-8-sig",
                         skipinitialspace=True)
    except FlightsError:
        raise
    except (OSError, ValueError, pd.errors.ParserError, pd.errors.EmptyDataError) as exc:
        raise FlightsError(path, [f"the file: cannot be read as a BTS CSV ({shown(str(exc))})"]) from None
    df.columns = [str(c).strip().upper() for c in df.columns]
    df = df.loc[:, ~df.columns.duplicated()]
    missing = [c for c in BTS_COLUMNS if c not in df.columns]
    if not ("FL_DATE" in df.columns or {"YEAR", "MONTH", "DAY_OF_MONTH"} <= set(df.columns)):
        missing.append("FL_DATE (or YEAR, MONTH, DAY_OF_MONTH)")
    if missing:
        raise FlightsError(path, [f"line 1: missing column(s) {', '.join(missing)}"])
    if len(df) > MAX_FLIGHTS:
        raise FlightsError(path, [f"the file: {len(df):,} flights, more than {MAX_FLIGHTS:,}"])
    df.index = range(2, len(df) + 2)   # the file's line numbers
    df = df.fillna("")                 # a row with fewer fields than the header
    for c in df.columns:
        df[c] = df[c].str.strip()
    df["ORIGIN"], df["DEST"] = df["ORIGIN"].str.upper(), df["DEST"].str.upper()
    return df


def _busiest(df: pd.DataFrame, report: ScheduleReport) -> str:
    counts = pd.concat([df["ORIGIN"], df["DEST"]]).value_counts()
    code = str(counts.index[0]) if len(counts) else ""
    if len(counts) > 1:
        report.lines_.append(f"airport {code}: the one in most rows ({int(counts.iloc[0])}); "
                             "choose another with --airport")
    return code


def _dates(df: pd.DataFrame):
    """Each row's date (a Series of Timestamps) and a problem per row without a usable one."""
    if "FL_DATE" in df.columns:
        text = df["FL_DATE"].str.split(r"[ T]", regex=True).str[0]   # "1/25/2024 12:00:00 AM"
        day = pd.to_datetime(text, errors="coerce", format="mixed", utc=True).dt.tz_localize(None)
        what = "FL_DATE"
    else:
        parts = df[["YEAR", "MONTH", "DAY_OF_MONTH"]].apply(pd.to_numeric, errors="coerce")
        parts.columns = ["year", "month", "day"]
        ok = (parts.notna().all(axis=1) & (parts % 1 == 0).all(axis=1)
              & parts["year"].between(1900, 2200))
        day = pd.Series(pd.NaT, index=df.index, dtype="datetime64[ns]")
        day[ok] = pd.to_datetime(parts[ok], errors="coerce")
        what = "YEAR/MONTH/DAY_OF_MONTH"
    day = day.where(day.dt.year.between(1900, 2200))    # a date of this era, not "-1"
    problems = [f"line {line}: {what} is not a date" for line in day.index[day.isna()]]
    return day, problems


def _hhmm(text: str):
    """Seconds after midnight of a local time "hhmm" (also "hmm", "2400"); None if not one."""
    if not text.isdigit() or len(text) > 4:
        return None
    h, m = divmod(int(text), 100)
    return None if m > 59 or h * 60 + m > 24 * 60 else float(h * 3600 + m * 60)


def _pair(moves: list, report: ScheduleReport) -> list[tuple[float, float, str]]:
    """(arrival, departure, name) turns from the movements, by the module docstring's rules."""
    arrivals = [m for m in moves if m[1] == "arr"]
    free = [m for m in moves if m[1] == "dep"]
    turns, counts = [], Counter()

    def take(arrival, departure, how):
        free.remove(departure)
        turns.append((arrival[0], departure[0], _name(arrival, departure)))
        counts[how] += 1

    rules = (("tail number", lambda m: m[5]),
             ("flight number", lambda m: (m[3], m[4]) if m[4] else ""))
    for rule, key in rules:
        left = []
        for a in arrivals:
            k = key(a)
            d = next((d for d in free if k and key(d) == k and d[0] > a[0]), None) if k else None
            take(a, d, f"by {rule}") if d else left.append(a)
        arrivals = left
    for a in arrivals:
        d = next((d for d in free if MIN_TURN_S <= d[0] - a[0] <= MAX_TURN_S
                  and (not a[3] or d[3] == a[3])), None)
        if d:
            take(a, d, f"by the time rule ({MIN_TURN_S / 60:g} min to {MAX_TURN_S / 3600:g} h)")
        else:
            turns.append((a[0], a[0] + TOW_S, _name(a, None)))
            counts["arrival towed off (night stop)"] += 1
    for d in free:
        turns.append((max(0.0, d[0] - TOW_S), d[0], _name(None, d)))
        counts["departure towed on (night stop)"] += 1
    report.lines_.append("turns: " + ", ".join(f"{n} {how}" for how, n in counts.items()))
    return sorted(turns)


def _name(a, d) -> str:
    def one(m, word):
        label = f"{m[3]}{m[4]}" if m[4] else f"line {m[2]}"
        return f"{word} {label}"
    return " / ".join(one(m, w) for m, w in ((a, "arr"), (d, "dep")) if m)


def _assign(turns, gates: list[int], airport, report: ScheduleReport) -> list[Flight]:
    """Each turn on the stand free longest (stands in file order break ties)."""
    if not gates:
        raise FlightsError(report.file, [f"the airport: {airport.name!r} has no stand a tug can "
                                         "reach and leave"])
    free_at = {g: -GATE_CLEAR_S for g in gates}
    flights, full, seen = [], 0, set()
    for arrival, departure, name in turns:
        g = min(gates, key=lambda g: (free_at[g], g))
        if free_at[g] > arrival:
            full += 1
            continue
        free_at[g] = departure + GATE_CLEAR_S
        name = name if name not in seen else f"{name} #{len(flights) + 1}"
        seen.add(name)
        flights.append(Flight(name, g, round(float(arrival), 1), round(float(departure), 1)))
    report.lines_.append(f"stands: {len(flights)} turns on {len({f.gate for f in flights})} of "
                         f"{len(gates)} stands, each on the stand free longest")
    if full:
        report.dropped.append(f"{full} turns that found every stand busy at their arrival")
    later = sum(f.arrival >= DAY_S for f in flights)
    if later:
        report.lines_.append(f"{later} turns start after the first 24 h (simulate --hours "
                             f"{int(max(f.departure for f in flights) // 3600) + 1} keeps them)")
    return flights


def read_schedule(path, airport, code: str | None = None) -> tuple[list[Flight], ScheduleReport]:
    """Flights for ``airport`` from a BTS On-Time CSV (told by its header) or the project's own
    CSV (flight, gate, arrival, departure), with the report of what was read."""
    if is_bts(path):
        return read_bts(path, airport, code)
    flights = read_flights_csv(path, {n.id: i for i, n in enumerate(airport.nodes)})
    report = ScheduleReport(str(path))
    report.lines_.append(f"{len(flights)} flights with their stands (the project's CSV)")
    return flights, report
