"""The live day's pace: the status bar says when the day plays slower than the chosen speed, the
plots redraw at a bounded rate, and the frame-rate measurement runs end to end."""

import json
import os
import subprocess
import sys
import time
from pathlib import Path

from engine.airport.layout_io import load_airport
from gui.day.live_plots import IDLE_MS, REDRAW_S, TimingPlot, nice_ceiling
from engine.sim.race import Timing
from tests.gui.conftest import SIM_TIMEOUT_MS

ROOT = Path(__file__).resolve().parents[2]


def test_status_bar_says_by_how_much_a_slow_simulation_falls_behind(qtbot, make_window, regional,
                                                                     monkeypatch):
    import gui.day.worker as sim_worker
    real = sim_worker.Simulation

    class SlowSimulation(real):
        def run_until(self, t_end, check=False):
            time.sleep(0.05)          # at most 30 simulated s per 50 ms: 600x is out of reach
            super().run_until(t_end, check)

    monkeypatch.setattr(sim_worker, "Simulation", SlowSimulation)
    w = make_window(regional)
    qtbot.waitUntil(lambda: w.player.ready, timeout=SIM_TIMEOUT_MS)
    w.set_speed(600)
    w.play()
    qtbot.waitUntil(lambda: "behind 600×" in w.status_text(), timeout=30_000)
    assert "the simulation cannot keep up" in w.status_text()
    assert w.player.waited and 0.05 < w.player.behind() < 1.0
    assert w.player.achieved < 0.95 * 600
    w.pause()
    assert w.player.behind() is None      # paused: nothing is behind


def test_pace_is_measured_over_whole_windows_after_the_first(qtbot, sim_window):
    """The first window after play holds the wait for the first chunk, so it is left out; a day
    within 5% of its speed is not behind; the clock held back by the simulation says so."""
    p = sim_window.player
    p.set_speed(60)
    p.playing = True                          # as play() leaves it, without the timer running
    p._measure_rate(2.0, 30.0, True)          # the first window: left out
    assert p.achieved is None and p.behind() is None
    p._measure_rate(2.0, 116.0, False)        # 58x of 60x: keeps up
    assert p.achieved == 58.0 and p.behind() is None and not p.waited
    p._measure_rate(1.0, 20.0, True)          # not a whole window yet: nothing changes
    p._measure_rate(1.0, 25.0, False)         # 45 simulated s in 2 wall s, held back once
    assert p.achieved == 22.5 and p.waited and abs(p.behind() - 0.625) < 1e-12
    p.playing = False
    assert p.behind() is None


def test_timing_plot_redraws_at_quiet_moments_at_a_bounded_rate_and_catches_up_on_flush(qtbot):
    plot = TimingPlot()
    qtbot.addWidget(plot)
    plot.add([Timing(1, 120.0, "cpu-blocked", 0.002, 30)])
    assert not plot.curves                          # not within the call that brought it:
    qtbot.waitUntil(lambda: "cpu-blocked" in plot.curves,       # no quiet moment came: on a
                    timeout=IDLE_MS + 2000)                      # timer
    plot.add([Timing(2, 240.0, "cpu-blocked", 0.003, 30)])
    plot.throttle.last = time.perf_counter()        # drawn just now: not due at a quiet moment
    assert not plot.throttle.draw_if_due()
    assert len(plot.curves["cpu-blocked"].getData()[0]) == 1
    plot.throttle.last -= REDRAW_S                  # REDRAW_S later: a quiet moment draws it
    assert plot.throttle.draw_if_due()
    assert len(plot.curves["cpu-blocked"].getData()[0]) == 2
    assert not plot.throttle.draw_if_due()          # nothing new: nothing to draw
    plot.add([Timing(3, 360.0, "cpu-blocked", 0.004, 30)])
    plot.flush()
    assert len(plot.curves["cpu-blocked"].getData()[0]) == 3
    assert len(plot.rows) == 3


def test_race_modes_seven_variants_keep_their_curves_in_the_plots_lower_half_at_most(qtbot):
    # the dock's size in the app at 1600 × 1000; on the H100 host the axis once ran to 10¹⁴ ms
    plot = TimingPlot()
    qtbot.addWidget(plot)
    plot.resize(620, 240)
    plot.show()
    medians = {"gpu-fast": 0.4, "cpu-linear": 12, "cpu-blocked": 1.9, "gpu-linear": 33,
               "gpu-coalesced": 37, "gpu-shared": 36, "gpu-blocked": 8}
    for r in range(1, 41):
        plot.add([Timing(r, 120.0 * r, v, ms * (1 + (r % 5) / 10) / 1000, 233, True)
                  for v, ms in medians.items()])
    plot.flush()
    lo, hi = plot._y_range
    curves_lo, curves_hi = -0.5, 2.0               # 0.4 ms and 48 ms in half decades
    assert lo == curves_lo and curves_hi < hi <= curves_hi + (curves_hi - curves_lo)
    assert plot.legend.columnCount == 2
    ticks = plot.plot.getAxis("left").tickValues(lo, hi, 200)[0][1]
    assert ticks and max(ticks) <= curves_hi       # no times labelled in the legend's room


def test_axis_ceilings_move_in_whole_steps():
    assert [nice_ceiling(v) for v in (0, 0.5, 1, 1.2, 3, 7, 11, 480)] == [1, 1, 1, 2, 5, 10, 20, 500]


def test_frame_rate_command_measures_every_configuration(tmp_path):
    """The machinery only (CI has no display and shared cores): two short runs on the regional
    airport, each in its own process, give a row each with frames counted and the clock moved."""
    out = tmp_path / "rows.json"
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    proc = subprocess.run(
        [sys.executable, "main.py", "frame-rate", "airports/regional.json", "--speeds", "60",
         "--race", "both", "--seconds", "1.5", "--start", "120", "--json", str(out)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=400)
    assert proc.returncode == 0, proc.stderr + proc.stdout
    rows = json.loads(out.read_text())
    assert [(r["speed"], r["race"]) for r in rows] == [(60, False), (60, True)]
    for r in rows:
        assert r["fps"] > 0 and r["achieved"] > 0 and r["clock"] >= 120
        assert r["tugs"] == load_airport(ROOT / "airports" / "regional.json").tugs()
        assert r["lag_pct"] >= 0
    assert "| 60× | off |" in proc.stdout and "| 60× | on |" in proc.stdout


def test_route_latency_is_measured_from_the_bags_change_to_the_map_painted(qtbot, sim_window):
    from tools.route_latency import RouteLatency
    from tests.gui.conftest import play_until
    w = sim_window
    latency = RouteLatency(w)
    play_until(qtbot, w, 600, speed=60)
    qtbot.waitUntil(lambda: len(latency.samples) >= 2, timeout=20_000)
    for s in latency.samples:
        assert s["variant"] == "cpu-blocked" and s["solve_s"] > 0
        assert 0 < s["to_ui_s"] < 10 and 0 <= s["draw_s"] < 10
        assert abs(s["latency_s"] - (s["to_ui_s"] + s["draw_s"])) < 1e-9
        assert s["to_ui_s"] >= s["solve_s"]          # the solve is part of the way to the UI


def test_a_variant_picked_while_the_day_loads_is_the_one_its_recomputes_use(qtbot, make_window,
                                                                           regional):
    w = make_window(regional, wait=False)
    w.set_variant("cpu-linear")                     # before the worker has built the day
    qtbot.waitUntil(lambda: w.player.ready, timeout=SIM_TIMEOUT_MS)
    w.set_speed(600)
    w.play()
    qtbot.waitUntil(lambda: any(not t.raced for t in w.timing_plot.rows), timeout=30_000)
    w.pause()
    assert {t.variant for t in w.timing_plot.rows if not t.raced} == {"cpu-linear"}


def test_ui_trace_reports_where_the_ui_thread_spends_a_frame(tmp_path):
    """The machinery only: a short traced run on the regional airport prints each part."""
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    proc = subprocess.run(
        [sys.executable, "-m", "tools.ui_trace", "airports/regional.json", "--speed", "60",
         "--seconds", "1.5", "--entries", "--timeline", "--switch-interval", "0.002"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=400)
    assert proc.returncode == 0, proc.stderr + proc.stdout
    out = proc.stdout
    assert "switch interval 2 ms" in out and "frames/s" in out
    for part in ("paints: total ms", "collections over 1 ms", "entries into Python from Qt"):
        assert part in out, out
