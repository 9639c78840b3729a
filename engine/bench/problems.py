"""The problems ``python main.py bench --problem NAME`` (and the benchmark window) can time: one
line per problem, naming the module that benchmarks it.

Such a module provides:

- ``TITLE``: one line for ``--help`` and the benchmark window;
- ``POINT``: the dataclass of one measured point (a saved report's points are read as it);
- ``DEFAULT_SIZES``: the size ladder when ``--sizes`` is not given;
- ``variants(available_only=False)``: registry names, then peers, in presentation order;
- ``add_arguments(group)``: the options of this problem only (``--variants``, ``--sizes``,
  ``--budget``, ``--airports``/``--no-airports`` and ``--out`` are the command's, shared);
- ``options(args)``: those options as keyword arguments of ``benchmark``;
- ``benchmark(variants, sizes, budget_s, airports, command, hooks, **options)``: the run, a
  ``Report`` whose ``problem`` is this name (``airports``: bundled names, ``None`` for all);
- ``format_table(report)``: the text the command prints;
- ``registry()`` and ``PEER_TIPS``: the registry's variants (availability, descriptions) and a
  line per peer, for the benchmark window's list;
- ``plan_size(variants, sizes, airports, **options)``: the most points ``benchmark`` measures;
- ``OPTION_FLAGS``: the command-line flag of each of those options (the window writes the
  command that runs the same points).
"""

import importlib

from ..input_error import shown
from .report import Report, ReportError, read_report, read_report_json

PROBLEMS = {
    "apsp": "engine.bench.apsp_problem",
    "sssp": "engine.bench.sssp_problem",
    "mst": "engine.bench.mst_problem",
}
DEFAULT = "apsp"


def problem(name: str):
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
