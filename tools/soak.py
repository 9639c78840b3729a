"""`python main.py soak`: play an airport's day again and again at top speed in the real window
and record, per simulated hour, the process's resident memory, its thread count and the frame
times — to show that a long demo neither leaks nor slows down.

Each day is played to its end, then restarted (as the Restart button does). Resident memory is
read from /proc/self/status (Linux). The growth that counts is from the start of the second day
(the first day warms caches, compiles kernels and fills the plots' buffers) to the largest value
after it; the command exits with status 1 if it passes ``--max-growth`` percent.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

HOUR = 3600.0
CHECK_MS = 100           # how often the clock is looked at


def add_arguments(parser) -> None:
    parser.add_argument("airport", nargs="?", default="airports/hub-atl.json", type=Path,
                        help="airport layout file (default: the hub)")
    parser.add_argument("--days", type=int, default=4, help="simulated days to play (default 4)")
    parser.add_argument("--speed", type=float, default=600.0, metavar="X",
                        help="simulated seconds per wall second (default 600, the app's top speed)")
    parser.add_argument("--race", action="store_true", help="race mode on")
    parser.add_argument("--max-growth", type=float, default=5.0, metavar="PCT",
                        help="resident memory may grow this much from day 2 on (default 5)")
    parser.add_argument("--size", default="1600x1000", metavar="WxH", help="window size")
    parser.add_argument("--json", type=Path, metavar="FILE", help="write every hourly sample")


def process_status() -> tuple[float, int]:
    """(resident memory in MiB, threads) of this process, from /proc/self/status."""
    rss, threads = 0.0, 0
    with open("/proc/self/status", encoding="ascii") as fh:
        for line in fh:
            if line.startswith("VmRSS:"):
                rss = int(line.split()[1]) / 1024.0
            elif line.startswith("Threads:"):
                threads = int(line.split()[1])
    return rss, threads


def growth(samples: list[dict]) -> float | None:
    """Percent growth of resident memory from the second day's first sample to its largest
    value after that (None with fewer than two days)."""
    later = [s for s in samples if s["day"] >= 2]
    if not later:
        return None
    base = later[0]["rss_mib"]
    return 100.0 * (max(s["rss_mib"] for s in later) - base) / base


def summary(samples: list[dict]) -> str:
    """One line per day: memory at its start and end, threads, frame times."""
    lines = []
    for day in sorted({s["day"] for s in samples}):
        d = [s for s in samples if s["day"] == day]
        lines.append(f"day {day}: RSS {d[0]['rss_mib']:.0f} -> {d[-1]['rss_mib']:.0f} MiB "
                     f"(max {max(s['rss_mib'] for s in d):.0f}), threads "
                     f"{min(s['threads'] for s in d)}-{max(s['threads'] for s in d)}, frame time "
                     f"median {_median([s['frame_ms_median'] for s in d]):.1f} ms, worst hour's "
                     f"p95 {max(s['frame_ms_p95'] for s in d):.1f} ms, {len(d)} hours in "
                     f"{sum(s['wall_s'] for s in d):.0f} s")
    return "\n".join(lines)


def _median(values: list[float]) -> float:
    values = sorted(v for v in values if v == v)
    return values[len(values) // 2] if values else float("nan")


def run(args) -> int:
    import numpy as np
    from PySide6.QtCore import QTimer

    from .frame_rate import measuring_window

    app, window, scratch = measuring_window(args.airport, args.size, "bagroute-soak-")
    window.set_race(args.race)
    window.show()
    player = window.player
    player.set_speed(args.speed)
    samples: list[dict] = []
    stamps: list[float] = []
    state = {"day": 1, "hour": 1, "wall": time.perf_counter()}
    player.frame.connect(lambda *_: stamps.append(time.perf_counter()))

    def sample(hour: int) -> None:
        gaps = np.diff(stamps) * 1000.0 if len(stamps) > 1 else np.array([np.nan])
        rss, threads = process_status()
        now = time.perf_counter()
        samples.append({"day": state["day"], "hour": hour, "rss_mib": rss, "threads": threads,
                        "frames": len(stamps), "frame_ms_median": float(np.median(gaps)),
                        "frame_ms_p95": float(np.percentile(gaps, 95)),
                        "wall_s": now - state["wall"], "sim_t": player.clock})
        print(f"day {state['day']} hour {hour:2d}: RSS {rss:7.1f} MiB, {threads} threads, "
              f"{len(stamps)} frames, median {samples[-1]['frame_ms_median']:.1f} ms, "
              f"p95 {samples[-1]['frame_ms_p95']:.1f} ms", flush=True)
        stamps[:] = stamps[-1:]
        state["wall"] = now

    def watch() -> None:
        if not player.ready:
            QTimer.singleShot(CHECK_MS, watch)
            return
        if not player.playing and not (player.latest and player.latest.snapshot.finished):
            player.play()
        while player.clock >= state["hour"] * HOUR:
            sample(state["hour"])
            state["hour"] += 1
        if player.latest is not None and player.latest.snapshot.finished \
                and player.clock >= player.latest.snapshot.t:
            if state["day"] >= args.days:
                window.close()
                return
            state["day"] += 1
            state["hour"] = 1
            stamps.clear()
            window.restart_simulation()
            player.set_speed(args.speed)
        QTimer.singleShot(CHECK_MS, watch)

    QTimer.singleShot(0, watch)
    app.exec()
    scratch.cleanup()
    print()
    print(summary(samples))
    pct = growth(samples)
    if args.json is not None:
        args.json.write_text(json.dumps({"airport": str(args.airport), "speed": args.speed,
                                         "race": args.race, "days": args.days,
                                         "rss_growth_pct_from_day2": pct, "samples": samples},
                                        indent=1), encoding="utf-8")
    if pct is None:
        print("resident memory growth from day 2: needs at least 2 days")
        return 0
    verdict = "within" if pct <= args.max_growth else "OVER"
    print(f"resident memory growth from day 2 on: {pct:.1f}% ({verdict} the {args.max_growth:g}% "
          "limit)")
    return 0 if pct <= args.max_growth else 1
