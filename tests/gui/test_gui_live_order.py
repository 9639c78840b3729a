"""What the live day does in which turn: a step's routes are painted before the labels and plots
it changes, and Python's garbage collector is paced while a day plays (docs/live-latency.md)."""

import gc
import weakref

from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QLabel

from gui import collector
from gui.day.live_gc import COLLECT_EVERY_S, OVERDUE_S, GcPacer
from gui.map.painted import AfterPaint
from tests.gui.conftest import play_until


class _Cycle:
    def __init__(self):
        self.me = self


def test_after_paint_runs_queued_work_once_the_widget_has_painted(qtbot):
    label = QLabel("x")
    qtbot.addWidget(label)
    label.show()
    qtbot.waitExposed(label)
    ran = []
    after = AfterPaint(label, unpainted_ms=None)
    after.call(lambda: ran.append(1))
    after.call(lambda: ran.append(2))
    assert after.waiting and ran == []
    label.repaint()
    assert ran == []                                # not within the paint: the turn after it
    qtbot.waitUntil(lambda: ran == [1, 2], timeout=2000)
    assert not after.waiting


def test_after_paint_does_not_hold_work_for_a_widget_that_never_paints(qtbot):
    label = QLabel("x")                             # never shown: never painted
    qtbot.addWidget(label)
    ran = []
    AfterPaint(label, unpainted_ms=None).call(lambda: ran.append("only after a paint"))
    after = AfterPaint(label, unpainted_ms=20)
    after.call(lambda: ran.append(1))
    qtbot.waitUntil(lambda: ran == [1], timeout=2000)
    qtbot.wait(50)
    assert ran == [1]


def test_a_steps_labels_and_status_follow_the_maps_paint(qtbot, sim_window):
    w = sim_window
    events = []

    class Paints(QObject):
        def eventFilter(self, obj, event):
            if event.type() == QEvent.Type.Paint:
                events.append("paint")
            return False

    paints = Paints()
    w.map_view.viewport().installEventFilter(paints)
    w.simStepped.connect(lambda _: events.append("stepped"))
    show_labels = w.day._show_labels
    w.day._show_labels = lambda t: (events.append("labels"), show_labels(t))
    play_until(qtbot, w, 900, speed=600)
    w.map_view.viewport().removeEventFilter(paints)
    steps = [i for i, e in enumerate(events) if e == "stepped"]
    assert len(steps) >= 3
    for i in steps:                                 # the first labels after a step come after a
        rest = events[i + 1:]                       # paint of the map
        if "labels" in rest:
            assert "paint" in rest[:rest.index("labels")], events[i:i + 8]
    assert "Playing at 600×" in w.status_text() or "Paused" in w.status_text()
    assert "Tug" in w.day.panel.tug_title.text()    # the busiest tug's panel got there


def test_the_collector_is_paced_while_a_day_plays(qtbot, sim_window):
    w = sim_window
    assert collector.timed()                        # the day's worker installed it
    try:
        w.set_speed(600)
        w.play()
        assert not gc.isenabled() and not collector.timed()  # no other collection while playing
        assert gc.get_freeze_count() > 0            # the built day is frozen: not walked again
        assert w.player.gc.fallback.isActive()      # collects even if no step is shown
        w.pause()
        assert collector.timed() and not w.player.gc.fallback.isActive()
        w.play()
        w.player.shutdown()                         # closing while playing gives it back too,
        assert collector.timed()                    # and unfreezes what the day froze
        assert gc.get_freeze_count() == 0
    finally:
        gc.unfreeze()


def test_a_paced_collection_frees_new_cycles_and_freezes_what_lives(qtbot):
    pacer = GcPacer()
    try:
        pacer.settle()
        pacer.playing(True)
        dead = weakref.ref(_Cycle())                # garbage only a collection finds
        alive = _Cycle()
        assert not pacer.collect_if_due()           # not due yet
        assert dead() is not None
        pacer._last -= COLLECT_EVERY_S
        frozen = gc.get_freeze_count()
        assert pacer.collect_if_due() and pacer.collections == 1
        assert dead() is None and alive.me is alive
        assert gc.get_freeze_count() > frozen       # what lives is frozen
        pacer.playing(False)
        assert not pacer.collect_if_due()           # paused: the UI's timed collector runs
    finally:
        gc.unfreeze()



def test_a_day_with_no_quiet_moment_is_still_collected_every_second_or_so(qtbot):
    """No step shown for a while (the clock waiting for the simulation), so no quiet moment
    comes: the pacer's timer collects once ``OVERDUE_S`` has passed without a collection. The
    test's clock decides, not when the timer fires (its timeouts are sent by hand; no event
    loop runs here)."""
    now = [100.0]
    pacer = GcPacer(clock=lambda: now[0])
    try:
        pacer.settle()
        pacer.playing(True)
        assert pacer.fallback.isActive()
        dead = weakref.ref(_Cycle())
        now[0] += OVERDUE_S - 0.1
        pacer.fallback.timeout.emit()               # woken early: a moment may still come
        assert pacer.collections == 0 and dead() is not None and pacer.fallback.isActive()
        now[0] += 0.1
        pacer.fallback.timeout.emit()               # none came: collect anyway
        assert pacer.collections == 1 and dead() is None
        assert pacer.fallback.isActive()            # and again if none comes after this one
        now[0] += COLLECT_EVERY_S                   # a quiet moment in time is the one that
        assert pacer.collect_if_due()               # collects: the timer then finds none due
        pacer.fallback.timeout.emit()
        assert pacer.collections == 2
        pacer.playing(False)                        # paused: the collector runs as usual
        assert not pacer.fallback.isActive()
        now[0] += 10 * OVERDUE_S
        pacer.fallback.timeout.emit()
        assert pacer.collections == 2
    finally:
        gc.unfreeze()

def test_the_docks_clock_and_tug_text_change_without_laying_the_dock_out_again(qtbot):
    from PySide6.QtWidgets import QApplication

    from gui.day.panel import SimPanel
    panel = SimPanel()
    qtbot.addWidget(panel)
    panel.resize(320, 700)
    panel.show()
    qtbot.waitExposed(panel)
    panel._tug.set_text("<table><tr><td>Load</td><td>1 / 8 bags</td></tr></table>")
    panel.show_time(3599, 86400)                    # the clock's first time: its height is set
    for _ in range(5):                              # and the dock laid out with it
        QApplication.processEvents()
    one_row = panel._tug.height()
    layouts = []

    class Layouts(QObject):
        def eventFilter(self, obj, event):
            if event.type() == QEvent.Type.LayoutRequest:
                layouts.append(obj)
            return False

    watch = Layouts()
    panel.installEventFilter(watch)
    for t in range(3600, 3660):                     # a minute of the clock, a new text each time
        panel.show_time(t, 86400)
        panel._tug.set_text(f"<table><tr><td>Load</td><td>{t % 8} / 8 bags</td></tr></table>")
        QApplication.processEvents()
    assert layouts == [] and "01:00:59" in panel.clock_label.text()
    panel._tug.set_text("<table>" + "<tr><td>Job</td><td>heading to B12</td></tr>" * 4 + "</table>")
    QApplication.processEvents()
    assert panel._tug.height() > one_row             # more lines: the holder grows
    assert panel.tug_label.height() == panel._tug.height()


def test_every_tug_is_drawn_within_the_bounds_its_repaint_covers(qtbot, sim_window):
    """The tugs' bounds are the airport's nodes plus a little room for the lanes (not 5% of the
    span, which reached under the hub's legend and had it drawn again every frame): every tug
    the day places lies inside them."""
    w = sim_window
    layer = w.tug_layer
    (x0, x1), (y0, y1) = layer.tugs.extent
    seen = 0
    for t in (300, 600, 900):
        play_until(qtbot, w, t, speed=600)
        xy = layer.positions
        assert len(xy) and ((xy[:, 0] >= x0) & (xy[:, 0] <= x1)).all()
        assert ((xy[:, 1] >= y0) & (xy[:, 1] <= y1)).all()
        seen += len(xy)
    assert seen >= 3


def test_a_replaced_day_is_collected_on_the_ui_thread_never_on_the_worker(sim_window, qtbot,
                                                                          monkeypatch):
    """The worker drops the last day and the UI thread collects it: a collection on the worker
    thread can destroy Qt objects beside the UI thread and deadlock with it (a CI hang)."""
    import gc
    import threading
    threads, collect = [], gc.collect

    def recording(*args):
        threads.append(threading.current_thread() is threading.main_thread())
        return collect(*args)

    monkeypatch.setattr(gc, "collect", recording)
    ready = sim_window.player.ready
    sim_window.day.restart()
    qtbot.waitUntil(lambda: sim_window.player.ready and sim_window.player.clock == 0.0
                    and bool(threads), timeout=60_000)
    assert ready and threads and all(threads), threads
