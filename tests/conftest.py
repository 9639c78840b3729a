"""Test-wide settings: Qt offscreen, Numba's CUDA simulator where there is no NVIDIA GPU, a home
of the tests' own (tests/user_files.py: no test writes the user's settings, caches or current
folder), and the watchdog that names a test hung on the GPU (tests/hang_guard.py)."""

import os

import pytest

from tests import user_files

user_files.redirect_home()   # before anything imports Qt or reads a cache folder

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
if not os.path.exists("/dev/nvidiactl"):
    # CI and laptops without a GPU run the CUDA kernels in the simulator, on small graphs.
    os.environ.setdefault("NUMBA_ENABLE_CUDASIM", "1")

pytest_plugins = ["tests.hang_guard"]


@pytest.fixture(scope="session", autouse=True)
def user_files_untouched():
    """A run in which a test wrote under the user's home or the current folder (this process's
    own writes: tests/user_files.py) ends with an error here naming each write."""
    yield user_files.written
    assert not user_files.written, "the tests wrote the user's files:\n" + "\n".join(user_files.written)
