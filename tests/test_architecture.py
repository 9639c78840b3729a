"""Import contracts (pyproject.toml, import-linter): the engine never imports Qt or the GUI, and
the kernels never import the airport model, the simulation or the benchmark."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_engine_does_not_import_qt_or_gui():
    lint = Path(sys.executable).with_name("lint-imports")
    done = subprocess.run([str(lint), "--no-cache", "--config", str(ROOT / "pyproject.toml")], cwd=ROOT,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 broken" in done.stdout and " kept" in done.stdout


def test_engine_imports_without_qt_installed():
    # Block PySide6/pyqtgraph at import time and load every engine module the commands use.
    code = ("import sys; sys.modules['PySide6'] = None; sys.modules['pyqtgraph'] = None\n"
            "import engine.apsp, engine.apsp.cpu_blocked, engine.apsp.cpu_linear\n"
            "from engine.apsp import solve; import numpy as np\n"
            "print(solve(np.zeros((3, 3)), 'cpu-linear').dist.sum())")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "0.0"
