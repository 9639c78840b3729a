"""A benchmark file broken anywhere, opened in the benchmark window: it is shown, or refused with
"FILE: ITEM: PROBLEM" in the status line while the results shown stay as they were."""

from __future__ import annotations

import json
import tempfile
import warnings
from pathlib import Path

from hypothesis import HealthCheck, event, given, settings

from engine.bench import apsp as bench
from gui.bench.window import BenchWindow
from gui.settings import file_settings
from tests.fuzz_mutations import json_documents

POINTS = [bench.Point("gpu-fast", "random-15%", 512, 3, 1.2, 1.0, 512**3 / 1e-3, 0.01, "scipy full",
                      "NVIDIA H100", first_ms=900.0),
          bench.Point("cpu-blocked", "regional", 277, 5, 6.0, 5.3, 277**3 / 5.3e-3, None,
                      "scipy full", "CPU (2 threads)")]
REPORT = bench.Report("python main.py bench", {"gpu": "NVIDIA H100", "processor": "x86_64",
                                               "cpu_threads": 16}, 2.0, POINTS,
                      bench.paper_answers(POINTS, 2.0))
GOOD = json.loads(REPORT.to_json())


def test_a_mutated_benchmark_file_is_shown_or_refused_by_name(qtbot, tmp_path):
    window = BenchWindow(settings=file_settings(tmp_path / "bench.ini"))
    qtbot.addWidget(window)
    window.show()
    good = tmp_path / "good.json"
    good.write_text(REPORT.to_json(), encoding="utf-8")
    assert window.load_file(good)
    folder = Path(tempfile.mkdtemp(dir=tmp_path))
    outcomes = {"shown": 0, "refused": 0}

    @settings(max_examples=100, deadline=None, derandomize=True, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(doc=json_documents(GOOD))
    def open_mutated(doc):
        window.load_file(good)
        shown = window.table_rows()
        path = folder / "bench.json"
        path.write_bytes(doc[0])
        with warnings.catch_warnings():
            warnings.simplefilter("error", RuntimeWarning)
            opened = window.load_file(path)
        if opened:
            event("shown")
            outcomes["shown"] += 1
            assert len(window.table_rows()) == len(window.report.points) + len(window.failures)
        else:
            event("refused")
            outcomes["refused"] += 1
            assert window.last_error.startswith(f"Could not open {path}: ")
            for line in window.last_error.splitlines()[:-1]:
                item, sep, problem = line.removeprefix("Could not open ").removeprefix(
                    f"{path}: ").partition(": ")
                assert sep and item and problem, line
            assert window.table_rows() == shown   # what was shown stays
        window.error_box and window.error_box.close()

    open_mutated()
    print(f"benchmark files fuzzed: {sum(outcomes.values())}, {outcomes}")
    assert outcomes["refused"] and outcomes["shown"]   # both paths were taken
