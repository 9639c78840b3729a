"""Test-wide settings: Qt offscreen, Numba's CUDA simulator where there is no NVIDIA GPU, a home
of the tests' own (tests/user_files.py: no test writes the user's settings, caches or current
folder), the watchdog that names a test hung on the GPU (tests/hang_guard.py), and the day's
compiled loop compiled once before any test runs where Numba's cache is cold (a fresh clone, CI:
a minute or more), so that no test's waits or time limit include it."""

import contextlib
import os
import time

import pytest

from tests import user_files

user_files.redirect_home()   # before anything imports Qt or reads a cache folder

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
if not os.path.exists("/dev/nvidiactl"):
    # CI and laptops without a GPU run the CUDA kernels in the simulator, on small graphs.
    os.environ.setdefault("NUMBA_ENABLE_CUDASIM", "1")

pytest_plugins = ["tests.hang_guard"]


@pytest.hookimpl(tryfirst=True)
def pytest_runtestloop(session):
    """Compile the day's loop (``engine.loop_warmup``) before the first test where it is cold,
    saying how long it took. Its cache lies beside the source (or in NUMBA_CACHE_DIR), which the
    tests' home does not move: every test and child process of the run loads it from there."""
    if session.config.option.collectonly or not session.items:
        return
    from engine import loop_warmup
    start = time.perf_counter()
    took = loop_warmup.compile_here()
    if took is not None:
        capture = session.config.pluginmanager.getplugin("capturemanager")   # (-p no:capture)
        with capture.global_and_fixture_disabled() if capture else contextlib.nullcontext():
            print(f"\nconftest: compiled the day's loop (cold Numba cache) in {took:.1f} s "
                  f"({time.perf_counter() - start:.1f} s with the look-up)", flush=True)


@pytest.fixture(scope="session", autouse=True)
def user_files_untouched():
    """A run in which a test wrote under the user's home or the current folder (this process's
    own writes: tests/user_files.py) ends with an error here naming each write."""
    yield user_files.written
    assert not user_files.written, "the tests wrote the user's files:\n" + "\n".join(user_files.written)


@pytest.fixture(autouse=True)
def _collect_between_tests():
    """Once a GUI test has started a worker, the app's collector (gui/collector.py) has turned
    automatic collection off and collects on a UI timer, which fires only while an event loop
    runs: between tests (on this, the UI thread) it collects what is due, as the timer would."""
    yield
    import sys
    collector = sys.modules.get("gui.collector")
    if collector is not None:
        collector.collect_due()
