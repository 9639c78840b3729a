"""Per-test time limits: a hang names the test that hung, shows where every thread waits, and
ends the run instead of holding it. Every test has the ``thread`` method (pyproject's
``timeout_method``): a deadlock of Qt's and Python's locks (CI, 2026-11-27) blocks the main thread
in C code just as a kernel that never ends does; the GPU modules set their own shorter limit.

A kernel that never ends leaves the main thread waiting inside a CUDA driver call. pytest-timeout's
default ``signal`` method cannot end that (Python runs a signal handler only between bytecodes),
so the GPU modules set ``pytestmark = gpu_time_limit``: ``method="thread"``, a watchdog thread.

This module is a pytest plugin (tests/conftest.py loads it) and that watchdog: at the limit it
writes the test's id and every thread's stack (``faulthandler``) to the real stderr and exits
with status 1. It serves pytest-timeout's ``thread`` timer where pytest-timeout is installed,
and reads the ``timeout`` marker itself where it is not (the GPU machine's Python may lack it;
pyproject's ``timeout`` does nothing there). Code that spins holding the GIL starves a Python
thread, so ``faulthandler``'s own C thread dumps the stacks and exits ``BACKSTOP_SECONDS`` later.
"""

import faulthandler
import os
import threading

import pytest

GPU_TEST_SECONDS = 120  # the slowest GPU test takes seconds (JIT included), on a GPU or not
gpu_time_limit = pytest.mark.timeout(GPU_TEST_SECONDS, method="thread")
BACKSTOP_SECONDS = 30

_stderr = None    # a descriptor of the real stderr: output capture swaps descriptor 2 in a test
_armed = {}       # item -> its watchdog timer


def pytest_configure(config):
    global _stderr
    _stderr = os.dup(2)  # capture is suspended while plugins configure: 2 is the terminal's
    if not config.pluginmanager.hasplugin("timeout"):
        config.addinivalue_line("markers", "timeout(seconds, method='thread'): end the run with "
                                           "every thread's stack if the test runs longer")


def pytest_unconfigure(config):
    os.close(_stderr)


def arm(item, seconds: float) -> None:
    """Start the watchdog of ``item``: past ``seconds``, stacks and exit."""
    def expire():
        item.config.get_terminal_writer().flush()  # the progress so far, before the process ends
        os.write(_stderr, f"\n+++ {item.nodeid} still running after {seconds:g} s: the stack of "
                          "every thread, then exit +++\n".encode())
        faulthandler.dump_traceback(file=_stderr, all_threads=True)
        os._exit(1)
    timer = threading.Timer(seconds, expire)
    timer.daemon = True
    timer.start()
    faulthandler.dump_traceback_later(seconds + BACKSTOP_SECONDS, exit=True, file=_stderr)
    _armed[item] = timer


def disarm(item) -> bool:
    timer = _armed.pop(item, None)
    if timer is None:
        return False
    timer.cancel()
    faulthandler.cancel_dump_traceback_later()
    return True


@pytest.hookimpl(optionalhook=True, tryfirst=True)
def pytest_timeout_set_timer(item, settings):
    """pytest-timeout's ``thread`` method, done by this watchdog (which names the test)."""
    if settings.method != "thread":
        return None
    arm(item, settings.timeout)
    return True


@pytest.hookimpl(optionalhook=True, tryfirst=True)
def pytest_timeout_cancel_timer(item):
    return True if disarm(item) else None


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item):
    """Without pytest-timeout: the ``timeout`` marker's limit, setup to teardown."""
    marker = item.get_closest_marker("timeout")
    own = marker is not None and not item.config.pluginmanager.hasplugin("timeout")
    if own:
        arm(item, float(marker.args[0] if marker.args else marker.kwargs["timeout"]))
    yield
    if own:
        disarm(item)
