"""`python main.py [app] [AIRPORT]`: open the BagRoute window (and, with --screenshot, save a PNG).

    python main.py                                  last airport opened, else the paper's 5 gates
    python main.py app airports/paper-5.json --cost bags --from A1 --to A5
    python main.py app --screenshot shot.png        wait for the first route, save, exit
    python main.py app airports/regional.json --play-seconds 1800 --race --screenshot shot.png
    python main.py app airports/regional.json --route-engine from-tugs --race --play-seconds 1800
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from engine import gpu_device, loop_warmup
from engine.airport.layout_io import bundled_airports


def _airport_path(name: str) -> Path:
    """A layout file, or the file of the bundled airport called ``name`` (``hub-atl``)."""
    bundled = bundled_airports()
    return bundled[name] if name in bundled and not Path(name).exists() else Path(name)


def add_arguments(parser) -> None:
    parser.add_argument("airport", nargs="?", type=_airport_path,
                        help="airport layout file or bundled airport name (default: the last one "
                             "opened, else the bundled paper-5 example)")
    parser.add_argument("--variant", help="Floyd–Warshall variant to select (one that can run here)")
    parser.add_argument("--cost", choices=("time", "bags"),
                        help="edge cost: travel time, or the paper's bag-aware cost")
    parser.add_argument("--from", dest="source", metavar="NODE", help="node id to route from")
    parser.add_argument("--to", dest="target", metavar="NODE", help="node id to route to")
    parser.add_argument("--screenshot", type=Path, metavar="PNG",
                        help="save the window as PNG once the first route is shown, then exit "
                             "(uses fresh settings, leaves the user's alone)")
    parser.add_argument("--play-seconds", type=float, default=0.0, metavar="S",
                        help="play the simulated day for S simulated seconds first (with "
                             "--screenshot: then save)")
    parser.add_argument("--speed", type=int, default=None, metavar="X",
                        help="simulation speed, simulated seconds per second (e.g. 60, 600)")
    parser.add_argument("--race", action="store_true",
                        help="race mode: every available variant on each live recompute")
    parser.add_argument("--route-engine", choices=("all-pairs", "from-tugs"),
                        help="the dispatcher's shortest paths: all pairs on key nodes "
                             "(Floyd–Warshall) or from the tugs (SSSP on the full road graph)")
    parser.add_argument("--sssp-variant", metavar="NAME",
                        help="the SSSP variant of --route-engine from-tugs")
    parser.add_argument("--fps-seconds", type=float, default=0.0, metavar="S",
                        help="after --play-seconds, keep playing S wall seconds and print the "
                             "animation's frame rate (frames drawn / wall time)")
    parser.add_argument("--size", default="1280x800", metavar="WxH",
                        help="window size for --screenshot (default 1280x800)")
    parser.add_argument("--timeout", type=float, default=120.0, metavar="S",
                        help="--screenshot gives up after this many seconds (default 120)")


def run(args) -> int:
    gpu_device.start_probe()   # beside the imports below (Qt, pyqtgraph, the window's parts)
    loop_warmup.start()        # a cold Numba cache: the day's loop compiles in a child meanwhile
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
    if args.sssp_variant:
        window.route_engine.sssp_picker.set_current_variant(args.sssp_variant)
    if args.route_engine:
        window.set_route_engine(args.route_engine)
    if args.race:
        window.set_race(True)
    if args.speed:
        window.set_speed(args.speed)
    if args.cost:
        window.set_cost_mode(args.cost)
    if (args.source or args.target) and window.airport is not None:
        ids = window.airport.node_ids
        missing = [n for n in (args.source, args.target) if n and n not in ids]
        if missing:
            print(f"no node {', '.join(missing)} in {window.airport.name}; nodes: {', '.join(ids)}",
                  file=sys.stderr)
            window.close()  # stops the worker threads
            return 2
        window.set_endpoints(args.source or window.from_id, args.target or window.to_id)
        if args.play_seconds <= 0:
            window.dock.raise_()   # a route was asked for: show the route finder's answer
    window.show()

    if args.screenshot is None:
        return app.exec()

    outcome = {"code": 1}

    def grab() -> None:
        args.screenshot.parent.mkdir(parents=True, exist_ok=True)
        if window.grab().save(str(args.screenshot)):
            print(f"saved {args.screenshot}: {window.solve_report()}")
            if window.player.shown is not None:
                k = window.player.shown.snapshot.kpis
                print(f"simulation at {k['t']:.0f} s: {k['created']} bags created, "
                      f"{k['waiting']} waiting, {k['delivered']} delivered, "
                      f"{k['misconnected']} misconnected; status: {window.status_text()}")
                if args.race:   # the status bar may hold another message: say it plainly
                    print(f"race: {window.timing_plot.race_note() or 'no recompute raced'}")
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
        window.close()
        return 1
    wanted = {"route": False, "played": args.play_seconds <= 0 and args.fps_seconds <= 0}

    def maybe_grab() -> None:
        if all(wanted.values()) and not outcome.get("scheduled"):
            outcome["scheduled"] = True
            QTimer.singleShot(600, grab)  # let the map finish painting first

    def on_route(_summary) -> None:
        wanted["route"] = True
        maybe_grab()

    def measure_fps() -> None:
        import time
        player = window.player
        start_frames, start = player.frames, time.perf_counter()
        from tools.frame_rate import paint_counter
        counter = paint_counter(window)
        window.map_view.viewport().installEventFilter(counter)

        def done() -> None:
            wall = time.perf_counter() - start
            frames = player.frames - start_frames
            print(f"fps: {frames / wall:.1f} animation frames/s, {counter.paints / wall:.1f} map "
                  f"repaints/s over {wall:.1f} s wall ({len(window.player.latest.tugs)} tugs, "
                  f"{len(window.airport.nodes)} nodes, speed {player.speed:g}x, "
                  f"sim clock {player.clock:.0f} s)")
            window.map_view.viewport().removeEventFilter(counter)
            player.pause()
            window.select_busiest_tug()
            wanted["played"] = True
            maybe_grab()

        QTimer.singleShot(int(args.fps_seconds * 1000), done)

    def watch_clock() -> None:
        player = window.player
        if not player.ready:
            QTimer.singleShot(100, watch_clock)
            return
        if not player.playing and player.clock < args.play_seconds:
            player.play()
        if player.clock >= args.play_seconds or (player.latest and player.latest.snapshot.finished):
            if args.fps_seconds > 0:
                measure_fps()
            else:
                player.pause()
                window.select_busiest_tug()   # a route on screen for the picture
                wanted["played"] = True
                maybe_grab()
            return
        QTimer.singleShot(50, watch_clock)

    if not wanted["played"]:
        if not args.speed and args.play_seconds > 0:
            window.set_speed(600)
        QTimer.singleShot(100, watch_clock)
    window.routeShown.connect(on_route)
    QTimer.singleShot(int(args.timeout * 1000), give_up)
    app.exec()
    if scratch is not None:
        scratch.cleanup()
    return outcome["code"]
