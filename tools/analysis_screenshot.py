"""Screenshot of the layout analysis window of a bundled airport (README, docs).

    xvfb-run -a -s "-screen 0 1600x1000x24" python -m tools.analysis_screenshot hub-atl \
        docs/images/screenshot-layout-analysis.png
"""

import sys

from PySide6.QtCore import QTimer

from gui.analysis.view import LayoutAnalysisWindow


def screenshot(airport_name: str, path: str) -> None:
    """Save the analysis window of a bundled airport as PNG (docs/spanning-trees.md's picture)."""
    from PySide6.QtWidgets import QApplication

    from engine.airport.layout_io import load_bundled_or_file
    app = QApplication.instance() or QApplication([])
    window = LayoutAnalysisWindow(load_bundled_or_file(airport_name))
    window.show()

    def save():
        window.grab().save(path)
        app.quit()
    window.analysed.connect(lambda _: QTimer.singleShot(300, save))  # once laid out again
    app.exec()


if __name__ == "__main__":
    screenshot(*sys.argv[1:3])
