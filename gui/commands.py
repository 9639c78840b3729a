"""`python main.py [app] [AIRPORT]`: open the BagRoute window (and, with --screenshot, save a PNG).

    python main.py                                  last airport opened, else the paper's 5 gates
    python main.py app airports/paper-5.json --cost bags --from A1 --to A5
    python main.py app --screenshot shot.png        wait for the first route, save, exit
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path


def add_arguments(parser) -> None:
    parser.add_argument("airport", nargs="?", type=Path,
                        help="airport layout file (default: the last one opened, else the bundled "
                             "paper-5 example)")
    parser.add_argument("--variant", help="Floyd–Warshall variant to select (one that can run here)")
    parser.add_argument("--cost", choices=("time", "bags"),
                        help="edge cost: travel time, or the paper's bag-aware cost")
    parser.add_argument("--from", dest="source", metavar="NODE", help="node id to route from")
    parser.add_argument("--to", dest="target", metavar="NODE", help="node id to route to")
    parser.add_argument("--screenshot", type=Path, metavar="PNG",
                        help="save the window as PNG once the first route is shown, then exit "
                             "(uses fresh settings, leaves the user's alone)")
    parser.add_argument("--size", default="1280x800", metavar="WxH",
                        help="window size for --screenshot (default 1280x800)")
    parser.add_argument("--timeout", type=float, default=120.0, metavar="S",
                        help="--screenshot gives up after this many seconds (default 120)")


def run(args) -> int:
    import pyqtgraph as pg
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    from .main_window import MainWindow
    from .settings import APPLICATION, ORGANISATION, file_settings

    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setOrganizationName(ORGANISATION)
    app.setApplicationName(APPLICATION)
    pg.setConfigOptions(antialias=True)

    settings = None
    scratch = None
    if args.screenshot is not None:
        scratch = tempfile.TemporaryDirectory(prefix="bagroute-shot-")
        settings = file_settings(Path(scratch.name) / "settings.ini")
    window = MainWindow(args.airport, settings=settings)
    if args.screenshot is not None:
        width, height = (int(v) for v in args.size.lower().split("x"))
        window.resize(width, height)
    if args.variant:
        window.set_variant(args.variant)
    if args.cost:
        window.set_cost_mode(args.cost)
    if (args.source or args.target) and window.airport is not None:
        ids = window.airport.node_ids
        missing = [n for n in (args.source, args.target) if n and n not in ids]
        if missing:
            print(f"no node {', '.join(missing)} in {window.airport.name}; nodes: {', '.join(ids)}",
                  file=sys.stderr)
            return 2
        window.set_endpoints(args.source or window.from_id, args.target or window.to_id)
    window.show()

    if args.screenshot is None:
        return app.exec()

    outcome = {"code": 1}

    def grab() -> None:
        args.screenshot.parent.mkdir(parents=True, exist_ok=True)
        if window.grab().save(str(args.screenshot)):
            print(f"saved {args.screenshot}: {window.status_text()}")
            outcome["code"] = 0
        else:
            print(f"could not write {args.screenshot}", file=sys.stderr)
        window.close()

    def give_up() -> None:
        print(f"no route shown within {args.timeout:g} s; status: {window.status_text()}",
              file=sys.stderr)
        window.close()

    if window.airport is None:
        print(f"no airport could be opened: {window.last_error}", file=sys.stderr)
        return 1
    def on_route(_summary) -> None:
        if not outcome.get("scheduled"):
            outcome["scheduled"] = True
            QTimer.singleShot(400, grab)  # let the map finish painting first

    window.routeShown.connect(on_route)
    QTimer.singleShot(int(args.timeout * 1000), give_up)
    app.exec()
    if scratch is not None:
        scratch.cleanup()
    return outcome["code"]
