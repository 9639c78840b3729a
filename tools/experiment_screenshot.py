"""Screenshots of an experiment run from the app and of the compare panel over seeds (docs):
on the regional airport, close a road (the what-if edit), run Tools ▸ Run experiment… (fleet sizes
× both policies × the edit or none × seeds, on a local Dask cluster) and grab the sweep view; then
retire tugs too, compare the edited day with the unedited one over seeds and grab the window.

    xvfb-run -a -s "-screen 0 1600x1000x24" python -m tools.experiment_screenshot \
        docs/images/experiment.png docs/images/compare-intervals.png
"""

import argparse
import sys
import tempfile
import time


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("experiment_png")
    parser.add_argument("compare_png")
    parser.add_argument("--fleets", default="8, 12, 16, 24")
    parser.add_argument("--hours", type=float, default=4.0)
    parser.add_argument("--seeds", type=int, default=3, help="seeds of the experiment")
    parser.add_argument("--compare-seeds", type=int, default=6)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)

    from PySide6.QtCore import QDeadlineTimer, Qt
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication
    _app = QApplication.instance() or QApplication([])   # kept for the whole run

    from engine.airport.layout_io import bundled_airports
    from engine.sim.edits import CloseRoad, RetireTugs
    from gui.experiment.dialog import KEYS
    from gui.main_window import MainWindow
    from gui.settings import file_settings

    def wait(done, seconds=900.0) -> None:
        deadline = QDeadlineTimer(int(seconds * 1000))
        while not done():
            if deadline.hasExpired():
                raise TimeoutError("gave up waiting for the window")
            QTest.qWait(10)          # the events of the app go on meanwhile

    def settle() -> None:
        QTest.qWait(600)

    with tempfile.TemporaryDirectory() as folder:   # never the user's settings or folders
        settings = file_settings(f"{folder}/experiment.ini")
        settings.setValue(KEYS["workers"], args.workers)
        settings.setValue(KEYS["folder"], f"{folder}/results")
        window = MainWindow(bundled_airports()["regional"], settings=settings)
        window.resize(1600, 1000)
        window.show()
        wait(lambda: window.player.ready)
        edits = []
        window.whatif.applied.connect(edits.append)
        window.whatif.edit(CloseRoad("SORT", "Wh14"))
        wait(lambda: len(edits) == 1)

        dialog = window.experiments.open_dialog()
        dialog.fleet_edit.setText(args.fleets)
        for box in dialog.policy_boxes.values():
            box.setChecked(True)
        dialog.hours_spin.setValue(args.hours)
        dialog.seeds_spin.setValue(args.seeds)
        opened = []
        window.experiments.opened.connect(opened.append)
        started = time.perf_counter()
        dialog.run_button.click()
        wait(lambda: bool(opened))
        view = opened[0]
        print(f"experiment: {window.status_text()} ({time.perf_counter() - started:.1f} s "
              "in the app)")
        view.resize(1600, 1000)
        settle()
        ok = view.grab().save(args.experiment_png)
        print(view.status_line.text())
        view.close()

        window.whatif.edit(RetireTugs("DEPOT", 8))
        wait(lambda: len(edits) == 2)
        window.whatif.dock.raise_()
        compare = window.experiments.seeds
        compare.seeds_spin.setValue(args.compare_seeds)
        compared = []
        window.experiments.compared.connect(compared.append)
        compare.run_button.click()
        wait(lambda: bool(compared))
        window.whatif.dock.raise_()
        window.resizeDocks([window.whatif.dock], [560], Qt.Orientation.Horizontal)
        settle()
        scroll = window.whatif.dock.widget()
        scroll.ensureWidgetVisible(compare.table)    # the dock scrolls down to the table
        settle()
        ok = window.grab().save(args.compare_png) and ok
        print(compare.note.text())
        print(compared[0].to_string())
        window.close()
    print(f"wrote {args.experiment_png} and {args.compare_png}" if ok else "could not write")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
