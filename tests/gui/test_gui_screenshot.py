"""`python main.py app --screenshot FILE` opens the window, waits for the route, saves a PNG."""

import os
import re
import subprocess
import sys
from pathlib import Path

from PySide6.QtGui import QImage

ROOT = Path(__file__).resolve().parents[2]
HAS_GPU = os.path.exists("/dev/nvidiactl")


def test_screenshot_command_saves_the_window_once_the_route_is_shown(tmp_path):
    shot = tmp_path / "shot.png"
    # A real start: no CUDA simulator, so on a machine without a GPU the CPU must stand in.
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", NUMBA_ENABLE_CUDASIM="0")
    done = subprocess.run(
        [sys.executable, "main.py", "app", "airports/paper-5.json", "--cost", "bags",
         "--from", "A1", "--to", "A5", "--screenshot", str(shot), "--size", "1000x700"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    # The default variant is auto: on 5 nodes a CPU variant wins, GPU or not; on a cold Numba
    # cache (a fresh clone's CI) scipy answers while the CPU variants compile, and says so.
    assert re.search(r"Ran cpu-(linear|blocked) on CPU|\(first use\); ran scipy-floyd-warshall "
                     r"on the CPU meanwhile", done.stdout), done.stdout
    if not HAS_GPU and "(first use)" not in done.stdout:   # the first-use note says what ran
        assert "no GPU (" in done.stdout
    assert "bag-aware cost" in done.stdout
    image = QImage(str(shot))
    assert (image.width(), image.height()) == (1000, 700)


def test_screenshot_of_an_unknown_node_fails_with_a_message(tmp_path):
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    done = subprocess.run(
        [sys.executable, "main.py", "app", "airports/paper-5.json", "--from", "Q7",
         "--screenshot", str(tmp_path / "x.png")],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 2
    assert "Q7" in done.stderr and "A1" in done.stderr
