"""A stand-in for the day loop's warm-up child (``engine.loop_warmup``) that runs until the test
releases it: a cold cache answered by the test, no minute of compiling."""

from __future__ import annotations

import sys

from engine import loop_warmup


class FakeChild:
    """``start()`` begins a child that ends when ``release()`` (or ``fail()``) is called."""

    def __init__(self, monkeypatch, folder):
        self.release_file, self.fail_file = folder / "release", folder / "fail"
        wait = (f"import os, sys, time\n"
                f"while not os.path.exists({str(self.release_file)!r}):\n"
                f"    if os.path.exists({str(self.fail_file)!r}): sys.exit('no compiler today')\n"
                f"    time.sleep(0.02)\n")
        monkeypatch.setattr(loop_warmup, "_thread", None)
        monkeypatch.setattr(loop_warmup, "failed", None)
        monkeypatch.setattr(loop_warmup, "cold", lambda: True)
        monkeypatch.setattr(loop_warmup, "child_command", lambda: [sys.executable, "-c", wait])

    def start(self) -> bool:
        return loop_warmup.start()

    def release(self) -> None:
        self.release_file.touch()

    def fail(self) -> None:
        self.fail_file.touch()

    def end(self) -> None:
        """Release the child (if still running) and wait for it."""
        self.release()
        loop_warmup.wait()
