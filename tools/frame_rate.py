"""`python main.py frame-rate`: how smoothly the live day plays — animation frames per second and
how far the simulation falls behind the chosen speed, per speed, race mode off and on.

Each configuration runs in a fresh process (no warm caches carried from one to the next): the
window opens the airport, fast-forwards to ``--start`` simulated seconds, switches to the speed
being measured, settles for a second, then counts for ``--seconds`` of wall time:

- frames/s: animation frames that moved the tugs (the player's frame counter) per wall second;
- repaints/s: paint events of the map's viewport;
- worst gap: the longest wall time between two animation frames;
- UI busy: CPU time of the UI thread over wall time (``time.thread_time``);
- waiting for a CPU: the share of wall time the UI and simulation threads were ready to run but
  had no core (Linux's per-thread scheduler statistics): the machine's other load;
- achieved: simulated seconds the displayed clock advanced per wall second, and the lag — how
  many simulated seconds it ended behind the chosen speed (0 when it kept up);
- in the JSON rows also: each variant's time per recompute (median, 95th percentile), the
  latency from a change of the bags to the new routes on screen (``tools.route_latency``), and in
  race mode how many of the recomputes raced (a newer one replaces one still waiting to race).

Run it on a real display or under Xvfb (``xvfb-run -a -s "-screen 0 1600x1000x24"``); without
one it uses Qt's offscreen platform, which paints too but is not a screen.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

DEFAULT_SPEEDS = (1, 60, 600)
SETTLE_S = 1.0          # wall seconds at the new speed before counting
FAST_FORWARD = 600      # speed used to reach --start


def add_arguments(parser) -> None:
    parser.add_argument("airport", nargs="?", default="airports/hub-atl.json", type=Path,
                        help="airport layout file (default: the hub)")
    parser.add_argument("--speeds", type=int, nargs="+", default=list(DEFAULT_SPEEDS),
                        metavar="X", help="speeds to measure (default: 1 60 600)")
    parser.add_argument("--race", choices=("off", "on", "both"), default="both",
                        help="race mode for each speed (default: both)")
    parser.add_argument("--seconds", type=float, default=8.0, metavar="S",
                        help="wall seconds counted per configuration (default 8)")
    parser.add_argument("--start", type=float, default=1800.0, metavar="T",
                        help="simulated time to fast-forward to before counting (default 1800)")
    parser.add_argument("--size", default="1600x1000", metavar="WxH", help="window size")
    parser.add_argument("--variant", metavar="NAME",
                        help="Floyd–Warshall variant of the dispatcher's recomputes (default: "
                             "the app's own choice, auto)")
    parser.add_argument("--json", type=Path, metavar="FILE", help="also write the rows as JSON")
    parser.add_argument("--screenshot", type=Path, metavar="PNG",
                        help="save the window after each configuration (speed and race added "
                             "to the name when there are several)")
    parser.add_argument("--one", action="store_true", help=argparse.SUPPRESS)  # one child run


def run(args) -> int:
    if args.one:
        return _measure_one(args)
    rows = []
    for speed in args.speeds:
        for race in ((False, True) if args.race == "both" else (args.race == "on",)):
            row = _child(args, speed, race)
            rows.append(row)
            print(format_row(row), flush=True)
    print()
    print(table(rows))
    if args.json is not None:
        args.json.write_text(json.dumps(rows, indent=1), encoding="utf-8")
    return 0 if all("error" not in r for r in rows) else 1


def _child(args, speed: int, race: bool) -> dict:
    """One configuration in a fresh process; its last stdout line is the JSON row."""
    cmd = [sys.executable, str(Path(__file__).resolve().parents[1] / "main.py"), "frame-rate",
           str(args.airport), "--one", "--speeds", str(speed), "--race", "on" if race else "off",
           "--seconds", str(args.seconds), "--start", str(args.start), "--size", args.size]
    if args.variant:
        cmd += ["--variant", args.variant]
    if args.screenshot is not None:
        shot = args.screenshot
        if len(args.speeds) > 1 or args.race == "both":
            shot = shot.with_name(f"{shot.stem}-{speed}x-race-{'on' if race else 'off'}{shot.suffix}")
        cmd += ["--screenshot", str(shot)]
    proc = subprocess.run(cmd, capture_output=True, text=True,
                          timeout=300 + args.seconds + args.start / FAST_FORWARD)
    for line in reversed(proc.stdout.splitlines()):
        if line.startswith("{"):
            return json.loads(line)
    tail = (proc.stderr or proc.stdout).strip().splitlines()[-3:]
    return {"speed": speed, "race": race, "error": " / ".join(tail) or f"exit {proc.returncode}"}


def format_row(r: dict) -> str:
    if "error" in r:
        return f"{r['speed']:>4}x race {'on ' if r['race'] else 'off'}: failed: {r['error']}"
    return (f"{r['speed']:>4}x race {'on ' if r['race'] else 'off'}: {r['fps']:5.1f} frames/s, "
            f"{r['repaints']:5.1f} repaints/s, worst gap {r['worst_gap_ms']:.0f} ms, "
            f"UI busy {100 * r['ui_busy']:.0f}% ({r['ui_ms_per_frame']:.1f} ms a frame), "
            f"achieved {r['achieved']:.0f}x, "
            f"lag {r['lag_s']:.0f} sim s ({r['lag_pct']:.0f}%)" + _details(r))


def _details(r: dict) -> str:
    """Each variant's median time per recompute and the route latency, where there were any."""
    parts = [f"{v} {s['median_ms']:.2f} ms" for v, s in r.get("recomputes", {}).items()
             if s["count"]]
    shares = r.get("threads", {})
    if shares:
        parts.append("threads running / waiting for a CPU: " + ", ".join(
            f"{name} {100 * v['running']:.0f}% / {100 * v['waiting_for_cpu']:.0f}%"
            for name, v in shares.items()))
    races = r.get("raced", {})
    if races.get("of"):
        parts.append(f"raced {races['raced']} of {races['of']} recomputes")
    lat = r.get("latency", {})
    if lat.get("latency_s", {}).get("count"):
        whole = lat["latency_s"]
        split = ", ".join(f"{name} {lat[k]['median_ms']:.1f} / {lat[k]['p95_ms']:.1f}"
                          for name, k in (("worker", "worker_s"), ("queue", "queue_s"),
                                          ("draw", "draw_s")) if lat.get(k, {}).get("count"))
        parts.append(f"bags-to-route latency median {whole['median_ms']:.0f} ms, "
                     f"p95 {whole['p95_ms']:.0f} ms ({whole['count']} recomputes"
                     + (f"; median / p95 ms: {split}" if split else "") + ")")
    return ("\n      " + "; ".join(parts)) if parts else ""


def table(rows: list[dict]) -> str:
    """The rows as a Markdown table (the README's)."""
    out = ["| speed | race | frames/s | worst frame gap | UI thread busy (per frame); waiting "
           "for a CPU | day's speed | behind after the run | bags-to-route latency, median (p95) "
           "| recomputes raced |",
           "|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        if "error" in r:
            out.append(f"| {r['speed']}× | {'on' if r['race'] else 'off'} | failed: "
                       f"{r['error']} | | | | | | |")
            continue
        lat = r.get("latency", {}).get("latency_s", {})
        latency = (f"{lat['median_ms']:.0f} ms ({lat['p95_ms']:.0f} ms), {lat['count']} "
                   "recomputes" if lat.get("count") else f"no recompute in the {r['wall_s']:.0f} s")
        races = r.get("raced", {})
        raced = f"{races['raced']} of {races['of']}" if r["race"] and races.get("of") else "—"
        ui = r.get("threads", {}).get("ui")
        waiting = f"; {100 * ui['waiting_for_cpu']:.0f}%" if ui else ""
        out.append(f"| {r['speed']}× | {'on' if r['race'] else 'off'} | {r['fps']:.1f} | "
                   f"{r['worst_gap_ms']:.0f} ms | {100 * r['ui_busy']:.0f}% "
                   f"({r['ui_ms_per_frame']:.1f} ms){waiting} | {r['achieved']:.0f}× | "
                   f"{r['lag_s']:.0f} s ({r['lag_pct']:.0f}%) | {latency} | {raced} |")
    return "\n".join(out)


def _stats(values: list[float]) -> dict:
    """count, median, 95th percentile and max, in milliseconds (NaN solves left out)."""
    import numpy as np
    v = np.array([x for x in values if x == x], dtype=float) * 1000.0
    if not len(v):
        return {"count": 0}
    return {"count": int(len(v)), "median_ms": float(np.median(v)),
            "p95_ms": float(np.percentile(v, 95)), "max_ms": float(v.max())}


def scheduler_times(threads: dict) -> dict[str, tuple[float, float]]:
    """Per named thread (its OS id): seconds it ran on a core and seconds it waited, ready, for
    one (``/proc/self/task/ID/schedstat``; Linux only). Threads not found are left out."""
    out = {}
    for name, tid in threads.items():
        try:
            with open(f"/proc/self/task/{tid}/schedstat", encoding="ascii") as fh:
                ran, waited = fh.read().split()[:2]
        except (OSError, ValueError):
            continue
        out[name] = (int(ran) / 1e9, int(waited) / 1e9)
    return out


def _thread_shares(before: dict, after: dict, wall: float) -> dict[str, dict]:
    """What each thread did over ``wall`` seconds: running, and waiting for a core."""
    return {name: {"running": (ran - before.get(name, (0.0, 0.0))[0]) / wall,
                   "waiting_for_cpu": (waited - before.get(name, (0.0, 0.0))[1]) / wall}
            for name, (ran, waited) in after.items()}


def paint_counter(parent):
    """A Qt event filter that counts the paint events of the widgets it is installed on."""
    from PySide6.QtCore import QEvent, QObject

    class PaintCounter(QObject):
        paints = 0

        def eventFilter(self, obj, event):
            if event.type() == QEvent.Type.Paint:
                self.paints += 1
            return False

    return PaintCounter(parent)


def measuring_window(airport: Path, size: str, prefix: str):
    """(app, window, scratch folder): the app's window on ``airport`` at ``size`` ("WxH"), with
    fresh settings in a scratch folder (the user's own are left alone). Qt's offscreen platform
    where there is no display."""
    if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    import pyqtgraph as pg
    from PySide6.QtWidgets import QApplication

    from gui.main_window import MainWindow
    from gui.settings import file_settings

    if airport is not None:   # a bad file is refused before any window: main.py prints why
        from engine.airport.layout_io import load_airport
        load_airport(airport)
    app = QApplication.instance() or QApplication(sys.argv[:1])
    pg.setConfigOptions(antialias=True)
    scratch = tempfile.TemporaryDirectory(prefix=prefix)
    window = MainWindow(airport, settings=file_settings(Path(scratch.name) / "s.ini"))
    width, height = (int(v) for v in size.lower().split("x"))
    window.resize(width, height)
    return app, window, scratch


def _measure_one(args) -> int:
    """Open the window, fast-forward, then count; prints one JSON row."""
    from PySide6.QtCore import QTimer

    from .route_latency import RouteLatency

    app, window, scratch = measuring_window(args.airport, args.size, "bagroute-fps-")
    if args.variant and not window.set_variant(args.variant):
        print(window.status_text(), file=sys.stderr)
        return 2
    window.set_race(args.race == "on")
    window.show()
    speed = args.speeds[0]
    player = window.player
    row: dict = {"speed": speed, "race": args.race == "on", "airport": args.airport.stem,
                 "platform": app.platformName(), "variant": window.variant,
                 "racers": window.player.runner.worker.race_with if args.race == "on" else []}
    stamps: list[float] = []
    counter = paint_counter(window)
    latency = RouteLatency(window)
    state: dict = {}
    worker = player.runner.worker
    threads = lambda: scheduler_times({"ui": threading.get_native_id(),   # noqa: E731
                                       "simulation": worker.native_id})

    def finish() -> None:
        wall = time.perf_counter() - state["wall"]
        frames = player.frames - state["frames"]
        advanced = player.clock - state["clock"]
        wanted = speed * wall
        end_capped = player.latest is not None and player.latest.snapshot.finished
        lag = 0.0 if end_capped else max(0.0, wanted - advanced)
        gaps = [b - a for a, b in zip(stamps, stamps[1:])]
        row.update(fps=frames / wall, repaints=counter.paints / wall, wall_s=wall,
                   worst_gap_ms=1000 * max(gaps, default=wall),
                   ui_busy=(time.thread_time() - state["cpu"]) / wall,
                   ui_ms_per_frame=1000 * (time.thread_time() - state["cpu"]) / max(frames, 1),
                   achieved=advanced / wall, lag_s=lag, lag_pct=100 * lag / wanted,
                   clock=player.clock, tugs=len(player.latest.tugs), status=window.status_text(),
                   threads=_thread_shares(state["threads"], threads(), wall))
        window.map_view.viewport().removeEventFilter(counter)
        rows = window.timing_plot.rows[state["rows"]:]
        row["recomputes"] = {v: _stats([t.seconds for t in rows if t.variant == v])
                             for v in sorted({t.variant for t in rows})}
        row["key_nodes"] = rows[0].n if rows else None
        races = [raced for r, raced in window.timing_plot.race_rounds.items()
                 if r > state["round"]]
        row["raced"] = {"raced": sum(races), "of": len(races)}
        samples = [x for x in latency.samples if x["round"] > state["round"]]
        row["latency"] = {k: _stats([x[k] for x in samples])
                          for k in ("latency_s", "worker_s", "queue_s", "to_ui_s", "draw_s")}
        player.pause()
        if args.screenshot is None:
            window.close()
            return
        window.select_busiest_tug()    # a route on screen for the picture
        QTimer.singleShot(600, shoot)

    def shoot() -> None:
        args.screenshot.parent.mkdir(parents=True, exist_ok=True)
        row["screenshot"] = str(args.screenshot) if window.grab().save(str(args.screenshot)) else None
        window.close()

    def count() -> None:
        state.update(wall=time.perf_counter(), frames=player.frames, clock=player.clock,
                     cpu=time.thread_time(), rows=len(window.timing_plot.rows),
                     round=max((t.round for t in window.timing_plot.rows), default=0),
                     threads=threads())
        counter.paints = 0
        window.map_view.viewport().installEventFilter(counter)
        player.frame.connect(lambda *_: stamps.append(time.perf_counter()))
        QTimer.singleShot(int(args.seconds * 1000), finish)

    def fast_forward() -> None:
        if not player.ready:
            QTimer.singleShot(50, fast_forward)
            return
        if player.clock < args.start:
            window.set_speed(FAST_FORWARD)
            player.play()
            QTimer.singleShot(50, fast_forward)
            return
        window.set_speed(speed)
        QTimer.singleShot(int(SETTLE_S * 1000), count)

    QTimer.singleShot(0, fast_forward)
    app.exec()
    scratch.cleanup()
    if "fps" not in row:
        print("the window closed before the measurement ended", file=sys.stderr)
        return 1
    print(json.dumps(row))
    return 0
