"""The GPU test modules' time limit (tests/hang_guard.py) ends a test stuck where no signal
handler runs — compiled code that never returns, like a wait on a kernel that never ends — names
it and shows its stack, with pytest-timeout and without it (as on the GPU machine's Python).

Each case runs pytest in a subprocess on a small test file: the watchdog ends that process."""

import os
import subprocess
import sys
import textwrap

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

STUCK = textwrap.dedent('''
    import numba
    import numpy as np
    import pytest

    import tests.hang_guard

    tests.hang_guard.BACKSTOP_SECONDS = 1

    @numba.njit(nogil=NOGIL)
    def wait_for(flag):
        while flag[0] == 0:
            pass

    wait_for(np.ones(1, np.int32))  # compiled before any test starts its clock

    def test_passes_first():
        pass

    @pytest.mark.timeout(2, method="thread")
    def test_waits_in_compiled_code():
        wait_for(np.zeros(1, np.int32))

    def test_never_reached():
        pass
''')


def run_stuck(tmp_path, nogil: bool, plugin: bool) -> subprocess.CompletedProcess:
    path = tmp_path / "test_stuck.py"
    path.write_text(STUCK.replace("NOGIL", str(nogil)))
    flags = [] if plugin else ["-p", "no:timeout"]
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p",
                           "tests.hang_guard", *flags, str(path)], cwd=tmp_path, capture_output=True,
                          text=True, timeout=300, env={**os.environ, "PYTHONPATH": ROOT})


@pytest.mark.parametrize("plugin", [True, False], ids=["pytest-timeout", "without pytest-timeout"])
def test_a_test_waiting_in_compiled_code_is_named_and_ended(tmp_path, plugin):
    done = run_stuck(tmp_path, nogil=True, plugin=plugin)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "test_stuck.py::test_waits_in_compiled_code still running after 2 s" in done.stderr
    assert "in test_waits_in_compiled_code" in done.stderr  # its stack
    assert "test_never_reached" not in done.stdout + done.stderr
    assert done.stdout.startswith(".")  # the progress before the hang is not lost


def test_code_holding_the_gil_is_ended_by_the_backstop(tmp_path):
    """No Python thread runs while compiled code holds the GIL: faulthandler's C thread ends it."""
    done = run_stuck(tmp_path, nogil=False, plugin=True)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "in test_waits_in_compiled_code" in done.stderr
    assert "still running" not in done.stderr  # the watchdog thread never got to speak
