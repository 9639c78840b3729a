"""The benchmark plot keeps its legend and title in view at any window width: beside the plot
where there is room, under it where there is not, the title broken before "on <machine>"."""

from pathlib import Path

import pytest
from PySide6.QtCore import QRectF

from gui.bench_window import BenchWindow
from gui.settings import file_settings

REPORT = Path(__file__).resolve().parents[2] / "gui" / "assets" / "bench-h100-random85-airports.json"


def _inside_view(plot, item) -> bool:
    view = QRectF(0, 0, plot.width(), plot.height())
    return view.contains(item.mapRectToScene(item.boundingRect()))


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
