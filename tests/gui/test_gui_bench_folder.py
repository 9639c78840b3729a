"""The benchmark window's results folder: the user's data folder for benchmarks by default (never
the current folder), shown in the window, changed with Change… and remembered in the settings."""

import json
from pathlib import Path

from PySide6.QtCore import QStandardPaths
from PySide6.QtWidgets import QFileDialog

from gui.bench.window import BenchWindow
from gui.settings import file_settings
from tests import user_files

RUN_TIMEOUT_MS = 60_000


def data_home() -> Path:
    return Path(QStandardPaths.writableLocation(
        QStandardPaths.StandardLocation.GenericDataLocation))


def make(qtbot, settings):
    window = BenchWindow(settings=settings)
    qtbot.addWidget(window)
    window.show()
    return window


def test_a_run_saved_with_the_defaults_goes_to_the_data_folder_not_the_current_one(
        qtbot, tmp_path, monkeypatch):
    cwd = tmp_path / "cwd"
    cwd.mkdir()
    monkeypatch.chdir(cwd)
    window = make(qtbot, file_settings(tmp_path / "bench.ini"))
    folder = data_home() / "BagRoute" / "benchmarks"
    assert folder.is_relative_to(user_files.test_home)       # the tests' home, not the user's
    assert window.folder.path() == folder and "benchmarks" in window.folder.label.text()
    proposed = []

    def accept_proposed(parent, caption, start, *filters):   # Save pressed on what it proposes
        proposed.append(start)
        return start, filters[0] if filters else ""
    monkeypatch.setattr(QFileDialog, "getSaveFileName", accept_proposed)
    window.set_plan(["cpu-linear"], [8])
    assert window.start_run() is not None
    qtbot.waitUntil(lambda: not window.running, timeout=RUN_TIMEOUT_MS)
    window.save_button.click()
    assert proposed == [str(folder / "bench.json")]
    assert json.loads((folder / "bench.json").read_text())["points"]
    window.close()
    assert list(cwd.iterdir()) == []                           # nothing in the current folder


def test_the_folder_is_changed_with_change_and_remembered(qtbot, tmp_path, monkeypatch):
    settings = file_settings(tmp_path / "bench.ini")
    window = make(qtbot, settings)
    chosen = tmp_path / "my results"
    chosen.mkdir()
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", lambda *a: str(chosen))
    window.folder.change_button.click()
    assert window.folder.path() == chosen and window.folder.label.toolTip() == str(chosen)
    window.close()
    again = make(qtbot, settings)
    assert again.folder.path() == chosen
    opened = []
    monkeypatch.setattr(QFileDialog, "getOpenFileName",
                        lambda parent, caption, start, *a: opened.append(start) or ("", ""))
    again.open_button.click()                                  # Open starts there too
    assert opened == [str(chosen)]
