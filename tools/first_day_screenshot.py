"""The app's first day on this machine (docs/day-startup.md): the launch's look-up of the day
loop's cache, then screenshots while the day waits for its compile and once it is ready, with the
seconds from the launch. Cold: point NUMBA_CACHE_DIR at an empty folder.

    NUMBA_CACHE_DIR=$(mktemp -d) xvfb-run -a -s "-screen 0 1600x1000x24" \
        python -m tools.first_day_screenshot airports/regional.json /tmp/first-day
"""

import argparse
import sys
import tempfile
import time
from pathlib import Path


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("airport")
    parser.add_argument("out", type=Path, help="folder for waiting.png and ready.png")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)

    launched = time.perf_counter()
    from engine import loop_warmup
    import engine.sim.loop.step  # noqa: F401  (the window imports it anyway: not counted below)
    looked = time.perf_counter()
    started = loop_warmup.start()   # as gui.commands.run does
    print(f"look-up and start: {(time.perf_counter() - looked) * 1000:.1f} ms; child started: "
          f"{started}", flush=True)

    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    from gui.day.worker import WAITING_FOR_LOOP
    from gui.main_window import MainWindow
    from gui.settings import file_settings
    app = QApplication.instance() or QApplication([])
    scratch = tempfile.TemporaryDirectory(prefix="bagroute-shot-")
    window = MainWindow(args.airport, settings=file_settings(Path(scratch.name) / "s.ini"))
    window.resize(1500, 950)
    window.show()
    shown = set()

    def look() -> None:
        since = time.perf_counter() - launched
        if "waiting" not in shown and window.status_text() == WAITING_FOR_LOOP:
            shown.add("waiting")
            window.grab().save(str(args.out / "waiting.png"))
            print(f"{since:.1f} s: the status bar says it waits for the compile", flush=True)
        if window.player.ready:
            window.grab().save(str(args.out / "ready.png"))
            print(f"{since:.1f} s: the day is ready; status: {window.status_text()}", flush=True)
            window.close()
            app.quit()

    timer = QTimer()
    timer.timeout.connect(look)
    timer.start(200)
    app.exec()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
