"""BagRoute: `python main.py` opens the app; sub-commands do headless work.

    python main.py [AIRPORT.json]       the desktop app (default: the paper's 5-gate example)
    python main.py bench …              Floyd–Warshall benchmark (see --help)
    python main.py airport check|generate …
    python main.py simulate AIRPORT …
    python main.py sweep SCENARIOS.toml …
    python main.py analyze AIRPORT [--json FILE]
"""

import argparse
import gc
import importlib
import sys

from engine.input_error import InputError

# sub-command name -> module (engine.commands, gui or tools) providing add_arguments(parser) and run(args)
COMMANDS = {
    "app": ("gui.commands", "open the desktop app (the default)"),
    "bench": ("engine.commands.bench", "benchmark the variants of a problem (default: Floyd–Warshall)"),
    "airport": ("engine.commands.airport", "check or generate airport layout files"),
    "simulate": ("engine.commands.simulate", "run a simulated day headless and write KPIs"),
    "sweep": ("engine.commands.sweep", "run scenario × seed days on Dask; table, summary, plot"),
    "analyze": ("engine.commands.analyze", "layout analysis: minimum service roads and bridges"),
    "frame-rate": ("tools.frame_rate", "measure the live day's frames/s and lag per speed"),
    "soak": ("tools.soak", "play days on end at top speed; memory, threads, frame time per hour"),
}


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] not in COMMANDS and argv[0] not in ("-h", "--help"):
        argv = ["app", *argv]  # `python main.py [FILE] [options]` opens the app
    parser = argparse.ArgumentParser(prog="python main.py", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    name = argv[0] if argv and argv[0] in COMMANDS else None
    for command, (module, help_text) in COMMANDS.items():
        p = sub.add_parser(command, help=help_text)
        if command == name:  # import only the command being run: the engine ones need no Qt
            _import_quietly(module).add_arguments(p)
            p.add_argument("--all-errors", action="store_true",
                           help="a bad file: list every problem, not the first and a count")
    args = parser.parse_args(argv)
    try:
        return importlib.import_module(COMMANDS[args.command][0]).run(args) or 0
    except InputError as exc:  # a bad file: "FILE: ITEM: PROBLEM" lines, never a traceback
        print(exc.details() if args.all_errors else
              exc.brief("--all-errors lists them all"), file=sys.stderr)
        return 2


def _import_quietly(module: str):
    """``module`` imported with the garbage collector paused: Numba's and scipy's modules make
    some 130,000 objects, and collecting them again and again as they load took ~0.1 s of CPU
    (the hub's simulated day is ~3 s); they are kept to the end anyway."""
    was = gc.isenabled()
    gc.disable()
    try:
        return importlib.import_module(module)
    finally:
        if was:
            gc.enable()


if __name__ == "__main__":
    sys.exit(main())
