"""What GPU this machine has for Numba CUDA, and why not when it has none; and its CPU's model."""

import ctypes
import functools
import os
import platform
import sys


def simulated() -> bool:
    """True when Numba's CUDA simulator stands in for a GPU (NUMBA_ENABLE_CUDASIM=1)."""
    return os.environ.get("NUMBA_ENABLE_CUDASIM", "0") == "1"


@functools.cache
def gpu_unavailable_reason() -> str | None:
    """None when a CUDA device (or the simulator) is there to run kernels, else a short reason.
    Makes no CUDA context (a third of a second on an H100 host, at the app's start, on its UI
    thread): a device that cannot make one fails at its first use, which falls back to the CPU."""
    if not simulated() and not _driver_library_loads():  # no need to import Numba CUDA (~0.4 s)
        return "no CUDA driver or no NVIDIA GPU found"
    try:
        from numba import cuda
    except Exception as exc:  # numba-cuda missing or broken
        return f"Numba CUDA cannot be imported ({exc.__class__.__name__}: {exc})"
    if simulated():
        return None
    try:
        if not cuda.is_available() or not len(cuda.gpus):
            return "no CUDA driver or no NVIDIA GPU found"
    except Exception as exc:
        return f"CUDA device unusable ({exc.__class__.__name__}: {str(exc)[:120]})"
    return None


def _driver_library_loads() -> bool:
    """Whether the CUDA driver library loads, looked for by the names Numba CUDA tries (or
    where ``NUMBA_CUDA_DRIVER`` says: then Numba decides)."""
    if os.environ.get("NUMBA_CUDA_DRIVER") or sys.platform == "darwin":
        return True
    names, folders = ((["nvcuda.dll"], ["\\windows\\system32"]) if sys.platform == "win32" else
                      (["libcuda.so", "libcuda.so.1"], ["/usr/lib", "/usr/lib64"]))
    for name in names + [os.path.join(f, n) for f in folders for n in names]:
        try:
            ctypes.CDLL(name)
            return True
        except OSError:
            continue
    return False


@functools.cache
def gpu_name() -> str:
    """The device's name, e.g. 'NVIDIA H100 80GB HBM3', or 'CUDA simulator'."""
    if simulated():
        return "CUDA simulator"
    from numba import cuda
    name = cuda.gpus[0].name   # the device kernels run on (none is selected): no context made
    return name.decode() if isinstance(name, bytes) else str(name)


def device_name(family: str) -> str:
    """What a variant of ``family`` ("cpu" or "gpu") ran on, for results and reports."""
    if family == "gpu":
        return gpu_name()
    import numba
    return f"CPU ({numba.get_num_threads()} threads)"


def cpu_model() -> str:
    """The CPU's model name (Linux: /proc/cpuinfo), else what ``platform`` says, else ''."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as fh:
            for line in fh:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or ""
