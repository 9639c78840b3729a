"""What GPU this machine has for Numba CUDA, and why not when it has none; and its CPU's model."""

import ctypes
import json
import os
import platform
import subprocess
import sys
import threading


def simulated() -> bool:
    """True when Numba's CUDA simulator stands in for a GPU (NUMBA_ENABLE_CUDASIM=1)."""
    return os.environ.get("NUMBA_ENABLE_CUDASIM", "0") == "1"


NO_GPU = "no CUDA driver or no NVIDIA GPU found"
PROBE_TIMEOUT_S = 60
_LOCK = threading.Lock()
_child: subprocess.Popen | None = None
_answer: tuple[str | None, str | None] | None = None   # (why no GPU, the GPU's name)


def start_probe() -> None:
    """Begin the check for a GPU in a child process (``python -m engine.gpu_device``), so that
    Numba CUDA's import and CUDA's start (about 1 s on a fresh machine) run beside the app's own
    imports and never in this process; ``gpu_unavailable_reason`` takes its answer. Nothing to
    start where no driver loads or the simulator stands in; the first check starts it anyway."""
    with _LOCK:
        _start_locked()


def _start_locked() -> None:
    global _child, _answer
    if _child is not None or _answer is not None or simulated():
        return
    if not _driver_library_loads():   # no need to import Numba CUDA at all
        _answer = (NO_GPU, None)
        return
    try:
        _child = subprocess.Popen([sys.executable, "-m", "engine.gpu_device"], text=True,
                                  stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    except OSError:
        _child = None   # the check runs in this process


def gpu_unavailable_reason() -> str | None:
    """None when a CUDA device (or the simulator) is there to run kernels, else a short reason.
    Waits for the child's answer (``start_probe``), or checks here where the child could not
    answer. Makes no CUDA context: a device that cannot make one fails at its first use, which
    falls back to the CPU."""
    return _probed()[0]


def _probed() -> tuple[str | None, str | None]:
    global _answer
    with _LOCK:
        if _answer is None:
            _start_locked()
        if _answer is None:
            _answer = _ask_child() or probe_here()
        return _answer


def _ask_child() -> tuple[str | None, str | None] | None:
    """The child's answer; None where it gave none (then this process checks itself)."""
    if _child is None:
        return None
    try:
        out, _ = _child.communicate(timeout=PROBE_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        _child.kill()
        _child.communicate()
        return f"the GPU check did not answer in {PROBE_TIMEOUT_S} s", None
    try:
        found = json.loads(out.strip().splitlines()[-1])
        return found["reason"], found["name"]
    except (IndexError, ValueError, KeyError, TypeError):
        return None


def forget_probe() -> None:
    """Check again at the next question (tests)."""
    global _child, _answer
    with _LOCK:
        _child = _answer = None


def probe_here() -> tuple[str | None, str | None]:
    """(why no GPU, the GPU's name), checked in this process: imports Numba CUDA."""
    if not simulated() and not _driver_library_loads():
        return NO_GPU, None
    try:
        from numba import cuda
    except Exception as exc:  # numba-cuda missing or broken
        return f"Numba CUDA cannot be imported ({exc.__class__.__name__}: {exc})", None
    if simulated():
        return None, "CUDA simulator"
    try:
        if not cuda.is_available() or not len(cuda.gpus):
            return NO_GPU, None
        name = cuda.gpus[0].name   # the device kernels run on (none is selected): no context made
    except Exception as exc:
        return f"CUDA device unusable ({exc.__class__.__name__}: {str(exc)[:120]})", None
    return None, name.decode() if isinstance(name, bytes) else str(name)


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


def gpu_name() -> str:
    """The device's name, e.g. 'NVIDIA H100 80GB HBM3', or 'CUDA simulator'."""
    return "CUDA simulator" if simulated() else _probed()[1] or "unknown GPU"


def device_name(family: str, threads: int | None = None) -> str:
    """What a variant of ``family`` ("cpu" or "gpu") ran on, for results and reports; a CPU one
    on ``threads`` threads (None: as many as Numba's thread pool, which its parallel loops use)."""
    if family == "gpu":
        return gpu_name()
    if threads is None:
        import numba
        threads = numba.get_num_threads()
    return f"CPU ({threads} thread{'' if threads == 1 else 's'})"


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


if __name__ == "__main__":   # the child of ``start_probe``: its answer as one JSON line
    reason, name = probe_here()
    print(json.dumps({"reason": reason, "name": name}))
