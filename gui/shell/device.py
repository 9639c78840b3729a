"""What this machine is, in the words of the status bar and the timing plot (the CPU's model from
/proc/cpuinfo where there is one, the GPU or why there is none)."""

from __future__ import annotations

import os

from engine.gpu_device import cpu_model, gpu_name, gpu_unavailable_reason, simulated


def timing_device() -> str:
    """The timing plot's subtitle: GPU (or none) and CPU with its core count."""
    cpu = f"CPU: {cpu_model() or 'unknown'} ×{os.cpu_count() or 1}"
    if gpu_unavailable_reason() is None:
        return f"GPU: {'CUDA simulator' if simulated() else gpu_name()} · {cpu}"
    return f"{cpu} (no GPU)"


def device_text() -> str:
    """The status bar's permanent label: which GPU the GPU variants run on, if any."""
    if gpu_unavailable_reason() is not None:
        return "No GPU — CPU variants only"
    if simulated():
        return "GPU: Numba CUDA simulator (no real GPU)"
    return f"GPU: {gpu_name()}"


def device_tip() -> str:
    """Why there is no GPU, or that GPU variants can run here."""
    return gpu_unavailable_reason() or "GPU variants can run here"
