"""What-if edits with their simulated times, as data a TOML file holds, and a day that applies
them as it runs (a scenario's replay, a sweep's edits factor).

    [[edits]]
    at = "08:00"          # simulated time: "H:MM[:SS]" or seconds from the start of the day
    do = "close-road"     # one of EDIT_NAMES
    a = "W12"
    b = "W13"

Each edit's other keys are its fields in ``engine.sim.edits`` (``reopen-road`` gives the road's
``a``, ``b``, ``length_m``, ``seconds``, ``one_way`` and ``index``). ``EditPlan.run_until`` applies
every edit due at its time exactly as the app does between two steps, so a replayed day is the
day the app showed.
"""

from __future__ import annotations

from dataclasses import MISSING, dataclass, field, fields

from ..airport.layout import Road
from ..input_error import shown
from ..toml_input import is_int, is_number, is_text
from .edits import (AddTugs, Applied, CloseGate, CloseRoad, Edit, EditError, MoveTugs, OpenGate,
                    OpenRoad, RetireTugs, SetCapacity, SetPolicy, SetSpeed, apply_edit)
from .simulation import Simulation

EDIT_NAMES = {"close-road": CloseRoad, "reopen-road": OpenRoad, "close-gate": CloseGate,
              "reopen-gate": OpenGate, "move-tugs": MoveTugs, "add-tugs": AddTugs,
              "retire-tugs": RetireTugs, "set-speed": SetSpeed, "set-capacity": SetCapacity,
              "set-policy": SetPolicy}
_NAME_OF = {cls: name for name, cls in EDIT_NAMES.items()}
_ROAD_KEYS = ("a", "b", "length_m", "seconds", "one_way")
MAX_DAY_S = 7 * 24 * 3600.0


@dataclass(frozen=True)
class TimedEdit:
    t: float      # simulated seconds from the start of the day
    edit: Edit


def clock(t: float) -> str:
    """``H:MM:SS`` of whole simulated seconds."""
    s = int(t)
    return f"{s // 3600}:{s % 3600 // 60:02d}:{s % 60:02d}"


def parse_clock(value) -> float:
    """Seconds from a number of seconds or "H:MM[:SS[.f]]"; ``ValueError`` saying why not."""
    if is_number(value):
        seconds = float(value)
    elif isinstance(value, str):
        parts = value.strip().split(":")
        try:
            if not 2 <= len(parts) <= 3:
                raise ValueError
            h, m, s = int(parts[0]), int(parts[1]), float(parts[2]) if len(parts) == 3 else 0.0
        except ValueError:
            raise ValueError(f"time {shown(value)} is neither seconds nor H:MM[:SS]") from None
        if not (0 <= m < 60 and 0 <= s < 60):
            raise ValueError(f"time {shown(value)}: minutes and seconds must be from 0 to 59")
        seconds = h * 3600 + m * 60 + s
    else:
        raise ValueError(f"time {shown(value)} is neither seconds nor H:MM[:SS]")
    if not 0 <= seconds <= MAX_DAY_S:
        raise ValueError(f"time {shown(value)} is not within the week a day may last")
    return seconds


def edit_to_dict(timed: TimedEdit) -> dict:
    """The TOML table of one timed edit (fields at their defaults left out)."""
    e = timed.edit
    t = float(timed.t)
    out = {"at": clock(t) if t.is_integer() else t, "do": _NAME_OF[type(e)]}
    for f in fields(e):
        value = getattr(e, f.name)
        if isinstance(value, Road):
            out.update({k: getattr(value, k) for k in _ROAD_KEYS})
        elif value != f.default:
            out[f.name] = list(value) if isinstance(value, tuple) else value
    return out


def edit_from_dict(raw, item: str, problems: list[str]) -> TimedEdit | None:
    """One timed edit from its table; its problems go to ``problems`` as "ITEM: what" (None)."""
    if not isinstance(raw, dict):
        problems.append(f"{item}: expected a table (at = ..., do = ..., ...), got {shown(raw)}")
        return None
    before = len(problems)
    try:
        t = parse_clock(raw["at"]) if "at" in raw else None
    except ValueError as exc:
        problems.append(f"{item}: at: {exc}")
        t = None
    if "at" not in raw:
        problems.append(f"{item}: missing 'at' (the simulated time, e.g. \"8:00\")")
    name = raw.get("do")
    cls = EDIT_NAMES.get(name) if isinstance(name, str) else None
    if cls is None:
        problems.append(f"{item}: do = {shown(name)} is not one of {', '.join(EDIT_NAMES)}")
        return None
    kwargs = _fields(cls, {k: v for k, v in raw.items() if k not in ("at", "do")},
                     f"{item} ({name})", problems)
    if len(problems) > before:
        return None
    return TimedEdit(t, cls(**kwargs))


# what a key of each annotated type may hold, and how a message says so
_CHECKS = {"str": (is_text, "a node id"), "str | None": (is_text, "a node id"),
           "int": (lambda v: is_int(v) and v >= 1, "a whole number >= 1"),
           "float": (lambda v: is_number(v) and v > 0, "a number > 0"),
           "bool": (lambda v: isinstance(v, bool), "true or false"),
           "length": (lambda v: is_number(v) and v >= 0, "a number >= 0"),
           "index": (is_int, "a whole number (-1: at the end)"),
           "tuple[int, ...]": (lambda v: isinstance(v, list) and all(is_int(x) and x >= 0
                                                                     for x in v),
                               "a list of tug numbers (from 0)")}
# reopen-road's table: the road's keys, flattened (type, required), then its place in the list
_OPEN_ROAD_KEYS = {"a": ("str", True), "b": ("str", True), "length_m": ("length", True),
                   "seconds": ("float", True), "one_way": ("bool", False),
                   "index": ("index", False)}


def _fields(cls, raw: dict, item: str, problems: list[str]) -> dict:
    """The dataclass fields of ``cls`` from ``raw``, each checked against its annotation."""
    if cls is OpenRoad:
        specs = _OPEN_ROAD_KEYS
    else:
        specs = {f.name: (str(f.type), f.default is MISSING and f.default_factory is MISSING)
                 for f in fields(cls)}
    before = len(problems)
    for key in sorted(set(raw) - set(specs)):
        problems.append(f"{item}: unknown key {key!r} (known: at, do, {', '.join(specs)})")
    out = {}
    for key, (kind, required) in specs.items():
        if key not in raw:
            if required:
                problems.append(f"{item}: missing {key!r}")
            continue
        ok, expected = _CHECKS[kind]
        if not ok(raw[key]):
            problems.append(f"{item}: {key} = {shown(raw[key])} is not {expected}")
            continue
        out[key] = tuple(raw[key]) if isinstance(raw[key], list) else raw[key]
    if cls is OpenRoad and len(problems) == before:
        road = Road(out["a"], out["b"], float(out["length_m"]), float(out["seconds"]),
                    out.get("one_way", False))
        out = {"road": road, **({"index": out["index"]} if "index" in out else {})}
    return out


@dataclass
class EditPlan:
    """Timed edits still to apply to a day, in time order (the file's order at equal times), and
    what each did once applied."""
    pending: list[TimedEdit]
    applied: list[Applied] = field(default_factory=list)

    def __post_init__(self):
        self.pending = sorted(self.pending, key=lambda e: e.t)

    def run_until(self, sim: Simulation, t_end: float) -> None:
        """Step ``sim`` to ``t_end``, applying each edit due on the way at its time (an edit due
        at the day's current time applies before it moves on). ``EditError`` names the edit and
        its time when one cannot apply."""
        t_end = min(t_end, sim.end_time)
        while self.pending and self.pending[0].t <= t_end:
            timed = self.pending.pop(0)
            try:
                self.applied.append(apply_at(sim, timed.edit, timed.t))
            except EditError as exc:
                raise EditError(f"{timed.edit.text} at {clock(timed.t)}: {exc}") from None
        sim.run_until(t_end)


def apply_at(sim: Simulation, edit: Edit, t: float) -> Applied:
    """Apply ``edit`` at simulated time ``t``: the day first runs to ``t`` (every event up to it
    done, as between two steps of the app). ``EditError`` if ``t`` has passed or is past the end."""
    if t < sim.t:
        raise EditError(f"{clock(t)} has passed: the day is at {clock(sim.t)}")
    if t > sim.end_time:
        raise EditError(f"{clock(t)} is after the day's end ({clock(sim.end_time)})")
    if t > sim.t:
        sim.run_until(t)
    return apply_edit(sim, edit)
