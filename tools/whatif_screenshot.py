"""Screenshot of a what-if edit (README): play a day, close a road, play on, show the compare panel.

    xvfb-run -a -s "-screen 0 1600x1000x24" python -m tools.whatif_screenshot \
        airports/regional.json SORT Wh14 docs/images/screenshot-whatif.png --at 7200 --until 21600
"""

import argparse
import sys
import tempfile
import time


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("airport")
    parser.add_argument("a", help="one end of the road to close (node id)")
    parser.add_argument("b", help="the other end")
    parser.add_argument("png")
    parser.add_argument("--at", type=float, default=7200.0, help="close it at this simulated s")
    parser.add_argument("--until", type=float, default=21600.0, help="then play to this time")
    args = parser.parse_args(argv)

    from PySide6.QtWidgets import QApplication
    app = QApplication.instance() or QApplication([])

    from engine.sim.edits import CloseRoad

    from gui.main_window import MainWindow
    from gui.settings import file_settings

    def wait(done, seconds=600.0) -> None:
        end = time.monotonic() + seconds
        while not done():
            if time.monotonic() > end:
                raise TimeoutError("gave up waiting for the window")
            app.processEvents()
            time.sleep(0.01)

    def play_to(t: float) -> None:
        window.set_speed(1200)
        window.play()
        wait(lambda: window.player.shown is not None and window.player.shown.snapshot.t >= t)
        window.pause()

    with tempfile.TemporaryDirectory() as folder:   # never the user's own settings
        window = MainWindow(args.airport, settings=file_settings(f"{folder}/whatif.ini"))
        window.resize(1600, 1000)
        window.show()
        wait(lambda: window.player.ready)
        play_to(args.at)
        window.whatif.edit(CloseRoad(args.a, args.b))
        wait(lambda: window.whatif.last is not None)
        report = window.status_text()
        compared = []
        window.whatif.compared.connect(compared.append)
        play_to(args.until)
        wait(lambda: bool(compared) and compared[-1] >= window.player.shown.snapshot.t)
        window.whatif.dock.raise_()
        window.show_status(report)
        for _ in range(30):
            app.processEvents()
            time.sleep(0.02)
        ok = window.grab().save(args.png)
        panel = window.whatif.panel
        print(report)
        print(panel.compare_label.text(), {k: [panel.value(k, c) for c in range(3)]
                                           for k in ("mbr", "on_time", "tug_km", "waiting")})
        window.close()
    print(f"wrote {args.png}" if ok else f"could not write {args.png}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
