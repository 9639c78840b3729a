"""Test-wide settings: Qt offscreen, and Numba's CUDA simulator where there is no NVIDIA GPU."""

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
if not os.path.exists("/dev/nvidiactl"):
    # CI and laptops without a GPU run the CUDA kernels in the simulator, on small graphs.
    os.environ.setdefault("NUMBA_ENABLE_CUDASIM", "1")
