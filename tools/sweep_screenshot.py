"""Screenshot of the sweep window showing a sweep's results (README, docs).

    xvfb-run -a -s "-screen 0 1400x900x24" python -m tools.sweep_screenshot sweep-regional shot.png
"""

import sys

from gui.sweep.view import SweepWindow


def main(argv: list[str]) -> int:
    """Screenshot of the window showing a sweep (README)."""
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    from PySide6.QtWidgets import QApplication
    app = QApplication.instance() or QApplication([])
    window = SweepWindow()
    window.resize(1200, 800)
    window.show()
    if not window.load(argv[0]):
        print(window.last_error, file=sys.stderr)
        return 1
    for _ in range(20):
        app.processEvents()
    ok = window.grab().save(argv[1])
    window.close()
    print(f"wrote {argv[1]}" if ok else f"could not write {argv[1]}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
