"""Launching gpu-fast's kernels: compiled for a ``Tuning`` (and kept on disk), then queued in the
blocked algorithm's order — one persistent launch for every k-block where the graph is small,
phases 1+2 and phase 3 per k-block where it is large (or in 16-bit lanes), the via recovery
after either."""

import functools
import hashlib
import importlib.util
import os
import tempfile

from numba import cuda

from ...gpu_launch import THREADS as ROW_THREADS  # few under the simulator, 256 on a GPU
from ...gpu_launch import ceil_div
from ...user_cache import cache_folder
from .source import SIMULATED, generated_source
from .tuning import Tuning


def kernels(t: Tuning):
    """The compiled kernels for ``t`` (compiled on first use, before any timing; cached on disk
    on a GPU)."""
    return _kernels(t.kernel_part())


@functools.cache
def _kernels(t: Tuning):
    return module_from_source(generated_source(t))


def module_from_source(source: str):
    """Import generated kernel source as a module, written to a file named by its digest in
    ``kernel_cache_dir()``, so Numba's disk cache (beside it) keys on it and the compiled
    kernels outlive the process: only the first solve on a machine compiles (the GPU probes
    load variants of the kernels this way too)."""
    digest = hashlib.sha1(source.encode()).hexdigest()[:12]
    folder = kernel_cache_dir()
    path = os.path.join(folder, f"fw_fast_{digest}.py")
    if not os.path.exists(path):
        with open(path + f".{os.getpid()}.tmp", "w") as f:
            f.write(source)
        os.replace(path + f".{os.getpid()}.tmp", path)
    spec = importlib.util.spec_from_file_location(f"bagroute_fw_fast_{digest}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def kernel_cache_dir() -> str:
    """Where the generated kernels and their compiled code are kept: ``$BAGROUTE_KERNEL_CACHE``,
    else the user's cache folder (``$XDG_CACHE_HOME`` or ``~/.cache``)/bagroute/gpu_fast, which
    survives restarts (the temporary folder does not, everywhere); the temporary folder only
    where that cannot be written."""
    for folder in (os.environ.get("BAGROUTE_KERNEL_CACHE"), os.path.join(cache_folder(), "gpu_fast"),
                   os.path.join(tempfile.gettempdir(), "bagroute_gpu_fast")):
        if folder:
            try:
                os.makedirs(folder, exist_ok=True)
                if os.access(folder, os.W_OK):
                    return folder
            except OSError:
                continue
    raise OSError("no writable folder for the compiled GPU kernels")


def one_launch(t: Tuning) -> tuple:
    """(kernel, most co-resident blocks, None), or (None, 0, why) where cooperative launches
    cannot be built (grid barriers need the CUDA toolkit's cudadevrt library); then every size
    takes the many-launch path."""
    return _one_launch(t.kernel_part())


@functools.cache
def _one_launch(t: Tuning) -> tuple:
    try:
        kernel = cuda.jit("void(int32[:, ::1], int32[:, ::1], int32[:, ::1], int32)",
                          cache=not SIMULATED)(kernels(t).one_launch)
        if SIMULATED:
            return kernel, 1, None  # the simulator runs cooperative grids of one block only
        compiled = next(iter(kernel.overloads.values()))
        return kernel, int(compiled.max_cooperative_grid_blocks((t.threads, t.threads))), None
    except Exception as exc:  # noqa: BLE001 — any build failure means: use the other path
        return None, 0, f"{exc.__class__.__name__}: {str(exc)[:200]}"


def launch_all(t: Tuning, W, D, V, T, nb: int, O=None, stream=0, after=lambda step: None):
    """Queue the whole solve: pad W into D (V = -1), every k-block, then the via recovery (T:
    scratch for D transposed), with it, if O (2×n×n) is given, the unpadded answer into it. D and
    V are nb·B square and 16-byte aligned (``load4`` reads them), as ``buffers.device_buffers`` makes
    them; W and O may be mapped host memory. ``after(step)`` is called once each launch is
    queued (the GPU probes time the steps with it)."""
    launch_rounds(t, W, D, V, nb, stream=stream, after=after)
    launch_recovery(t, D, V, T, nb, O, stream=stream, after=after)


def by_rows(kernel, rows: int, columns: int, stream):
    """``kernel`` launched over rows × columns cells: row blockIdx.x, ROW_THREADS columns a block."""
    return kernel[(rows, ceil_div(columns, ROW_THREADS)), ROW_THREADS, stream]


def launch_rounds(t: Tuning, W, D, V, nb: int, stream=0, after=lambda step: None, lanes=False, tiles=None):
    """Queue the padding of W into D and every k-block: D holds the final distances after.
    With ``lanes`` D is (nb·B)×(nb·B/2) and holds them as 16-bit lane pairs, each at most CAP
    (``gpu_lanes16``; nb a multiple of ``lanes_multiple``): twice the relaxations per instruction in phase 3; ``tiles``
    (nb×nb) is zeroed for ``widen``. With ``tiles`` alone D already holds ``widen``'s start
    (no padding) and phase 3 takes only the tiles marked in it: the others are final."""
    k = kernels(t)
    size = nb * t.b
    tile = (t.threads, t.threads)
    kernel, most, _ = (one_launch(t) if not lanes and tiles is None
                       and (t.one_launch_max < 0 or size <= t.one_launch_max) else (None, 0, None))
    if kernel is not None:
        kernel[max(1, min(most, nb * nb)), tile, stream](W, D, V, nb)
        after("one launch")
        return
    grid = (nb - 1, nb - 1), tile, stream
    if lanes:
        by_rows(k.pack, size, D.shape[1], stream)(W, D, V, tiles)
        after("pack")
        peripheral, inner = k.phase2_lanes, lanes_phase3(t, nb, stream)
    elif tiles is None:
        by_rows(k.pad, size, size, stream)(W, D, V)
        after("pad")
        peripheral, inner = k.phase2, k.phase3[grid]
    else:
        peripheral, marked = k.phase2, k.phase3_tiles[grid]

        def inner(D, V, kb, nb):
            marked(D, V, kb, nb, tiles)
    blocks = max(1, 2 * (nb - 1)), tile, stream
    # (lanes_lookahead: round kb − 1's phase 3 closed round kb's diagonal tile, kb ≥ 1)
    first, peripheral = peripheral[blocks], (k.phase2_lanes_closed if lanes and t.lanes_lookahead else peripheral)[blocks]
    for kb in range(nb):
        (peripheral if kb else first)(D, V, kb, nb)
        after("phases 1+2")
        if nb > 1:
            inner(D, V, kb, nb)
            after("phase 3")


def launch_widen(t: Tuning, buf: dict, token: int, stream=0):
    """Queue ``widen`` on the copied path's buffers (``Buffers.copied``): L's lanes into D as
    int32 (cells at CAP marked, ``capped`` = token), and with ``Tuning.lanes_marks16`` VL's
    int16 marks into V as int32 (with ``lanes_vias16`` too: ``lanes_marks`` does it)."""
    L = buf["L"]
    marks = (buf["VL"], buf["V"]) if t.lanes_marks16 and not t.lanes_vias16 else ()
    by_rows(kernels(t).widen, L.shape[0], L.shape[1], stream)(L, buf["D"], buf["W"], buf["M"], buf["capped"], token,
                                                             *marks)


def lanes_marks(t: Tuning, buf: dict, exact: bool, stream=0):
    """After ``widen``, with ``Tuning.lanes_vias16``: VL where the recovery reads the marks
    there and writes the vias straight into N (an exact lanes solve with int16 vias), else
    None, with ``widen_marks`` queued to write them to V. None at once without the switch."""
    if not t.lanes_vias16:
        return None
    if exact and buf["N"] is not None:
        return buf["VL"]
    by_rows(kernels(t).widen_marks, buf["VL"].shape[0], buf["VL"].shape[1], stream)(buf["VL"], buf["V"])
    return None


def lanes_phase3(t: Tuning, nb: int, stream=0):
    """Phase 3 on lanes, configured for nb k-blocks (a multiple of ``lanes_multiple(t)``)."""
    k, tile = kernels(t), (t.threads, t.threads)
    if t.lanes_wide:
        return k.phase3_lanes_wide[(nb // 4, nb - 1), tile, stream]
    return k.phase3_lanes[(nb // 2, nb - 1), tile, stream]


def lanes_multiple(t: Tuning) -> int:
    """What a lanes solve's k-blocks are padded to a multiple of: its column tiles' width."""
    return 4 if t.lanes_wide else 2


def launch_recovery(t: Tuning, D, V, T, nb: int, O=None, N=None, stream=0, after=lambda step: None,
                    lanes=None, VL=None):
    """Queue the via recovery (reads D, writes V; launched apart even after the persistent
    kernel: at full occupancy, not its register budget). With O (2×n×n) the unpadded answer is
    written into it as well; with N (padded, int16) the vias narrowed into it. With ``lanes``,
    (L, TL) of an exact lanes solve (D: L widened), the candidates are tested in lanes, two a
    word (TL: scratch for L transposed); with VL too (``lanes_marks``), the marks are read from
    VL and the vias written straight into N."""
    k = kernels(t)
    tile = (t.threads, t.threads)
    size = nb * t.b
    if lanes is not None:
        L, TL = lanes
        k.transpose_lanes[(nb, nb), tile, stream](L, TL)
        after("transpose")
        staged = t.lanes_recover_staged and L.shape[1] <= t.lanes_row_words
        chunk = t.lanes_recover_chunk
        grid = (size, ceil_div(size, chunk)), tile, stream
        if VL is not None:
            (k.recover_lanes16_rows if staged else k.recover_lanes16)[grid](L, VL, TL, chunk, N)
            after("recover")
            return
        (k.recover_lanes_rows if staged else k.recover_lanes)[grid](L, V, TL, chunk)
    else:
        k.transpose[(nb, nb), tile, stream](D, T)
        after("transpose")
        recovery = (size // t.recover_columns, size // t.recover_rows), tile, stream
        if O is not None:
            k.recover_export[recovery](D, V, T, O)
        else:
            k.recover[recovery](D, V, T)
    after("recover")
    if N is not None:
        by_rows(k.narrow, size, size, stream)(V, N)
        after("narrow")


# Padded sizes up to this read their input from, and write their answer into, page-locked host
# memory mapped into the device: no copy calls (measured on the H100, end to end: n = 500
# 1.5 → 0.8 ms, the 2,253-node hub 24.7 → 8.0 ms; at n = 4,000 no gain and a slower solve, as
# the answer crosses PCIe inside the kernels). Larger ones copy, through page-locked host
# buffers kept for the next call: the input up before the solve, the distances back while
# the vias are recovered, the vias (int16 up to VIA16_MAX) last; the answer is handed out as
