"""Qt fixtures for the GUI tests: settings kept in a temporary file, a window on paper-5."""

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest
from PySide6.QtCore import QSettings

from gui.main_window import MainWindow, default_airport_path
from gui.settings import file_settings

SOLVE_TIMEOUT_MS = 120_000  # the first solve of a variant JIT-compiles it


@pytest.fixture(autouse=True)
def _no_user_settings(tmp_path_factory):
    """Even QSettings("BagRoute", …) writes under a temporary folder during the tests."""
    folder = str(tmp_path_factory.mktemp("qsettings"))
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    for scope in (QSettings.Scope.UserScope, QSettings.Scope.SystemScope):
        QSettings.setPath(QSettings.Format.IniFormat, scope, folder)


@pytest.fixture
def settings(tmp_path):
    s = file_settings(tmp_path / "bagroute.ini")
    s.setValue("solver/variant", "cpu-blocked")  # deterministic, fast; GPU ones run simulated
    return s


@pytest.fixture
def paper5():
    return default_airport_path()


@pytest.fixture
def make_window(qtbot, settings, paper5):
    """A shown MainWindow whose first solve has arrived."""

    def make(path=paper5, wait=True, **kwargs):
        kwargs.setdefault("settings", settings)
        window = MainWindow(path, **kwargs)
        qtbot.addWidget(window)
        window.show()
        if wait:
            qtbot.waitUntil(lambda: window.result is not None, timeout=SOLVE_TIMEOUT_MS)
        return window

    return make


@pytest.fixture
def window(make_window):
    return make_window()


SIM_TIMEOUT_MS = 60_000  # preparing a simulated day (the loop was compiled before the first test)


@pytest.fixture
def regional():
    from engine.airport.layout_io import bundled_airports
    return bundled_airports()["regional"]


@pytest.fixture
def sim_window(make_window, regional, qtbot):
    """A shown window on the regional airport (8 tugs) whose simulated day is ready, paused."""
    window = make_window(regional)
    qtbot.waitUntil(lambda: window.player.ready, timeout=SIM_TIMEOUT_MS)
    return window


def play_until(qtbot, window, t: float, speed: int = 2400, timeout_ms: int = 30_000):
    """Play at ``speed`` until the window shows simulated time ``t`` or later, then pause."""
    window.set_speed(speed)
    window.play()
    qtbot.waitUntil(lambda: window.player.shown is not None
                    and window.player.shown.snapshot.t >= t, timeout=timeout_ms)
    window.pause()
