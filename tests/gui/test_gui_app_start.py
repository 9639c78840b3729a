"""The app as a user starts it: `python main.py AIRPORT` opens, shows a route, and quits cleanly.

It runs in its own process (as the user's would), with HOME, the XDG folders and the current folder
all in a temporary folder, so a crash at start (PySide6 6.9.3 deleted the File menu) or a thread
outliving its Qt objects ("QThread: Destroyed while thread … is still running") fails here, and
the run shows that nothing was written outside that folder.
"""

import os
import subprocess
import sys
from pathlib import Path

from engine.airport.layout_io import bundled_airports

REPO = Path(__file__).resolve().parents[2]

# Opens the app through main.main, waits for the first route, then quits the application without
# closing the window first: the worker threads must still stop (aboutToQuit) before Qt objects go.
START_AND_QUIT = """
import sys
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication
import main
from gui.main_window import MainWindow

app = QApplication(sys.argv[:1])
state = {"polls": 0}

def poll():
    state["polls"] += 1
    windows = [w for w in app.topLevelWidgets() if isinstance(w, MainWindow)]
    if windows and windows[0].summary is not None and windows[0].player.ready:
        print("route shown:", windows[0].solve_report(), flush=True)
        print("dask loaded:", any(m in sys.modules for m in ("dask", "distributed")), flush=True)
        print("pandas loaded:", "pandas" in sys.modules, flush=True)
        app.quit()
    elif state["polls"] > 1200:
        print("no route within 120 s", flush=True)
        app.exit(3)
    else:
        QTimer.singleShot(100, poll)

QTimer.singleShot(100, poll)
sys.exit(main.main(["app", sys.argv[1]]))
"""


def test_the_app_starts_on_a_bundled_airport_and_quits_without_a_live_thread(tmp_path):
    home = tmp_path / "home"
    cwd = tmp_path / "cwd"
    home.mkdir()
    cwd.mkdir()
    env = dict(os.environ, HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"),
               XDG_CACHE_HOME=str(home / ".cache"), QT_QPA_PLATFORM="offscreen",
               PYTHONPATH=os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")]))
    airport = bundled_airports()["regional"]
    done = subprocess.run([sys.executable, "-c", START_AND_QUIT, str(airport)], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300, check=False)
    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    assert "route shown:" in done.stdout, output
    assert "dask loaded: False" in done.stdout, "the app imports Dask before a sweep needs it"
    assert "pandas loaded: False" in done.stdout, "the app imports pandas before results need it"
    assert "Traceback" not in output, output
    assert "QThread: Destroyed" not in output, output
    assert list(cwd.iterdir()) == [], "the app wrote into the current folder"
    # The user's settings went where HOME says, and nowhere else.
    written = sorted(p.relative_to(home).as_posix() for p in home.rglob("*") if p.is_file())
    assert all(p.startswith((".config/", ".cache/")) for p in written), written
