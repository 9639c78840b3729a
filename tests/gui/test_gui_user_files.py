"""The GUI tests leave the user's files alone: the app's own settings (QSettings "BagRoute"), the
benchmark window opened from it, and the kernel cache all land in the tests' home
(tests/user_files.py), and nothing this process writes lands under the user's home or the
current folder."""

from pathlib import Path

from PySide6.QtCore import QSettings

from engine.apsp.gpu_fast import kernel_cache_dir
from gui.main_window import MainWindow
from gui.settings import APPLICATION, ORGANISATION
from tests import user_files
from tests.gui.conftest import SOLVE_TIMEOUT_MS


def test_settings_and_caches_go_to_the_tests_home(qtbot):
    assert Path(QSettings(ORGANISATION, APPLICATION).fileName()).is_relative_to(user_files.test_home)
    assert Path(kernel_cache_dir()).is_relative_to(user_files.test_home)


def test_a_write_to_the_users_places_is_noticed(tmp_path):
    assert user_files.is_users(str(Path(user_files.REAL_HOME) / ".config" / "BagRoute" / "x.conf"))
    assert user_files.is_users(str(Path(user_files.REAL_CWD) / "shot.png"))
    assert not user_files.is_users(str(tmp_path / "shot.png"))
    assert not user_files.is_users(str(Path(user_files.REAL_CWD) / "engine" / "__pycache__" / "a.nbi"))


def test_a_temporary_folders_cleanup_is_not_a_write_to_the_current_folder():
    """TemporaryDirectory removes its files by names relative to the open folder (dir_fd)."""
    import tempfile
    already = len(user_files.written)
    with tempfile.TemporaryDirectory() as d:
        (Path(d) / "scene.osm.pbf").write_bytes(b"x")
    assert user_files.written[already:] == []


def test_the_window_and_its_benchmark_window_write_one_settings_object(qtbot, settings, paper5):
    window = MainWindow(paper5, settings=settings)
    qtbot.addWidget(window)
    qtbot.waitUntil(lambda: window.result is not None, timeout=SOLVE_TIMEOUT_MS)
    bench = window.open_benchmark()
    assert bench.settings is settings   # not a QSettings("BagRoute", …) of its own
    bench.close()
    window.close()
    assert settings.value("bench/geometry") is not None


def test_the_app_with_its_own_settings_leaves_the_user_files_alone(qtbot, paper5):
    already = len(user_files.written)
    window = MainWindow(paper5)       # the app's default: the user's QSettings
    qtbot.addWidget(window)
    qtbot.waitUntil(lambda: window.result is not None, timeout=SOLVE_TIMEOUT_MS)
    window.open_benchmark().close()
    window.close()
    window.settings.sync()
    assert Path(window.settings.fileName()).is_relative_to(user_files.test_home)
    assert Path(window.settings.fileName()).exists()
    assert user_files.written[already:] == []
