"""Test-wide settings: Qt offscreen, Numba's CUDA simulator where there is no NVIDIA GPU, and the
watchdog that names a test hung on the GPU (tests/hang_guard.py)."""

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
if not os.path.exists("/dev/nvidiactl"):
    # CI and laptops without a GPU run the CUDA kernels in the simulator, on small graphs.
    os.environ.setdefault("NUMBA_ENABLE_CUDASIM", "1")

pytest_plugins = ["tests.hang_guard"]
