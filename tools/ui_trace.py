"""`python -m tools.ui_trace`: where the live day's UI thread spends its time, per event and per
widget, while the hub plays at 600× (one ``frame-rate`` measurement, traced).

Every event the UI thread handles is timed (a ``QApplication.notify`` override: it adds a few
microseconds to each event, so frames/s come out a little lower than ``frame-rate``'s); printed:
the route latency and its parts, the events that took over 1.5 ms by kind and receiver, the paint
time of each widget, the map's paints (median, 95th percentile, worst), Python's garbage
collections over 1 ms (generation), and for each recompute drawn, the UI's events from the step
shown to 60 ms later (``--timeline``), and with ``--entries`` how many times a frame the UI thread
comes back into Python from Qt (each one may wait for the interpreter lock) and where (this
slows the UI down more). ``--switch-interval`` sets Python's thread switch interval
once the window is open (the player sets its own), to compare settings in one harness.

    QT_QPA_PLATFORM=offscreen python -m tools.ui_trace airports/hub-atl.json --variant cpu-blocked
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import io
import json
import sys
import threading
import time
from collections import defaultdict
from pathlib import Path

import numpy as np

LONG_S = 0.0015          # events longer than this are listed


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("airport", nargs="?", default=Path("airports/hub-atl.json"), type=Path)
    p.add_argument("--speed", type=int, default=600)
    p.add_argument("--race", choices=("off", "on"), default="off")
    p.add_argument("--seconds", type=float, default=8.0)
    p.add_argument("--variant", help="the dispatcher's variant (default: the app's choice)")
    p.add_argument("--switch-interval", type=float, metavar="S")
    p.add_argument("--timeline", action="store_true", help="print each recompute's events")
    p.add_argument("--entries", action="store_true", help="count the entries into Python")
    args = p.parse_args(argv)
    from PySide6.QtCore import QEvent, QTimer
    from PySide6.QtWidgets import QApplication

    ui = threading.get_ident()
    events, paints = [], []          # (start, seconds, what)

    class TracedApp(QApplication):
        depth = 0

        def notify(self, receiver, event):
            if threading.get_ident() != ui:
                return super().notify(receiver, event)
            kind, start = event.type(), time.perf_counter()
            TracedApp.depth += 1
            try:
                return super().notify(receiver, event)
            finally:
                TracedApp.depth -= 1
                took = time.perf_counter() - start
                if kind == QEvent.Type.Paint:
                    parent = receiver.parent()
                    paints.append((start, took, f"{type(receiver).__name__} in "
                                                f"{type(parent).__name__ if parent else '-'}"))
                if TracedApp.depth == 0 and took > LONG_S:
                    events.append((start, took, f"{kind.name} {type(receiver).__name__}"))

    app = TracedApp(sys.argv[:1])    # noqa: F841 (the measurement finds it as the instance)
    collections = []
    gc.callbacks.append(lambda phase, info: collections.append((phase, time.perf_counter(),
                                                                info["generation"])))
    from . import frame_rate
    from .route_latency import RouteLatency
    shown = []                         # when each step with a recompute was shown
    on_shown = RouteLatency._on_shown

    def noting(latency, result) -> None:
        on_shown(latency, result)
        if result.shown and any(not t.raced for t in result.timings):
            shown.append(result.shown)

    RouteLatency._on_shown = noting
    if args.switch_interval:
        QTimer.singleShot(0, lambda: sys.setswitchinterval(args.switch_interval))
    entries = _count_entries(frame_rate) if args.entries else None
    run = argparse.Namespace(airport=args.airport, speeds=[args.speed], race=args.race,
                             seconds=args.seconds, start=1800.0, size="1600x1000",
                             variant=args.variant, json=None, screenshot=None, one=True)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        frame_rate._measure_one(run)
    ended = time.perf_counter()        # the window closes at the end of the count
    row = json.loads(out.getvalue().strip().splitlines()[-1])
    since = ended - row["wall_s"] - 0.05
    _report(row, [e for e in events if e[0] >= since], [p for p in paints if p[0] >= since],
            _pauses(collections, since), shown, events, paints, args.timeline)
    if entries is not None:
        sys.setprofile(None)
        frames = max(entries.pop("frames", 1), 1)
        print(f"entries into Python from Qt: {sum(entries.values()) / frames:.1f} a frame "
              f"(the whole run, {frames} frames)")
        for where, n in entries.most_common(12):
            print(f"  {where:55s} {n / frames:6.2f}")
    return 0


def _count_entries(frame_rate):
    """Count the Python calls made straight from Qt — from the event loop, or from within
    pyqtgraph's paint of a view (item paints and bounds) — and the frames drawn, over the
    measurement's whole run."""
    from collections import Counter

    from pyqtgraph.widgets.GraphicsView import GraphicsView
    counts: Counter = Counter()
    callers = (frame_rate._measure_one.__code__, GraphicsView.paintEvent.__code__)

    def profile(frame, event, arg):
        if event == "call" and frame.f_back is not None and frame.f_back.f_code in callers:
            code = frame.f_code
            if code.co_filename == __file__:
                return                   # this tool's own event timing
            counts[f"{Path(code.co_filename).name}:{code.co_name}"] += 1

    paint_counter = frame_rate.paint_counter

    def counting(window):       # called once the window is open
        window.player.frame.connect(lambda *_: counts.update(frames=1))
        sys.setprofile(profile)
        return paint_counter(window)

    frame_rate.paint_counter = counting
    return counts


def _pauses(collections: list, since: float) -> list[tuple[float, int]]:
    """(milliseconds, generation) of the collections over 1 ms since ``since``."""
    out, begun = [], None
    for phase, at, generation in collections:
        if phase == "start":
            begun = at
        elif begun is not None and begun >= since and at - begun > 0.001:
            out.append((round(1000 * (at - begun), 1), generation))
    return out


def _report(row, events, paints, pauses, shown, all_events, all_paints, timeline) -> None:
    lat = row["latency"]
    print(f"switch interval {sys.getswitchinterval() * 1000:g} ms; {row['fps']:.1f} frames/s; "
          f"UI {row['ui_ms_per_frame']:.1f} ms a frame; worst gap {row['worst_gap_ms']:.0f} ms")
    print("latency median / p95 ms: " + ", ".join(
        f"{k[:-2]} {v['median_ms']:.1f} / {v['p95_ms']:.1f}" for k, v in lat.items()
        if v.get("count")))
    for title, rows in (("events over 1.5 ms", events), ("paints", paints)):
        total, count = defaultdict(float), defaultdict(int)
        for _, took, what in rows:
            total[what] += took
            count[what] += 1
        print(f"{title}: total ms, count, mean ms")
        for what in sorted(total, key=total.get, reverse=True)[:14]:
            print(f"  {what:42s} {1000 * total[what]:8.1f} {count[what]:5d} "
                  f"{1000 * total[what] / count[what]:6.2f}")
    tooks = np.array([t for _, t, w in paints if w.endswith("AirportMapView")]) * 1000
    if len(tooks):
        print(f"map paints: median {np.median(tooks):.2f} ms, p95 "
              f"{np.percentile(tooks, 95):.2f} ms, worst {tooks.max():.2f} ms ({len(tooks)})")
    print(f"collections over 1 ms (ms, generation): {pauses}")
    if timeline:
        for at in shown:
            window = [(round(1000 * (s - at), 1), round(1000 * t, 1), w)
                      for s, t, w in all_events + all_paints if at - 0.002 <= s <= at + 0.06]
            print(f"recompute shown at {at:.3f}: {sorted(window)}")


if __name__ == "__main__":
    sys.exit(main())
