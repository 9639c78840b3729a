"""The check for a GPU runs in a child process started beside the app's imports
(``engine.gpu_device.start_probe``); its answer is the one this process would find."""

import json
import subprocess
import sys

import pytest

from engine import gpu_device


@pytest.fixture
def fresh_probe(monkeypatch):
    monkeypatch.delenv("NUMBA_ENABLE_CUDASIM", raising=False)   # the child sees what we see
    gpu_device.forget_probe()
    yield
    gpu_device.forget_probe()


def child_answer():
    done = subprocess.run([sys.executable, "-m", "engine.gpu_device"], capture_output=True,
                          text=True, check=True)
    found = json.loads(done.stdout.splitlines()[-1])
    return found["reason"], found["name"]


def test_the_child_answers_what_this_process_finds(fresh_probe):
    assert child_answer() == gpu_device.probe_here()


def test_the_app_takes_the_childs_answer(fresh_probe, monkeypatch):
    monkeypatch.setattr(gpu_device, "_driver_library_loads", lambda: True)   # a driver: ask
    gpu_device.start_probe()
    assert gpu_device._child is not None
    reason, name = child_answer()
    assert gpu_device.gpu_unavailable_reason() == reason
    if reason is None:
        assert gpu_device.gpu_name() == name
    assert gpu_device._child.returncode == 0   # waited for, not left behind


def test_a_child_that_gives_no_answer_leaves_the_check_to_this_process(fresh_probe, monkeypatch):
    monkeypatch.setattr(gpu_device, "_driver_library_loads", lambda: True)
    monkeypatch.setattr(gpu_device.sys, "executable", "/bin/false")
    gpu_device.start_probe()
    assert gpu_device._child is not None
    assert gpu_device.gpu_unavailable_reason() == gpu_device.probe_here()[0]


def test_no_child_where_no_driver_loads(fresh_probe, monkeypatch):
    monkeypatch.setattr(gpu_device, "_driver_library_loads", lambda: False)
    gpu_device.start_probe()
    assert gpu_device._child is None
    assert gpu_device.gpu_unavailable_reason() == gpu_device.NO_GPU
