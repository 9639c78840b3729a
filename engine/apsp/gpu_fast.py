"""GPU fast: blocked Floyd–Warshall tuned for the H100 — exact int32, a route for every pair.

The schedule is the blocked algorithm's (gpu_blocked.py): per k-block of B vertices, phase 1
(the self-dependent diagonal tile), phase 2 (its row and column tiles), phase 3 (the rest).
What makes it fast:

- the matrix is padded to a multiple of B with isolated vertices, so no kernel tests bounds;
- 64×64 tiles, 16×16 threads, each keeping 4×4 cells in scalar registers (the source is
  generated: Numba has no register arrays), and every sum is ``int32(a + b)``: Numba would do
  ``int32 + int32`` in 64 bits otherwise, three times slower; ptxas then fuses each add-min
  into one Hopper ``VIADDMNMX``;
- routes are a "via" matrix. Phase 3 — nearly all the work — is a min-plus product against
  tiles that stay fixed for the round, so it need not record k at every step: it takes the
  minimum of each group of G steps with the bare add-min, notes only which group last improved
  the cell, and after the round looks up the k inside that group (any k reaching the minimum
  is a correct split point). Phases 1 and 2 record k inline;
- one launch for the whole algorithm where the graph is small (a persistent cooperative kernel
  with a grid barrier between phases), three launches per k-block where it is large.

Tile and cell sizes are module constants chosen by ``gpu_device.simulated()``: Numba's CUDA
simulator runs each GPU thread as a Python thread, so it gets 8×8 tiles of 4×4 threads.
Measurements and the versions that lost: GPU_NOTES.md.
"""

import functools
import hashlib
import importlib.util
import os
import tempfile
import threading

import numpy as np
from numba import cuda

from .gpu_common import SIMULATED, ceil_div, empty_result, timed_on_device
from .matrix import INF
from .routes import RouteMatrix

# B: tile and k-block. Phases 1–2 and the one-launch kernel: TD×TD threads, CD×CD cells each,
# G k-steps per via group. Phase 3 of the many-launch path: T3Y×T3X threads with C3R×C3C
# cells each, G3 k-steps per via group (G3 == B: no groups, improved cells search the block).
B, TD, CD, G = (8, 4, 2, 4) if SIMULATED else (64, 16, 4, 8)
T3Y, T3X, C3R, C3C, G3 = (4, 4, 2, 2, 4) if SIMULATED else (16, 16, 4, 4, 8)
# Register cap for phase 3 (None: the compiler's choice): fewer registers, more blocks per SM.
P3_MAX_REGISTERS = None
# Largest padded size solved by the single persistent launch (0: never; -1: always).
ONE_LAUNCH_MAX = 10**9 if SIMULATED else 1024


def _cells(c):
    return [(r, q) for r in range(c) for q in range(c)]


def _dependent_tile_source(name, t, c, b, a_src, b_src):
    """Phase 1 (a_src = b_src = "S") or 2 ("P" = finished diagonal tile): a dependent tile,
    its cells in registers and mirrored in shared S for the other threads, k recorded inline."""
    cells = _cells(c)
    src = ["@cuda.jit(device=True)", f"def {name}(D, V, row0, col0, kbase, S, P):",
           "    ty = cuda.threadIdx.y", "    tx = cuda.threadIdx.x"]
    src += [f"    i{r} = ty + {t * r}" for r in range(c)]
    src += [f"    j{q} = tx + {t * q}" for q in range(c)]
    for r, q in cells:
        src += [f"    d{r}_{q} = D[row0 + i{r}, col0 + j{q}]",
                f"    S[i{r}, j{q}] = d{r}_{q}",
                f"    v{r}_{q} = int32(-2)"]
    src += ["    cuda.syncthreads()", f"    for k in range({b}):", "        kv = int32(kbase + k)"]
    src += [f"        a{r} = {a_src}[i{r}, k]" for r in range(c)]
    src += [f"        b{q} = {b_src}[k, j{q}]" for q in range(c)]
    for r, q in cells:
        src += [f"        s = int32(a{r} + b{q})",
                f"        if s < d{r}_{q}:",
                f"            d{r}_{q} = s",
                f"            v{r}_{q} = kv",
                f"            S[i{r}, j{q}] = s"]
    src += ["        cuda.syncthreads()"]
    for r, q in cells:
        src += [f"    if v{r}_{q} != -2:",
                f"        D[row0 + i{r}, col0 + j{q}] = d{r}_{q}",
                f"        V[row0 + i{r}, col0 + j{q}] = v{r}_{q}"]
    return "\n".join(src) + "\n"


def _independent_tile_source(name, ty_n, tx_n, cr, cc, b, g, unroll=8):
    """Phase 3: tile (row0, col0) = min(itself, column tile (row0, kbase) ⊗ row tile (kbase, col0)).

    ty_n×tx_n threads, each with cr×cc cells (rows ty + ty_n·r, columns tx + tx_n·q). With
    g < b the via group of each cell is tracked; with g == b only the improved cells are known
    (compared with the value in memory) and the whole k-block is searched for their via."""
    cells = [(r, q) for r in range(cr) for q in range(cc)]
    src = ["@cuda.jit(device=True)", f"def {name}(D, V, row0, col0, kbase, As, Bs):",
           "    ty = cuda.threadIdx.y", "    tx = cuda.threadIdx.x"]
    src += [f"    i{r} = ty + {ty_n * r}" for r in range(cr)]
    src += [f"    j{q} = tx + {tx_n * q}" for q in range(cc)]
    src += [f"    for e in range(ty * {tx_n} + tx, {b * b}, {ty_n * tx_n}):",
            f"        As[e // {b}, e % {b}] = D[row0 + e // {b}, kbase + e % {b}]",
            f"        Bs[e // {b}, e % {b}] = D[kbase + e // {b}, col0 + e % {b}]"]
    for r, q in cells:
        src += [f"    d{r}_{q} = D[row0 + i{r}, col0 + j{q}]"]
        if g < b:
            src += [f"    g{r}_{q} = int32(-1)"]
    src += ["    cuda.syncthreads()"]
    if g < b:
        src += [f"    for grp in range({b // g}):", f"        k = grp * {g}", "        gv = int32(grp)"]
        for step in range(g):
            src += [f"        a{r} = As[i{r}, k + {step}]" for r in range(cr)]
            src += [f"        b{q} = Bs[k + {step}, j{q}]" for q in range(cc)]
            for r, q in cells:
                if step == 0:
                    src.append(f"        m{r}_{q} = int32(a{r} + b{q})")
                else:
                    src.append(f"        m{r}_{q} = min(m{r}_{q}, int32(a{r} + b{q}))")
        for r, q in cells:
            src += [f"        if m{r}_{q} < d{r}_{q}:",
                    f"            d{r}_{q} = m{r}_{q}",
                    f"            g{r}_{q} = gv"]
        # Which k of the last improving group reached the minimum: that k is the cell's via.
        for r, q in cells:
            src += [f"    if g{r}_{q} >= 0:",
                    f"        D[row0 + i{r}, col0 + j{q}] = d{r}_{q}",
                    f"        k = g{r}_{q} * {g}",
                    f"        for step in range({g}):",
                    f"            if int32(As[i{r}, k + step] + Bs[k + step, j{q}]) == d{r}_{q}:",
                    f"                V[row0 + i{r}, col0 + j{q}] = int32(kbase + k + step)",
                    "                break"]
    else:
        src += [f"    for k in range(0, {b}, {unroll}):"]
        for step in range(unroll):
            src += [f"        a{r} = As[i{r}, k + {step}]" for r in range(cr)]
            src += [f"        b{q} = Bs[k + {step}, j{q}]" for q in range(cc)]
            src += [f"        d{r}_{q} = min(d{r}_{q}, int32(a{r} + b{q}))" for r, q in cells]
        for r, q in cells:
            src += [f"    if d{r}_{q} < D[row0 + i{r}, col0 + j{q}]:",
                    f"        D[row0 + i{r}, col0 + j{q}] = d{r}_{q}",
                    f"        for k in range({b}):",
                    f"            if int32(As[i{r}, k] + Bs[k, j{q}]) == d{r}_{q}:",
                    f"                V[row0 + i{r}, col0 + j{q}] = int32(kbase + k)",
                    "                break"]
    src += ["    cuda.syncthreads()"]
    return "\n".join(src) + "\n"


def _kernels_source():
    """Device functions for both launch shapes, and the kernels that schedule them."""
    parts = [
        "from numba import cuda, int32\n",
        f"B = {B}\nSH = ({B}, {B + 1})\nINF = int32({int(INF)})\n",
        _dependent_tile_source("diagonal_tile", TD, CD, B, "S", "S"),
        _dependent_tile_source("row_tile", TD, CD, B, "P", "S"),
        _dependent_tile_source("column_tile", TD, CD, B, "S", "P"),
        _independent_tile_source("independent_tile_small", TD, TD, CD, CD, B, G)
        if _separate_small_tile() else "independent_tile_small = None\n",
        _independent_tile_source("independent_tile", T3Y, T3X, C3R, C3C, B, G3),
        _SCHEDULE_SOURCE,
    ]
    return "\n\n".join(parts)


_SCHEDULE_SOURCE = '''
@cuda.jit(device=True, inline=True)
def load_tile(D, row0, col0, P):
    t = cuda.threadIdx.y * cuda.blockDim.x + cuda.threadIdx.x
    for e in range(t, B * B, cuda.blockDim.x * cuda.blockDim.y):
        P[e // B, e % B] = D[row0 + e // B, col0 + e % B]


@cuda.jit(device=True, inline=True)
def peripheral_tile(D, V, kb, t, nb, S, P):
    """Phase 2 tile number t: t < nb-1 is a row tile, else a column tile (diagonal skipped)."""
    base = kb * B
    side = t // (nb - 1)
    j = t % (nb - 1)
    j += 1 if j >= kb else 0
    load_tile(D, base, base, P)
    if side == 0:
        row_tile(D, V, base, j * B, base, S, P)
    else:
        column_tile(D, V, j * B, base, base, S, P)


@cuda.jit(SIG_PAD, cache=CACHE)
def pad(W, D, V):
    """D = W grown with isolated vertices (INF rows and columns, 0 diagonal); V = -1."""
    j, i = cuda.grid(2)
    n = W.shape[0]
    if i < D.shape[0] and j < D.shape[1]:
        if i < n and j < n:
            D[i, j] = W[i, j]
        else:
            D[i, j] = 0 if i == j else INF
        V[i, j] = -1


@cuda.jit(SIG_ROUND, cache=CACHE)
def phase1(D, V, kb, nb):
    S = cuda.shared.array(SH, int32)
    P = cuda.shared.array(SH, int32)
    diagonal_tile(D, V, kb * B, kb * B, kb * B, S, P)


@cuda.jit(SIG_ROUND, cache=CACHE)
def phase2(D, V, kb, nb):
    S = cuda.shared.array(SH, int32)
    P = cuda.shared.array(SH, int32)
    peripheral_tile(D, V, kb, cuda.blockIdx.x, nb, S, P)


@cuda.jit(SIG_ROUND, cache=CACHE P3_OPTIONS)
def phase3(D, V, kb, nb):
    As = cuda.shared.array(SH, int32)
    Bs = cuda.shared.array(SH, int32)
    i = cuda.blockIdx.y + (1 if cuda.blockIdx.y >= kb else 0)
    j = cuda.blockIdx.x + (1 if cuda.blockIdx.x >= kb else 0)
    independent_tile(D, V, i * B, j * B, kb * B, As, Bs)


def one_launch(D, V, unused, nb):
    """All k-blocks in one persistent launch; a grid barrier after every phase."""
    grid = cuda.cg.this_grid()
    S = cuda.shared.array(SH, int32)
    P = cuda.shared.array(SH, int32)
    for kb in range(nb):
        if cuda.blockIdx.x == 0:
            diagonal_tile(D, V, kb * B, kb * B, kb * B, S, P)
        grid.sync()
        for t in range(cuda.blockIdx.x, 2 * (nb - 1), cuda.gridDim.x):
            peripheral_tile(D, V, kb, t, nb, S, P)
        grid.sync()
        for t in range(cuda.blockIdx.x, (nb - 1) * (nb - 1), cuda.gridDim.x):
            i = t // (nb - 1)
            j = t % (nb - 1)
            i += 1 if i >= kb else 0
            j += 1 if j >= kb else 0
            SMALL_TILE(D, V, i * B, j * B, kb * B, S, P)
        grid.sync()
'''


def _separate_small_tile() -> bool:
    """Whether the one-launch kernel needs its own phase-3 tile function."""
    return (TD, TD, CD, CD, G) != (T3Y, T3X, C3R, C3C, G3)


def _generated_source() -> str:
    """The kernels' module source, with this configuration's signatures and tile choices."""
    small = "independent_tile_small" if _separate_small_tile() else "independent_tile"
    return _kernels_source().replace("SMALL_TILE", small).replace(
        "SIG_PAD", repr("void(int32[:, ::1], int32[:, ::1], int32[:, ::1])")).replace(
        "SIG_ROUND", repr("void(int32[:, ::1], int32[:, ::1], int32, int32)")).replace(
        "CACHE", repr(not SIMULATED)).replace(
        " P3_OPTIONS", f", max_registers={P3_MAX_REGISTERS}" if P3_MAX_REGISTERS and not SIMULATED else "")


@functools.cache
def _kernels():
    """The compiled kernels (compiled on first use, before any timing; cached on disk on a GPU:
    the generated source is written to a file so Numba's cache can key on it)."""
    source = _generated_source()
    digest = hashlib.sha1(source.encode()).hexdigest()[:12]
    folder = os.path.join(tempfile.gettempdir(), "bagroute_gpu_fast")
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, f"fw_fast_{digest}.py")
    if not os.path.exists(path):
        with open(path + ".tmp", "w") as f:
            f.write(source)
        os.replace(path + ".tmp", path)
    spec = importlib.util.spec_from_file_location(f"bagroute_fw_fast_{digest}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@functools.cache
def _one_launch():
    """(kernel, most co-resident blocks), or None where cooperative launches cannot be built
    (grid barriers need the CUDA toolkit's cudadevrt library); then every size takes the
    many-launch path."""
    try:
        kernel = cuda.jit("void(int32[:, ::1], int32[:, ::1], int32, int32)",
                          cache=not SIMULATED)(_kernels().one_launch)
        if SIMULATED:
            return kernel, 1  # the simulator runs cooperative grids of one block only
        compiled = next(iter(kernel.overloads.values()))
        return kernel, int(compiled.max_cooperative_grid_blocks((TD, TD)))
    except Exception as exc:  # noqa: BLE001 — any build failure means: use the other path
        global ONE_LAUNCH_ERROR
        ONE_LAUNCH_ERROR = f"{exc.__class__.__name__}: {str(exc)[:200]}"
        return None


ONE_LAUNCH_ERROR = None  # why the one-launch path could not be built, if it could not


def _solve_on_device(W, D, V, nb: int) -> float:
    """Pad W into D, fill V, and run every k-block: the seconds the device spends on it."""
    k = _kernels()
    size = nb * B
    padding = k.pad[(ceil_div(size, 16), ceil_div(size, 16)), (16, 16)]
    one = _one_launch() if ONE_LAUNCH_MAX < 0 or size <= ONE_LAUNCH_MAX else None
    if one is not None:
        kernel, most = one
        blocks = max(1, min(most, max((nb - 1) ** 2, 2 * (nb - 1))))

        def all_in_one():
            padding(W, D, V)
            kernel[blocks, (TD, TD)](D, V, 0, nb)

        return timed_on_device(all_in_one)

    def rounds():
        padding(W, D, V)
        p1, p2, p3 = k.phase1[1, (TD, TD)], k.phase2[2 * (nb - 1), (TD, TD)], \
            k.phase3[(nb - 1, nb - 1), (T3X, T3Y)]
        for kb in range(nb):
            p1(D, V, kb, nb)
            if nb > 1:
                p2(D, V, kb, nb)
                p3(D, V, kb, nb)

    return timed_on_device(rounds)


# Padded sizes up to this copy through page-locked host buffers kept between calls: for small
# graphs the copies, not the kernel, are most of the time.
PINNED_MAX = 4096
_LOCK = threading.Lock()  # one solve at a time uses the kept buffers
_BUFFERS: dict = {}       # the last size's device (and page-locked host) buffers


def _buffers(n: int, size: int) -> dict:
    """Device buffers W (input), D (distances), V (via) for this size. Up to PINNED_MAX they
    are kept for the next call (the app solves the same airport again and again; only the last
    size is kept); larger ones are allocated per call and freed with the answer."""
    if size > PINNED_MAX:
        _BUFFERS.clear()
        return dict(W=cuda.device_array((n, n), np.int32), D=cuda.device_array((size, size), np.int32),
                    V=cuda.device_array((size, size), np.int32))
    if _BUFFERS.get("key") != (n, size):
        _BUFFERS.clear()
        _BUFFERS.update(key=(n, size), W=cuda.device_array((n, n), np.int32),
                        D=cuda.device_array((size, size), np.int32),
                        V=cuda.device_array((size, size), np.int32))
        if not SIMULATED:
            _BUFFERS.update(w=cuda.pinned_array((n, n), np.int32),
                            d=cuda.pinned_array((size, size), np.int32),
                            v=cuda.pinned_array((size, size), np.int32))
    return _BUFFERS


def run(w):
    n = w.shape[0]
    if n == 0:
        return empty_result(w, "via")
    nb = ceil_div(n, B)
    with _LOCK:
        buf = _buffers(n, nb * B)
        if "w" in buf:
            buf["w"][...] = w
            buf["W"].copy_to_device(buf["w"])
        else:
            buf["W"].copy_to_device(np.ascontiguousarray(w, dtype=np.int32))
        seconds = _solve_on_device(buf["W"], buf["D"], buf["V"], nb)
        if "d" in buf:
            buf["D"].copy_to_host(buf["d"])
            buf["V"].copy_to_host(buf["v"])
            dist, via = buf["d"][:n, :n].copy(), buf["v"][:n, :n].copy()
        else:  # views, not copies: at n = 25,000 each copy of the answer costs a second
            dist, via = buf["D"].copy_to_host()[:n, :n], buf["V"].copy_to_host()[:n, :n]
    return dist, RouteMatrix("via", via), seconds
