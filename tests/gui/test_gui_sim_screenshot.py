"""`python main.py app --play-seconds S --screenshot FILE` plays the day first, then saves."""

import os
import re
import subprocess
import sys
from pathlib import Path

from PySide6.QtGui import QImage

ROOT = Path(__file__).resolve().parents[2]


def test_screenshot_after_playing_part_of_the_day_in_race_mode(tmp_path):
    shot = tmp_path / "played.png"
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", NUMBA_ENABLE_CUDASIM="0")
    done = subprocess.run(
        [sys.executable, "main.py", "app", "airports/regional.json", "--play-seconds", "900",
         "--race", "--screenshot", str(shot), "--size", "1200x800"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    match = re.search(r"simulation at (\d+) s: (\d+) bags created", done.stdout)
    assert match, done.stdout
    assert int(match.group(1)) >= 600 and int(match.group(2)) > 0
    # The race's own count (the status bar is the latest message: a route solve's note can hold
    # it through the whole 1.5-s play). On a cold Numba cache (a fresh clone's CI) the day's
    # recomputes may all run on scipy while the CPU variants compile, and none is raced.
    raced = re.search(r"race: raced (\d+) of (\d+) recomputes", done.stdout)
    assert (raced and int(raced.group(1)) >= 1
            or "race: no recompute raced" in done.stdout
            and "(first use)" in done.stdout), done.stdout
    image = QImage(str(shot))
    assert (image.width(), image.height()) == (1200, 800)
