"""Where the app writes when the user named no place: never the current folder. An experiment
without a results folder goes to a new temporary folder; a save dialog (exports, scenarios, an
edited layout) starts in the folder last saved to, else the layout's, else the home folder."""

import tempfile
from pathlib import Path

from gui.experiment.dialog import results_folder
from gui.shell.files import SaveFolder
from tests import user_files


def test_an_experiment_without_a_folder_writes_into_a_new_temporary_one(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    out = results_folder("", "experiment")
    assert out.is_dir() and out.name.startswith("bagroute-experiment-")
    assert out.parent == Path(tempfile.gettempdir()) and not out.is_relative_to(tmp_path)
    assert results_folder(str(tmp_path / "mine"), "compare").parent == tmp_path / "mine"
    out.rmdir()


def test_save_dialogs_start_in_the_last_folder_the_layouts_or_home_never_the_current(
        settings, tmp_path, monkeypatch):
    cwd = tmp_path / "cwd"
    cwd.mkdir()
    monkeypatch.chdir(cwd)
    layout = None
    folder = SaveFolder(settings, lambda: layout)
    assert folder.folder() == Path.home() and Path.home() == Path(user_files.test_home)
    layout = tmp_path / "airports" / "mine.json"
    layout.parent.mkdir()
    assert folder.folder() == layout.parent
    settings.setValue(SaveFolder.KEY, str(tmp_path / "exports"))
    assert folder.folder() == layout.parent             # a folder since removed is not used
    (tmp_path / "exports").mkdir()
    assert folder.folder() == tmp_path / "exports"
