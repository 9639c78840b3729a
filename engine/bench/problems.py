"""The problems ``python main.py bench --problem NAME`` (and the benchmark window) can time: one
line per problem, naming the module that benchmarks it. Each such module is a ``BenchProblem``:
a fourth problem is one more module and one more line here, and no front end changes.
"""

from __future__ import annotations

import importlib
from typing import Protocol

from ..input_error import shown
from .options import Option
from .report import Report, ReportError, read_report, read_report_json
from .run import BenchHooks


class BenchProblem(Protocol):
    """What a problem's module provides (modules match a Protocol by their names)."""

    TITLE: str                  # one line for ``--help``
    NAME: str                   # a few words, for window and plot titles
    POINT: type                 # the dataclass of one point (a saved report's points are read as it)
    DEFAULT_SIZES: tuple        # the size ladder when ``--sizes`` is not given
    PEER_TIPS: dict             # peer name -> one line saying what it is
    OPTIONS: tuple[Option, ...]  # this problem's own keywords of ``benchmark``, declared for a GUI
    OPTION_FLAGS: dict          # keyword -> its command-line flag (the command running the same points)
    COLUMNS: tuple[str, ...]    # the table's columns, ``table_row``'s cells
    NAMES_DEVICES: bool         # the plot's title names the points' devices (else the machine's)

    def registry(self) -> list:
        """The registry's variants (names, availability, descriptions)."""

    def variants(self, available_only: bool = False) -> list[str]:
        """Registry names, then peers, in presentation order."""

    def add_arguments(self, group) -> None:
        """The options of this problem only (``--variants``, ``--sizes``, ``--budget``,
        ``--airports``/``--no-airports`` and ``--out`` are the command's, shared)."""

    def options(self, args) -> dict:
        """Those options as keyword arguments of ``benchmark``."""

    def plan_size(self, variants, sizes, airports, **options) -> int:
        """The most points ``benchmark`` measures."""

    def benchmark(self, variants, sizes, budget_s: float, airports, command: str,
                  hooks: BenchHooks | None, **options) -> Report:
        """The run: a ``Report`` whose ``problem`` is this name (``airports``: bundled names,
        None for all)."""

    def format_table(self, report: Report) -> str:
        """The text the command prints."""

    def table_row(self, point) -> list[str]:
        """A point's cells under ``COLUMNS``."""

    def ladder_of(self, point) -> str | None:
        """The point's curve in the plot; None for an airport (a marker)."""

    def summary_html(self, report: Report) -> str:
        """The answers in a line or two of HTML, under the plot."""


PROBLEMS = {
    "apsp": "engine.bench.apsp_problem",
    "sssp": "engine.bench.sssp_problem",
    "mst": "engine.bench.mst_problem",
}
DEFAULT = "apsp"


def problem(name: str) -> BenchProblem:
    """The module benchmarking ``name``; ValueError listing the problems when there is none."""
    if name not in PROBLEMS:
        raise ValueError(f"no benchmark problem {name!r}; choose from {', '.join(PROBLEMS)}")
    return importlib.import_module(PROBLEMS[name])


def load_report(path) -> Report:
    """A saved report of any problem (the JSON written by ``python main.py bench``), checked
    field by field: ``ReportError`` names the file, the item and the problem."""
    data = read_report_json(path)
    name = data.get("problem", DEFAULT)
    if not isinstance(name, str) or name not in PROBLEMS:
        raise ReportError(path, [f"top level: problem is {shown(name)}, not one of "
                                 f"{', '.join(PROBLEMS)}"])
    return read_report(path, problem(name).POINT, data)
