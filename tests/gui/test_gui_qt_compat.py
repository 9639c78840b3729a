"""The Qt binding keeps Python alive through thousands of signals and repaints.

PySide6 6.12.0 dropped a reference to None on every Python override Qt called and one to True
on every signal emission; on Python 3.11 the interpreter aborted after a few thousand
("Fatal Python error: none_dealloc"). pyproject.toml excludes that release; this catches any
binding that does the same.
"""

import subprocess
import sys

SCRIPT = """
import os, gc
os.environ["QT_QPA_PLATFORM"] = "offscreen"
from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QApplication, QWidget
app = QApplication([])
class Emitter(QObject):
    flag = Signal(bool)
class Painted(QWidget):
    def paintEvent(self, event):
        pass  # returns None
emitter = Emitter()
emitter.flag.connect(lambda value: None)
widget = Painted()
widget.show()
for _ in range(20000):
    emitter.flag.emit(True)
    emitter.flag.emit(False)
for _ in range(20000):
    widget.repaint()
gc.collect()
print("alive")
"""


def test_python_survives_thousands_of_signals_and_repaints():
    done = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "alive"
