"""Garbage is collected only on the UI thread once the app runs workers (gui/collector.py): a
collection on a worker destroyed Qt objects there, deadlocking or aborting against the UI."""

import gc
import threading

from PySide6.QtCore import QThreadPool

from gui import collector
from gui.workers import Relay, Task


def test_a_worker_making_cycles_never_collects_on_its_own_thread(qtbot):
    threads = []

    def record(phase, info):
        if phase == "start":
            threads.append(threading.get_ident())

    relay = Relay()
    gc.callbacks.append(record)
    try:
        def make_cycles(say):       # far past the young generation's threshold, many times over
            for _ in range(50_000):
                a = []
                a.append(a)
            return "made"

        with qtbot.waitSignal(relay.done, timeout=30_000):
            QThreadPool.globalInstance().start(Task(1, make_cycles, relay))
        assert collector.installed() and not gc.isenabled()
        qtbot.waitUntil(lambda: len(threads) > 0, timeout=10_000)   # the UI timer collected them
    finally:
        gc.callbacks.remove(record)
    assert set(threads) == {threading.main_thread().ident}


def test_a_playing_day_holds_the_timer_and_gives_it_back(qtbot):
    collector.collect_on_ui_thread()
    assert collector.timed()
    collector.hold(True)
    collector.hold(True)        # two live days playing
    collector.hold(False)
    assert not collector.timed()
    collector.hold(False)
    assert collector.timed()
