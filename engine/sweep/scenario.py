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

Loading is pure: ``load_sweep`` returns a ``Sweep`` or raises ``SweepError`` listing every
problem as "file: item: what is wrong".
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
import sys
from dataclasses import dataclass
from pathlib import Path

from ..airport.layout import Airport
from ..airport.layout_io import MAX_TUGS, LayoutError, bundled_airports, load_airport
from ..apsp import variants
from ..input_error import InputError, shown
from ..sim.dispatch import DEFAULT_POLICY, POLICIES

if sys.version_info >= (3, 11):
    import tomllib
else:  # Python 3.10
    import tomli as tomllib

FACTORS = ("layout", "fleet", "policy", "load", "hours")
DEFAULTS = {"fleet": None, "policy": DEFAULT_POLICY, "load": 1.0, "hours": 24.0}
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

    def label(self) -> str:
        fleet = "own fleet" if self.fleet is None else f"{self.fleet} tugs"
        return f"{self.layout}, {fleet}, {self.policy}, load {self.load:g}, {self.hours:g} h"


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

    def runs(self) -> list[Run]:
        """Every scenario × seed, scenario-major, numbered from 0."""
        pairs = itertools.product(self.scenarios, self.seeds)
        return [Run(i, s, seed) for i, (s, seed) in enumerate(pairs)]


def load_sweep(path) -> Sweep:
    """Read and check the scenario file ``path`` (its layouts too); ``SweepError`` otherwise."""
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise SweepError(path, [f"the file: cannot be read as UTF-8 text ({exc})"]) from None
    except tomllib.TOMLDecodeError as exc:
        raise SweepError(path, [f"the file: malformed TOML: {exc}"]) from None
    except RecursionError:
        raise SweepError(path, ["the file: nested too deeply to read"]) from None
    return sweep_from_dict(data, path)


def sweep_from_dict(data: dict, path: Path) -> Sweep:
    p: list[str] = []
    for key in sorted(set(data) - {"sweep", "factors"}):
        p.append(f"top level: unknown table or key {key!r} (expected [sweep] and [factors])")
    settings = _table(data, "sweep", p)
    factors = _table(data, "factors", p)
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
    airports = {}
    for value in filter(_is_text, layouts or []):   # the others are named above
        try:
            airports[value] = load_airport(_layout_path(value, path))
        except LayoutError as exc:
            p.extend(f"[factors] layout {value!r}: {line}" for line in str(exc).splitlines())
    if p:
        raise SweepError(path, p)
    combos = itertools.product(layouts, fleets or [None], policies or [DEFAULTS["policy"]],
                               [float(v) for v in loads or [DEFAULTS["load"]]],
                               [float(v) for v in hours or [DEFAULTS["hours"]]])
    scenarios = [Scenario(i, *c) for i, c in enumerate(combos)]
    return Sweep(path, scenarios, seeds, variant, airports)


def _layout_path(value: str, toml_path: Path) -> Path:
    bundled = bundled_airports()
    if value in bundled:
        return bundled[value]
    return (toml_path.parent / value).resolve()


def _table(data: dict, name: str, p: list) -> dict:
    table = data.get(name, {})
    if not isinstance(table, dict):
        p.append(f"top level: {name!r} must be a table [{name}]")
        return {}
    return table


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


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _is_number(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def _is_text(v) -> bool:
    return isinstance(v, str) and bool(v.strip())
