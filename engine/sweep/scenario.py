"""Read and check a scenario file (TOML) and expand it into runs: every combination × seed.

    [sweep]
    seeds = [0, 1, 2]          # or a count: seeds = 3 means 0, 1, 2
    variant = "auto"           # Floyd–Warshall variant of the days' solves (results do not depend on it)

    [factors]                  # each a value or a list of values; left out: the default
    layout = ["regional"]      # bundled airport names or layout files (relative to this file)
    fleet = [4, 6, 8]          # tugs in all (default: the airport's own fleets)
    policy = ["fleet", "baseline"]   # engine.sim.dispatch.POLICIES (default: DEFAULT_POLICY)
    load = [1.0, 1.5]          # multiplies the bags per flight
    hours = [6]                # length of the day
    edits = ["none", "road"]   # timed what-if edits: "none", a set below, or a scenario file's

    [[edits.road]]             # a named set of timed edits (engine.sim.edit_io's tables)
    at = "1:30"
    do = "close-road"
    a = "SORT"
    b = "Wh14"

Loading is pure: ``load_sweep`` returns a ``Sweep`` or raises ``SweepError`` listing every
problem as "file: item: what is wrong".
"""

from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from ..airport.layout import Airport
from ..airport.layout_io import MAX_TUGS, LayoutError, load_airport
from ..apsp import variants
from ..input_error import InputError, shown
from ..sim.dispatch import DEFAULT_POLICY, POLICIES
from ..words import counted
from ..sim.edit_io import TimedEdit, edit_from_dict
from ..sim.scenario_file import ScenarioError, load_scenario
from ..toml_input import is_int as _is_int, is_number as _is_number, is_text as _is_text
from ..toml_input import layout_path, read_toml, toml_text, tomllib, top_tables

FACTORS = ("layout", "fleet", "policy", "load", "hours", "edits")
DEFAULTS = {"fleet": None, "policy": DEFAULT_POLICY, "load": 1.0, "hours": 24.0, "edits": "none"}
NO_EDITS = "none"
_SWEEP_KEYS = {"seeds", "variant"}
MAX_SEEDS = 10_000
MAX_LOAD = 100.0   # bags per flight at most this many times the usual


class SweepError(InputError):
    """A scenario file that cannot be run: one "file: item: what is wrong" line each."""


@dataclass(frozen=True)
class Scenario:
    """One combination of factor values (``fleet`` None: the airport's own fleets)."""
    index: int
    layout: str
    fleet: int | None
    policy: str
    load: float
    hours: float
    edits: str = NO_EDITS     # the edits factor's value: a set's name, a scenario file or "none"

    def label(self) -> str:
        fleet = "own fleet" if self.fleet is None else counted(self.fleet, "tug")
        edits = "" if self.edits == NO_EDITS else f", edits {self.edits}"
        return f"{self.layout}, {fleet}, {self.policy}, load {self.load:g}, {self.hours:g} h{edits}"


@dataclass(frozen=True)
class Run:
    """The unit of work: one scenario's day with one seed."""
    index: int
    scenario: Scenario
    seed: int


@dataclass
class Sweep:
    source: Path
    scenarios: list[Scenario]
    seeds: list[int]
    variant: str
    airports: dict[str, Airport]   # layout value as written -> the checked airport
    edit_sets: dict[str, tuple[TimedEdit, ...]] = field(default_factory=dict)  # edits value ->

    def runs(self) -> list[Run]:
        """Every scenario × seed, scenario-major, numbered from 0."""
        pairs = itertools.product(self.scenarios, self.seeds)
        return [Run(i, s, seed) for i, (s, seed) in enumerate(pairs)]


def load_sweep(path) -> Sweep:
    """Read and check the scenario file ``path`` (its layouts too); ``SweepError`` otherwise."""
    path = Path(path)
    return sweep_from_dict(read_toml(path, SweepError), path)


def save_sweep(path, data: dict, head: str = "", airports: dict | None = None) -> Sweep:
    """Write the sweep file of ``data`` (its tables: [sweep], [factors], edits sets) to ``path``
    and return it loaded (``airports`` as in ``sweep_from_dict``); ``SweepError``, nothing
    written, if it would not load."""
    path = Path(path)
    text = toml_text(data, head)
    sweep = sweep_from_dict(tomllib.loads(text), path, airports)
    path.write_text(text, encoding="utf-8", newline="\n")
    return sweep


def sweep_from_dict(data: dict, path: Path, airports: dict | None = None) -> Sweep:
    """The sweep of a scenario file's tables ``data`` (``path``: where relative files are found).
    ``airports`` maps layout values to airports already read and checked (the app's open one):
    those are used as they are, not read again."""
    p: list[str] = []
    known = airports or {}
    settings, factors = top_tables(data, ("sweep", "factors"),
                                   "[sweep], [factors] and [[edits.NAME]]", p, also=("edits",))
    for key in sorted(set(settings) - _SWEEP_KEYS):
        p.append(f"[sweep]: unknown key {key!r} (known: {', '.join(sorted(_SWEEP_KEYS))})")
    for key in sorted(set(factors) - set(FACTORS)):
        p.append(f"[factors]: unknown factor {key!r} (known: {', '.join(FACTORS)})")
    seeds = _seeds(settings.get("seeds"), p)
    variant = settings.get("variant", "auto")
    names = ["auto"] + [v.name for v in variants()]
    if variant not in names:
        p.append(f"[sweep]: variant must be one of {', '.join(names)}, got {shown(variant)}")

    layouts = _values(factors, "layout", _is_text, "a layout file or bundled airport name", p)
    if "layout" not in factors:
        p.append("[factors]: missing 'layout' (a bundled airport name or a layout file)")
    fleets = _values(factors, "fleet", lambda v: _is_int(v) and 1 <= v <= MAX_TUGS,
                     f"a whole number from 1 to {MAX_TUGS:,}", p)
    policies = _values(factors, "policy", lambda v: isinstance(v, str) and v in POLICIES,
                       "one of " + ", ".join(sorted(POLICIES)), p)
    loads = _values(factors, "load", lambda v: _is_number(v) and 0 < v <= MAX_LOAD,
                    f"a number > 0 and ≤ {MAX_LOAD:g}", p)
    hours = _values(factors, "hours", lambda v: _is_number(v) and 0 < v <= 24 * 7,
                    "a number of hours > 0 and ≤ 168", p)
    sets = _edit_sets(data.get("edits", {}), p)
    edits = _values(factors, "edits", _is_text, f"{NO_EDITS!r}, a set [[edits.NAME]] of this "
                    "file or a scenario file (.toml)", p)
    airports = {}
    for value in filter(_is_text, layouts or []):   # the others are named above
        try:
            airports[value] = (known[value] if value in known else
                               load_airport(layout_path(value, path)))
        except LayoutError as exc:
            p.extend(f"[factors] layout {value!r}: {line}" for line in exc.problems)
    edit_sets = {NO_EDITS: ()}
    for value in filter(_is_text, edits or []):
        if value in sets:
            edit_sets[value] = sets[value]
        elif value.endswith(".toml"):
            try:
                edit_sets[value] = tuple(load_scenario(path.parent / value).edits)
            except ScenarioError as exc:
                p.extend(f"[factors] edits {value!r}: {line}" for line in exc.problems)
        elif value != NO_EDITS:
            p.append(f"[factors] edits: {value!r} is neither {NO_EDITS!r}, a set of this file "
                     f"({', '.join(sorted(sets)) or 'none defined'}) nor a scenario file (.toml)")
    for name in sorted(set(sets) - set(edits or [])):
        p.append(f"[edits.{name}]: defined but not in [factors] edits")
    if p:
        raise SweepError(path, p)
    combos = itertools.product(layouts, fleets or [None], policies or [DEFAULTS["policy"]],
                               [float(v) for v in loads or [DEFAULTS["load"]]],
                               [float(v) for v in hours or [DEFAULTS["hours"]]],
                               edits or [DEFAULTS["edits"]])
    scenarios = [Scenario(i, *c) for i, c in enumerate(combos)]
    return Sweep(path, scenarios, seeds, variant, airports, edit_sets)


def _edit_sets(raw, p: list) -> dict[str, tuple[TimedEdit, ...]]:
    """The file's named sets of timed edits: ``[[edits.NAME]]`` tables."""
    if not isinstance(raw, dict):
        p.append("top level: 'edits' must hold named sets [[edits.NAME]]")
        return {}
    sets = {}
    for name, items in raw.items():
        if name == NO_EDITS or not isinstance(items, list) or not items:
            p.append(f"[edits.{name}]: " + (f"{NO_EDITS!r} means no edits: name the set otherwise"
                                             if name == NO_EDITS else
                                             "expected one or more tables [[edits." + name + "]]"))
            continue
        found = [edit_from_dict(item, f"[[edits.{name}]] #{i}", p)
                 for i, item in enumerate(items, start=1)]
        sets[name] = tuple(e for e in found if e is not None)
    return sets


def _seeds(raw, p: list) -> list[int]:
    if raw is None:
        p.append("[sweep]: missing 'seeds' (a list of seeds, or how many: seeds = 3 means 0, 1, 2)")
        return []
    if _is_int(raw):
        if not 1 <= raw <= MAX_SEEDS:
            p.append(f"[sweep]: seeds = {raw}: a count must be between 1 and {MAX_SEEDS}")
            return []
        return list(range(raw))
    if not isinstance(raw, list) or not raw or len(raw) > MAX_SEEDS:
        p.append(f"[sweep]: seeds must be a list of 1 to {MAX_SEEDS} whole numbers or a count, "
                 f"got {shown(raw)}")
        return []
    bad = [v for v in raw if not (_is_int(v) and v >= 0)]
    if bad:
        p.append(f"[sweep]: seed {shown(bad[0])} is not a whole number ≥ 0")
        return []
    dup = sorted(v for v, count in Counter(raw).items() if count > 1)
    if dup:
        p.append(f"[sweep]: seed {dup[0]} is listed twice")
    return [] if bad or dup else list(raw)


def _values(factors: dict, name: str, ok, expected: str, p: list) -> list | None:
    """The factor's values as a list (a single value becomes a list of one); None if absent."""
    if name not in factors:
        return None
    raw = factors[name]
    values = raw if isinstance(raw, list) else [raw]
    if not values:
        p.append(f"[factors] {name}: the list is empty (leave the factor out for its default)")
        return None
    for i, v in enumerate(values, start=1):
        if not ok(v):
            where = f"[factors] {name}" + (f" item {i}" if isinstance(raw, list) else "")
            p.append(f"{where}: {shown(v)} is not {expected}")
    if len(set(map(repr, values))) < len(values):
        p.append(f"[factors] {name}: a value is listed twice")
    return values

