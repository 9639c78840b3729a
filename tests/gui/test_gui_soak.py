"""The soak command: days on end in the real window, memory, threads and frame times per hour."""

import json
import os
import subprocess
import sys
from pathlib import Path

from tools.soak import growth, process_status

ROOT = Path(__file__).resolve().parents[2]


def test_growth_counts_from_the_second_days_first_sample():
    samples = [{"day": 1, "rss_mib": 100.0}, {"day": 1, "rss_mib": 300.0},
               {"day": 2, "rss_mib": 400.0}, {"day": 2, "rss_mib": 404.0},
               {"day": 3, "rss_mib": 410.0}, {"day": 3, "rss_mib": 402.0}]
    assert growth(samples) == 2.5           # 400 -> the largest later value, 410
    assert growth(samples[:2]) is None      # one day: nothing to compare


def test_process_status_reads_this_process():
    rss, threads = process_status()
    assert rss > 10 and threads >= 1


def test_soak_plays_two_days_and_samples_every_simulated_hour(tmp_path):
    """The machinery only (CI's shared cores make timings meaningless): the regional airport,
    two whole days at a speed far above the app's, one sample per simulated hour."""
    out = tmp_path / "soak.json"
    proc = subprocess.run(
        [sys.executable, "main.py", "soak", "airports/regional.json", "--days", "2",
         "--speed", "20000", "--max-growth", "100", "--json", str(out)],
        cwd=ROOT, env=dict(os.environ, QT_QPA_PLATFORM="offscreen"), capture_output=True,
        text=True, timeout=400)
    assert proc.returncode == 0, proc.stderr + proc.stdout
    report = json.loads(out.read_text())
    samples = report["samples"]
    assert [(s["day"], s["hour"]) for s in samples] == [(d, h) for d in (1, 2) for h in range(1, 25)]
    assert all(s["rss_mib"] > 0 and s["threads"] > 1 for s in samples)
    assert all(s["sim_t"] >= 3600 * s["hour"] for s in samples)
    assert report["rss_growth_pct_from_day2"] is not None
    assert "day 1: RSS" in proc.stdout and "day 2: RSS" in proc.stdout


def test_restarting_the_day_frees_the_previous_one(qtbot, sim_window):
    """A day's simulation sits in reference cycles; with automatic collection off (as it rarely
    runs in a process this size), the restart must still free it."""
    import gc
    import weakref
    w = sim_window
    old = weakref.ref(w.player.runner.worker.sim)
    gc.disable()
    try:
        w.restart_simulation()
        qtbot.waitUntil(lambda: w.player.ready, timeout=60_000)
        assert w.player.runner.worker.sim is not None and old() is None
    finally:
        gc.enable()
