"""The app's day on a cold Numba cache (mimicked: the day loop's warm-up child is a stand-in
that runs until the test releases it): the day waits for it in its worker, the status bar says
so, the window answers meanwhile (routes, Pause), closing does not wait for the child, and a
warm cache starts no child (docs/day-startup.md)."""

import pytest

from engine import loop_warmup
from gui.day.worker import WAITING_FOR_LOOP
from tests.gui.conftest import SIM_TIMEOUT_MS, play_until
from tests.loop_warmup_fake import FakeChild


@pytest.fixture
def child(monkeypatch, tmp_path):
    fake = FakeChild(monkeypatch, tmp_path)
    assert fake.start()
    yield fake
    fake.end()


def test_a_day_loaded_while_the_loop_compiles_waits_saying_so_then_plays(
        child, make_window, regional, qtbot):
    window = make_window(regional)   # the route finder answers meanwhile
    qtbot.waitUntil(lambda: window.status_text() == WAITING_FOR_LOOP, timeout=SIM_TIMEOUT_MS)
    window.play()
    window.pause()                   # Pause works while it waits: the day will not start playing
    assert not window.player.ready
    assert window.player.runner.worker.sim is None   # not built: nothing compiles beside the child
    child.release()
    qtbot.waitUntil(lambda: window.player.ready, timeout=SIM_TIMEOUT_MS)
    assert not window.player.playing and window.status_text() != WAITING_FOR_LOOP
    play_until(qtbot, window, 600.0)


def test_play_pressed_while_it_waits_plays_once_the_day_is_ready(child, make_window, regional,
                                                                  qtbot):
    window = make_window(regional)
    qtbot.waitUntil(lambda: window.status_text() == WAITING_FOR_LOOP, timeout=SIM_TIMEOUT_MS)
    window.play()
    child.release()
    qtbot.waitUntil(lambda: window.player.playing, timeout=SIM_TIMEOUT_MS)


def test_closing_while_it_waits_does_not_wait_for_the_child(child, make_window, regional, qtbot):
    window = make_window(regional)
    qtbot.waitUntil(lambda: window.status_text() == WAITING_FOR_LOOP, timeout=SIM_TIMEOUT_MS)
    thread = window.player.runner
    window.close()                   # stops the day's thread and waits for it to end
    assert thread.thread.isFinished() and loop_warmup.compiling()


def test_a_failed_compile_lets_the_day_compile_in_place(child, make_window, regional, qtbot):
    window = make_window(regional)
    qtbot.waitUntil(lambda: window.status_text() == WAITING_FOR_LOOP, timeout=SIM_TIMEOUT_MS)
    child.fail()
    qtbot.waitUntil(lambda: window.player.ready, timeout=SIM_TIMEOUT_MS)
