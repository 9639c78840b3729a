"""Screenshot of the benchmark window showing a results file (README, docs).

    xvfb-run -a -s "-screen 0 1400x900x24" python -m tools.bench_screenshot \
        docs/measurements/bench-h100-random15.json docs/images/screenshot-bench.png
"""

import sys

from PySide6.QtWidgets import QApplication


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    results, png = argv
    app = QApplication.instance() or QApplication([])
    import tempfile

    from gui.bench import BenchWindow
    from gui.settings import file_settings
    with tempfile.TemporaryDirectory() as folder:  # never the user's own settings
        window = BenchWindow(settings=file_settings(f"{folder}/bench.ini"))
        window.resize(1300, 850)
        window.show()
        if not window.load_file(results):
            print(window.last_error, file=sys.stderr)
            return 1
        for _ in range(20):
            app.processEvents()
        ok = window.grab().save(png)
        window.close()
    print(f"wrote {png}" if ok else f"could not write {png}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
