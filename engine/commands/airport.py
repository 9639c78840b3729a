"""`python main.py airport check FILE…`, `python main.py airport generate --gates N --seed S -o FILE`
and `python main.py airport import-osm FILE --out LAYOUT.json [--report REPORT.txt]`."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from engine.words import counted


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="action", required=True)
    check = sub.add_parser("check", help="validate layout files (.json or .graphml); exit status 2 "
                                         "if any is bad, each problem a line on stderr")
    check.add_argument("files", nargs="+", type=Path, metavar="FILE")
    check.add_argument("--all-errors", action="store_true", default=argparse.SUPPRESS,
                       help="list every problem of a bad file, not the first and a count")
    gen = sub.add_parser("generate", help="write a synthetic airport (same seed, same file)")
    gen.add_argument("--gates", type=int, required=True, help="number of contact gates (>= 1)")
    gen.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    gen.add_argument("-o", "--output", type=Path, required=True, metavar="FILE",
                     help="where to write (.json; .graphml writes GraphML)")
    osm = sub.add_parser("import-osm", help="build a layout from OpenStreetMap data (Overpass "
                                            "JSON, OSM XML or .osm.pbf); docs/real-data.md")
    osm.add_argument("file", type=Path, metavar="FILE")
    osm.add_argument("--out", type=Path, required=True, metavar="LAYOUT.json")
    osm.add_argument("--name", default=None, help="the airport's name (default: the aerodrome's)")
    osm.add_argument("--report", type=Path, default=None, metavar="FILE",
                     help="the full import report (default: LAYOUT.import.txt beside the layout)")


def run(args) -> int:
    return {"check": lambda: _check(args.files, args.all_errors), "generate": lambda: _generate(args),
            "import-osm": lambda: _import_osm(args)}[args.action]()


def summary(airport) -> str:
    c = airport.counts()
    one_way = sum(r.one_way for r in airport.roads)
    fleets = ", ".join(f"{f.count}×{f.capacity} bags at {f.depot}" for f in airport.fleets)
    return (f"{airport.name}: {len(airport.nodes)} nodes ({c['gate']} gates, {c['sort']} sort, "
            f"{c['depot']} depots, {c['junction']} junctions), {len(airport.roads)} roads "
            f"({one_way} one-way), {counted(airport.tugs(), 'tug')} ({fleets}), "
            f"{sum(airport.bags.values())} bags waiting")


def load_any(path: Path):
    from engine.airport.graphml import load_graphml
    from engine.airport.layout_io import load_airport
    return load_graphml(path) if path.suffix.lower() == ".graphml" else load_airport(path)


def _check(files, all_errors: bool = False) -> int:
    from engine.airport.layout_io import LayoutError
    bad = 0
    for path in files:
        try:
            airport = load_any(path)
        except LayoutError as exc:
            bad += 1
            print(exc.details() if all_errors else exc.brief("--all-errors lists them all"),
                  file=sys.stderr)
            continue
        print(f"{path}: OK  {summary(airport)}")
    return 2 if bad else 0


def _generate(args) -> int:
    from engine.airport.generate import generate_airport
    from engine.airport.graphml import save_graphml
    from engine.airport.layout_io import save_airport
    if args.gates < 1:
        print(f"--gates must be at least 1, got {args.gates}", file=sys.stderr)
        return 2
    airport = generate_airport(args.gates, args.seed)
    args.output.parent.mkdir(parents=True, exist_ok=True)  # written where asked, as simulate does
    if args.output.suffix.lower() == ".graphml":
        save_graphml(airport, args.output)
    else:
        save_airport(airport, args.output)
    print(f"{args.output}: {summary(airport)}")
    return 0


def _import_osm(args) -> int:
    """Import, write the layout and the full report; print the report's summary lines."""
    from engine.airport.layout_io import save_airport
    from engine.airport.osm_import import import_osm
    airport, report = import_osm(args.file, name=args.name)  # a bad file: main.py, exit status 2
    report_path = args.report or args.out.with_suffix(".import.txt")
    for path in (args.out, report_path):   # written where asked, as generate does
        path.parent.mkdir(parents=True, exist_ok=True)
    save_airport(airport, args.out)
    lines = report.lines()
    report_path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    for line in lines:
        if not line.startswith("  - ") or "connector" not in line and "link " not in line:
            print(line)
    print(f"{args.out}: {summary(airport)}")
    print(f"full report (every inferred choice): {report_path}")
    return 0
