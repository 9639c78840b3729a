"""Scenario files (TOML): everything that makes a simulated day, so it replays exactly.

    [scenario]
    name = "Regional: the service lane at G14 closed at 2:00"   # optional
    layout = "regional"      # a bundled airport, or a layout file relative to this file
    hours = 4                # length of the day (default 24)
    seed = 1                 # the generated schedule's and bags' seed (default 0)
    fleet = 24               # tugs in all (left out: the airport's own fleets)
    policy = "shortest-path" # dispatcher (engine.sim.dispatch.POLICIES)
    route_engine = "all-pairs"
    recompute = "auto"
    load = 1.0               # multiplies the bags per flight
    flights = "day.csv"      # optional: a schedule file (relative to this file) instead of the seed's

    [schedule]               # optional: the generated day's parameters over the layout's own
    banks = 3

    [[edits]]                # the timed what-if edits (engine.sim.edit_io)
    at = "2:00"
    do = "close-road"
    a = "X"
    b = "Y"

``load_scenario`` reads and checks one (``ScenarioError``: "file: item: problem" per problem);
``save_scenario`` writes the app's current day and its applied edits; ``DayScenario.replay``
runs it. The route-solving ``variant`` may be named too: it changes how fast, never what.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

from ..airport.layout import Airport
from ..airport.layout_io import (SCHEDULE_KEYS, AIRPORTS_DIR, MAX_TUGS, LayoutError,
                                 load_airport, schedule_from_dict)
from ..input_error import InputError, shown
from ..toml_input import toml_value as _toml
from ..toml_input import (is_int, is_number, is_text, layout_path, read_toml, tomllib,
                          top_tables)
from .dispatch import POLICIES, RecomputePolicy
from .edit_io import EditPlan, TimedEdit, edit_from_dict, edit_to_dict
from .edits import Applied
from .route_engine import ENGINES, variants_of
from .schedule import FlightsError, read_flights_csv
from .simulation import SimConfig, Simulation

MAX_HOURS = 24 * 7
MAX_LOAD = 100.0
_KEYS = ("name", "layout", "hours", "seed", "fleet", "policy", "route_engine", "variant",
         "recompute", "load", "flights")


class ScenarioError(InputError):
    """A scenario file that cannot be replayed: one "file: item: what is wrong" line each."""


@dataclass
class DayScenario:
    source: Path
    name: str
    layout: str               # as written: a bundled name or a path relative to the file
    airport: Airport = field(repr=False)
    config: SimConfig         # the schedule's parameters and flights resolved
    edits: list[TimedEdit]
    flights_file: str | None = None   # as written

    def simulation(self) -> Simulation:
        return Simulation(self.airport, self.config)

    def plan(self) -> EditPlan:
        return EditPlan(list(self.edits))

    def replay(self) -> tuple[Simulation, EditPlan]:
        """The whole day with its edits (``EditError`` naming the edit if one cannot apply)."""
        sim, plan = self.simulation(), self.plan()
        plan.run_until(sim, sim.end_time)
        return sim, plan


def load_scenario(path) -> DayScenario:
    path = Path(path)
    return scenario_from_dict(read_toml(path, ScenarioError), path)


def scenario_from_dict(data: dict, path: Path) -> DayScenario:
    p: list[str] = []
    s = top_tables(data, ("scenario",), "[scenario], [schedule] and [[edits]]", p,
                   also=("schedule", "edits"))[0]
    for key in sorted(set(s) - set(_KEYS)):
        p.append(f"[scenario]: unknown key {key!r} (known: {', '.join(_KEYS)})")

    def check(key, ok, expected, default=None):
        if key not in s:
            return default
        if not ok(s[key]):
            p.append(f"[scenario] {key}: {shown(s[key])} is not {expected}")
            return default
        return s[key]

    name = check("name", lambda v: isinstance(v, str), "text", "")
    layout = check("layout", is_text, "a bundled airport name or a layout file")
    if "layout" not in s:
        p.append("[scenario]: missing 'layout' (a bundled airport name or a layout file)")
    hours = check("hours", lambda v: is_number(v) and 0 < v <= MAX_HOURS,
                  f"a number of hours > 0 and ≤ {MAX_HOURS}", 24.0)
    seed = check("seed", lambda v: is_int(v) and v >= 0, "a whole number ≥ 0", 0)
    fleet = check("fleet", lambda v: is_int(v) and 1 <= v <= MAX_TUGS,
                  f"a whole number of tugs from 1 to {MAX_TUGS:,} (leave it out for the "
                  "airport's own fleets)")
    policy = check("policy", lambda v: v in POLICIES, "one of " + ", ".join(sorted(POLICIES)),
                   "shortest-path")
    engine = check("route_engine", lambda v: v in ENGINES, "one of " + ", ".join(ENGINES),
                   "all-pairs")
    names = ["auto"] + [v.name for v in variants_of(engine)]
    variant = check("variant", lambda v: v in names, "one of " + ", ".join(names), "auto")
    recompute = check("recompute", _recompute_ok, "'change', 'auto' or a number of seconds ≥ 0",
                      "auto")
    load = check("load", lambda v: is_number(v) and 0 < v <= MAX_LOAD,
                 f"a number > 0 and ≤ {MAX_LOAD:g}", 1.0)
    flights_file = check("flights", is_text, "a schedule file (CSV)")

    airport = None
    if is_text(layout):
        try:
            airport = load_airport(layout_path(layout, path))
        except LayoutError as exc:
            p.extend(f"[scenario] layout {layout!r}: {line}" for line in exc.problems)
    params = None
    if "schedule" in data and airport is not None:
        raw = data["schedule"]
        own = {k: getattr(airport.schedule, k) for k in SCHEDULE_KEYS}
        params = schedule_from_dict({**own, **raw} if isinstance(raw, dict) else raw, p,
                                    "[schedule]")
    flights = None
    if flights_file and airport is not None:
        try:
            flights = read_flights_csv((path.parent / flights_file).resolve(),
                                       {n.id: i for i, n in enumerate(airport.nodes)})
        except FlightsError as exc:
            p.extend(f"[scenario] flights {flights_file!r}: {line}" for line in exc.problems)
    raw_edits = data.get("edits", [])
    if not isinstance(raw_edits, list):
        p.append("top level: 'edits' must be an array of tables [[edits]]")
        raw_edits = []
    edits = []
    for i, raw in enumerate(raw_edits, start=1):
        e = edit_from_dict(raw, f"edit #{i}", p)
        if e is not None and e.t > hours * 3600:
            p.append(f"edit #{i} ({e.edit.text}): at {e.t:g} s is after the day's end "
                     f"({hours:g} h)")
        elif e is not None:
            edits.append(e)
    if p:
        raise ScenarioError(path, p)
    config = SimConfig(hours=float(hours), seed=seed, tugs=fleet, variant=variant,
                       route_engine=engine, policy=policy, recompute=str(recompute),
                       flights=flights, params=params, load=float(load))
    return DayScenario(path, name, layout, airport, config, edits, flights_file)


def _recompute_ok(v) -> bool:
    if is_number(v) and v >= 0:
        return True
    if not isinstance(v, str):
        return False
    if v == "auto":
        return True
    try:
        RecomputePolicy(v)
    except ValueError:
        return False
    return True


# -- writing -------------------------------------------------------------------------------------

def save_scenario(path, layout, config: SimConfig, edits: Iterable[TimedEdit | Applied] = (),
                  name: str = "", flights_file=None) -> DayScenario:
    """Write the day ``config`` of ``layout`` (a bundled name, or a layout file's path) with its
    ``edits`` (the app's ``Applied`` list, or ``TimedEdit``s) to ``path``, and read it back
    (``ScenarioError``, nothing written, if it would not load). A day whose schedule came from a
    file (``config.flights``) needs that file as ``flights_file``."""
    path = Path(path)
    if config.flights is not None and flights_file is None:
        raise ValueError("this day's flights came from a schedule file: pass it as flights_file")
    layout_value = _relative(layout, path)
    s = {"name": name} if name else {}
    s.update(layout=layout_value, hours=config.hours, seed=config.seed)
    if config.tugs is not None:
        s["fleet"] = config.tugs
    s.update(policy=config.policy, route_engine=config.route_engine, variant=config.variant,
             recompute=config.recompute, load=config.load)
    if flights_file is not None:
        s["flights"] = _relative(Path(flights_file), path)
    lines = ["# A BagRoute scenario: python main.py simulate THIS_FILE replays the day.",
             "", "[scenario]"] + [f"{k} = {_toml(v)}" for k, v in s.items()]
    if config.params is not None:
        own = load_airport(layout_path(layout_value, path)).schedule
        changed = {k: getattr(config.params, k) for k in SCHEDULE_KEYS
                   if getattr(config.params, k) != getattr(own, k)}
        if changed:
            lines += ["", "[schedule]"] + [f"{k} = {_toml(v)}" for k, v in changed.items()]
    for e in edits:
        timed = TimedEdit(e.t, e.edit)
        lines += ["", "[[edits]]"] + [f"{k} = {_toml(v)}" for k, v in edit_to_dict(timed).items()]
    text = "\n".join(lines) + "\n"
    checked = scenario_from_dict(tomllib.loads(text), path)
    path.write_text(text, encoding="utf-8", newline="\n")
    return checked


def _relative(layout, toml_path: Path) -> str:
    """A bundled airport's name, else the file's path relative to the scenario's folder."""
    if isinstance(layout, str) and not layout.endswith(".json"):
        return layout
    p = Path(layout).resolve()
    if p.parent == AIRPORTS_DIR and p.suffix == ".json":
        return p.stem
    try:
        return Path(os.path.relpath(p, toml_path.resolve().parent)).as_posix()
    except ValueError:   # another drive (Windows)
        return p.as_posix()
