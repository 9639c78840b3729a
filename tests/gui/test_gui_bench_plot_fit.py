"""The benchmark plot keeps its legend and title in view at any window width: beside the plot
where there is room, under it where there is not, the title broken before "on <machine>"; tick
labels that would overlap are left off, airport names stay inside the plot and a title of several
lines keeps clear of the view's top edge."""

from pathlib import Path

import pytest
from PySide6.QtCore import QRectF
from PySide6.QtGui import QPainter, QPicture

from gui.bench.plot import LEGEND_BESIDE_MIN_WIDTH
from gui.bench.window import BenchWindow
from gui.settings import file_settings

REPORT = Path(__file__).resolve().parents[2] / "docs" / "measurements" / "bench-h100-random85-airports.json"


def _inside_view(plot, item) -> bool:
    view = QRectF(0, 0, plot.width(), plot.height())
    return view.contains(item.mapRectToScene(item.boundingRect()))


def _resize(qtbot, window, width: int) -> None:
    """Resize the window, wait for the plot to lay its legend out for the new width and draw it
    (pyqtgraph brings the view's transform, so the places of the items in it, up to date when it
    paints)."""
    window.resize(width, 800)
    plot = window.plot
    qtbot.waitUntil(lambda: plot.legend_below == (plot.width() < LEGEND_BESIDE_MIN_WIDTH)
                    and _inside_view(plot, plot.legend), timeout=3000)
    plot.grab()


def _tick_labels(axis) -> list[tuple[str, QRectF]]:
    """The tick labels ``axis`` draws, each with its rect in scene coordinates."""
    picture = QPicture()  # kept: the painter must not outlive it
    painter = QPainter(picture)
    try:
        _, _, texts = axis.generateDrawSpecs(painter)
    finally:
        painter.end()
    return [(text, axis.mapRectToScene(rect)) for rect, _, text in texts if text]


def _assert_apart(axis) -> list[str]:
    """No two of the axis's tick labels overlap; returns their texts."""
    labels = _tick_labels(axis)
    for i, (text, rect) in enumerate(labels):
        for other, other_rect in labels[i + 1:]:
            assert not rect.intersects(other_rect), (text, other)
    return [text for text, _ in labels]


@pytest.fixture
def window(qtbot, tmp_path):
    window = BenchWindow(settings=file_settings(tmp_path / "bench.ini"))
    qtbot.addWidget(window)
    window.show()
    return window


def test_legend_and_title_stay_in_view_as_the_window_narrows(qtbot, window):
    assert window.load_file(REPORT)
    plot = window.plot
    for width, below, broken in ((1400, False, False), (900, True, False), (700, True, True),
                                 (1400, False, False)):
        window.resize(width, 800)
        qtbot.waitUntil(lambda: plot.legend_below == below and _inside_view(plot, plot.legend), timeout=3000)
        assert _inside_view(plot, plot.plot_item), width
        assert ("<br>" in plot.plot_item.titleLabel.text) == broken, width
        assert plot.title() == "Floyd–Warshall solve time on NVIDIA H100 80GB HBM3"


def test_a_long_machine_name_breaks_again_rather_than_leaving_the_view(qtbot, window):
    assert window.load_file(REPORT.parent / "sssp-h100-grid2048.json")  # "…; x86_64, 16 CPU threads"
    window.resize(820, 760)
    plot = window.plot
    qtbot.waitUntil(lambda: plot.legend_below and _inside_view(plot, plot.plot_item.titleLabel), timeout=3000)
    assert plot.plot_item.titleLabel.text.count("<br>") == 2
    assert _inside_view(plot, plot.plot_item)


def test_size_labels_never_overlap_and_the_smallest_and_largest_stay(qtbot, window):
    assert window.load_file(REPORT.parent / "bench-h100-random85-mapped.json")  # 500 … 3,000
    for width in (700, 900, 1400):
        _resize(qtbot, window, width)
        shown = _assert_apart(window.plot.plot_item.getAxis("bottom"))
        assert {"5", "3,000"} <= set(shown) and len(shown) >= 3, (width, shown)


def test_airport_names_stay_inside_the_plot_as_the_window_narrows(qtbot, window):
    assert window.load_file(REPORT.parent / "bench-h100-random85-mapped.json")  # paper-5 leftmost
    plot = window.plot
    for width in (700, 900, 1400):
        _resize(qtbot, window, width)
        view = plot.plot_item.getViewBox().sceneBoundingRect()
        for name, label in plot.airport_labels.items():
            assert view.contains(label.mapRectToScene(label.boundingRect())), (width, name)


def test_the_title_on_three_lines_or_one_keeps_clear_of_the_view_top_and_the_plot(qtbot, window):
    assert window.load_file(REPORT.parent / "sssp-h100-grid2048.json")  # a long machine name
    plot = window.plot
    for width, breaks in ((820, 2), (1400, 0)):
        _resize(qtbot, window, width)
        assert plot.plot_item.titleLabel.text.count("<br>") == breaks, width
        text = plot.plot_item.titleLabel.item
        title = text.mapRectToScene(text.boundingRect())
        assert title.top() >= 3, width
        assert title.bottom() <= plot.plot_item.getViewBox().sceneBoundingRect().top(), width
        _assert_apart(plot.plot_item.getAxis("left"))  # 100 and 1,000 were drawn twice
